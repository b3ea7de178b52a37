/**
 * Inside gridcast every instant of hourly data is an integer count of hours since
 * 1970-01-01T00:00Z ("epoch hour"); strings exist only at the edges.
 */
export const HOUR_MS = 3_600_000;
export const DAY_HOURS = 24;

export function epochHourOf(ms: number): number {
  return Math.floor(ms / HOUR_MS);
}

export function msOfEpochHour(hour: number): number {
  return hour * HOUR_MS;
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** `2026-03-17T06:00:00Z` — the public service's UTC timestamp form. */
export function formatUtcHour(hour: number): string {
  const d = new Date(hour * HOUR_MS);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:00:00Z`;
}

/**
 * ISO 8601 instant with a Z, no milliseconds (JS toISOString writes `.000Z`). Rounded to the
 * millisecond: an instant held in fractional epoch hours (a run issued at 09:20) comes back exact.
 */
export function formatUtcInstant(ms: number): string {
  const s = new Date(Math.round(ms)).toISOString();
  return s.endsWith('.000Z') ? s.slice(0, -5) + 'Z' : s;
}

/** ISO 8601 instant truncated to the second (`2026-03-17T06:00:05Z`), as the data API writes instants. */
export function formatUtcSecond(ms: number): string {
  return formatUtcInstant(Math.floor(ms / 1000) * 1000);
}

export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}
