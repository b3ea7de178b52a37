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
import { QueryError } from '../query/errors.ts';
import type { StitchedRows } from '../query/continuous.ts';
import type { Actuals, Forecasts, SeriesGroup } from '../query/kinds.ts';
import { unpackValues, type SeriesKey } from '../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../time/hours.ts';
import { localDateOfHour } from '../time/zones.ts';
import type { SourceReader } from './reader.ts';
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

/** A stored source's forecasts; await `load()` after the frame is built, before it is written. */
export async function storedForecasts<T>(
  reader: SourceReader,
  s: StoredSeries<T, TargetGroup<T>>,
  nowMs: number,
): Promise<{ forecasts: Forecasts<T>; load(): Promise<void> }> {
  const ids = [...s.seriesOf.values()];
  const rows = await reader.runs(ids, nowMs);
  // The schedule of the request's targets together: a run is the union of the targets' runs issued at that instant.
  const union = new Map<number, StoredRun>();
  const revisions = new Map<number, number>();
  for (const r of rows) {
    const u = union.get(r.issued);
    if (!u) union.set(r.issued, { issued: r.issued, first: r.first, length: r.length });
    else {
      const end = Math.max(u.first + u.length, r.first + r.length);
      u.first = Math.min(u.first, r.first);
      u.length = end - u.first;
    }
    revisions.set(r.issued, Math.max(revisions.get(r.issued) ?? 0, r.revisions));
  }
  const runs = storedSchedule([...union.values()]);
  const firstValid = Math.min(...[...union.values()].map((r) => r.first));
  const lastValid = Math.max(...[...union.values()].map((r) => r.first + r.length - 1));
  const issued = [...union.keys()];
  const span = issued.length
    ? `its runs were issued from ${formatUtcInstant(Math.min(...issued) * HOUR_MS)} to ${formatUtcInstant(Math.max(...issued) * HOUR_MS)}`
    : 'it has no run issued by now';
  const wanted = new Set<number>();
  const loaded = new Map<string, { first: number; values: Float64Array }>();
  const firstOf = new Map(rows.map((r) => [`${r.seriesId}@${r.issued}`, r.first]));
  const forecasts: Forecasts<T> = {
    name: s.source,
    runs,
    prepare(stitched: StitchedRows) {
      for (const c of stitched.created) if (!Number.isNaN(c)) wanted.add(c);
    },
    values(stitched: StitchedRows) {
      return (target: T) => {
        const sid = s.seriesOf.get(target)!;
        const out = new Float64Array(stitched.valid.length).fill(Number.NaN);
        for (let i = 0; i < out.length; i++) {
          const run = loaded.get(`${sid}@${stitched.created[i]}`);
          const k = run ? stitched.valid[i] - run.first : -1;
          if (run && k >= 0 && k < run.values.length) out[i] = run.values[k];
        }
        return out;
      };
    },
    historyStart: localDateOfHour(s.group.timezone, Number.isFinite(firstValid) ? firstValid : Math.floor(nowMs / HOUR_MS)),
    firstRunHour: -Infinity,
    lastValidHour: Number.isFinite(lastValid) ? lastValid : undefined,
    noRunMessage: `no run of source '${s.source}' at or before forecasted_by: ${span}`,
    revisions: (created) => revisions.get(created) ?? 0,
  };
  return {
    forecasts,
    async load() {
      if (wanted.size === 0) return;
      for (const r of await reader.runValues(ids, [...wanted])) {
        loaded.set(`${r.seriesId}@${r.issued}`, { first: firstOf.get(`${r.seriesId}@${r.issued}`)!, values: unpackValues(r.vals) });
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
