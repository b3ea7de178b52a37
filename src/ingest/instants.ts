/**
 * Instants and values in files to ingest: ISO 8601 text with an offset, or a wall time of a
 * declared zone (refused when that wall time is missing or ambiguous on a DST day); decimal
 * numbers. The common forms are read from bytes in place (the CSV reader's fields, never decoded
 * to strings: a file of millions of rows is mostly these); text (a cell of JSON, Parquet, Arrow, a
 * CSV in another layout's reader) goes through the same byte readers, and what they do not read
 * through the general ones.
 */
import { HOUR_MS } from '../time/hours.ts';
import { offsetMinutesAt } from '../time/zones.ts';
import type { Cell } from './observations.ts';

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The digits of bytes[at, at + n) as a number; NaN when one is not a digit. */
function digitsAt(bytes: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return Number.NaN;
    v = v * 10 + d;
  }
  return v;
}

/** Text the byte readers take: its ASCII bytes are copied here (a time or a number is short). */
const SCRATCH = new Uint8Array(64);

/** Copies text into SCRATCH; its length, or -1 when it is longer or not ASCII (then the byte readers do not apply). */
function scratchOf(text: string): number {
  if (text.length > SCRATCH.length) return -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return -1;
    SCRATCH[i] = c;
  }
  return text.length;
}

