/**
 * The request kinds every target group shares, written once: continuous (stitched day
 * by day), forecast (one run, with forecasted_by time travel) and actual (truth). A group
 * (plants, regions, …) supplies its targets and a source of their values over rows.
 */
import type { IsoCode } from '../catalog/isos.ts';
import { FORECAST_MODELS, beyondHorizon, type ForecastModel, type ForecastModelName } from '../models/forecastModels.ts';
import { modelSchedule, type RunSchedule } from '../sources/schedule.ts';
import { HOUR_MS } from '../time/hours.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { withPooledArenas } from '../world/dotKernel.ts';
import { addDays, formatDate, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import { lastStitchableDay, stitchRows, type StitchedRows, type StitchOptions } from './continuous.ts';
import { QueryError, queryValueError } from './errors.ts';
import { UNIT_DECIMALS, type Unit } from '../catalog/metrics.ts';
import { addAsWritten, valuesAt, withoutAbsent, type Frame } from './frame.ts';
import { actualRows, lastActualHour } from './runs.ts';
import { resolveWindow, type RequestInstant } from './window.ts';

/** Forecast history begins with this local day in every ISO. */
export const FORECAST_HISTORY_START: CivilDate = { year: 2026, month: 1, day: 1 };
/** Actuals and backcasts reach back to this local day. */
export const ACTUAL_HISTORY_START: CivilDate = { year: 2023, month: 1, day: 1 };
/** Length of the default window of continuous and actual series, in local days. */
export const DEFAULT_WINDOW_DAYS = 7;

export interface SeriesGroup<T> {
  timezone: string;
  units: Unit;
  targets: readonly T[];
  label(target: T): string[];
  /** Values of each target over `rows`; `model` null means truth. */
  source(rows: StitchedRows, model: ForecastModel | null): (target: T) => Float64Array;
  /**
   * True when `model`'s value at a valid hour is the same in every run that reaches the hour
   * (only the horizon depends on the run): continuousFrames then computes each valid hour once
   * for all the leads instead of once per run.
   */
  sameInEveryRun?(model: ForecastModel): boolean;
}

/**
 * The forecasts a request is served from — a synthetic model or a stored source (src/sources) —
 * as the request kinds see them: runs and their values, nothing about where they come from.
 */
export interface Forecasts<T> {
  /** The `model` of the response. */
  name: string;
  runs: RunSchedule;
  /** Values of each target over `rows` (each row's run is `rows.created`; NaN where a run has no value). */
  values(rows: StitchedRows): (target: T) => Float64Array;
  /**
   * Told every row a request will read before any is read: a stored source loads those runs then
   * (the caller awaits its load), so `values` over any of those rows, later and in slices, is synchronous.
   */
  prepare?(rows: StitchedRows): void;
  /** First local day of continuous series. */
  historyStart: CivilDate;
  /** Runs issued before this epoch hour are not served. */
  firstRunHour: number;
  /** The last valid hour any run holds (a stored source's data ends there; a model's never does). */
  lastValidHour?: number;
  /** Why a `forecasted_by` has no run (where the runs begin). */
  noRunMessage: string;
  /** How often a stored run was replaced (none for a model's). */
  revisions?(created: number): number;
}

/** A synthetic model's forecasts of a group. */
export function modelForecasts<T>(group: SeriesGroup<T>, name: ForecastModelName): Forecasts<T> {
  const model = FORECAST_MODELS[name];
  return {
    name,
    runs: modelSchedule(model),
    values: (rows) => group.source(rows, model),
    historyStart: FORECAST_HISTORY_START,
    firstRunHour: localDayStartHour(group.timezone, addDays(FORECAST_HISTORY_START, -1)),
    noRunMessage: 'no forecast run at or before forecasted_by: forecast history begins with the runs of 2025-12-31 (for 2026-01-01)',
  };
}

/** Every valid hour of the run issued at `created`. */
export function runRows(runs: RunSchedule, created: number): StitchedRows {
  const { first, end } = runs.span(created);
  const rows: StitchedRows = { valid: [], created: [] };
  for (let h = first; h < end; h++) {
    rows.valid.push(h);
    rows.created.push(created);
  }
  return rows;
}

/**
 * The frame of `group` over rows [first, first + count) of `rows`, whose values come from the
 * group's source over `rows` (computed on first use). A slice of it computes only the whole
 * local days around the rows it keeps (values are cached by local day), so a writer can walk a
 * large frame a block of rows at a time. A stored source's values over any rows come from the
 * runs it loaded for the whole frame (`prepare`), so its frames slice the same way.
 */
function frameOf<T>(
  group: SeriesGroup<T>,
  model: string | null,
  createdAtHour: number | null,
  rows: StitchedRows,
  source: (rows: StitchedRows) => (target: T) => Float64Array,
  first = 0,
  count = rows.valid.length - first,
  /** The sum of the targets as written over `rows` (Frame.sumAsWritten), where the caller makes it without each target's values. */
  sums?: (rows: StitchedRows) => Float64Array,
): Frame {
  let values: ((t: T) => Float64Array) | undefined;
  const valuesOf = () => (values ??= source(rows));
  return {
    model,
    createdAtHour,
    units: group.units,
    timezone: group.timezone,
    hours: rows.valid.slice(first, first + count),
    decimals: UNIT_DECIMALS[group.units],
    columns: group.targets.map((t) => ({
      label: group.label(t),
      fill: (out: Float64Array) => out.set(valuesOf()(t).subarray(first, first + out.length)),
    })),
    slice: (from, to) => {
      const { start, end } = wholeLocalDays(group.timezone, rows.valid, first + from, first + to);
      const sub = { valid: rows.valid.slice(start, end), created: rows.created.slice(start, end) };
      return frameOf(group, model, createdAtHour, sub, source, first + from - start, to - from, sums);
    },
    sumAsWritten: sums && ((out: Float64Array) => out.set(sums(rows).subarray(first, first + out.length))),
  };
}

/** The rows [start, end) of the whole local days that hold rows [from, to). */
function wholeLocalDays(zone: string, hours: readonly number[], from: number, to: number): { start: number; end: number } {
  const dayOf = (i: number) => formatDate(localDateOfHour(zone, hours[i]));
  let start = from;
  if (start < hours.length) for (const day = dayOf(start); start > 0 && dayOf(start - 1) === day;) start--;
  let end = Math.max(from, to);
  if (end > 0 && end < hours.length) for (const day = dayOf(end - 1); end < hours.length && dayOf(end) === day;) end++;
  return { start, end };
}

function noData(param: 'start' | 'end', raw: string | undefined, message: string): never {
  throw queryValueError(param, raw ?? null, message);
}

export interface ContinuousParams {
  model: ForecastModelName;
  latestHour: number;
  daysAhead: number;
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

/**
 * For each local day D of the window, the latest run created at or before (D − days_ahead)
 * at latest_hour:00 local time, cut to D's hours. Values are computed (and cached) for whole
 * local days; the response is cut to the window.
 */
export function continuousFrame<T>(
  group: SeriesGroup<T>,
  p: ContinuousParams,
  historyStart = FORECAST_HISTORY_START,
  kind = 'continuous forecasts',
  forecasts: Forecasts<T> = modelForecasts(group, p.model),
): Frame {
  const { rows, offset, count } = continuousRows(group, p, historyStart, kind, forecasts);
  forecasts.prepare?.(rows);
  return frameOf(group, forecasts.name, null, rows, forecasts.values, offset, count);
}

/** The rows a continuous request computes (whole local days) and where its window lies in them; a 422 when it has none. */
function continuousRows<T>(
  group: SeriesGroup<T>,
  p: ContinuousParams,
  historyStart: CivilDate,
  kind: string,
  forecasts: Forecasts<T>,
): { rows: StitchedRows; offset: number; count: number } {
  const tz = group.timezone;
  const stitch: StitchOptions = { timezone: tz, runs: forecasts.runs, latestHour: p.latestHour, daysAhead: p.daysAhead };
  const stitchable = localDayStartHour(tz, addDays(lastStitchableDay(stitch, p.nowMs), 1)) - 1;
  const lastHour = Math.min(stitchable, forecasts.lastValidHour ?? stitchable);
  const window = resolveWindow(p.start, p.end, tz, { lastHour, days: DEFAULT_WINDOW_DAYS });
  const firstHour = localDayStartHour(tz, historyStart);
  const from = Math.max(window.startHour, firstHour);
  // The whole local days around the window and up to a day past its last row (values are
  // computed and cached by local day), stitched once: the window's rows lie within.
  const wide = stitchRows(
    stitch,
    { startHour: localDayStartHour(tz, localDateOfHour(tz, from)), endHour: window.endHour + 24 },
    firstHour,
    p.nowMs,
  );
  let offset = 0;
  while (offset < wide.valid.length && wide.valid[offset] < from) offset++;
  let end = offset;
  while (end < wide.valid.length && wide.valid[end] <= window.endHour) end++;
  if (end === offset) {
    // Point at the parameter that put the window where there is no data, if one was sent.
    const param = window.endHour < firstHour ? (p.end ? 'end' : 'start') : p.start ? 'start' : 'end';
    noData(
      param,
      param === 'end' ? p.end?.raw : p.start?.raw,
      `no forecast data in the requested window: ${kind} exist for local days from ${formatDate(historyStart)} ` +
        `through the last day whose run (days_ahead=${p.daysAhead}, latest_hour=${p.latestHour}) has been issued`,
    );
  }
  let cut = end;
  while (cut < wide.valid.length && wide.valid[cut] <= wide.valid[end - 1] + 24) cut++;
  const rows = cut === wide.valid.length ? wide : { valid: wide.valid.slice(0, cut), created: wide.created.slice(0, cut) };
  return { rows, offset, count: end - offset };
}

/** Runs and valid hours are epoch hours below 2^22 (the year 2448): a row's key holds both exactly. */
const KEY_SPAN = 2 ** 22;

/** A row's (run, valid hour) as one number: rows without a run (NaN) sort after every run. */
function rowKey(created: number, valid: number): number {
  return (Number.isNaN(created) ? KEY_SPAN : created) * KEY_SPAN + valid;
}

/**
 * The distinct rows of several row sets, ordered by run and then valid hour, so that the rows of
 * one run — which serves day X + L at days_ahead L for every L — lie together: a source computes
 * what they share (the weather of the lagged days demand needs, the truth before the run) once.
 * (Keys sorted as numbers, a row found again by bisection: the rows of a year of leads are ~10^5.)
 */
function unionOfRows(sets: readonly StitchedRows[]): { rows: StitchedRows; indexOf: (created: number, valid: number) => number } {
  let total = 0;
  for (const s of sets) total += s.valid.length;
  const all = new Float64Array(total);
  let at = 0;
  for (const s of sets) for (let i = 0; i < s.valid.length; i++) all[at++] = rowKey(s.created[i], s.valid[i]);
  all.sort();
  let count = 0;
  for (let i = 0; i < total; i++) if (count === 0 || all[i] !== all[count - 1]) all[count++] = all[i];
  const keys = all.subarray(0, count);
  const rows: StitchedRows = { valid: [], created: [] };
  for (let i = 0; i < count; i++) {
    const run = Math.floor(keys[i] / KEY_SPAN);
    rows.created.push(run === KEY_SPAN ? Number.NaN : run);
    // As small integers, as every other set of rows holds its hours (`| 0`: a difference of doubles
    // would make the array one of doubles, and the code reading rows' hours — the plant computer,
    // the block keys — polymorphic between the skill's rows and every other request's).
    rows.valid.push((keys[i] - run * KEY_SPAN) | 0);
  }
  const indexOf = (created: number, valid: number) => {
    const key = rowKey(created, valid);
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { rows, indexOf };
}

/** The rows of `rows` within their run's horizon. */
function withinHorizon(rows: StitchedRows, model: ForecastModel): StitchedRows {
  const out: StitchedRows = { valid: [], created: [] };
  for (let i = 0; i < rows.valid.length; i++) {
    if (beyondHorizon(model, rows.valid[i], rows.created[i])) continue;
    out.valid.push(rows.valid[i]);
    out.created.push(rows.created[i]);
  }
  return out;
}

/** One row per valid hour of `sets`, with the latest run any of them has for it. */
function latestRunOfEachHour(sets: readonly StitchedRows[]): StitchedRows {
  const latest = new Map<number, number>();
  for (const s of sets) {
    for (let i = 0; i < s.valid.length; i++) {
      const run = latest.get(s.valid[i]);
      if (run === undefined || s.created[i] > run) latest.set(s.valid[i], s.created[i]);
    }
  }
  return { valid: [...latest.keys()], created: [...latest.values()] };
}

/** Rows per piece of a union computed at once: the per-row work buffers of a piece stay in the processor's caches. */
const UNION_CHUNK_ROWS = 6000;

/**
 * `use` of each piece of `rows` (ordered by run), from `from`: every target's values over it,
 * computed in pieces of about UNION_CHUNK_ROWS rows that end where a run's rows end (so a run's
 * shared lagged days are computed once); each piece's computation is dropped before the next.
 */
function eachChunk<T>(
  rows: StitchedRows,
  values: (rows: StitchedRows) => (target: T) => Float64Array,
  use: (piece: (target: T) => Float64Array, from: number) => void,
): void {
  const n = rows.valid.length;
  for (let from = 0; from < n;) {
    let to = Math.min(n, from + UNION_CHUNK_ROWS);
    while (to < n && Object.is(rows.created[to], rows.created[to - 1])) to++;
    // A piece's weather is dropped once its targets are read: its arenas' memory serves the next piece.
    withPooledArenas(() => use(values({ valid: rows.valid.slice(from, to), created: rows.created.slice(from, to) }), from));
    from = to;
  }
}

/** Every target's values over `rows`, computed piece by piece (eachChunk). */
function valuesInChunks<T>(
  targets: readonly T[],
  rows: StitchedRows,
  values: (rows: StitchedRows) => (target: T) => Float64Array,
): Map<T, Float64Array> {
  const out = new Map(targets.map((t) => [t, new Float64Array(rows.valid.length)]));
  eachChunk(rows, values, (piece, from) => {
    for (const t of targets) out.get(t)!.set(piece(t), from);
  });
  return out;
}

/** The sum of the targets as written over `rows` (addAsWritten), piece by piece: no target's values are kept. */
function sumsInChunks<T>(
  targets: readonly T[],
  rows: StitchedRows,
  values: (rows: StitchedRows) => (target: T) => Float64Array,
  decimals: number,
): Float64Array {
  const sum = new Float64Array(rows.valid.length);
  const present = new Uint8Array(rows.valid.length);
  eachChunk(rows, values, (piece, from) => {
    // A target's values are read before the next target's are asked for (PlantColumns' scratch).
    for (const t of targets) addAsWritten(sum, present, piece(t), decimals, from);
  });
  return withoutAbsent(sum, present);
}

/** `f` of each lead, or the 422 it throws (a lead without data). */
export function eachLead<X>(leads: readonly number[], f: (daysAhead: number) => X): (X | QueryError)[] {
  return leads.map((daysAhead) => {
    try {
      return f(daysAhead);
    } catch (e) {
      if (e instanceof QueryError) return e;
      throw e;
    }
  });
}

/**
 * The continuous frames of a synthetic model at several days_ahead (a 422 in place of a lead
 * without data), each equal to continuousFrame's, computed together on first use: the group's
 * source runs over the union of their rows (values depend only on a row's run and valid hour),
 * and every target's values are kept for the other leads.
 */
export function continuousFrames<T>(
  group: SeriesGroup<T>,
  p: Omit<ContinuousParams, 'daysAhead'>,
  leads: readonly number[],
): (Frame | QueryError)[] {
  const forecasts = modelForecasts(group, p.model);
  const parts = eachLead(leads, (daysAhead) =>
    continuousRows(group, { ...p, daysAhead }, FORECAST_HISTORY_START, 'continuous forecasts', forecasts),
  );
  const model = FORECAST_MODELS[p.model];
  const perHour = group.sameInEveryRun?.(model) === true;
  let union: { rows: StitchedRows; rowOf: (created: number, valid: number) => number } | undefined;
  const unionRows = () => {
    if (union) return union;
    const sets = parts.flatMap((part) => (part instanceof QueryError ? [] : [part.rows]));
    if (!perHour) {
      // Rows beyond their run's horizon have no value (NaN in every group's frame): not computed.
      // (The ISO model's 8 days leave most of days_ahead=8 and all of 14 beyond.)
      const all = unionOfRows(sets.map((rows) => withinHorizon(rows, model)));
      return (union = { rows: all.rows, rowOf: all.indexOf });
    }
    // Each hour from its latest run, which reaches it whenever any of the runs does.
    const latest = unionOfRows([latestRunOfEachHour(sets)]).rows;
    const rowOfHour = new Map(latest.valid.map((valid, i) => [valid, i]));
    return (union = { rows: latest, rowOf: (_: number, valid: number) => rowOfHour.get(valid)! });
  };
  // Every target's values over the union, or only their sum as written (a skill's sum over an
  // ISO's plants: the values of ~100 targets over a year of leads are never kept), each on first use.
  let values: Map<T, Float64Array> | undefined;
  const valuesOf = () => (values ??= valuesInChunks(group.targets, unionRows().rows, forecasts.values));
  let sums: Float64Array | undefined;
  const sumsOf = () => (sums ??= sumsInChunks(group.targets, unionRows().rows, forecasts.values, UNIT_DECIMALS[group.units]));
  // Per set of rows a lead reads (a frame's, or a slice's), each row's place in the union, found
  // once for all its targets (−1: no value).
  const placesOf = new WeakMap<StitchedRows, Int32Array>();
  const placesIn = (rows: StitchedRows) => {
    let places = placesOf.get(rows);
    if (!places) {
      const { rowOf } = unionRows();
      places = Int32Array.from(rows.valid, (valid, i) =>
        // A run whose horizon stops before the hour has no value there, whatever a later run has.
        beyondHorizon(model, valid, rows.created[i]) ? -1 : rowOf(rows.created[i], valid),
      );
      placesOf.set(rows, places);
    }
    return places;
  };
  // A function of frame.ts, not a loop in this closure: V8 compiled such closures' loops again in request after request.
  const onRows = (rows: StitchedRows, all: Float64Array) => valuesAt(all, placesIn(rows));
  const source = (rows: StitchedRows) => (t: T) => onRows(rows, valuesOf().get(t)!);
  const sumOn = (rows: StitchedRows) => onRows(rows, sumsOf());
  return parts.map((part) =>
    part instanceof QueryError ? part : frameOf(group, forecasts.name, null, part.rows, source, part.offset, part.count, sumOn),
  );
}

/** The day-ahead backcast: the optimized model's day-ahead forecasts over history, from 2023. */
export function backcastFrame<T>(group: SeriesGroup<T>, p: { start?: RequestInstant; end?: RequestInstant; nowMs: number }): Frame {
  return continuousFrame(group, { ...p, model: 'optimized', latestHour: 10, daysAhead: 1 }, ACTUAL_HISTORY_START, 'day-ahead backcasts');
}

/** One run: the latest created at or before `forecasted_by` (default now; never after now). */
export function forecastFrame<T>(
  group: SeriesGroup<T>,
  p: { model: ForecastModelName; forecastedBy?: RequestInstant; nowMs: number },
  forecasts: Forecasts<T> = modelForecasts(group, p.model),
): Frame {
  const asOf = Math.min(p.forecastedBy?.epochMs ?? p.nowMs, p.nowMs);
  const created = forecasts.runs.latestAtOrBefore(asOf / HOUR_MS);
  if (!(created >= forecasts.firstRunHour)) {
    throw queryValueError('forecasted_by', p.forecastedBy?.raw ?? null, forecasts.noRunMessage);
  }
  const rows = runRows(forecasts.runs, created);
  forecasts.prepare?.(rows);
  return frameOf(group, forecasts.name, created, rows, forecasts.values);
}

/** Where a group's actuals come from: the synthetic world's truth, or a stored source's published values. */
export interface Actuals<T> {
  /** The first and last valid hour with an actual (the last published at the request's instant). */
  firstHour: number;
  lastHour: number;
  values(rows: StitchedRows): (target: T) => Float64Array;
  /** As Forecasts.prepare: the rows a request will read, before any is read. */
  prepare?(rows: StitchedRows): void;
  /** Why a window has no actuals. */
  noDataMessage: string;
}

/** The synthetic world's truth of a group: from 2023-01-01 up to the last hour published at `nowMs`. */
export function worldActuals<T>(group: SeriesGroup<T>, nowMs: number): Actuals<T> {
  return {
    firstHour: localDayStartHour(group.timezone, ACTUAL_HISTORY_START),
    lastHour: lastActualHour(nowMs),
    values: (rows) => group.source(rows, null),
    noDataMessage: 'no actuals in the requested window: actuals exist from 2023-01-01 up to the last hour published',
  };
}

/** Actuals over the window, for hours already published. */
export function actualFrame<T>(
  group: SeriesGroup<T>,
  p: { start?: RequestInstant; end?: RequestInstant; nowMs: number },
  actuals: Actuals<T> = worldActuals(group, p.nowMs),
): Frame {
  const tz = group.timezone;
  const window = resolveWindow(p.start, p.end, tz, { lastHour: actuals.lastHour, days: DEFAULT_WINDOW_DAYS });
  const firstHour = actuals.firstHour;
  const rows = actualRows(window, firstHour, actuals.lastHour);
  if (rows.valid.length === 0) {
    const param = window.endHour < firstHour ? (p.end ? 'end' : 'start') : p.start ? 'start' : 'end';
    noData(param, param === 'end' ? p.end?.raw : p.start?.raw, actuals.noDataMessage);
  }
  actuals.prepare?.(rows);
  return frameOf(group, null, null, rows, actuals.values);
}

/** Which targets a request names: an ISO, a metric and optionally one id. */
export interface TargetRequest<M extends string> {
  iso: IsoCode;
  metric: M;
  id?: string;
}

export interface ForecastParams {
  model: ForecastModelName;
  forecastedBy?: RequestInstant;
  nowMs: number;
}

export interface WindowParams {
  start?: RequestInstant;
  end?: RequestInstant;
  nowMs: number;
}

/** The request kinds of a target group, given how to make its series group from a request. */
export function queriesFor<R, T>(groupOf: (world: WeatherWorld, request: R) => SeriesGroup<T>) {
  return {
    forecast: (world: WeatherWorld, r: R & ForecastParams) => forecastFrame(groupOf(world, r), r),
    continuous: (world: WeatherWorld, r: R & ContinuousParams) => continuousFrame(groupOf(world, r), r),
    continuousLeads: (world: WeatherWorld, r: R & Omit<ContinuousParams, 'daysAhead'>, leads: readonly number[]) =>
      continuousFrames(groupOf(world, r), r, leads),
    actual: (world: WeatherWorld, r: R & WindowParams) => actualFrame(groupOf(world, r), r),
    backcast: (world: WeatherWorld, r: R & WindowParams) => backcastFrame(groupOf(world, r), r),
  };
}

type AllQueries<R> = ReturnType<typeof queriesFor<R, unknown>>;
/** A group's request kinds; continuousLeads (several days_ahead computed together) where the group has it. */
export type GroupQueries<R> = Omit<AllQueries<R>, 'continuousLeads'> & Partial<Pick<AllQueries<R>, 'continuousLeads'>>;
