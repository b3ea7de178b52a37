/**
 * The tabular view of a response that the columnar and text writers (CSV, Parquet, Arrow)
 * share: a schema of typed columns and a lazily produced sequence of row batches. A Frame
 * becomes a table in one of two layouts (wide: one column per series; long: one row per hour
 * and series), a list of records becomes a table with one column per field.
 *
 * Values are rounded exactly as the JSON writer rounds them, so every number read back from
 * any format equals the number in the JSON response.
 */
import type { Frame } from '../../query/frame.ts';
import { formatUtcInstant, HOUR_MS } from '../../time/hours.ts';
import { formatLocalHour } from '../../time/zones.ts';

/** timestamp: UTC instants in epoch ms; json fields are written as JSON text in a string column. */
export type ColumnType = 'timestamp' | 'string' | 'double' | 'int' | 'boolean';

export interface TableField {
  name: string;
  type: ColumnType;
}

/** One batch of rows, column by column, in schema order; null is a missing value. */
export interface TableBatch {
  rows: number;
  columns: (readonly (number | string | boolean | null)[])[];
}

export interface Table {
  fields: TableField[];
  /** Descriptive key/value pairs (model, created_at, units, timezone) for formats that carry metadata. */
  metadata: Record<string, string>;
  /**
   * The rows in batches, computed as they are pulled; between series it lets the event loop turn
   * (so other requests, and a client's going away, are seen) and stops once `signal` aborts.
   */
  batches(signal?: AbortSignal): AsyncGenerator<TableBatch>;
}

export type Layout = 'wide' | 'long';

/** Values per batch: bounds the memory of a streamed batch and the size of a Parquet row group. */
const BATCH_VALUES = 100_000;

/** A value as the JSON writer writes it: rounded to `decimals` places; NaN and ±Infinity are null. */
export function roundedValue(v: number, decimals: number): number | null {
  if (!Number.isFinite(v)) return null;
  const scale = 10 ** decimals;
  return Math.round(v * scale) / scale;
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

function timeColumns(frame: Frame, zone: string): { utc: number[]; local: string[] } {
  const utc = Array.from(frame.hours, (h) => h * HOUR_MS);
  const local = Array.from(frame.hours, (h) => formatLocalHour(zone, h));
  return { utc, local };
}

/** Column `c` of the frame, filled and rounded. */
function columnValues(frame: Frame, c: number, buffer: Float64Array): (number | null)[] {
  buffer.fill(Number.NaN);
  frame.columns[c].fill(buffer);
  const decimals = frame.columns[c].decimals ?? frame.decimals;
  return Array.from(buffer, (v) => roundedValue(v, decimals));
}

/** One turn of the event loop: a long computation lets I/O (and aborts) through. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const TIME_FIELDS: TableField[] = [
  { name: 'time_utc', type: 'timestamp' },
  { name: 'time_local', type: 'string' },
];

/**
 * Wide layout: time_utc, time_local, then one column per series. A row needs every series, so
 * the frame's values are computed first (8 bytes per value) and the rows then go out in batches.
 */
function wideTable(frame: Frame): Table {
  const fields = [...TIME_FIELDS, ...frame.columns.map((c) => ({ name: wideColumnName(c.label), type: 'double' as const }))];
  return {
    fields,
    metadata: frameMetadata(frame),
    async *batches(signal) {
      const { utc, local } = timeColumns(frame, frame.timezone);
      const buffer = new Float64Array(frame.hours.length);
      // Held as rounded doubles (NaN = null), 8 bytes a value; a batch's rows become JS values only as it is written.
      const values: Float64Array[] = [];
      for (let c = 0; c < frame.columns.length; c++) {
        if (signal?.aborted) return;
        values.push(Float64Array.from(columnValues(frame, c, buffer), (v) => v ?? Number.NaN));
        await turn();
      }
      const rowsPerBatch = Math.max(1, Math.floor(BATCH_VALUES / fields.length));
      // At least one batch, so that a frame without hours still gives a file with its columns.
      let start = 0;
      do {
        if (signal?.aborted) return;
        const end = Math.min(utc.length, start + rowsPerBatch);
        const series = values.map((col) => Array.from(col.subarray(start, end), (v) => (Number.isNaN(v) ? null : v)));
        yield { rows: end - start, columns: [utc.slice(start, end), local.slice(start, end), ...series] };
        start = end;
      } while (start < utc.length);
    },
  };
}

/**
 * Long layout: one row per (hour, series): time_utc, time_local, the label levels, value. Series
 * are computed a group at a time, so memory stays flat whatever the size of the frame.
 */
function longTable(frame: Frame): Table {
  const depth = Math.max(1, ...frame.columns.map((c) => c.label.length));
  const levelNames = levelColumnNames(depth);
  return {
    fields: [...TIME_FIELDS, ...levelNames.map((name) => ({ name, type: 'string' as const })), { name: 'value', type: 'double' }],
    metadata: frameMetadata(frame),
    async *batches(signal) {
      const { utc, local } = timeColumns(frame, frame.timezone);
      const hours = utc.length;
      const buffer = new Float64Array(hours);
      const seriesPerBatch = Math.max(1, Math.floor(BATCH_VALUES / Math.max(1, hours)));
      // A frame without series still gives a file with its columns.
      if (frame.columns.length === 0) yield { rows: 0, columns: [[], [], ...levelNames.map(() => []), []] };
      for (let first = 0; first < frame.columns.length; first += seriesPerBatch) {
        const last = Math.min(frame.columns.length, first + seriesPerBatch);
        const utcOut: number[] = [];
        const localOut: string[] = [];
        const levelsOut: (string | null)[][] = levelNames.map(() => []);
        const valueOut: (number | null)[] = [];
        for (let c = first; c < last; c++) {
          if (signal?.aborted) return;
          const values = columnValues(frame, c, buffer);
          await turn();
          if (signal?.aborted) return;
          const label = frame.columns[c].label;
          for (let i = 0; i < hours; i++) {
            utcOut.push(utc[i]);
            localOut.push(local[i]);
            for (let l = 0; l < depth; l++) levelsOut[l].push(label[l] ?? null);
            valueOut.push(values[i]);
          }
        }
        yield { rows: valueOut.length, columns: [utcOut, localOut, ...levelsOut, valueOut] };
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
  const cells = columns.map((col, i) =>
    types[i] === 'json' ? col.map((v) => (v === null ? null : JSON.stringify(v))) : (col as (number | string | boolean | null)[]),
  );
  return {
    fields: names.map((name, i) => ({ name, type: types[i] === 'json' ? 'string' : (types[i] as ColumnType) })),
    metadata: {},
    async *batches() {
      yield { rows: rows.length, columns: cells };
    },
  };
}
