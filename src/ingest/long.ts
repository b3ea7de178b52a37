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
 * An optional `quantile` column makes a forecast row a quantile's value (quantiles.ts); empty is
 * the point forecast.
 *
 * Two readers of one header (longHeader): the common case, a CSV, is read in place from the
 * CSV reader's batches (longCsv: no string or object per field); every other format through its
 * records of cells (longLayout).
 */
import { HOUR_MS } from '../time/hours.ts';
import type { CsvBatch } from './csv.ts';
import { cellInstantReader, cellValue, instantReader, parseInstant, sameBytes, valueAt } from './instants.ts';
import { IngestError, inBatches, Observations, type Cell, type FileRecord, type LayoutContext, type Scale } from './observations.ts';
import { quantileOfCell } from './quantiles.ts';
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

/** Where a long file's columns are, and what its header says of the rows. */
export interface LongColumns {
  /** The header's names, trimmed. */
  names: string[];
  time: number;
  id: number;
  value: number;
  /** created_at or published_at; -1: none. */
  stamp: number;
  unit: number;
  /** The quantile column; -1: none (every value is the point forecast). */
  quantile: number;
  /** The name of the value column (for messages). */
  valueName: string;
  /** The issue time of every row (a one-run file without created_at), if any. */
  fixedStamp: number | undefined;
  /** The conversion of values without a `unit` column's: the file's `units` metadata, else --unit. */
  scale: Scale;
}

/** The long layout's columns (besides --value's); `time_local` is read without `time_utc` only. */
const LONG_COLUMNS = ['time_utc', 'time_local', 'id', 'value', 'unit', 'created_at', 'published_at', 'quantile'];
/** The column gridcast's long exports label a quantile's values in. */
const EXPORTED_QUANTILE = 'label_1';

/**
 * Any other column is refused, never dropped silently: a misspelt `created_at` would make a run
 * actuals, a misspelt `published_at` every revision known at the end of its hour, and another
 * column of labels (a vintage's valid time, an ensemble member) several values one. A column
 * without a name (pandas' index) and those `--column 'NAME='` leaves out are skipped.
 */
function refuseOtherColumns(names: readonly string[], known: ReadonlySet<string>, ctx: LayoutContext): void {
  const mapped = [...ctx.columns].filter(([, target]) => target !== '').map(([name]) => name);
  if (mapped.length) {
    throw new IngestError(
      `${ctx.origin}: --column '${mapped[0]}=…' maps a column of a gridstatus-style file to a target; ` +
        "a long-layout file names its targets in its id column (--column 'NAME=' leaves a column out)",
    );
  }
  const other = names.filter((n) => n !== '' && !known.has(n) && !ctx.columns.has(n));
  if (other.length) {
    throw new IngestError(
      `${ctx.origin}: column(s) ${other.map((n) => `'${n.slice(0, 60)}'`).join(', ')} are not of the long layout ` +
        '(time_utc or time_local, id, value, unit, created_at for forecasts or published_at for actuals, quantile): ' +
        "rename them, or leave them out with --column 'NAME='",
    );
  }
}

/** Reads the long layout's header; tells the context whether the file holds runs or actuals. */
export function longHeader(names: string[], ctx: LayoutContext): LongColumns {
  const at = (name: string) => names.indexOf(name);
  const valueName = ctx.value ?? 'value';
  const created = at('created_at');
  const published = at('published_at');
  const time = at('time_utc') >= 0 ? at('time_utc') : at('time_local');
  const id = at('id');
  const value = at(valueName);
  const missing = [time < 0 ? 'time_utc' : '', id < 0 ? 'id' : '', value < 0 ? valueName : ''].filter(Boolean);
  if (missing.length) {
    throw new IngestError(
      `${ctx.origin}: the header lacks ${missing.join(', ')}: the long layout has time_utc (or time_local), id, value and, for forecasts, created_at`,
    );
  }
  if (created >= 0 && published >= 0)
    throw new IngestError(`${ctx.origin}: a file has created_at (forecasts) or published_at (actuals), not both`);
  const fixedStamp = created < 0 ? fileIssueTime(ctx) : undefined;
  if (published >= 0 && fixedStamp !== undefined)
    throw new IngestError(`${ctx.origin}: a file with published_at holds actuals: it has no run issue time (--created-at)`);
  const forecasts = created >= 0 || fixedStamp !== undefined;
  // gridcast's own export of quantiles (`quantiles=0.1,0.9&layout=long`) names each value's quantile
  // in its `label_1` column (`q0.1`): a forecast file without a `quantile` column reads it so.
  const quantile = at('quantile') >= 0 ? at('quantile') : forecasts ? at(EXPORTED_QUANTILE) : -1;
  if (quantile >= 0 && !forecasts)
    throw new IngestError(`${ctx.origin}: a quantile column belongs to forecasts (created_at); actuals have no quantiles`);
  refuseOtherColumns(names, new Set([...LONG_COLUMNS, valueName, names[quantile]]), ctx);
  ctx.kind(forecasts ? 'forecast' : 'actual');
  const scale = ctx.scale(ctx.metadata.units);
  if (typeof scale === 'string') throw new IngestError(`${ctx.origin}: the file metadata units: ${scale}`);
  return { names, time, id, value, stamp: Math.max(created, published), unit: at('unit'), quantile, valueName, fixedStamp, scale };
}

