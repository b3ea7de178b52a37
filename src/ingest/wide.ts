/**
 * The gridstatus-style wide layout (the gridstatus Python library's DataFrames and GridStatus
 * exports): `Interval Start`, optionally `Interval End` and `Publish Time`, and one value column
 * per series. Snake-case names (`interval_start_utc`, `publish_time_utc`) are the same columns.
 *
 * - `Publish Time` is the run's issue time → forecast runs (one per publish time and series); a
 *   file without it holds actuals (known at the end of their hour), unless --created-at gives its
 *   one run's issue time.
 * - Value columns: named by a target id (`ercot_coast`), or by the id without the ISO prefix
 *   (`Coast`, `Far West` → `ercot_far_west`), or mapped with --column 'NAME=TARGET'; --value NAME
 *   reads NAME as the ISO's total; --column 'NAME=' leaves a column out. Any other column is
 *   refused (never silently dropped).
 * - A value column whose name ends with a quantile marker (`Load Forecast P10`, `Coast q0.9`)
 *   holds that quantile of the series the rest of its name places (quantiles.ts); a column that
 *   is only a marker (`p10`) holds the ISO total's. Forecast files only.
 * - A column's unit may be given in its header (`Load Forecast (GW)`); else --unit.
 * - `Interval End` must be an hour after `Interval Start`: values are hourly.
 */
import { HOUR_MS } from '../time/hours.ts';
import { cellInstantReader, cellValue, parseInstant } from './instants.ts';
import { IngestError, inBatches, type FileRecord, type LayoutContext, type Observations, type Scale } from './observations.ts';
import { quantileColumn } from './quantiles.ts';
import { convert, headerUnit } from './units.ts';

/** A header's name as compared: lower case, words joined by `_`. */
export function normalName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

const START = ['interval_start', 'interval_start_utc'];
const END = ['interval_end', 'interval_end_utc'];
const PUBLISHED = ['publish_time', 'publish_time_utc'];
/** gridstatus's older `Time` column (the interval start again) and the local-time twins of the UTC columns. */
const IGNORED = ['time', 'interval_start_local', 'interval_end_local', 'publish_time_local'];

export function isWideHeader(names: readonly string[]): boolean {
  return names.some((n) => START.includes(normalName(n)));
}

interface ValueColumn {
  at: number;
  header: string;
  target: string;
  scale: Scale;
  /** The quantile the column holds, NaN for the point forecast. */
  quantile: number;
}

/** The value columns of the header and the series each holds, or an error naming the columns it cannot place. */
function valueColumns(header: string[], ctx: LayoutContext, skip: Set<number>): ValueColumn[] {
  const total = `${ctx.iso}_total`;
  if (ctx.value !== undefined && !ctx.targets.has(total))
    throw new IngestError(`${ctx.origin}: --value reads the ISO's total, which ${ctx.iso} has not here: use --column NAME=TARGET`);
  const out: ValueColumn[] = [];
  const unplaced: string[] = [];
  const used = new Set<string>();
  header.forEach((name, at) => {
    if (skip.has(at)) return;
    const { name: bare, unit } = headerUnit(name);
    const marked = quantileColumn(bare);
    const quantile = marked?.quantile ?? Number.NaN;
    // The series' name: the column's without its quantile marker (a bare marker names the total).
    const series = marked ? marked.base : bare;
    let target =
      ctx.columns.get(name) ??
      ctx.columns.get(bare) ??
      (marked ? ctx.columns.get(series) : undefined) ??
      (ctx.value === name || ctx.value === bare || (marked && (ctx.value === series || (series === '' && ctx.targets.has(total))))
        ? total
        : undefined);
    if (target === '') {
      used.add(name).add(bare);
      return; // --column 'NAME=': left out
    }
    if (target === undefined) {
      const id = normalName(series);
      target = ctx.targets.has(id) ? id : ctx.targets.has(`${ctx.iso}_${id}`) ? `${ctx.iso}_${id}` : undefined;
      if (target === undefined) unplaced.push(name);
    }
    if (target === undefined) return;
    // A group of fixed targets (regions) lists them; own ids (plants, nodes, hubs) are checked as the ingest does.
    const refused =
      ctx.targets.size > 0
        ? ctx.targets.has(target)
          ? null
          : `${target} is not one of ${[...ctx.targets].join(', ')}`
        : ctx.refuse(target);
    if (refused) throw new IngestError(`${ctx.origin}: --column ${name}=${target}: ${refused}`);
    const scale = ctx.scale(unit);
    if (typeof scale === 'string') throw new IngestError(`${ctx.origin}: column ${name}: ${scale}`);
    out.push({ at, header: name, target, scale, quantile });
    used.add(name).add(bare).add(series);
  });
  if (unplaced.length > 0) {
    throw new IngestError(
      `${ctx.origin}: column(s) ${unplaced.map((n) => `'${n}'`).join(', ')} are not targets of ${ctx.iso} ` +
        (ctx.targets.size > 0 ? `(${[...ctx.targets].join(', ')})` : '(this group has no fixed ids)') +
        ": map them with --column 'NAME=TARGET' (--value NAME for the ISO's total), " +
        "or leave them out with --column 'NAME='",
    );
  }
  const missing = [...ctx.columns.keys(), ...(ctx.value !== undefined ? [ctx.value] : [])].filter((n) => !used.has(n));
  if (missing.length > 0) throw new IngestError(`${ctx.origin}: no column ${missing.map((n) => `'${n}'`).join(', ')} in the header`);
  if (out.length === 0) throw new IngestError(`${ctx.origin}: the header has no value column`);
  return out;
}

