/** Parameter declarations shared by several routes, worded as the public docs word them. */
import { ISO_CODES } from '../../catalog/isos.ts';
import { CONTINUOUS_MODEL_NAMES, FORECAST_MODEL_NAMES } from '../../models/forecastModels.ts';
import type { RequestInstant } from '../../query/window.ts';
import type { ParamSpec, ParamValue, ParsedDateTime } from '../params.ts';

export const ISO_PARAM: ParamSpec = {
  name: 'iso',
  in: 'path',
  kind: 'enum',
  values: ISO_CODES,
  required: true,
  description: 'ISO identifier.',
};

export const START_PARAM: ParamSpec = {
  name: 'start',
  in: 'query',
  kind: 'datetime',
  description:
    'Start of the window (inclusive). A bare date is a local day of the ISO; a datetime without an offset is read as UTC. Default: see end.',
};

export const END_PARAM: ParamSpec = {
  name: 'end',
  in: 'query',
  kind: 'datetime',
  description:
    'End of the window (inclusive; a bare date includes that whole local day). At most 365 days after start. Default: the last hour with data; with neither start nor end the window is the last 7 local days.',
};

export const FORECASTED_BY_PARAM: ParamSpec = {
  name: 'forecasted_by',
  in: 'query',
  kind: 'datetime',
  description:
    'Only runs created at or before this instant are considered: the answer is the forecast as it stood then ' +
    '(a datetime without an offset is UTC). Default: now.',
};

export const MODEL_PARAM: ParamSpec = {
  name: 'model',
  in: 'query',
  kind: 'enum',
  values: CONTINUOUS_MODEL_NAMES,
  default: 'optimized',
  description: "Forecast model: optimized (hourly runs, 15 days ahead) or iso (the ISO's own forecast: four runs a day, 8 days ahead).",
};

/** `model` of the regional forecast: the continuous models plus the climatological `normal`. */
export const REGION_FORECAST_MODEL_PARAM: ParamSpec = {
  name: 'model',
  in: 'query',
  kind: 'enum',
  values: FORECAST_MODEL_NAMES,
  default: 'optimized',
  description:
    "Forecast model: optimized (hourly runs, 15 days ahead), iso (the ISO's own forecast: four runs a day, 8 days ahead) " +
    'or normal (climatology, the baseline for anomalies: one run a day at 00 UTC, 15 days ahead).',
};

export const ID_PARAM: ParamSpec = {
  name: 'id',
  in: 'query',
  kind: 'string',
  description: 'Unique identifier of the specific target. If omitted, returns all available targets for the specified ISO.',
};

export const LATEST_HOUR_PARAM: ParamSpec = {
  name: 'latest_hour',
  in: 'query',
  kind: 'int',
  ge: 0,
  le: 23,
  default: 10,
  description: 'Local hour of the ISO (0-23) whose model run is picked for each day.',
};

export const DAYS_AHEAD_PARAM: ParamSpec = {
  name: 'days_ahead',
  in: 'query',
  kind: 'int',
  ge: 1,
  le: 14,
  default: 1,
  description: 'Lead time in days: each day D takes the run of day D − days_ahead at latest_hour.',
};

/** A parsed start/end parameter in the form the query layer takes. */
export function requestInstant(value: ParamValue, raw: unknown): RequestInstant | undefined {
  if (value === undefined) return undefined;
  const dt = value as ParsedDateTime;
  const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : String(raw);
  return { epochMs: dt.epochMs, dateOnly: dt.dateOnly, raw: text };
}
