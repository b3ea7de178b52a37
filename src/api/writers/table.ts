/**
 * The tabular view of a response that the columnar and text writers (CSV, Parquet, Arrow)
 * share: a schema of typed columns and a lazily produced sequence of row batches. A Frame
 * becomes a table in one of two layouts (wide: one column per series; long: one row per hour
 * and series), a list of records becomes a table with one column per field.
 *
 * Memory is bounded by the batch, never by the response: a wide batch is a block of rows of
 * every series, computed through the frame's row slices (query/frame.ts) so that no more than
 * BLOCK_VALUES values are held at once, whatever the number of series; a long batch is a group
 * of whole series of at most LONG_BATCH_ROWS rows. Numbers travel in Float64Arrays (8 bytes a
 * value, NaN = null), and what repeats in the long layout (local times, ids, label levels) as
 * indexes into one dictionary per table, so the writers can dictionary-encode it.
 *
 * Values are rounded exactly as the JSON writer rounds them, so every number read back from
 * any format equals the number in the JSON response.
 */
import type { Frame } from '../../query/frame.ts';
import { WHOLE_BODY, type BodyPart } from '../writer.ts';
import { formatUtcInstant, HOUR_MS } from '../../time/hours.ts';
import { formatLocalHour } from '../../time/zones.ts';

/** timestamp: UTC instants in epoch ms; json fields are written as JSON text in a string column. */
export type ColumnType = 'timestamp' | 'string' | 'double' | 'int' | 'boolean';

export interface TableField {
  name: string;
  type: ColumnType;
  /** Decimal places of a double column's values (they are rounded to it). */
  decimals?: number;
}

/** Strings as indexes into a dictionary that every batch of the table shares; -1 is null. */
export interface DictionaryColumn {
  dictionary: readonly string[];
  indexes: Int32Array;
}

/**
 * One column of a batch: numbers (double, int, timestamp in epoch ms) as a Float64Array with NaN
 * for null; strings as a list or a dictionary column; booleans as a list.
 */
export type ColumnData = Float64Array | DictionaryColumn | readonly (string | null)[] | readonly (boolean | null)[];

/** One batch of rows, column by column, in schema order. */
export interface TableBatch {
  rows: number;
  columns: ColumnData[];
}

/**
 * How a table's batches are computed: `signal` stops them (the client has gone); `turn` is
 * awaited every few milliseconds of computing — by default one turn of the event loop; the
 * compute runner passes one that also lets smaller jobs go first (compute/runner.ts).
 *
 * A body shared out between two workers (compute/pool.ts) is written in parts: `part` says which
 * of the table's parts (its batches, Table.parts) this writer writes, and whether it writes the
 * format's header and close. A writer whose close needs to know the parts before its own
 * (Parquet's footer indexes every row group) awaits `earlier()`: what the writer of those parts
 * returned when it ended (its generator's return value).
 */
export interface Work {
  signal?: AbortSignal;
  turn?: () => Promise<void>;
  part?: BodyPart;
  earlier?: () => Promise<unknown>;
}

export interface Table {
  fields: TableField[];
  /** Descriptive key/value pairs (model, created_at, units, timezone) for formats that carry metadata. */
  metadata: Record<string, string>;
  /**
   * The rows in batches, computed as they are pulled; while it computes it lets the event loop
   * turn now and then (so other requests, and a client's going away, are seen) and stops once
   * `signal` aborts.
   */
  batches(work?: Work): AsyncGenerator<TableBatch>;
  /**
   * How many parts the table's batches can be written in apart and joined (each part a run of
   * batches): a wide table's blocks; 1 for a table whose batches share state (the long layout's
   * dictionaries) or that is one batch.
   */
  parts: number;
}

export type Layout = 'wide' | 'long';

/**
 * Values held by one wide batch (16 MB of doubles): the bound on a wide table's memory, and the
 * size of a Parquet row group (a 6,000-column table gets row groups of ~350 rows, a narrow one
 * row groups of up to this many rows).
 */
export const BLOCK_VALUES = 1 << 21;
/** Rows of one long batch (series are never split between batches unless one is longer). */
export const LONG_BATCH_ROWS = 1 << 20;
/** Longest computing between two turns of the event loop, ms: how late a client's leaving (or another request) is seen. */
const MS_PER_TURN = 10;

/** Text of at most about this many characters per piece: text writers send a large batch in several pieces. */
const PIECE_CHARS = 1 << 22;

/**
 * Lines of text gathered into pieces of about PIECE_CHARS, joined by `separator`: a batch of a
 * million rows goes out in ~4 MB pieces rather than as one string of a hundred MB.
 */
export function* linePieces(rows: number, line: (r: number) => string, separator: string): Generator<string> {
  let lines: string[] = [];
  let chars = 0;
  for (let r = 0; r < rows; r++) {
    const text = line(r);
    lines.push(text);
    chars += text.length;
    if (chars >= PIECE_CHARS) {
      yield lines.join(separator);
      lines = [];
      chars = 0;
    }
  }
  if (lines.length > 0) yield lines.join(separator);
}

