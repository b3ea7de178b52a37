/**
 * Local civil time for the ISOs' IANA zones, built on the ICU data Node ships.
 * Offsets are looked up once per (zone, epoch hour) and cached, because a year-long
 * response formats thousands of local timestamps.
 */
import { DAY_HOURS, HOUR_MS, formatOffset } from './hours.ts';

/** A civil date (no zone). `month` is 1-12. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, Map<number, number>>();
/** The zone offsetMinutesAtHour read last, and its cache. */
let lastZone: string | null = null;
let lastZoneCache: Map<number, number> | null = null;

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC in minutes at the instant `ms` (e.g. -300 for EST). */
export function offsetMinutesAt(zone: string, ms: number): number {
  const parts = formatterFor(zone).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const wallAsUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const wholeSecondMs = Math.floor(ms / 1000) * 1000;
  return Math.round((wallAsUtc - wholeSecondMs) / 60_000);
}

/**
 * Offset in minutes at an epoch hour. US zones change offset only on whole hours and at
 * most once a day, so one lookup at each end of a UTC day settles all its hours unless a
 * transition falls inside it.
 */
export function offsetMinutesAtHour(zone: string, hour: number): number {
  // Requests read one zone many times in a row: its cache is found without hashing the name.
  let cache = zone === lastZone ? lastZoneCache! : offsetCache.get(zone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(zone, cache);
  }
  lastZone = zone;
  lastZoneCache = cache;
  const day = Math.floor(hour / DAY_HOURS);
  let perDay = cache.get(day);
  if (perDay === undefined) {
    const first = offsetMinutesAt(zone, day * DAY_HOURS * HOUR_MS);
    const last = offsetMinutesAt(zone, (day * DAY_HOURS + DAY_HOURS - 1) * HOUR_MS);
    perDay = first === last ? first : -100_000; // marker: this day has a transition
    if (cache.size > 100_000) cache.clear();
    cache.set(day, perDay);
  }
  return perDay !== -100_000 ? perDay : offsetMinutesAt(zone, hour * HOUR_MS);
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** `2026-03-08T03:00:00-05:00`: the instant in the zone's wall time with its true offset. */
export function formatLocalHour(zone: string, hour: number): string {
  const off = offsetMinutesAtHour(zone, hour);
  const d = new Date(hour * HOUR_MS + off * 60_000);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:` +
    `${pad2(d.getUTCMinutes())}:00${formatOffset(off)}`
  );
}

/** The local civil date an epoch hour falls in. */
export function localDateOfHour(zone: string, hour: number): CivilDate {
  const d = new Date(hour * HOUR_MS + offsetMinutesAtHour(zone, hour) * 60_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Local hour of day (0-23) of an epoch hour. */
export function localHourOfDay(zone: string, hour: number): number {
  return new Date(hour * HOUR_MS + offsetMinutesAtHour(zone, hour) * 60_000).getUTCHours();
}

export function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole days from a to b (b − a). */
export function daysBetween(a: CivilDate, b: CivilDate): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

export function compareDates(a: CivilDate, b: CivilDate): number {
  return daysBetween(b, a);
}

export function formatDate(date: CivilDate): string {
  return `${date.year}-${pad2(date.month)}-${pad2(date.day)}`;
}

export function parseDate(s: string): CivilDate {
  const [y, m, d] = s.split('-').map(Number);
  return { year: y, month: m, day: d };
}

/**
 * The UTC epoch hour of local wall time `hourOfDay`:00 on `date`. A wall time that does
 * not exist (the skipped hour of a spring-forward day) resolves to the hour after the gap,
 * and an ambiguous one (the repeated hour of a fall-back day) to the earlier instant —
 * Temporal's "compatible" disambiguation.
 */
export function localWallHourToEpochHour(zone: string, date: CivilDate, hourOfDay: number): number {
  const wallAsUtcHour = Date.UTC(date.year, date.month - 1, date.day, hourOfDay) / HOUR_MS;
  // Candidates: the wall time read with the offsets in force a day either side of it.
  const offBefore = offsetMinutesAtHour(zone, wallAsUtcHour - DAY_HOURS) / 60;
  const offAfter = offsetMinutesAtHour(zone, wallAsUtcHour + DAY_HOURS) / 60;
  // The earlier candidate first: the earliest valid reading wins.
  const earlier = Math.min(wallAsUtcHour - offBefore, wallAsUtcHour - offAfter);
  const later = Math.max(wallAsUtcHour - offBefore, wallAsUtcHour - offAfter);
  if (earlier + offsetMinutesAtHour(zone, earlier) / 60 === wallAsUtcHour) return earlier;
  if (later + offsetMinutesAtHour(zone, later) / 60 === wallAsUtcHour) return later;
  // Nonexistent wall time: shift forward by the gap, i.e. read it with the earlier offset.
  return wallAsUtcHour - offBefore;
}

/** First epoch hour of local day `date` (US zones never skip midnight). */
export function localDayStartHour(zone: string, date: CivilDate): number {
  return localWallHourToEpochHour(zone, date, 0);
}
