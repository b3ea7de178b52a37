/** Queries over the plant catalog: the plant list and continuous plant forecasts. */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { plantById, plantsOf } from '../catalog/plants.ts';
import type { Plant } from '../catalog/types.ts';
import { FORECAST_MODELS, type ForecastModelName } from '../models/forecastModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import { localDayStartHour, parseDate } from '../time/zones.ts';
import { PLANT_METRIC_TYPE, PLANT_METRIC_UNITS, PlantSeriesComputer, weatherNeedsFor, type PlantMetric } from '../world/plantOutput.ts';
import { WeatherBatch, type WeatherWorld } from '../world/weather.ts';
import { queryValueError } from './errors.ts';
import { lastStitchableDay, stitchRows, type StitchedRows, type StitchOptions } from './continuous.ts';
import { blockCache } from './blockCache.ts';
import { DECIMALS_BY_UNIT, type Frame } from './frame.ts';
import { resolveWindow, type RequestInstant } from './window.ts';
import { addDays, localDateOfHour, type CivilDate } from '../time/zones.ts';

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

export function plantContinuous(world: WeatherWorld, r: PlantContinuousRequest): Frame {
  const plants = selectPlants(r.iso, r.metric, r.id);
  const timezone = ISOS[r.iso].timezone;
  const model = FORECAST_MODELS[r.model];
  const stitch: StitchOptions = { timezone, model, latestHour: r.latestHour, daysAhead: r.daysAhead };
  const lastHour = localDayStartHour(timezone, addDays(lastStitchableDay(stitch, r.nowMs), 1)) - 1;
  const window = resolveWindow(r.start, r.end, timezone, { lastHour, days: DEFAULT_CONTINUOUS_DAYS });
  const firstHour = localDayStartHour(timezone, FORECAST_HISTORY_START);
  const rows = stitchRows(stitch, window, firstHour, r.nowMs);
  if (rows.valid.length === 0) {
    // Point at the parameter that put the window where there is no data, if one was sent.
    const tooEarly = window.endHour < firstHour;
    const param = tooEarly ? (r.end ? 'end' : 'start') : r.start ? 'start' : 'end';
    throw queryValueError(
      param,
      (param === 'end' ? r.end?.raw : r.start?.raw) ?? null,
      `no forecast data in the requested window: continuous forecasts exist for local days from 2026-01-01 ` +
        `through the last day whose run (days_ahead=${r.daysAhead}, latest_hour=${r.latestHour}) has been issued`,
    );
  }
  // Values are computed (and cached) for whole local days; the response is cut to the window.
  const fullDays = stitchRows(stitch, { startHour: localDayStartHour(timezone, localDateOfHour(timezone, rows.valid[0])), endHour: rows.valid[rows.valid.length - 1] + 24 }, firstHour, r.nowMs);
  const offset = fullDays.valid.indexOf(rows.valid[0]);
  const blocks = dayBlocks(fullDays);
  let computer: PlantSeriesComputer | null = null;
  const computerFor = () =>
    (computer ??= new PlantSeriesComputer(new WeatherBatch(world, fullDays, model.skill, weatherNeedsFor(r.metric)), r.metric, fullDays.valid));
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
        const full = cachedColumn(`plant:${plant.id}:${r.metric}:${r.model}`, blocks, fullDays.valid.length, (values) => {
          const begins = localDayStartHour(timezone, parseDate(plant.operations_begin_date));
          computerFor().compute(plant, begins, values);
          // Hours beyond a run's horizon have no forecast (the ISO model reaches 8 days).
          for (let i = 0; i < values.length; i++) {
            if (fullDays.valid[i] - fullDays.created[i] >= model.horizonHours) values[i] = Number.NaN;
          }
        });
        out.set(full.subarray(offset, offset + out.length));
      },
    })),
  };
}

/** A run of rows that one run serves on one local day: [from, to) row indices. */
interface DayBlock {
  from: number;
  to: number;
  key: string;
}

/** Splits stitched whole-day rows into their day blocks (a block changes with the run). */
function dayBlocks(rows: StitchedRows): DayBlock[] {
  const blocks: DayBlock[] = [];
  let from = 0;
  for (let i = 1; i <= rows.valid.length; i++) {
    if (i === rows.valid.length || rows.created[i] !== rows.created[from] || rows.valid[i] - rows.valid[from] >= 25) {
      blocks.push({ from, to: i, key: `${rows.created[from]}:${rows.valid[from]}:${i - from}` });
      from = i;
    }
  }
  return blocks;
}

/**
 * The column over all rows, from cached day blocks when every block is cached, else
 * computed by `compute` (over all rows) and cached block by block.
 */
function cachedColumn(prefix: string, blocks: DayBlock[], n: number, compute: (values: Float64Array) => void): Float64Array {
  const values = new Float64Array(n);
  let complete = blockCache.enabled;
  for (const b of complete ? blocks : []) {
    const hit = blockCache.get(`${prefix}:${b.key}`);
    if (!hit) {
      complete = false;
      break;
    }
    values.set(hit, b.from);
  }
  if (complete) return values;
  compute(values);
  if (blockCache.enabled) for (const b of blocks) blockCache.set(`${prefix}:${b.key}`, values.slice(b.from, b.to));
  return values;
}
