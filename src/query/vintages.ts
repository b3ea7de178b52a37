/**
 * The runs of a model and their vintages, for point-in-time backtests:
 * - runs: every run of a model created in a window (created_at, the hours it covers);
 * - vintages: for one target and the valid hours of `valid_time` (one hour, or a whole local
 *   day for a bare date), the value every run that covers them gave: a Frame whose rows are the
 *   runs (time_utc = created_at) and whose columns are the valid hours, labelled
 *   [id, valid time]. A run has no value (null) for a valid hour before its creation or beyond
 *   its horizon. Row r, column c is exactly `/forecast?forecasted_by=<created_at of r>` at c.
 */
import type { ForecastModelName } from '../models/forecastModels.ts';
import { covers } from '../sources/schedule.ts';
import { formatUtcHour, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import type { StitchedRows } from './continuous.ts';
import { queryValueError } from './errors.ts';
import type { Frame } from './frame.ts';
import { modelForecasts, type Forecasts, type SeriesGroup } from './kinds.ts';
import { UNIT_DECIMALS } from '../catalog/metrics.ts';
import { endHourOf, resolveWindow, startHourOf, type RequestInstant } from './window.ts';
import type { WeatherWorld } from '../world/weather/world.ts';

export interface RunRecord {
  model: string;
  created_at: string;
  /** First and last valid hour of the run (period-beginning, UTC). */
  first_valid_time: string;
  last_valid_time: string;
  horizon_hours: number;
  /** How often a stored run was replaced by a later ingest (stored sources only). */
  revisions?: number;
}

export interface RunsParams {
  model: ForecastModelName;
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

/**
 * The runs created in the window (default: from local midnight of end's day to end, now by default), never after now nor
 * before history. A datetime bound is compared as the instant it is (a run may be issued within an hour).
 */
export function listRuns<T>(timezone: string, p: RunsParams, forecasts: Forecasts<T>): RunRecord[] {
  const runs = forecasts.runs;
  const nowHours = p.nowMs / HOUR_MS;
  const latest = runs.latestAtOrBefore(nowHours);
  const window = resolveWindow(p.start, p.end, timezone, {
    lastHour: Number.isNaN(latest) ? Math.floor(nowHours) : Math.floor(latest),
    days: 1,
  });
  const from = p.start && !p.start.dateOnly ? p.start.epochMs / HOUR_MS : window.startHour;
  const to = p.end && !p.end.dateOnly ? p.end.epochMs / HOUR_MS : p.end ? window.endHour + 1 - 1e-9 : nowHours;
  return runs.between(Math.max(from, forecasts.firstRunHour), Math.min(to, nowHours)).map((created) => {
    const { first, end } = runs.span(created);
    const record: RunRecord = {
      model: forecasts.name,
      created_at: formatUtcInstant(created * HOUR_MS),
      first_valid_time: formatUtcHour(first),
      last_valid_time: formatUtcHour(end - 1),
      horizon_hours: end - first,
    };
    if (forecasts.revisions) record.revisions = forecasts.revisions(created);
    return record;
  });
}

export interface VintagesParams {
  model: ForecastModelName;
  validTime: RequestInstant;
  nowMs: number;
}

export function vintagesFrame<T>(
  group: SeriesGroup<T>,
  p: VintagesParams,
  forecasts: Forecasts<T> = modelForecasts(group, p.model),
): Frame {
  const tz = group.timezone;
  const firstValid = p.validTime.dateOnly ? startHourOf(p.validTime, tz) : endHourOf(p.validTime, tz);
  const lastValid = endHourOf(p.validTime, tz);
  const runs = forecasts.runs.covering(firstValid, lastValid, forecasts.firstRunHour, Math.min(lastValid + 1 - 1e-9, p.nowMs / HOUR_MS));
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
      if (!covers(forecasts.runs, created, v)) return;
      at[c][r] = rows.valid.length;
      rows.valid.push(v);
      rows.created.push(created);
    }),
  );
  forecasts.prepare?.(rows);
  const source = forecasts.values(rows);
  // Every column of a target reads the same computed values.
  const computed = new Map<T, Float64Array>();
  const valuesOf = (target: T) => computed.get(target) ?? computed.set(target, source(target)).get(target)!;
  return {
    model: forecasts.name,
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
    runs: (world: WeatherWorld, r: R & RunsParams) => {
      const group = groupOf(world, r);
      return listRuns(group.timezone, r, modelForecasts(group, r.model));
    },
    vintages: (world: WeatherWorld, r: R & VintagesParams) => vintagesFrame(groupOf(world, r), r),
  };
}

export type VintageQueries<R> = ReturnType<typeof vintageQueriesFor<R, unknown>>;