const notOnTheHour = (col: LongColumns, text: string) =>
  `${col.names[col.time]}: ${text} is not on the hour (hourly values, period-beginning)`;

/**
 * The long layout of a CSV, read in place from the CSV reader's batches. Each batch yielded is the
 * same object, refilled: read it before asking for the next.
 */
export async function* longCsv(batches: AsyncIterable<CsvBatch>, ctx: LayoutContext): AsyncGenerator<Observations> {
  let col: LongColumns | null = null;
  const timeOf = instantReader(ctx.timezone);
  const stampOf = instantReader(ctx.timezone);
  // The id, unit, issue time and quantile of the row before, as written (their bytes): rows of a
  // target, and of a run, follow each other — each is compared in place and read when it changes.
  let lastId: Uint8Array | undefined;
  let lastTarget = '';
  let lastUnit: Uint8Array | undefined;
  let scale: Scale | string = { scale: 1, offset: 0 };
  let lastQuantile: Uint8Array | undefined;
  let quantile: number | string = Number.NaN;
  let lastStampBytes: Uint8Array | undefined;
  let lastStamp: number | string = Number.NaN;
  /** Whether field f of record r is `bytes` (compared in place). */
  const same = (batch: CsvBatch, r: number, f: number, bytes: Uint8Array | undefined) =>
    bytes !== undefined && sameBytes(batch.source(r, f), batch.fieldStart(r, f), batch.fieldEnd(r, f), bytes);
  /** Field f of record r's bytes, a copy (not a view that would hold the chunk). */
  const copied = (batch: CsvBatch, r: number, f: number) => batch.source(r, f).slice(batch.fieldStart(r, f), batch.fieldEnd(r, f));
  // One Observations for the whole file, cleared per batch: a batch is read whole before the next is
  // asked for, and new columns per batch were a tenth of the reading (allocation and garbage collection).
  const out = new Observations();
  for await (const batch of batches) {
    out.clear();
    for (let r = 0; r < batch.length; r++) {
      const line = batch.line(r);
      if (!col) {
        col = longHeader(
          Array.from({ length: batch.fieldCount(r) }, (_, f) => batch.field(r, f).trim()),
          ctx,
        );
        scale = col.scale;
        continue;
      }
      if (batch.fieldCount(r) !== col.names.length) {
        ctx.bad(line, `${batch.fieldCount(r)} fields where the header has ${col.names.length}`);
        continue;
      }
      const time = timeOf(batch.source(r, col.time), batch.fieldStart(r, col.time), batch.fieldEnd(r, col.time));
      if (typeof time === 'string') {
        ctx.bad(line, `${col.names[col.time]}: ${time}`);
        continue;
      }
      if (time % HOUR_MS !== 0) {
        ctx.bad(line, notOnTheHour(col, batch.field(r, col.time)));
        continue;
      }
      const value = valueAt(batch.source(r, col.value), batch.fieldStart(r, col.value), batch.fieldEnd(r, col.value));
      if (typeof value === 'string') {
        ctx.bad(line, `${col.valueName}: ${value}`);
        continue;
      }
      if (col.unit >= 0 && !same(batch, r, col.unit, lastUnit)) {
        lastUnit = copied(batch, r, col.unit);
        scale = ctx.scale(batch.field(r, col.unit));
      }
      if (typeof scale === 'string') {
        ctx.bad(line, scale);
        continue;
      }
      let stamp = col.fixedStamp ?? ctx.knownAt(time); // an actual without a publication time
      if (col.stamp >= 0) {
        // Every row of a run repeats its issue time: compared in place, it is read once per run.
        if (!same(batch, r, col.stamp, lastStampBytes)) {
          lastStampBytes = copied(batch, r, col.stamp);
          lastStamp = stampOf(lastStampBytes, 0, lastStampBytes.length);
        }
        if (typeof lastStamp === 'string') {
          ctx.bad(line, `${col.names[col.stamp]}: ${lastStamp}`);
          continue;
        }
        stamp = lastStamp;
      }
      if (col.quantile >= 0 && !same(batch, r, col.quantile, lastQuantile)) {
        lastQuantile = copied(batch, r, col.quantile);
        quantile = quantileOfCell(batch.field(r, col.quantile));
      }
      if (typeof quantile === 'string') {
        ctx.bad(line, `quantile: ${quantile}`);
        continue;
      }
      if (!same(batch, r, col.id, lastId)) {
        lastId = copied(batch, r, col.id);
        lastTarget = batch.field(r, col.id).trim();
      }
      out.push(line, lastTarget, time / HOUR_MS, stamp, convert(value, scale), quantile);
    }
    if (out.length) yield out;
  }
  if (!col) throw new IngestError(`${ctx.origin}: the file is empty`);
}