export function isDictionary(column: ColumnData): column is DictionaryColumn {
  return !(column instanceof Float64Array) && !Array.isArray(column);
}

/** Whole numbers (epoch ms) as int64: the two 32-bit halves of each, little-endian, no BigInt per value. */
export function int64Of(values: Float64Array): BigInt64Array {
  const out = new BigInt64Array(values.length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const high = Math.floor(values[i] / 2 ** 32);
    halves[2 * i] = values[i] - high * 2 ** 32;
    halves[2 * i + 1] = high;
  }
  return out;
}

/** Row `r` of a column as a JS value (null for a missing one). */
export function cellValue(column: ColumnData, r: number): number | string | boolean | null {
  if (column instanceof Float64Array) return Number.isNaN(column[r]) ? null : column[r];
  if (isDictionary(column)) return column.indexes[r] < 0 ? null : column.dictionary[column.indexes[r]];
  return (column as readonly (string | boolean | null)[])[r];
}

/** Rounds the values in place as the JSON writer does (NaN for null). */
function roundInPlace(values: Float64Array, decimals: number): void {
  const scale = 10 ** decimals;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    values[i] = Number.isFinite(v) ? Math.round(v * scale) / scale : Number.NaN;
  }
}

/**
 * The name of a wide column: the label's levels joined by `|`, each level with `\` written
 * as `\\` and `|` as `\|`, so that different labels never give the same name.
 */
export function wideColumnName(label: readonly string[]): string {
  return label.map((level) => level.replace(/[\\|]/g, (c) => '\\' + c)).join('|');
}

/** Names of the label levels in the long layout: `id`, then `label_1`, `label_2`, …. */
export function levelColumnNames(depth: number): string[] {
  return Array.from({ length: depth }, (_, i) => (i === 0 ? 'id' : `label_${i}`));
}

function frameMetadata(frame: Frame): Record<string, string> {
  const meta: Record<string, string> = { units: frame.units, timezone: frame.timezone };
  if (frame.model !== null) meta.model = frame.model;
  if (frame.createdAtHour !== null) meta.created_at = formatUtcInstant(frame.createdAtHour * HOUR_MS);
  return meta;
}

/** One turn of the event loop: a long computation lets I/O (and aborts) through. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Takes a turn (`work.turn`, else the event loop's) when MS_PER_TURN have passed since the last one (columns differ a thousandfold in cost). */
function pacer(work: Work) {
  let since = performance.now();
  const take = work.turn ?? turn;
  return async () => {
    if (performance.now() - since < MS_PER_TURN) return;
    await take();
    since = performance.now();
  };
}

const TIME_FIELDS: TableField[] = [
  { name: 'time_utc', type: 'timestamp' },
  { name: 'time_local', type: 'string' },
];

/** Column `c` of `frame`, computed and rounded (into `values`, one per row of the frame, when given). */
function columnOf(frame: Frame, c: number, values = new Float64Array(frame.hours.length)): Float64Array {
  values.fill(Number.NaN);
  frame.columns[c].fill(values);
  roundInPlace(values, frame.columns[c].decimals ?? frame.decimals);
  return values;
}

/**
 * Wide layout: time_utc, time_local, then one column per series. A row needs every series, so
 * the rows go out in blocks of at most BLOCK_VALUES values, each computed on its own through the
 * frame's slice (only frames small enough to hold whole have none).
 */
function wideTable(frame: Frame): Table {
  const fields: TableField[] = [
    ...TIME_FIELDS,
    ...frame.columns.map((c) => ({ name: wideColumnName(c.label), type: 'double' as const, decimals: c.decimals ?? frame.decimals })),
  ];
  const hours = frame.hours.length;
  const width = frame.columns.length;
  const rowsPerBlock = Math.max(1, Math.floor(BLOCK_VALUES / Math.max(1, width)));
  // At least one block, so that a frame without hours still gives a file with its columns.
  const blocks = Math.max(1, Math.ceil(hours / rowsPerBlock));
  return {
    fields,
    metadata: frameMetadata(frame),
    parts: blocks,
    async *batches(work = {}) {
      const signal = work.signal;
      const part = work.part ?? WHOLE_BODY;
      const pace = pacer(work);
      const whole = frame.slice ? undefined : (frame as Frame);
      // part.to is read on every block: it may be lowered meanwhile (the rest goes to another worker).
      for (let b = part.from; b < Math.min(part.to, blocks); b++) {
        const start = b * rowsPerBlock;
        const end = Math.min(hours, start + rowsPerBlock);
        const block = whole ?? frame.slice!(start, end);
        // A slice's columns in one array (an allocation per block, not per column of it).
        const rows = end - start;
        const all = whole ? undefined : new Float64Array(width * rows);
        const columns: Float64Array[] = [];
        for (let c = 0; c < width; c++) {
          if (signal?.aborted) return;
          columns.push(all ? columnOf(block, c, all.subarray(c * rows, (c + 1) * rows)) : columnOf(block, c).subarray(start, end));
          await pace();
        }
        if (signal?.aborted) return;
        const utc = new Float64Array(end - start);
        const local = new Array<string>(end - start);
        for (let i = start; i < end; i++) {
          utc[i - start] = frame.hours[i] * HOUR_MS;
          local[i - start] = formatLocalHour(frame.timezone, frame.hours[i]);
        }
        yield { rows: end - start, columns: [utc, local, ...columns] };
      }
    },
  };
}

