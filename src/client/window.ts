/**
 * Splitting a start/end window into requests the API accepts: `end` may be at most 365 days
 * after `start`, so the client asks for consecutive chunks and joins them. The server counts
 * the days as written — a bare date as its own midnight read as UTC, a datetime as its
 * instant — and so does this planner: a window it leaves whole is one the server accepts.
 *
 * - Two bare dates (local days of the ISO; `end` includes its whole day) step by whole days:
 *   [D, D+365], [D+366, D+731], … — no overlap.
 * - Otherwise chunks end on instants 365 days apart, and consecutive chunks share that
 *   boundary instant, as the official Python client's do; the joiner drops the row that
 *   comes twice. (A chunk starting on a bare date but ending on a date would run to the end
 *   of that local day, past an instant `end`, so only date-to-date windows keep dates.)
 */
import { formatQueryValue } from './http.ts';

const DAY_MS = 86_400_000;
/** The API's longest window: end at most this many days after start. */
export const MAX_WINDOW_DAYS = 365;
const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;

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

/** The bound as the server counts it: a bare date is its midnight read as UTC. */
function countedMs(b: Bound): number {
  return b.kind === 'date' ? b.day * DAY_MS : b.ms;
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
  while (countedMs(e) - countedMs(cur) > MAX_WINDOW_MS) {
    const from = windows.length === 0 ? given(start) : formatBound(cur);
    if (cur.kind === 'date' && e.kind === 'date') {
      windows.push({ start: from, end: formatBound({ kind: 'date', day: cur.day + MAX_WINDOW_DAYS }) });
      cur = { kind: 'date', day: cur.day + MAX_WINDOW_DAYS + 1 };
    } else {
      const boundary: Bound = { kind: 'instant', ms: countedMs(cur) + MAX_WINDOW_MS };
      windows.push({ start: from, end: formatBound(boundary) });
      cur = boundary;
    }
  }
  windows.push({ start: windows.length === 0 ? given(start) : formatBound(cur), end: given(end) });
  return windows;
}