/** The long layout of a file read as records of cells (JSON, Parquet, Arrow; a CSV in another layout's reader). */
export async function* longLayout(records: AsyncIterable<FileRecord>, ctx: LayoutContext): AsyncGenerator<Observations> {
  let col: LongColumns | null = null;
  const timeOf = cellInstantReader(ctx.timezone);
  const stampOf = cellInstantReader(ctx.timezone);
  let lastUnit: Cell = null;
  let scale: Scale | string = { scale: 1, offset: 0 };
  yield* inBatches(records, ({ line, fields }, out) => {
    if (!col) {
      col = longHeader(
        fields.map((f) => String(f ?? '').trim()),
        ctx,
      );
      scale = col.scale;
      return;
    }
    if (fields.length !== col.names.length) {
      ctx.bad(line, `${fields.length} fields where the header has ${col.names.length}`);
      return;
    }
    const time = timeOf(fields[col.time]);
    if (typeof time === 'string') {
      ctx.bad(line, `${col.names[col.time]}: ${time}`);
      return;
    }
    if (time % HOUR_MS !== 0) {
      ctx.bad(line, notOnTheHour(col, String(fields[col.time])));
      return;
    }
    const value = cellValue(fields[col.value]);
    if (typeof value === 'string') {
      ctx.bad(line, `${col.valueName}: ${value}`);
      return;
    }
    if (col.unit >= 0 && fields[col.unit] !== lastUnit) {
      lastUnit = fields[col.unit];
      scale = ctx.scale(lastUnit === null ? undefined : String(lastUnit));
    }
    if (typeof scale === 'string') {
      ctx.bad(line, scale);
      return;
    }
    let stamp = col.fixedStamp ?? ctx.knownAt(time); // an actual without a publication time
    if (col.stamp >= 0) {
      const t = stampOf(fields[col.stamp]);
      if (typeof t === 'string') {
        ctx.bad(line, `${col.names[col.stamp]}: ${t}`);
        return;
      }
      stamp = t;
    }
    const quantile = col.quantile >= 0 ? quantileOfCell(fields[col.quantile]) : Number.NaN;
    if (typeof quantile === 'string') {
      ctx.bad(line, `quantile: ${quantile}`);
      return;
    }
    const id = fields[col.id];
    if (typeof id !== 'string') {
      ctx.bad(line, `id: ${id === null ? 'missing' : `${String(id)} is not text`}`);
      return;
    }
    out.push(line, id.trim(), time / HOUR_MS, stamp, convert(value, scale), quantile);
  });
  if (!col) throw new IngestError(`${ctx.origin}: the file is empty`);
}
