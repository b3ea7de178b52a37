/**
 * Natural gas trading hubs (docs/realism-targets.md §4): the benchmark Henry Hub and the hubs whose
 * prices set power prices in the seven ISOs. Coordinates are approximate hub centroids (the
 * HIFLD "Natural Gas Trading Hubs" layer has one point per hub). Prices are for gas days,
 * labelled with the gas day's calendar date at midnight Central time (the NAESB gas day runs
 * 9 am–9 am Central), so every hub's series is in `America/Chicago`.
 */
import type { IsoCode } from './isos.ts';

export const GAS_TIMEZONE = 'America/Chicago';

export interface GasHub {
  /** Stable slug, e.g. `henry_hub`, `algonquin_citygates`. */
  id: string;
  name: string;
  lat: number;
  lon: number;
  /** The ISO whose population-weighted temperature drives the hub's local demand (cold-weather basis). */
  weatherIso: IsoCode;
}

export const GAS_HUBS: readonly GasHub[] = Object.freeze(
  [
    { id: 'henry_hub', name: 'Henry Hub', lat: 29.96, lon: -92.04, weatherIso: 'miso' },
    { id: 'waha', name: 'Waha', lat: 31.2, lon: -103.1, weatherIso: 'ercot' },
    { id: 'houston_ship_channel', name: 'Houston Ship Channel', lat: 29.73, lon: -95.1, weatherIso: 'ercot' },
    { id: 'katy', name: 'Katy', lat: 29.79, lon: -95.82, weatherIso: 'ercot' },
    { id: 'carthage', name: 'Carthage', lat: 32.16, lon: -94.34, weatherIso: 'ercot' },
    { id: 'panhandle_eastern', name: 'Panhandle Eastern (PEPL)', lat: 36.5, lon: -100.0, weatherIso: 'spp' },
    { id: 'chicago_citygate', name: 'Chicago Citygate', lat: 41.85, lon: -87.65, weatherIso: 'miso' },
    { id: 'michcon', name: 'MichCon Citygate', lat: 42.3, lon: -83.0, weatherIso: 'miso' },
    { id: 'ventura', name: 'Northern Natural Ventura', lat: 43.1, lon: -93.6, weatherIso: 'miso' },
    { id: 'dominion_south', name: 'Eastern Gas South (Dominion South)', lat: 40.2, lon: -80.1, weatherIso: 'pjm' },
    { id: 'texas_eastern_m3', name: 'Texas Eastern M-3', lat: 40.1, lon: -75.5, weatherIso: 'pjm' },
    { id: 'transco_z6_ny', name: 'Transco Zone 6 NY', lat: 40.7, lon: -74.0, weatherIso: 'nyiso' },
    { id: 'algonquin_citygates', name: 'Algonquin Citygates', lat: 42.2, lon: -71.3, weatherIso: 'isone' },
    { id: 'socal_citygate', name: 'SoCal Citygate', lat: 34.05, lon: -118.25, weatherIso: 'caiso' },
    { id: 'socal_border', name: 'SoCal Border', lat: 34.7, lon: -114.5, weatherIso: 'caiso' },
    { id: 'pge_citygate', name: 'PG&E Citygate', lat: 37.9, lon: -121.9, weatherIso: 'caiso' },
    { id: 'malin', name: 'Malin', lat: 42.0, lon: -121.4, weatherIso: 'caiso' },
    { id: 'opal', name: 'Opal', lat: 41.8, lon: -110.3, weatherIso: 'caiso' },
  ].map((h) => Object.freeze(h as GasHub)),
);

export function gasHubById(id: string): GasHub | undefined {
  return GAS_HUBS.find((h) => h.id === id);
}
