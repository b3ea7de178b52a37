/**
 * Writes Frames as the public service's TimeseriesResponse JSON. Large frames are
 * streamed column by column, computing each column only when the client is ready for
 * it, so memory stays flat whatever the size; small ones are sent as one string so that
 * compression can skip bodies under 1 KB.
 */
import { Readable } from 'node:stream';
import type { Frame } from '../query/frame.ts';
import { formatUtcHour, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import { formatLocalHour } from '../time/zones.ts';

/** Above this many values a frame is streamed rather than built as one string. */
const STREAM_ABOVE_VALUES = 20_000;

/**
 * Text of small non-negative rounded values, by decimals then by the value in units of
 * the last decimal: number-to-string conversion is the writer's main cost, and output
 * values repeat (0, capacity, common MW levels), so each text is made once per process.
 */
const TEXT_CACHE_SIZE = 1 << 20;
const textCaches = new Map<number, (string | undefined)[]>();

function textCache(decimals: number): (string | undefined)[] {
  let cache = textCaches.get(decimals);
  if (!cache) {
    cache = new Array<string | undefined>(TEXT_CACHE_SIZE);
    textCaches.set(decimals, cache);
  }
  return cache;
}

/** `[1.5,null,2]` with values rounded to `decimals` places; NaN and ±Infinity are null. */
export function formatValues(values: Float64Array, decimals: number): string {
  const scale = 10 ** decimals;
  const cache = textCache(decimals);
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) {
      parts[i] = 'null';
      continue;
    }
    const units = Math.round(v * scale);
    if (units >= 0 && units < TEXT_CACHE_SIZE) {
      parts[i] = cache[units] ??= String(units / scale);
    } else {
      parts[i] = String(units / scale);
    }
  }
  return '[' + parts.join(',') + ']';
}

function header(frame: Frame): string {
  const utc = new Array<string>(frame.hours.length);
  const local = new Array<string>(frame.hours.length);
  for (let i = 0; i < frame.hours.length; i++) {
    utc[i] = formatUtcHour(frame.hours[i]);
    local[i] = formatLocalHour(frame.timezone, frame.hours[i]);
  }
  return (
    `{"model":${JSON.stringify(frame.model)},` +
    `"created_at":${frame.createdAtHour === null ? 'null' : JSON.stringify(formatUtcInstant(frame.createdAtHour * HOUR_MS))},` +
    `"units":${JSON.stringify(frame.units)},"timezone":${JSON.stringify(frame.timezone)},` +
    `"time_utc":${JSON.stringify(utc)},"time_local":${JSON.stringify(local)},` +
    `"columns":${JSON.stringify(frame.columns.map((c) => c.label))},"values":[`
  );
}

/**
 * The response body in pieces: the header, then one piece per column, then the close. With an
 * aborted `signal` (the client has gone) no further column is computed.
 */
export function* frameJsonPieces(frame: Frame, signal?: AbortSignal): Generator<string> {
  yield header(frame);
  const buffer = new Float64Array(frame.hours.length);
  for (let c = 0; c < frame.columns.length; c++) {
    if (signal?.aborted) return;
    buffer.fill(Number.NaN);
    frame.columns[c].fill(buffer);
    yield (c > 0 ? ',' : '') + formatValues(buffer, frame.columns[c].decimals ?? frame.decimals);
  }
  yield ']}';
}

export function isLargeFrame(frame: Frame): boolean {
  return frame.hours.length * frame.columns.length > STREAM_ABOVE_VALUES;
}

/** A small frame as one string, a large one as a lazily pulled stream that stops when `signal` aborts. */
export function frameBody(frame: Frame, signal?: AbortSignal): string | Readable {
  if (!isLargeFrame(frame)) return [...frameJsonPieces(frame)].join('');
  const stream = Readable.from(frameJsonPieces(frame, signal), { objectMode: false, highWaterMark: 1 });
  signal?.addEventListener('abort', () => stream.destroy(), { once: true });
  return stream;
}
