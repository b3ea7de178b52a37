/** Queries over the plant catalog: the plant list and continuous plant forecasts. */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { plantById, plantsOf } from '../catalog/plants.ts';
import type { Plant } from '../catalog/types.ts';
import { FORECAST_MODELS, type ForecastModelName } from '../models/forecastModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import { PLANT_METRIC_TYPE, PLANT_METRIC_UNITS, type PlantMetric } from '../world/plantOutput.ts';
import type { WeatherWorld } from '../world/weather.ts';
import { queryValueError } from './errors.ts';
import { lastStitchableDay, stitchRows, type StitchOptions } from './continuous.ts';
import { PlantColumns } from './plantColumns.ts';
import { DECIMALS_BY_UNIT, type Frame } from './frame.ts';
import { resolveWindow, type RequestInstant } from './window.ts';
import { addDays, formatDate, localDateOfHour, localDayStartHour, parseDate, type CivilDate } from '../time/zones.ts';
import { runAsOf, singleRunRows } from './runs.ts';

/** Forecast history begins with this local day in every ISO. */
export const FORECAST_HISTORY_START: CivilDate = { year: 2026, month: 1, day: 1 };
/** Length of the default window of continuous series, in local days. */
export const DEFAULT_CONTINUOUS_DAYS = 7;

/** The public plant record (reference isoview-api.md §2) plus its physical parameters. */
export function plantRecord(plant: Plant, nowMs: number): Record<string, unknown> {
  const started = localDayStartHour(ISOS[plant.iso].timezone, parseDate(plant.operations_begin_date)) * HOUR_MS <= nowMs;
  const { id, name, plant_type, capacity_mw, iso, state, latitude, longitude, operations_begin_date, county_fips, ...physics } = plant;
  return {
    id,
    name,
    plant_type,
    capacity_mw,
    iso,
    state,
    latitude,
    longitude,
    operations_begin_date,
    status: started ? 'operating' : 'planned',
    summary: null,
    county_fips,
    ...physics,
  };
}

/** Plants listed for a metric: those operating now (the public service lists active plants). */
export function listPlants(iso: IsoCode, metric: PlantMetric, nowMs: number): Record<string, unknown>[] {
  return plantsOf(iso, PLANT_METRIC_TYPE[metric])
    .map((p) => plantRecord(p, nowMs))
    .filter((r) => r.status === 'operating');
}

/** The plants a request names: one by `id`, or all of the ISO's plants of the metric's type. */
export function selectPlants(iso: IsoCode, metric: PlantMetric, id: string | undefined): readonly Plant[] {
  const type = PLANT_METRIC_TYPE[metric];
  if (id === undefined) return plantsOf(iso, type);
  const plant = /^\d+$/.test(id.trim()) ? plantById(id.trim()) : undefined;
  if (!plant || plant.iso !== iso || plant.plant_type !== type) {
    throw queryValueError('id', id, `unknown ${type} plant id '${id}' in ${iso}; GET /v1/plant/${iso}/${metric}/list lists them`);
  }
  return [plant];
}

export interface PlantForecastRequest {
  iso: IsoCode;
  metric: PlantMetric;
  id?: string;
  model: ForecastModelName;
  forecastedBy?: RequestInstant;
  nowMs: number;
}

/** One run of the model: the latest created at or before `forecasted_by` (default now). */
export function plantForecast(world: WeatherWorld, r: PlantForecastRequest): Frame {
  const plants = selectPlants(r.iso, r.metric, r.id);
  const timezone = ISOS[r.iso].timezone;
  const model = FORECAST_MODELS[r.model];
  const created = runAsOf(model, r.forecastedBy?.epochMs, r.nowMs);
  if (created < localDayStartHour(timezone, addDays(FORECAST_HISTORY_START, -1))) {
    throw queryValueError(
      'forecasted_by',
      r.forecastedBy?.raw ?? null,
      'no forecast run at or before forecasted_by: forecast history begins with the runs of 2025-12-31 (for 2026-01-01)',
    );
  }
  const rows = singleRunRows(model, created);
  const columns = new PlantColumns(world, r.metric, model, rows);
  const units = PLANT_METRIC_UNITS[r.metric];
  return {
    model: r.model,
    createdAtHour: created,
    units,
    timezone,
    hours: rows.valid,
    decimals: DECIMALS_BY_UNIT[units],
    columns: plants.map((plant) => ({ label: [String(plant.id)], fill: (out: Float64Array) => out.set(columns.values(plant)) })),
  };
}

