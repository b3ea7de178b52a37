/**
 * Splitting a start/end window into requests the API accepts: it answers 422 for more than
 * 365 days between start and end, so the client asks for consecutive chunks and joins them.
 *
 * - Instants (`2025-01-01T00:00:00Z`, a Date, a datetime without offset = UTC) step by
 *   exactly 365 days; consecutive chunks share the boundary instant, as the official Python
 *   client's do, and the joiner drops the row that comes twice.
 * - Bare dates (`2025-01-01`, a local day of the ISO, whose end includes the whole day) step
 *   by 365 local days: [D, D+364], [D+365, D+729], … — whole days, no overlap.
 *
 * The client cannot know the ISO's time zone, so where a date meets an instant it reckons
 * conservatively (a local midnight in North America is 4–10 hours after UTC midnight): a
 * window it leaves whole is always one the server accepts, at worst it splits one that
 * would have fitted.
 */
import { formatQueryValue } from './http.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The API's longest window, start to end. */
export const MAX_WINDOW_DAYS = 365;
const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;
/** A local day ends at most this long after the UTC midnight that follows it (UTC−12 and east). */
const LATEST_LOCAL_MIDNIGHT_MS = 12 * HOUR_MS;

type Bound = { kind: 'date'; day: number } | { kind: 'instant'; ms: number };

/** One request's window, as query values. */
export interface ChunkWindow {
  start: string;
  end: string;
}

/** A bare date, or a datetime (an offset or Z; none means UTC, as the server reads it); undefined for anything else. */
function parseBound(value: string | Date): Bound | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : { kind: 'instant', ms: value.getTime() };
  const text = value.trim();
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) return { kind: 'date', day: Date.UTC(+date[1], +date[2] - 1, +date[3]) / DAY_MS };
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) return undefined;
  const iso = text.replace(' ', 'T');
  const ms = Date.parse(/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso.slice(16)) ? iso : `${iso}Z`);
  return Number.isNaN(ms) ? undefined : { kind: 'instant', ms };
}

function formatBound(b: Bound): string {
  return b.kind === 'instant' ? formatQueryValue(new Date(b.ms)) : new Date(b.day * DAY_MS).toISOString().slice(0, 10);
}

/** Whether the server accepts start..end (conservatively where a date meets an instant). */
function fits(start: Bound, end: Bound): boolean {
  if (start.kind === 'date' && end.kind === 'date') return end.day - start.day + 1 <= MAX_WINDOW_DAYS;
  const startMs = start.kind === 'date' ? start.day * DAY_MS : start.ms;
  const endMs = end.kind === 'date' ? (end.day + 1) * DAY_MS + LATEST_LOCAL_MIDNIGHT_MS - HOUR_MS : end.ms;
  return endMs - startMs <= MAX_WINDOW_MS;
}

/**
 * The windows to request for start..end: one (exactly as given) when the server accepts it,
 * else consecutive chunks of at most 365 days. Undefined when a bound is in a form the
 * client does not read (the server then judges the window as given).
 */
export function planWindows(start: string | Date, end: string | Date): ChunkWindow[] | undefined {
  const s = parseBound(start);
  const e = parseBound(end);
  if (!s || !e) return undefined;
  const given = (b: string | Date) => (b instanceof Date ? formatQueryValue(b) : b);
  const windows: ChunkWindow[] = [];
  let cur: Bound = s;
  while (!fits(cur, e)) {
    const chunkEnd: Bound = cur.kind === 'date' ? { kind: 'date', day: cur.day + MAX_WINDOW_DAYS - 1 } : { kind: 'instant', ms: cur.ms + MAX_WINDOW_MS };
    windows.push({ start: windows.length === 0 ? given(start) : formatBound(cur), end: formatBound(chunkEnd) });
    cur = cur.kind === 'date' ? { kind: 'date', day: cur.day + MAX_WINDOW_DAYS } : chunkEnd;
  }
  windows.push({ start: windows.length === 0 ? given(start) : formatBound(cur), end: given(end) });
  return windows;
}
