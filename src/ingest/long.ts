/**
 * gridcast's own long layout (what `layout=long` returns, in any format): `time_utc` (or
 * `time_local` with an offset, or a naive time with --timezone), `id`, `value` (or the column
 * --value names), an optional `unit`, and
 * - `created_at`: the run's issue time → forecast runs, one per (id, created_at); a file of one
 *   run without the column takes it from --created-at or, as gridcast exports it in Parquet and
 *   Arrow, from the file's `created_at` metadata;
 * - or neither → actuals, with an optional `published_at` (a revision's publication time;
 *   default: the end of the hour).
 * Values are in the unit of the `unit` column, else of the file's `units` metadata, else --unit.
 */
import { HOUR_MS } from '../time/hours.ts';
import { instantReader, parseInstant, parseValue } from './instants.ts';
import { IngestError, type Cell, type FileRecord, type LayoutContext, type Observation, type Scale } from './observations.ts';
import { convert } from './units.ts';

/** The columns that make a header the long layout's. */
export function isLongHeader(names: readonly string[], ctx: LayoutContext): boolean {
  return names.includes('id') && names.includes(ctx.value ?? 'value');
}

/** The run's issue time of a file without a `created_at` column: --created-at, else the file's metadata. */
function fileIssueTime(ctx: LayoutContext): number | undefined {
  const text = ctx.createdAt ?? ctx.metadata.created_at;
  if (text === undefined) return undefined;
  const t = parseInstant(text, undefined);
  if (typeof t === 'string')
    throw new IngestError(`${ctx.origin}: ${ctx.createdAt ? '--created-at' : 'the file metadata created_at'}: ${t}`);
  return t;
}

export async function* longLayout(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observation> {
  let header: string[] | null = null;
  const valueName = ctx.value ?? 'value';
  let col = { time: -1, id: -1, value: -1, stamp: -1, unit: -1 };
  let fixedStamp: number | undefined;
  const timeOf = instantReader(ctx.timezone);
  const stampOf = instantReader(ctx.timezone);
  let lastUnit: Cell = null;
  let scale: Scale | string = ctx.scale(ctx.metadata.units);
  for await (const { line, fields } of records) {
    if (!header) {
      header = fields.map((f) => String(f ?? '').trim());
      const at = (name: string) => header!.indexOf(name);
      const created = at('created_at');
      const published = at('published_at');
      col = {
        time: at('time_utc') >= 0 ? at('time_utc') : at('time_local'),
        id: at('id'),
        value: at(valueName),
        stamp: Math.max(created, published),
        unit: at('unit'),
      };
      const missing = [col.time < 0 ? 'time_utc' : '', col.id < 0 ? 'id' : '', col.value < 0 ? valueName : ''].filter(Boolean);
      if (missing.length) {
        throw new IngestError(
          `${ctx.origin}: the header lacks ${missing.join(', ')}: the long layout has time_utc (or time_local), id, value and, for forecasts, created_at`,
        );
      }
      if (created >= 0 && published >= 0)
        throw new IngestError(`${ctx.origin}: a file has created_at (forecasts) or published_at (actuals), not both`);
      if (created < 0) fixedStamp = fileIssueTime(ctx);
      if (published >= 0 && fixedStamp !== undefined)
        throw new IngestError(`${ctx.origin}: a file with published_at holds actuals: it has no run issue time (--created-at)`);
      ctx.kind(created >= 0 || fixedStamp !== undefined ? 'forecast' : 'actual');
      if (typeof scale === 'string') throw new IngestError(`${ctx.origin}: the file metadata units: ${scale}`);
      continue;
    }
    if (fields.length !== header.length) {
      ctx.bad(line, `${fields.length} fields where the header has ${header.length}`);
      continue;
    }
    const time = timeOf(fields[col.time]);
    if (typeof time === 'string') {
      ctx.bad(line, `${header[col.time]}: ${time}`);
      continue;
    }
    if (time % HOUR_MS !== 0) {
      ctx.bad(line, `${header[col.time]}: ${String(fields[col.time])} is not on the hour (hourly values, period-beginning)`);
      continue;
    }
    const value = parseValue(fields[col.value]);
    if (typeof value === 'string') {
      ctx.bad(line, `${valueName}: ${value}`);
      continue;
    }
    if (col.unit >= 0 && fields[col.unit] !== lastUnit) {
      lastUnit = fields[col.unit];
      scale = ctx.scale(lastUnit === null ? undefined : String(lastUnit));
    }
    if (typeof scale === 'string') {
      ctx.bad(line, scale);
      continue;
    }
    let stamp = fixedStamp ?? time + HOUR_MS; // an actual without a publication time: known once its hour has ended
    if (col.stamp >= 0) {
      const t = stampOf(fields[col.stamp]);
      if (typeof t === 'string') {
        ctx.bad(line, `${header[col.stamp]}: ${t}`);
        continue;
      }
      stamp = t;
    }
    const id = fields[col.id];
    if (typeof id !== 'string') {
      ctx.bad(line, `id: ${id === null ? 'missing' : `${String(id)} is not text`}`);
      continue;
    }
    yield { line, target: id.trim(), hour: time / HOUR_MS, stamp, value: convert(value, scale) };
  }
  if (!header) throw new IngestError(`${ctx.origin}: the file is empty`);
}