/** bytes[start, end) as text (UTF-8). */
export function textAt(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ` in bytes[at, end), the form of gridcast's exports and most files, read in
 * place without a regular expression (the ingest reads one per row); undefined for anything else,
 * which parseInstant reads.
 */
function utcSecond(bytes: Uint8Array, at: number, end: number): number | undefined {
  if (end - at !== 20 || bytes[at + 19] !== 90 || bytes[at + 10] !== 84) return undefined;
  if (bytes[at + 4] !== 45 || bytes[at + 7] !== 45 || bytes[at + 13] !== 58 || bytes[at + 16] !== 58) return undefined;
  const mo = digitsAt(bytes, at + 5, 2);
  const d = digitsAt(bytes, at + 8, 2);
  const h = digitsAt(bytes, at + 11, 2);
  const mi = digitsAt(bytes, at + 14, 2);
  if (!(mo >= 1 && mo <= 12 && d <= 31 && h <= 23 && mi <= 59)) return undefined;
  const y = digitsAt(bytes, at, 4);
  const s = digitsAt(bytes, at + 17, 2);
  // Years before 100 mean 19xx to Date.UTC: left to parseInstant, which uses it.
  if (!(y >= 100 && s >= 0)) return undefined;
  return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + s * 1000;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil); a day past
 * its month's end runs on into the next month, as in Date.UTC. Integer arithmetic only: the
 * ingest reads a time per row.
 */
function daysFromCivil(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** An instant (ms) from ISO 8601 text, or the reason it is not one. */
export function parseInstant(text: string, zone: string | undefined): number | string {
  const n = scratchOf(text);
  const fast = n < 0 ? undefined : utcSecond(SCRATCH, 0, n);
  if (fast !== undefined) return fast;
  const m = TIME.exec(text.trim());
  if (!m) return `'${text.slice(0, 40)}' is not an ISO 8601 date and time`;
  const [, y, mo, d, h, mi, s, off] = m;
  const naive = Date.UTC(+y, +mo - 1, +d, +h, +mi, s ? +s : 0);
  if (Number.isNaN(naive) || +mo < 1 || +mo > 12 || +d > 31 || +h > 23 || +mi > 59) return `'${text}' is not a valid date and time`;
  if (off) {
    if (off === 'Z') return naive;
    const sign = off[0] === '-' ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    return naive - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
  }
  return wallTime(naive, zone, text);
}

/** The instant of a wall time (`naive`: its fields read as UTC) in `zone`, or the reason there is none. */
export function wallTime(naive: number, zone: string | undefined, text: string): number | string {
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

/**
 * parseInstant of bytes[start, end), with a memory of the last text read the slow way: a file
 * repeats the same issue time on every row of a run, and the same valid time on every target's row.
 */
export function instantReader(zone: string | undefined): (bytes: Uint8Array, start: number, end: number) => number | string {
  let lastBytes = new Uint8Array(0);
  let last: number | string = '';
  return (bytes, start, end) => {
    const fast = utcSecond(bytes, start, end);
    if (fast !== undefined) return fast;
    if (!sameBytes(bytes, start, end, lastBytes)) {
      lastBytes = bytes.slice(start, end);
      last = parseInstant(textAt(bytes, start, end), zone);
    }
    return last;
  };
}

/** Whether bytes[start, end) are `other`'s bytes. */
export function sameBytes(bytes: Uint8Array, start: number, end: number, other: Uint8Array): boolean {
  if (end - start !== other.length) return false;
  for (let i = 0; i < other.length; i++) if (bytes[start + i] !== other[i]) return false;
  return true;
}

/** A cell that is not text, as a user reads it in a message. */
function cellKind(cell: Cell): string {
  if (cell === null) return 'an empty cell';
  if (typeof cell === 'number') return `the number ${cell}`;
  return `the ${typeof cell} ${String(cell)}`;
}

/** parseInstant of a cell (remembering the last text: see instantReader), or a timestamp of a Parquet/Arrow column. */
export function cellInstantReader(zone: string | undefined): (cell: Cell) => number | string {
  let lastText = '';
  let last: number | string = '';
  return (cell) => {
    if (typeof cell === 'string') {
      if (cell !== lastText) {
        lastText = cell;
        last = parseInstant(cell, zone);
      }
      return last;
    }
    if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? 'not a valid date and time' : cell.getTime();
    return `${cellKind(cell)} where a date and time is expected`;
  };
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * `[-]digits[.digits]` with at most 15 digits in bytes[start, end), read in place without a
 * regular expression; undefined for anything else. Exactly Number(text): the digits as an integer
 * and the power of ten are both exact doubles, so their quotient is the correctly rounded value,
 * as Number's is.
 */
function shortDecimal(bytes: Uint8Array, start: number, end: number): number | undefined {
  if (end === start || end - start > 17) return undefined;
  const negative = bytes[start] === 45;
  let digits = 0;
  let scale = -1; // digits after the point; -1 before one is seen
  let m = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) {
    const c = bytes[i];
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (scale >= 0) scale++;
    } else if (c === 46 && scale < 0) scale = 0;
    else return undefined;
  }
  if (digits === 0 || digits > 15) return undefined;
  const v = scale > 0 ? m / POWERS_OF_TEN[scale] : m;
  return negative ? -v : v;
}

/** A value that is not a short decimal: empty or `null` is no value (NaN); anything else must be a finite decimal number. */
function generalValue(text: string): number | string {
  const t = text.trim();
  if (t === '' || t === 'null') return Number.NaN;
  const v = Number(t);
  if (!Number.isFinite(v) || !NUMBER.test(t)) return `'${t.slice(0, 40)}' is not a finite number (leave it empty for no value)`;
  return v;
}

/** A value from text: empty or `null` is no value (NaN); anything else must be a finite decimal number. */
export function parseValue(text: string): number | string {
  const n = scratchOf(text);
  return (n < 0 ? undefined : shortDecimal(SCRATCH, 0, n)) ?? generalValue(text);
}

/** parseValue of bytes[start, end) (read in place). */
export function valueAt(bytes: Uint8Array, start: number, end: number): number | string {
  return shortDecimal(bytes, start, end) ?? generalValue(textAt(bytes, start, end));
}

/** parseValue of a cell: text as parseValue reads it; a number must be finite; null is no value. */
export function cellValue(cell: Cell): number | string {
  if (typeof cell === 'string') return parseValue(cell);
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : `${cell} is not a finite number (leave it empty for no value)`;
  if (cell === null) return Number.NaN;
  return `${cellKind(cell)} where a number is expected`;
}