/** Backcasts reach back to the start of the actuals: the current model run over history. */
export const BACKCAST_HISTORY_START: CivilDate = { year: 2023, month: 1, day: 1 };

export interface PlantBackcastRequest {
  iso: IsoCode;
  metric: PlantMetric;
  id?: string;
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

/**
 * The day-ahead backcast: the current optimized model's day-ahead forecasts over history
 * (days_ahead 1, latest_hour 10), for evaluating the model against actuals.
 */
export function plantBackcast(world: WeatherWorld, r: PlantBackcastRequest): Frame {
  return plantContinuous(
    world,
    { ...r, model: 'optimized', latestHour: 10, daysAhead: 1 },
    BACKCAST_HISTORY_START,
    'day-ahead backcasts',
  );
}

export interface PlantContinuousRequest {
  iso: IsoCode;
  metric: PlantMetric;
  id?: string;
  model: ForecastModelName;
  latestHour: number;
  daysAhead: number;
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

export function plantContinuous(
  world: WeatherWorld,
  r: PlantContinuousRequest,
  historyStart: CivilDate = FORECAST_HISTORY_START,
  kind = 'continuous forecasts',
): Frame {
  const plants = selectPlants(r.iso, r.metric, r.id);
  const timezone = ISOS[r.iso].timezone;
  const model = FORECAST_MODELS[r.model];
  const stitch: StitchOptions = { timezone, model, latestHour: r.latestHour, daysAhead: r.daysAhead };
  const lastHour = localDayStartHour(timezone, addDays(lastStitchableDay(stitch, r.nowMs), 1)) - 1;
  const window = resolveWindow(r.start, r.end, timezone, { lastHour, days: DEFAULT_CONTINUOUS_DAYS });
  const firstHour = localDayStartHour(timezone, historyStart);
  const rows = stitchRows(stitch, window, firstHour, r.nowMs);
  if (rows.valid.length === 0) {
    // Point at the parameter that put the window where there is no data, if one was sent.
    const tooEarly = window.endHour < firstHour;
    const param = tooEarly ? (r.end ? 'end' : 'start') : r.start ? 'start' : 'end';
    throw queryValueError(
      param,
      (param === 'end' ? r.end?.raw : r.start?.raw) ?? null,
      `no forecast data in the requested window: ${kind} exist for local days from ${formatDate(historyStart)} ` +
        `through the last day whose run (days_ahead=${r.daysAhead}, latest_hour=${r.latestHour}) has been issued`,
    );
  }
  // Values are computed (and cached) for whole local days; the response is cut to the window.
  const fullDays = stitchRows(stitch, { startHour: localDayStartHour(timezone, localDateOfHour(timezone, rows.valid[0])), endHour: rows.valid[rows.valid.length - 1] + 24 }, firstHour, r.nowMs);
  const offset = fullDays.valid.indexOf(rows.valid[0]);
  const columns = new PlantColumns(world, r.metric, model, fullDays);
  const units = PLANT_METRIC_UNITS[r.metric];
  return {
    model: r.model,
    createdAtHour: null,
    units,
    timezone,
    hours: rows.valid,
    decimals: DECIMALS_BY_UNIT[units],
    columns: plants.map((plant) => ({
      label: [String(plant.id)],
      fill(out: Float64Array) {
        out.set(columns.values(plant).subarray(offset, offset + out.length));
      },
    })),
  };
}
