/**
 * A stored source (ingested by users) as the request kinds see it: its runs as a RunSchedule,
 * their values, and actuals as published by an instant. Answers come from the store through a
 * SourceReader (reader.ts).
 *
 * The request kinds (query/kinds.ts, vintages.ts) build their frames synchronously, asking for
 * values over rows they have chosen; a stored source notes the rows it is told of (`prepare`), and
 * the caller then awaits `load()`, which reads exactly those runs (or actual hours) before any
 * column is filled; values over those rows or any slice of them are then read from memory. So the semantics stay in one place and the store is read once per request.
 */
import { quantileLabel } from '../query/ensembleStats.ts';
import { QueryError } from '../query/errors.ts';
import type { StitchedRows } from '../query/continuous.ts';
import type { Actuals, Forecasts, SeriesGroup } from '../query/kinds.ts';
import { unpackValues, type SeriesKey, type StoredRunRow } from '../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../time/hours.ts';
import { localDateOfHour } from '../time/zones.ts';
import type { SourceReader } from './reader.ts';
import { runCacheOf, runKey } from './runCache.ts';
import { storedSchedule, type StoredRun } from './schedule.ts';

/** The targets of a group (hourly or daily) a source holds, with their series ids. */
export interface StoredSeries<T, G extends TargetGroup<T> = SeriesGroup<T>> {
  source: string;
  group: G;
  seriesOf: Map<T, number>;
}

/** What a stored source needs of a series group: its targets and clock. */
interface TargetGroup<T> {
  timezone: string;
  targets: readonly T[];
}

/** `region ercot demand`; gas, not tied to an ISO, is `gas gas_price`. */
const describeKey = (k: SeriesKey) => [k.group, k.iso, k.metric].filter(Boolean).join(' ');

/**
 * The series `source` holds for `key` (target id → series id), or a 422 on `param` (the request's
 * parameter naming the source) saying what the source holds.
 */
export async function heldSeries(
  reader: SourceReader,
  source: string,
  key: SeriesKey,
  param: 'model' | 'source' = 'model',
): Promise<{ id: number; target: string }[]> {
  const series = await reader.series(source, key);
  if (series.length === 0) {
    const kinds = await reader.kindsOf(source);
    throw new QueryError([
      {
        type: 'value_error',
        loc: ['query', param],
        msg:
          `Value error, source '${source}' holds no ${describeKey(key)} series; ` +
          (kinds.length ? `it holds: ${kinds.map(describeKey).join(', ')}` : 'it holds nothing yet'),
        input: source,
      },
    ]);
  }
  return series;
}

/**
 * The group's targets that `source` holds for `key` (all of them, or the one `id` names), or a 422
 * naming what the source holds.
 */
export async function storedSeries<T, G extends TargetGroup<T>>(
  reader: SourceReader,
  source: string,
  key: SeriesKey,
  groupOf: (held: readonly string[]) => G,
  idOf: (target: T) => string,
  id: string | undefined,
  param: 'model' | 'source' = 'model',
): Promise<StoredSeries<T, G>> {
  const series = await heldSeries(reader, source, key, param);
  const group = groupOf(series.map((s) => s.target));
  const idByTarget = new Map(series.map((s) => [s.target, s.id]));
  const seriesOf = new Map<T, number>();
  for (const t of group.targets) {
    const sid = idByTarget.get(idOf(t));
    if (sid !== undefined) seriesOf.set(t, sid);
  }
  if (seriesOf.size === 0) {
    throw new QueryError([
      {
        type: 'value_error',
        loc: ['query', 'id'],
        msg: `Value error, source '${source}' has no ${describeKey(key)} series for ${id === undefined ? 'these targets' : `id '${id}'`}; it holds: ${series.map((s) => s.target).join(', ')}`,
        input: id ?? null,
      },
    ]);
  }
  return { source, group: { ...group, targets: group.targets.filter((t) => seriesOf.has(t)) }, seriesOf };
}

/** One quantile of a target's forecasts: what a column of a request with `quantiles` holds. */
export interface QuantileOf<T> {
  target: T;
  quantile: number;
}

/** A loaded run of one series: its first hour, length, and each block's values (point forecast, then quantiles). */
interface LoadedRun {
  first: number;
  length: number;
  /** Block index by quantile (the point forecast is block 0). */
  blockOf: Map<number, number>;
  values: Float64Array;
}

