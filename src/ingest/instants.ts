/**
 * Instants in files to ingest: ISO 8601 text with an offset, or a wall time of a declared zone
 * (refused when that wall time is missing or ambiguous on a DST day).
 */
import { HOUR_MS } from '../time/hours.ts';
import { offsetMinutesAt } from '../time/zones.ts';
import type { Cell } from './observations.ts';

const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** An instant (ms) from ISO 8601 text, or the reason it is not one. */
export function parseInstant(text: string, zone: string | undefined): number | string {
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

/** A cell that is not text, as a user reads it in a message. */
function cellKind(cell: Cell): string {
  if (cell === null) return 'an empty cell';
  if (typeof cell === 'number') return `the number ${cell}`;
  return `the ${typeof cell} ${String(cell)}`;
}

/**
 * An instant from a cell (ISO 8601 text, or a timestamp of a Parquet/Arrow column), with a memory
 * of the last text: a file repeats the same issue time on every row of a run, and the same valid
 * time on every target's row.
 */
export function instantReader(zone: string | undefined): (cell: Cell) => number | string {
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

/**
 * A value from a cell: empty or `null` is no value (NaN); anything else must be a finite number
 * (text: a decimal number).
 */
export function parseValue(cell: Cell): number | string {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : `${cell} is not a finite number (leave it empty for no value)`;
  if (cell === null) return Number.NaN;
  if (typeof cell !== 'string') return `${cellKind(cell)} where a number is expected`;
  const t = cell.trim();
  if (t === '' || t === 'null') return Number.NaN;
  const v = Number(t);
  if (!Number.isFinite(v) || !NUMBER.test(t)) return `'${t.slice(0, 40)}' is not a finite number (leave it empty for no value)`;
  return v;
}
