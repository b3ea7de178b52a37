/**
 * The weather's random fields: which anomaly groups exist (variable × scale), their spectral
 * specs, how they combine into each variable, and the point-local variability on top.
 */
import type { FieldSpec } from '../field.ts';

/** Standard deviation of the hub-height wind's point-local (turbulent) relative variability. */
export const LOCAL_WIND_REL_SD = 0.08;
/** Standard deviation of the point-local cloud logit (sub-grid cloud patches). */
export const LOCAL_CLOUD_LOGIT_SD = 0.7;
/** Gain of the (unit-variance) cloud anomaly in the cloud-cover logit. */
export const CLOUD_LOGIT_GAIN = 1.7;

export type GroupName =
  | 'temp.synoptic'
  | 'temp.meso'
  | 'windU.synoptic'
  | 'windU.meso'
  | 'windV.synoptic'
  | 'windV.meso'
  | 'cloud.synoptic'
  | 'cloud.meso'
  | 'precip.meso';

export const GROUP_SPECS: Record<GroupName, Omit<FieldSpec, 'name'>> = {
  'temp.synoptic': { components: 10, minWavelengthKm: 1500, maxWavelengthKm: 5000, driftKmPerHour: 30, lifetimeHours: 96 },
  'temp.meso': { components: 6, minWavelengthKm: 250, maxWavelengthKm: 900, driftKmPerHour: 35, lifetimeHours: 30 },
  'windU.synoptic': { components: 10, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windU.meso': { components: 6, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'windV.synoptic': { components: 10, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windV.meso': { components: 6, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'cloud.synoptic': { components: 10, minWavelengthKm: 800, maxWavelengthKm: 3000, driftKmPerHour: 30, lifetimeHours: 48 },
  'cloud.meso': { components: 8, minWavelengthKm: 80, maxWavelengthKm: 400, driftKmPerHour: 30, lifetimeHours: 8 },
  'precip.meso': { components: 6, minWavelengthKm: 60, maxWavelengthKm: 300, driftKmPerHour: 30, lifetimeHours: 6 },
};

/** True for the continent-wide, slowly varying groups (wavelengths of 800 km and more). */
export const isSynoptic = (name: GroupName): boolean => name.endsWith('.synoptic');

/**
 * Grid (degrees of latitude and longitude) on which points that share their synoptic weather
 * see it (WeatherNeeds.synopticCells): a point takes the synoptic anomalies at the centre of its
 * cell, at most ~0.5° (~55 km) in each direction away. The shortest synoptic wave is 800 km long:
 * 8 or more cells per wavelength, within the 0.25–2.5° grids of the global models and
 * reanalyses that carry such fields.
 */
export const SYNOPTIC_CELL_DEG = 1;

/** The centre of a point's synoptic cell (SYNOPTIC_CELL_DEG), degrees. */
export function synopticCellCentre(latDeg: number, lonDeg: number): { lat: number; lon: number } {
  return {
    lat: Math.round(latDeg / SYNOPTIC_CELL_DEG) * SYNOPTIC_CELL_DEG,
    lon: Math.round(lonDeg / SYNOPTIC_CELL_DEG) * SYNOPTIC_CELL_DEG,
  };
}

/** Weights of the synoptic and meso parts of each anomaly (squares sum to 1). */
export const TEMP_W = [0.93, 0.37] as const;
export const WIND_W = [0.85, 0.53] as const;
export const CLOUD_W = [0.75, 0.66] as const;

/** Hub-height wind: speed = mean · |(1, 0) + WIND_SPREAD·(u, v)| / RICE_MEAN. */
export const WIND_SPREAD = 0.6;
/** Point-local (turbulent, sub-grid) relative wind variability and its time scale. */
export const LOCAL_WIND_SD = LOCAL_WIND_REL_SD;
export const LOCAL_WIND_HOURS = 3;
export const LOCAL_CLOUD_SD = LOCAL_CLOUD_LOGIT_SD;
export const LOCAL_CLOUD_HOURS = 2;
/** Time scales of the forecast error fields in valid time and in run time. */
export const ERROR_VALID_TAU_HOURS = 18;
export const ERROR_RUN_TAU_HOURS = 36;

/** Mean of |(1,0) + s(a,b)| for independent standard normal a, b (computed once by quadrature). */
export const RICE_MEAN = (() => {
  const n = 48;
  let sum = 0;
  let wsum = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = -4 + (8 * (i + 0.5)) / n;
      const b = -4 + (8 * (j + 0.5)) / n;
      const w = Math.exp(-(a * a + b * b) / 2);
      sum += w * Math.hypot(1 + WIND_SPREAD * a, WIND_SPREAD * b);
      wsum += w;
    }
  }
  return sum / wsum;
})();