/** A group whose columns are the requested quantiles of each target, labelled [target…, "q0.1"]. */
export function quantileGroup<T, G extends { targets: readonly T[]; label(target: T): string[] }>(
  group: G,
  quantiles: readonly number[],
): Omit<G, 'targets' | 'label' | 'source'> & {
  targets: QuantileOf<T>[];
  label(q: QuantileOf<T>): string[];
  source(): never;
} {
  return {
    ...group,
    targets: group.targets.flatMap((target) => quantiles.map((quantile) => ({ target, quantile }))),
    label: (q: QuantileOf<T>) => [...group.label(q.target), quantileLabel(q.quantile)],
    source: () => {
      throw new Error('the values of stored quantiles come from their source');
    },
  };
}

/**
 * A stored source's forecasts (with `quantiles`, of those quantiles of each target); await
 * `load()` after the frame is built, before it is written. Asking for a quantile no run of the
 * request's series holds is a 422 naming the ones they hold.
 */
export async function storedForecasts<T>(
  reader: SourceReader,
  s: StoredSeries<T, TargetGroup<T>>,
  nowMs: number,
): Promise<{ forecasts: Forecasts<T>; quantiles(wanted: readonly number[]): Forecasts<QuantileOf<T>>; load(): Promise<void> }> {
  const ids = [...s.seriesOf.values()];
  const rows = await reader.runs(ids, nowMs);
  // The schedule of the request's targets together: a run is the union of the targets' runs issued at that instant.
  const union = new Map<number, StoredRun>();
  const revisions = new Map<number, number>();
  const held = new Set<number>();
  for (const r of rows) {
    const u = union.get(r.issued);
    if (!u) union.set(r.issued, { issued: r.issued, first: r.first, length: r.length });
    else {
      const end = Math.max(u.first + u.length, r.first + r.length);
      u.first = Math.min(u.first, r.first);
      u.length = end - u.first;
    }
    revisions.set(r.issued, Math.max(revisions.get(r.issued) ?? 0, r.revisions));
    for (const q of r.quantiles) held.add(q);
  }
  const runs = storedSchedule([...union.values()]);
  let firstValid = Infinity;
  let lastValid = -Infinity;
  for (const r of union.values()) {
    firstValid = Math.min(firstValid, r.first);
    lastValid = Math.max(lastValid, r.first + r.length - 1);
  }
  const issued = [...union.keys()];
  const span = issued.length
    ? `its runs were issued from ${formatUtcInstant(Math.min(...issued) * HOUR_MS)} to ${formatUtcInstant(Math.max(...issued) * HOUR_MS)}`
    : 'it has no run issued by now';
  const wanted = new Set<number>();
  /** Loaded runs by series id, then issue time (number keys: a year is thousands of rows per column). */
  const loaded = new Map<number, Map<number, LoadedRun>>();
  const rowOf = new Map(rows.map((r) => [`${r.seriesId}@${r.issued}`, r]));
  /** The values of block `quantile` (NaN: point forecast) of series `sid` over the rows. */
  const read = (stitched: StitchedRows, sid: number, quantile: number): Float64Array => {
    const out = new Float64Array(stitched.valid.length).fill(Number.NaN);
    const runsOf = loaded.get(sid);
    if (!runsOf) return out;
    for (let i = 0; i < out.length; i++) {
      const run = runsOf.get(stitched.created[i]);
      const block = run?.blockOf.get(quantile);
      if (run === undefined || block === undefined) continue;
      const k = stitched.valid[i] - run.first;
      if (k >= 0 && k < run.length) out[i] = run.values[block * run.length + k];
    }
    return out;
  };
  const forecastsOf = <C>(valuesOf: (stitched: StitchedRows, column: C) => Float64Array): Forecasts<C> => ({
    name: s.source,
    runs,
    prepare(stitched: StitchedRows) {
      for (const c of stitched.created) if (!Number.isNaN(c)) wanted.add(c);
    },
    values: (stitched: StitchedRows) => (column: C) => valuesOf(stitched, column),
    historyStart: localDateOfHour(s.group.timezone, Number.isFinite(firstValid) ? firstValid : Math.floor(nowMs / HOUR_MS)),
    firstRunHour: -Infinity,
    lastValidHour: Number.isFinite(lastValid) ? lastValid : undefined,
    noRunMessage: `no run of source '${s.source}' at or before forecasted_by: ${span}`,
    revisions: (created) => revisions.get(created) ?? 0,
  });
  return {
    forecasts: forecastsOf<T>((stitched, target) => read(stitched, s.seriesOf.get(target)!, Number.NaN)),
    quantiles(quantiles) {
      const missing = quantiles.filter((q) => !held.has(q));
      if (missing.length > 0) {
        const has = [...held].sort((a, b) => a - b);
        throw new QueryError([
          {
            type: 'value_error',
            loc: ['query', 'quantiles'],
            msg:
              `Value error, source '${s.source}' holds no quantile ${missing.join(', ')} for these targets; ` +
              (has.length ? `it holds quantiles ${has.join(', ')}` : 'it holds point forecasts only (no quantiles)'),
            input: quantiles.join(','),
          },
        ]);
      }
      return forecastsOf<QuantileOf<T>>((stitched, q) => read(stitched, s.seriesOf.get(q.target)!, q.quantile));
    },
    async load() {
      if (wanted.size === 0) return;
      // Runs decoded by an earlier request are taken from the cache; the store is read for the others only.
      const cache = runCacheOf(reader);
      const take = (row: StoredRunRow, values: Float64Array) => {
        const blockOf = new Map<number, number>([[Number.NaN, 0]]);
        row.quantiles.forEach((q, i) => blockOf.set(q, i + 1));
        let runsOf = loaded.get(row.seriesId);
        if (!runsOf) loaded.set(row.seriesId, (runsOf = new Map()));
        runsOf.set(row.issued, { first: row.first, length: row.length, blockOf, values });
      };
      const missing: number[] = [];
      for (const issued of wanted) {
        let complete = true;
        for (const sid of ids) {
          const row = rowOf.get(`${sid}@${issued}`);
          if (!row) continue;
          const values = cache.get(runKey(sid, issued, row.revisions));
          if (values) take(row, values);
          else complete = false;
        }
        if (!complete) missing.push(issued);
      }
      if (missing.length === 0) return;
      for (const r of await reader.runValues(ids, missing)) {
        const row = rowOf.get(`${r.seriesId}@${r.issued}`)!;
        const values = unpackValues(r.vals);
        cache.set(runKey(r.seriesId, r.issued, row.revisions), values);
        take(row, values);
      }
    },
  };
}