export async function* wideLayout(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observations> {
  let header: string[] | null = null;
  let start = -1;
  let end = -1;
  let published = -1;
  let values: ValueColumn[] = [];
  let fixedStamp: number | undefined;
  const startOf = cellInstantReader(ctx.timezone);
  const endOf = cellInstantReader(ctx.timezone);
  const publishedOf = cellInstantReader(ctx.timezone);
  yield* inBatches(records, ({ line, fields }, out) => {
    if (!header) {
      header = fields.map((f) => String(f ?? '').trim());
      const normal = header.map(normalName);
      const find = (names: string[]) => normal.findIndex((n) => names.includes(n));
      start = find(START);
      end = find(END);
      published = find(PUBLISHED);
      const skip = new Set([start, end, published, ...normal.flatMap((n, i) => (IGNORED.includes(n) ? [i] : []))]);
      values = valueColumns(header, ctx, skip);
      if (published < 0 && ctx.createdAt !== undefined) {
        const t = parseInstant(ctx.createdAt, undefined);
        if (typeof t === 'string') throw new IngestError(`${ctx.origin}: --created-at: ${t}`);
        fixedStamp = t;
      }
      const forecasts = published >= 0 || fixedStamp !== undefined;
      const quantiles = values.filter((v) => !Number.isNaN(v.quantile)).map((v) => `'${v.header}'`);
      if (!forecasts && quantiles.length > 0)
        throw new IngestError(
          `${ctx.origin}: column(s) ${quantiles.join(', ')} hold quantiles, which belong to forecasts (Publish Time); actuals have no quantiles`,
        );
      ctx.kind(forecasts ? 'forecast' : 'actual');
      return;
    }
    if (fields.length !== header.length) {
      ctx.bad(line, `${fields.length} fields where the header has ${header.length}`);
      return;
    }
    const time = startOf(fields[start]);
    if (typeof time === 'string') {
      ctx.bad(line, `${header[start]}: ${time}`);
      return;
    }
    if (time % HOUR_MS !== 0) {
      ctx.bad(line, `${header[start]}: ${String(fields[start])} is not on the hour (hourly values)`);
      return;
    }
    if (end >= 0) {
      const until = endOf(fields[end]);
      if (typeof until === 'string') {
        ctx.bad(line, `${header[end]}: ${until}`);
        return;
      }
      if (until - time !== HOUR_MS) {
        ctx.bad(line, `${header[end]}: an interval of ${(until - time) / 60_000} minutes; values must be hourly`);
        return;
      }
    }
    let stamp = fixedStamp ?? ctx.knownAt(time);
    if (published >= 0) {
      const t = publishedOf(fields[published]);
      if (typeof t === 'string') {
        ctx.bad(line, `${header[published]}: ${t}`);
        return;
      }
      stamp = t;
    }
    for (const column of values) {
      const value = cellValue(fields[column.at]);
      if (typeof value === 'string') ctx.bad(line, `${column.header}: ${value}`);
      else out.push(line, column.target, time / HOUR_MS, stamp, convert(value, column.scale), column.quantile);
    }
  });
}
