/**
 * Ingesting a file of forecasts or actuals into a stored source: read and check every row, then
 * store the whole file in one transaction (store/sources.ts) — or nothing, with the bad rows
 * listed (up to MAX_LISTED, with line numbers and reasons).
 *
 * Layout read today: gridcast's own long layout in CSV (what `layout=long&format=csv` returns):
 * `time_utc` (or `time_local` with an offset, or a naive time with --timezone), `id`, `value`, and
 * - `created_at`: the run's issue time → forecast runs, one per (id, created_at);
 * - or no `created_at` → actuals, with an optional `published_at` (a revision's publication time;
 *   default: the end of the hour).
 */
import { ISO_CODES, type IsoCode } from '../catalog/isos.ts';
import { metricsOf, METRICS, unitOf, type MetricName } from '../catalog/metrics.ts';
import { regionsOf } from '../catalog/regions.ts';
import { FORECAST_MODEL_NAMES } from '../models/forecastModels.ts';
import { MAX_LISTED, type ActualInput, type IngestOutcome, type RunInput, type SourceStore } from '../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../time/hours.ts';
import { offsetMinutesAt } from '../time/zones.ts';
import { csvRecords, CsvError } from './csv.ts';

export const INGEST_GROUPS = ['region'] as const;
export type IngestGroup = (typeof INGEST_GROUPS)[number];

export interface IngestOptions {
  source: string;
  group: string;
  iso: string;
  metric: string;
  /** Zone of times without an offset (IANA name). */
  timezone?: string;
  /** Unit of the file's values (default: the metric's own). */
  unit?: string;
  replace: boolean;
  /** For the ingest log and messages: the file's name. */
  origin: string;
}

/** Options or file contents that cannot be ingested; nothing was stored. */
export class IngestError extends Error {
  constructor(
    message: string,
    /** Bad rows: line number and reason (at most MAX_LISTED). */
    readonly problems: { line: number; reason: string }[] = [],
    readonly totalProblems = problems.length,
  ) {
    super(message);
  }
}

export interface IngestSummary extends IngestOutcome {
  source: string;
  kind: 'forecast' | 'actual';
  targets: number;
  values: number;
  /** First and last valid hour in the file. */
  first_valid_time: string | null;
  last_valid_time: string | null;
  seconds: number;
}

const SOURCE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/** Unit conversions into the metric's unit; a unit of another quantity is an error. */
const UNIT_FACTORS: Record<string, Record<string, number>> = {
  MW: { MW: 1, GW: 1000, kW: 0.001 },
};

/** Checks the options; returns the metric's unit factor. */
export function checkOptions(o: IngestOptions): { factor: number; targets: Set<string> } {
  if (!SOURCE_NAME.test(o.source)) {
    throw new IngestError(
      `--source must be lower-case letters, digits and _ starting with a letter, at most 63 characters (got '${o.source}')`,
    );
  }
  if ((FORECAST_MODEL_NAMES as readonly string[]).includes(o.source)) {
    throw new IngestError(`--source '${o.source}' is the name of a synthetic model; choose another name`);
  }
  if (!(INGEST_GROUPS as readonly string[]).includes(o.group)) {
    throw new IngestError(`--group must be one of ${INGEST_GROUPS.join(', ')} (got '${o.group}')`);
  }
  if (!(ISO_CODES as readonly string[]).includes(o.iso))
    throw new IngestError(`--iso must be one of ${ISO_CODES.join(', ')} (got '${o.iso}')`);
  const hourly = metricsOf('region').filter((m) => METRICS[m].cadence === 'hourly');
  if (!(hourly as readonly string[]).includes(o.metric)) {
    throw new IngestError(`--metric must be one of ${hourly.join(', ')} for --group region (got '${o.metric}')`);
  }
  const unit = unitOf(o.metric as MetricName);
  let factor = 1;
  if (o.unit !== undefined && o.unit !== unit) {
    const f = UNIT_FACTORS[unit]?.[o.unit];
    if (f === undefined) throw new IngestError(`--unit ${o.unit} cannot be ${o.metric}, which is in ${unit}`);
    factor = f;
  }
  if (o.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: o.timezone });
    } catch {
      throw new IngestError(`--timezone must be an IANA time zone such as America/Chicago (got '${o.timezone}')`);
    }
  }
  return { factor, targets: new Set(regionsOf(o.iso as IsoCode).map((r) => r.id)) };
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * An instant (ms) from ISO 8601 text: with an offset as written; without one, as the wall time
 * of `zone` — refused when that wall time is missing or ambiguous (DST).
 */
