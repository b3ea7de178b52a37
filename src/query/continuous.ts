/**
 * Continuous ("stitched") forecasts: for each local day D of the window, the latest run
 * created at or before (D − days_ahead) at latest_hour:00 local time, cut to D's hours.
 * A local day has 23, 24 or 25 hours; a latest_hour that does not exist on a
 * spring-forward day resolves to the hour after the gap.
 */
import type { RunSchedule } from '../sources/schedule.ts';
import { HOUR_MS } from '../time/hours.ts';
import { addDays, compareDates, localDateOfHour, localDayStartHour, localWallHourToEpochHour, type CivilDate } from '../time/zones.ts';
import type { HourWindow } from './window.ts';

export interface StitchOptions {
  timezone: string;
  /** The runs of the source being stitched. */
  runs: RunSchedule;
  latestHour: number;
  daysAhead: number;
}

/** The instant (epoch hour) whose latest run serves local day `day`. */
export function stitchCutoffHour(o: StitchOptions, day: CivilDate): number {
  return localWallHourToEpochHour(o.timezone, addDays(day, -o.daysAhead), o.latestHour);
}

/** The run (creation epoch hour) that serves local day `day`; NaN when no run was issued by then. */
export function runForDay(o: StitchOptions, day: CivilDate): number {
  return o.runs.latestAtOrBefore(stitchCutoffHour(o, day));
}

/** The last local day whose run exists at `nowMs` (its cutoff has passed). */
export function lastStitchableDay(o: StitchOptions, nowMs: number): CivilDate {
  let day = addDays(localDateOfHour(o.timezone, Math.floor(nowMs / HOUR_MS)), o.daysAhead + 1);
  while (stitchCutoffHour(o, day) * HOUR_MS > nowMs) day = addDays(day, -1);
  return day;
}

export interface StitchedRows {
  /** Period-beginning epoch hours. */
  valid: number[];
  /** Creation hour of the run each row comes from. */
  created: number[];
}

/**
 * Rows of a continuous series over `window`, leaving out hours before `firstHour`
 * (where data begins) and days whose run does not exist yet at `nowMs`.
 */
export function stitchRows(o: StitchOptions, window: HourWindow, firstHour: number, nowMs: number): StitchedRows {
  const rows: StitchedRows = { valid: [], created: [] };
  const from = Math.max(window.startHour, firstHour);
  if (from > window.endHour) return rows;
  const lastDay = lastStitchableDay(o, nowMs);
  let day = localDateOfHour(o.timezone, from);
  // A day ends where the next begins: each day's start is found once.
  let dayStart = localDayStartHour(o.timezone, day);
  while (compareDates(day, lastDay) <= 0 && dayStart <= window.endHour) {
    const next = addDays(day, 1);
    const dayEnd = localDayStartHour(o.timezone, next);
    const created = runForDay(o, day);
    for (let h = Math.max(dayStart, from); h < dayEnd && h <= window.endHour; h++) {
      rows.valid.push(h);
      rows.created.push(created);
    }
    day = next;
    dayStart = dayEnd;
  }
  return rows;
}
