/**
 * The time window of a request, from its `start`/`end` parameters.
 *
 * - A bare date (`2026-03-01`) names a local day of the ISO: as `start` it means that
 *   day's first hour, as `end` its last hour, so `start=2026-03-01&end=2026-03-07` is
 *   seven whole local days.
 * - A datetime with an offset (`…Z`, `…-05:00`) is that instant; a datetime without one
 *   is read as UTC, like `forecasted_by`.
 * - Both ends are inclusive: a row (an hour, period-beginning) is in the window when its
 *   first instant lies in [start, end].
 * - `end` may be at most 365 days after `start`, counted as users count (and as the official
 *   client splits longer spans): between the dates as written when both are bare dates — so a
 *   whole calendar year, leap years included (2024-01-01 to 2024-12-31), always fits, and so
 *   does a client's 365-day chunk — else between the instants.
 */
import { HOUR_MS, formatUtcInstant } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import { queryValueError } from './errors.ts';

/** A `start`/`end` value as the API layer parsed it. */
export interface RequestInstant {
  epochMs: number;
  dateOnly: boolean;
  /** The raw parameter text, echoed in errors. */
  raw: string;
}

/** Inclusive range of period-beginning epoch hours. */
export interface HourWindow {
  startHour: number;
  endHour: number;
}

export const MAX_WINDOW_DAYS = 365;

function civilOfNaive(ms: number): CivilDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** First hour a `start` value admits. */
export function startHourOf(value: RequestInstant, timezone: string): number {
  if (value.dateOnly) return localDayStartHour(timezone, civilOfNaive(value.epochMs));
  return Math.ceil(value.epochMs / HOUR_MS);
}

/** Last hour an `end` value admits. */
export function endHourOf(value: RequestInstant, timezone: string): number {
  if (value.dateOnly) return localDayStartHour(timezone, addDays(civilOfNaive(value.epochMs), 1)) - 1;
  return Math.floor(value.epochMs / HOUR_MS);
}

export interface WindowDefaults {
  /** The last hour that has data now; the default end. */
  lastHour: number;
  /** Length of the default window in local days. */
  days: number;
}

/**
 * Resolves the request's window. Without `start` the window opens `defaults.days` local
 * days before its end; without `end` it closes at the last hour with data (but never more
 * than 365 days after an explicit start).
 */
export function resolveWindow(
  start: RequestInstant | undefined,
  end: RequestInstant | undefined,
  timezone: string,
  defaults: WindowDefaults,
): HourWindow {
  if (start && end) {
    const s = startHourOf(start, timezone);
    const e = endHourOf(end, timezone);
    const startMs = start.dateOnly ? s * HOUR_MS : start.epochMs;
    const endMs = end.dateOnly ? e * HOUR_MS : end.epochMs;
    if (endMs < startMs) {
      throw queryValueError('end', end.raw, `end (${formatUtcInstant(endMs)}) is before start (${formatUtcInstant(startMs)})`);
    }
    // A bare date's epochMs is its own midnight read as UTC, so for two dates this is the
    // whole number of days between them, whatever the ISO's zone and DST.
    const days = (end.epochMs - start.epochMs) / (24 * HOUR_MS);
    if (days > MAX_WINDOW_DAYS) {
      const span = Number.isInteger(days) ? `${days}` : days.toFixed(1);
      throw queryValueError(
        'end',
        end.raw,
        `end is ${span} days after start; it may be at most ${MAX_WINDOW_DAYS} days after start ` +
          `(a whole calendar year such as 2024-01-01 to 2024-12-31 always fits): split longer spans`,
      );
    }
    return { startHour: s, endHour: e };
  }
  if (start) {
    const s = startHourOf(start, timezone);
    return { startHour: s, endHour: Math.min(defaults.lastHour, s + MAX_WINDOW_DAYS * 24) };
  }
  const e = end ? endHourOf(end, timezone) : defaults.lastHour;
  const firstDay = addDays(localDateOfHour(timezone, e), -(defaults.days - 1));
  return { startHour: localDayStartHour(timezone, firstDay), endHour: e };
}