/** A stored source's actuals as published at or before `asOfMs`; await `load()` after the frame is built. */
export async function storedActuals<T>(
  reader: SourceReader,
  s: StoredSeries<T, TargetGroup<T>>,
  asOfMs: number,
): Promise<{ actuals: Actuals<T>; load(): Promise<void> }> {
  const ids = [...s.seriesOf.values()];
  const span = await reader.actualSpan(ids, asOfMs);
  // Without any actual there is no window to default to: the source is what the request got wrong.
  if (!span) {
    throw new QueryError([
      {
        type: 'value_error',
        loc: ['query', 'source'],
        msg:
          `Value error, source '${s.source}' has no actuals for ${s.group.targets.length === 1 ? 'this target' : 'these targets'} ` +
          `published by ${formatUtcInstant(asOfMs)} (it may hold forecasts only)`,
        input: s.source,
      },
    ]);
  }
  let wanted: { from: number; to: number } | null = null;
  const loaded = new Map<string, number>();
  const actuals: Actuals<T> = {
    firstHour: span.first,
    lastHour: span.last,
    prepare(rows) {
      if (rows.valid.length) wanted = { from: rows.valid[0], to: rows.valid[rows.valid.length - 1] };
    },
    values(rows) {
      return (target: T) => {
        const sid = s.seriesOf.get(target)!;
        return Float64Array.from(rows.valid, (h) => loaded.get(`${sid}@${h}`) ?? Number.NaN);
      };
    },
    noDataMessage:
      `no actuals in the requested window: source '${s.source}' has actuals from ${formatUtcInstant(span.first * HOUR_MS)} ` +
      `to ${formatUtcInstant(span.last * HOUR_MS)} (as published by then)`,
  };
  return {
    actuals,
    async load() {
      if (!wanted) return;
      const { from, to } = wanted as { from: number; to: number };
      for (const r of await reader.actuals(ids, from, to, asOfMs)) loaded.set(`${r.series_id}@${r.valid_hour}`, r.value);
    },
  };
}