/** The distinct strings of a list, and each item's index among them. */
function dictionaryOf(items: readonly (string | null)[]): { dictionary: string[]; indexOf: Int32Array } {
  const positions = new Map<string, number>();
  const indexOf = Int32Array.from(items, (item) => {
    if (item === null) return -1;
    let at = positions.get(item);
    if (at === undefined) positions.set(item, (at = positions.size));
    return at;
  });
  return { dictionary: [...positions.keys()], indexOf };
}

/**
 * Long layout: one row per (hour, series): time_utc, time_local, the label levels, value. Series
 * are computed a group at a time, so memory stays flat whatever the size of the frame; local
 * times and label levels are dictionary columns.
 */
function longTable(frame: Frame): Table {
  const depth = Math.max(1, ...frame.columns.map((c) => c.label.length));
  const levelNames = levelColumnNames(depth);
  return {
    fields: [...TIME_FIELDS, ...levelNames.map((name) => ({ name, type: 'string' as const })), { name: 'value', type: 'double' }],
    metadata: frameMetadata(frame),
    parts: 1,
    async *batches(work = {}) {
      const signal = work.signal;
      const hours = frame.hours.length;
      const utcOfHour = Float64Array.from(frame.hours, (h) => h * HOUR_MS);
      const localTimes = Array.from(frame.hours, (h) => formatLocalHour(frame.timezone, h));
      const levels = levelNames.map((_, l) => dictionaryOf(frame.columns.map((c) => c.label[l] ?? null)));
      const seriesPerBatch = Math.max(1, Math.floor(LONG_BATCH_ROWS / Math.max(1, hours)));
      const pace = pacer(work);
      // A frame without series still gives a file with its columns.
      if (frame.columns.length === 0) {
        const empty = (dictionary: readonly string[]) => ({ dictionary, indexes: new Int32Array(0) });
        yield {
          rows: 0,
          columns: [new Float64Array(0), empty(localTimes), ...levels.map((l) => empty(l.dictionary)), new Float64Array(0)],
        };
      }
      for (let first = 0; first < frame.columns.length; first += seriesPerBatch) {
        const last = Math.min(frame.columns.length, first + seriesPerBatch);
        const rows = (last - first) * hours;
        const utc = new Float64Array(rows);
        const local = new Int32Array(rows);
        const levelIndexes = levels.map(() => new Int32Array(rows));
        const value = new Float64Array(rows);
        for (let c = first; c < last; c++) {
          if (signal?.aborted) return;
          const at = (c - first) * hours;
          value.set(columnOf(frame, c), at);
          utc.set(utcOfHour, at);
          for (let i = 0; i < hours; i++) local[at + i] = i;
          levels.forEach((level, l) => levelIndexes[l].fill(level.indexOf[c], at, at + hours));
          await pace();
        }
        if (signal?.aborted) return;
        yield {
          rows,
          columns: [
            utc,
            { dictionary: localTimes, indexes: local },
            ...levels.map((level, l) => ({ dictionary: level.dictionary, indexes: levelIndexes[l] })),
            value,
          ],
        };
      }
    },
  };
}

export function frameTable(frame: Frame, layout: Layout): Table {
  return layout === 'long' ? longTable(frame) : wideTable(frame);
}

/** The column type that holds every non-null value of a field; anything else is JSON text. */
function fieldType(values: unknown[]): ColumnType | 'json' {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return 'string';
  if (present.every((v) => typeof v === 'string')) return 'string';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.every((v) => typeof v === 'number')) {
    return present.every((v) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31) ? 'int' : 'double';
  }
  return 'json';
}

/** A record field's values as a batch column of its type. */
function recordColumn(values: unknown[], type: ColumnType | 'json'): ColumnData {
  if (type === 'int' || type === 'double') return Float64Array.from(values, (v) => (typeof v === 'number' ? v : Number.NaN));
  if (type === 'json') return values.map((v) => (v === null ? null : JSON.stringify(v)));
  return values as (string | null)[] | (boolean | null)[];
}

/**
 * A list of records: one column per field, in order of first appearance; nested values (a
 * GeoJSON geometry, a list) and fields of mixed types are JSON text. Lists are small (at most a
 * few thousand records), so they go out as one batch.
 */
export function recordsTable(records: readonly unknown[]): Table {
  const rows = records.map((r) => (r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : {}));
  const names: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const name of Object.keys(row)) {
      if (!seen.has(name)) {
        seen.add(name);
        names.push(name);
      }
    }
  }
  const columns = names.map((name) => rows.map((row) => row[name] ?? null));
  const types = columns.map(fieldType);
  return {
    fields: names.map((name, i) => ({ name, type: types[i] === 'json' ? 'string' : (types[i] as ColumnType) })),
    metadata: {},
    parts: 1,
    async *batches() {
      yield { rows: rows.length, columns: columns.map((col, i) => recordColumn(col, types[i])) };
    },
  };
}
