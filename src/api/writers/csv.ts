/**
 * CSV (RFC 4180): a header row of column names, then one line per row, CRLF line ends. A missing
 * value is an empty field; time_utc is written as the JSON writes it (`2026-06-10T15:00:00Z`);
 * a field with a comma, quote or line break is quoted, with quotes doubled.
 */
import { formatUtcInstant } from '../../time/hours.ts';
import type { ColumnType, Table } from './table.ts';

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function cellText(value: number | string | boolean | null, type: ColumnType): string {
  if (value === null) return '';
  if (type === 'timestamp') return formatUtcInstant(value as number);
  if (type === 'string') return quoted(value as string);
  const text = String(value);
  // A float column's whole numbers keep a decimal point (`0.0`, `100455.0`), so a reader that
  // infers types from the first rows (polars, pandas, DuckDB) types the column float from row one.
  return type === 'double' && /^-?\d+$/.test(text) ? `${text}.0` : text;
}

/** The table as CSV text, one piece per batch of rows. */
export async function* csvPieces(table: Table, signal?: AbortSignal): AsyncGenerator<string> {
  yield table.fields.map((f) => quoted(f.name)).join(',') + '\r\n';
  for await (const batch of table.batches(signal)) {
    const lines = new Array<string>(batch.rows);
    for (let r = 0; r < batch.rows; r++) {
      lines[r] = batch.columns.map((col, c) => cellText(col[r], table.fields[c].type)).join(',');
    }
    if (batch.rows > 0) yield lines.join('\r\n') + '\r\n';
  }
}
