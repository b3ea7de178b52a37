import type { IsoCode } from './isos.ts';

export type PlantType = 'wind' | 'solar';

/** Fields every plant shares; the first block is what the public plant record carries. */
interface PlantCommon {
  /** Integer id in the style of EIA plant codes; stable across releases of the registry. */
  id: number;
  name: string;
  capacity_mw: number;
  iso: IsoCode;
  /** Two-letter postal code of the state the plant stands in. */
  state: string;
  latitude: number;
  longitude: number;
  /** YYYY-MM-DD: the plant produces nothing before this local date. */
  operations_begin_date: string;
  /** 5-digit FIPS code of the county the plant stands in. */
  county_fips: string;
}

export interface WindPlant extends PlantCommon {
  plant_type: 'wind';
  /** Hub height in metres (about 80 m for 2000s builds, about 100 m for recent ones). */
  hub_height_m: number;
  /** IEC 61400 wind class: I = high-wind sites and rated near 13-14 m/s, III = low-wind and rated near 10.5-11 m/s. */
  turbine_class: 'I' | 'II' | 'III';
  /** Wind speed (m/s at hub height, standard air density) at which the turbine reaches rated power. */
  rated_speed_ms: number;
}

export interface SolarPlant extends PlantCommon {
  plant_type: 'solar';
  /** fixed-tilt racks facing the equator, or north-south single-axis trackers with backtracking. */
  mounting: 'fixed' | 'single_axis';
  /** Panel tilt in degrees for fixed racks; 0 (the axis is horizontal) for trackers. */
  tilt_deg: number;
  /** Azimuth panels face, degrees clockwise from north (180 = south); for trackers the axis azimuth (180). */
  azimuth_deg: number;
  /** Maximum tracker rotation in degrees (trackers only; 0 for fixed). */
  max_angle_deg: number;
  /** Ground coverage ratio of the rows (drives backtracking and snow shedding). */
  gcr: number;
  /** DC nameplate over AC (inverter) capacity; above 1 the inverter clips on bright hours. */
  dc_ac_ratio: number;
  /** Power temperature coefficient of the modules, per °C (e.g. -0.0037). */
  temp_coeff_per_c: number;
}

export type Plant = WindPlant | SolarPlant;