export function parseInstant(text: string, zone: string | undefined): number | string {
  const m = TIME.exec(text.trim());
  if (!m) return `'${text}' is not an ISO 8601 date and time`;
  const [, y, mo, d, h, mi, s, off] = m;
  const naive = Date.UTC(+y, +mo - 1, +d, +h, +mi, s ? +s : 0);
  if (Number.isNaN(naive) || +mo < 1 || +mo > 12 || +d > 31 || +h > 23 || +mi > 59) return `'${text}' is not a valid date and time`;
  if (off) {
    if (off === 'Z') return naive;
    const sign = off[0] === '-' ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    return naive - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
  }
  if (!zone) return `'${text}' has no offset: add one (Z, -05:00) or declare the file's zone with --timezone`;
  const candidates = new Set<number>();
  for (const probe of [naive - 12 * HOUR_MS, naive + 12 * HOUR_MS]) {
    const t = naive - offsetMinutesAt(zone, probe) * 60_000;
    if (offsetMinutesAt(zone, t) * 60_000 === naive - t) candidates.add(t);
  }
  if (candidates.size === 0) return `'${text}' does not exist in ${zone} (the clocks skip it on a DST day)`;
  if (candidates.size > 1) return `'${text}' is ambiguous in ${zone} (it occurs twice on a DST day): give an offset`;
  return [...candidates][0];
}

interface Parsed {
  runs: RunInput[];
  actuals: ActualInput[];
  kind: 'forecast' | 'actual';
  targets: number;
  values: number;
  first: number;
  last: number;
}

/** Reads and checks a long-layout CSV; throws IngestError listing the bad rows. */
export async function parseLongCsv(input: AsyncIterable<Uint8Array | string>, o: IngestOptions): Promise<Parsed> {
  const { factor, targets } = checkOptions(o);
  const problems: { line: number; reason: string }[] = [];
  let totalProblems = 0;
  const bad = (line: number, reason: string) => {
    totalProblems++;
    if (problems.length < MAX_LISTED) problems.push({ line, reason });
  };
  let header: string[] | null = null;
  let col = { time: -1, id: -1, value: -1, created: -1, published: -1 };
  // (target, issued ms) → valid hour → value; actuals: (target, published ms) → valid hour → value.
  const series = new Map<string, Map<number, number>>();
  const seenTargets = new Set<string>();
  let first = Infinity;
  let last = -Infinity;
  let values = 0;
  try {
    for await (const { line, fields } of csvRecords(input)) {
      if (!header) {
        header = fields.map((f) => f.trim());
        const at = (name: string) => header!.indexOf(name);
        col = { time: at('time_utc'), id: at('id'), value: at('value'), created: at('created_at'), published: at('published_at') };
        if (col.time < 0) col.time = at('time_local');
        const missing = [col.time < 0 ? 'time_utc' : '', col.id < 0 ? 'id' : '', col.value < 0 ? 'value' : ''].filter(Boolean);
        if (missing.length) {
          throw new IngestError(
            `${o.origin}: the header lacks ${missing.join(', ')}: the long layout has time_utc (or time_local), id, value and, for forecasts, created_at`,
          );
        }
        if (col.created >= 0 && col.published >= 0)
          throw new IngestError(`${o.origin}: a file has created_at (forecasts) or published_at (actuals), not both`);
        continue;
      }
      if (fields.length !== header.length) {
        bad(line, `${fields.length} fields where the header has ${header.length}`);
        continue;
      }
      const time = parseInstant(fields[col.time], o.timezone);
      if (typeof time === 'string') {
        bad(line, `${header[col.time]}: ${time}`);
        continue;
      }
      if (time % HOUR_MS !== 0) {
        bad(line, `${header[col.time]}: ${fields[col.time]} is not on the hour (hourly values, period-beginning)`);
        continue;
      }
      const target = fields[col.id].trim();
      if (!targets.has(target)) {
        bad(line, `id: unknown region '${target}' in ${o.iso} (${[...targets].join(', ')})`);
        continue;
      }
      const text = fields[col.value].trim();
      let value = Number.NaN;
      if (text !== '' && text !== 'null') {
        value = Number(text);
        if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
          bad(line, `value: '${text.slice(0, 40)}' is not a finite number (leave it empty for no value)`);
          continue;
        }
        value *= factor;
      }
      let stamp: number;
      if (col.created >= 0 || col.published >= 0) {
        const c = col.created >= 0 ? col.created : col.published;
        const t = parseInstant(fields[c], o.timezone);
        if (typeof t === 'string') {
          bad(line, `${header[c]}: ${t}`);
          continue;
        }
        stamp = t;
      } else {
        stamp = time + HOUR_MS; // an actual without a publication time: known once its hour has ended
      }
      const key = `${target}\u0000${stamp}`;
      let values_ = series.get(key);
      if (!values_) series.set(key, (values_ = new Map()));
      const hour = time / HOUR_MS;
      const before = values_.get(hour);
      if (before !== undefined && !Object.is(before, value)) {
        bad(
          line,
          `a second value for ${target} at ${formatUtcInstant(time)} (${col.created >= 0 ? 'same run' : 'same publication'}) differs from the first`,
        );
        continue;
      }
      if (before === undefined) values++;
      values_.set(hour, value);
      seenTargets.add(target);
      first = Math.min(first, hour);
      last = Math.max(last, hour);
    }
  } catch (e) {
    if (e instanceof CsvError) bad(e.line, e.message);
    else throw e;
  }
  if (!header) throw new IngestError(`${o.origin}: the file is empty`);
  if (totalProblems > 0) {
    throw new IngestError(`${o.origin}: ${totalProblems} bad row(s); nothing was stored`, problems, totalProblems);
  }
  const kind = col.created >= 0 ? 'forecast' : 'actual';
  const runs: RunInput[] = [];
  const actuals: ActualInput[] = [];
  for (const [key, byHour] of series) {
    const [target, stampText] = key.split('\u0000');
    const stamp = Number(stampText);
    if (kind === 'forecast') {
      const hours = [...byHour.keys()];
      const lo = Math.min(...hours);
      const hi = Math.max(...hours);
      const vals = new Float64Array(hi - lo + 1).fill(Number.NaN);
      for (const [h, v] of byHour) vals[h - lo] = v;
      runs.push({ target, issuedMs: stamp, first: lo, values: vals });
    } else {
      for (const [h, v] of byHour) if (!Number.isNaN(v)) actuals.push({ target, validHour: h, publishedMs: stamp, value: v });
    }
  }
  return { runs, actuals, kind, targets: seenTargets.size, values, first, last };
}

