/**
 * CSV (RFC 4180): a header row of column names, then one line per row, CRLF line ends. A missing
 * value is an empty field; time_utc is written as the JSON writes it (`2026-06-10T15:00:00Z`);
 * a field with a comma, quote or line break is quoted, with quotes doubled. Every value of a
 * double column is written as a float (`0.0`, `15.3`), so that readers which infer types from
 * the first rows (polars, pandas) type the whole column as floating point.
 */
import { formatUtcInstant } from '../../time/hours.ts';
import { asFloatText, valueTextWriter } from '../writer.ts';
import { isDictionary, linePieces, type ColumnData, type TableField, type Table, type Work } from './table.ts';

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Distinct instants of a table are few (its hours): each is formatted once. */
function timestampWriter(): (ms: number) => string {
  const texts = new Map<number, string>();
  return (ms) => {
    let text = texts.get(ms);
    if (text === undefined) {
      if (texts.size > 100_000) texts.clear();
      texts.set(ms, (text = formatUtcInstant(ms)));
    }
    return text;
  };
}

/** The text of each row of a column (the empty string for null), as a function of the row. */
function columnTexts(field: TableField, column: ColumnData, utcText: (ms: number) => string): (r: number) => string {
  if (column instanceof Float64Array) {
    if (field.type === 'timestamp') return (r) => (Number.isNaN(column[r]) ? '' : utcText(column[r]));
    const text =
      field.type !== 'double'
        ? String
        : field.decimals === undefined
          ? (v: number) => asFloatText(String(v))
          : valueTextWriter(field.decimals, true);
    return (r) => (Number.isNaN(column[r]) ? '' : text(column[r]));
  }
  if (isDictionary(column)) {
    const texts = column.dictionary.map(quoted);
    return (r) => (column.indexes[r] < 0 ? '' : texts[column.indexes[r]]);
  }
  const items = column as readonly (string | boolean | null)[];
  return (r) => (items[r] === null ? '' : quoted(String(items[r])));
}

/** The table as CSV text (or the `work.part` of it), one piece per batch of rows; the header row is the header, and there is no close. */
export async function* csvPieces(table: Table, work: Work = {}): AsyncGenerator<string> {
  if (work.part?.header ?? true) yield table.fields.map((f) => quoted(f.name)).join(',') + '\r\n';
  const utcText = timestampWriter();
  for await (const batch of table.batches(work)) {
    if (batch.rows === 0) continue;
    const texts = batch.columns.map((column, c) => columnTexts(table.fields[c], column, utcText));
    const cells = new Array<string>(texts.length);
    const line = (r: number) => {
      for (let c = 0; c < texts.length; c++) cells[c] = texts[c](r);
      return cells.join(',');
    };
    for (const piece of linePieces(batch.rows, line, '\r\n')) yield piece + '\r\n';
  }
}
