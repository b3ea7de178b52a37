/**
 * The runs of a model and their vintages, for point-in-time backtests:
 * - runs: every run of a model created in a window (created_at, the hours it covers);
 * - vintages: for one target and the valid hours of `valid_time` (one hour, or a whole local
 *   day for a bare date), the value every run that covers them gave: a Frame whose rows are the
 *   runs (time_utc = created_at) and whose columns are the valid hours, labelled
 *   [id, valid time]. A run has no value (null) for a valid hour before its creation or beyond
 *   its horizon. Row r, column c is exactly `/forecast?forecasted_by=<created_at of r>` at c.
 */
import { FORECAST_MODELS, latestRunAtOrBefore, type ForecastModel, type ForecastModelName } from '../models/forecastModels.ts';
import { formatUtcHour, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import { addDays, localDayStartHour } from '../time/zones.ts';
import type { StitchedRows } from './continuous.ts';
import { queryValueError } from './errors.ts';
import type { Frame } from './frame.ts';
import { FORECAST_HISTORY_START, type SeriesGroup } from './kinds.ts';
import { UNIT_DECIMALS } from '../catalog/metrics.ts';
import { endHourOf, resolveWindow, startHourOf, type RequestInstant } from './window.ts';
import type { WeatherWorld } from '../world/weather/world.ts';

/** The first run served: forecast history begins with the runs of the day before 2026-01-01. */
export function firstRunHour(model: ForecastModel, timezone: string): number {
  const first = localDayStartHour(timezone, addDays(FORECAST_HISTORY_START, -1));
  const run = latestRunAtOrBefore(model, first);
  return run < first ? run + model.cadenceHours : run;
}

/** The model's runs created in [fromHour, toHour], oldest first. */
function runsBetween(model: ForecastModel, fromHour: number, toHour: number): number[] {
  const runs: number[] = [];
  for (let h = latestRunAtOrBefore(model, toHour); h >= fromHour; h -= model.cadenceHours) runs.push(h);
  return runs.reverse();
}

export interface RunRecord {
  model: string;
  created_at: string;
  /** First and last valid hour of the run (period-beginning, UTC). */
  first_valid_time: string;
  last_valid_time: string;
  horizon_hours: number;
}

export interface RunsParams {
  model: ForecastModelName;
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

/** The runs created in the window (default: from local midnight of end's day to end, now by default), never after now nor before history. */
export function listRuns(timezone: string, p: RunsParams): RunRecord[] {
  const model = FORECAST_MODELS[p.model];
  const latest = latestRunAtOrBefore(model, Math.floor(p.nowMs / HOUR_MS));
  const window = resolveWindow(p.start, p.end, timezone, { lastHour: latest, days: 1 });
  const from = Math.max(window.startHour, firstRunHour(model, timezone));
  return runsBetween(model, from, Math.min(window.endHour, latest)).map((created) => ({
    model: model.name,
    created_at: formatUtcInstant(created * HOUR_MS),
    first_valid_time: formatUtcHour(created),
    last_valid_time: formatUtcHour(created + model.horizonHours - 1),
    horizon_hours: model.horizonHours,
  }));
}

export interface VintagesParams {
  model: ForecastModelName;
  validTime: RequestInstant;
  nowMs: number;
}

export function vintagesFrame<T>(group: SeriesGroup<T>, p: VintagesParams): Frame {
  const model = FORECAST_MODELS[p.model];
  const tz = group.timezone;
  const firstValid = p.validTime.dateOnly ? startHourOf(p.validTime, tz) : endHourOf(p.validTime, tz);
  const lastValid = endHourOf(p.validTime, tz);
  const latest = latestRunAtOrBefore(model, Math.floor(p.nowMs / HOUR_MS));
  const runs = runsBetween(model, Math.max(firstValid - model.horizonHours + 1, firstRunHour(model, tz)), Math.min(lastValid, latest));
  if (runs.length === 0) {
    throw queryValueError(
      'valid_time',
      p.validTime.raw,
      'no run covers valid_time: runs exist from those of 2025-12-31 up to now, and a run covers the hours from its creation to its horizon',
    );
  }
  const valid = Array.from({ length: lastValid - firstValid + 1 }, (_, i) => firstValid + i);
  // Only the (run, hour) pairs a run covers are computed; the others stay null.
  const rows: StitchedRows = { valid: [], created: [] };
  const at: number[][] = valid.map(() => new Array<number>(runs.length).fill(-1));
  valid.forEach((v, c) =>
    runs.forEach((created, r) => {
      if (v < created || v - created >= model.horizonHours) return;
      at[c][r] = rows.valid.length;
      rows.valid.push(v);
      rows.created.push(created);
    }),
  );
  const source = group.source(rows, model);
  // Every column of a target reads the same computed values.
  const computed = new Map<T, Float64Array>();
  const valuesOf = (target: T) => computed.get(target) ?? computed.set(target, source(target)).get(target)!;
  return {
    model: model.name,
    createdAtHour: null,
    units: group.units,
    timezone: tz,
    hours: runs,
    decimals: UNIT_DECIMALS[group.units],
    columns: group.targets.flatMap((target) =>
      valid.map((v, c) => ({
        label: [...group.label(target), formatUtcHour(v)],
        fill: (out: Float64Array) => {
          const values = valuesOf(target);
          for (let r = 0; r < runs.length; r++) out[r] = at[c][r] < 0 ? Number.NaN : values[at[c][r]];
        },
      })),
    ),
  };
}

/** The runs and vintages requests of a target group, given how to make its series group from a request. */
export function vintageQueriesFor<R, T>(groupOf: (world: WeatherWorld, request: R) => SeriesGroup<T>) {
  return {
    runs: (world: WeatherWorld, r: R & RunsParams) => listRuns(groupOf(world, r).timezone, r),
    vintages: (world: WeatherWorld, r: R & VintagesParams) => vintagesFrame(groupOf(world, r), r),
  };
}

export type VintageQueries<R> = ReturnType<typeof vintageQueriesFor<R, unknown>>;