/** Ingests a long-layout CSV into the store: all of it or nothing. */
export async function ingestCsv(store: SourceStore, input: AsyncIterable<Uint8Array | string>, o: IngestOptions): Promise<IngestSummary> {
  const started = performance.now();
  const parsed = await parseLongCsv(input, o);
  const outcome = await store.ingest({
    source: o.source,
    group: o.group,
    iso: o.iso,
    metric: o.metric,
    runs: parsed.runs,
    actuals: parsed.actuals,
    replace: o.replace,
    origin: o.origin,
  });
  return {
    source: o.source,
    kind: parsed.kind,
    ...outcome,
    targets: parsed.targets,
    values: parsed.values,
    first_valid_time: Number.isFinite(parsed.first) ? formatUtcInstant(parsed.first * HOUR_MS) : null,
    last_valid_time: Number.isFinite(parsed.last) ? formatUtcInstant(parsed.last * HOUR_MS) : null,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

/** The one-line summary of an ingest (CLI and logs). */
export function describeIngest(s: IngestSummary): string {
  const changed = s.runsAdded + s.runsReplaced + s.actualsAdded + s.actualsReplaced;
  const what =
    s.kind === 'forecast'
      ? `runs: ${s.runsAdded} added, ${s.runsReplaced} replaced, ${s.runsUnchanged} unchanged`
      : `actuals: ${s.actualsAdded} added, ${s.actualsReplaced} replaced, ${s.actualsUnchanged} unchanged`;
  const span = s.first_valid_time ? `, ${s.first_valid_time} to ${s.last_valid_time}` : '';
  return `${s.source}: ${changed === 0 ? 'nothing changed (already stored); ' : ''}${what}; ${s.targets} target(s), ${s.values} value(s)${span}; ${s.seconds} s`;
}
