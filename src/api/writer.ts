/**
 * Writes Frames as the public service's TimeseriesResponse JSON. Large frames are
 * streamed column by column, computing each column only when the client is ready for
 * it, so memory stays flat whatever the size; small ones are sent as one string so that
 * compression can skip bodies under 1 KB.
 */
import type { Frame } from '../query/frame.ts';
import { formatUtcHour, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import { formatLocalHour } from '../time/zones.ts';

/** Above this many values a frame is streamed rather than built as one string. */
const STREAM_ABOVE_VALUES = 20_000;

/**
 * Text of small non-negative rounded values, by style and decimals then by the value in units of
 * the last decimal: number-to-string conversion is the writers' main cost, and output values
 * repeat (0, capacity, common MW levels), so each text is made once per process.
 */
const TEXT_CACHE_SIZE = 1 << 20;
const textCaches = new Map<string, (string | undefined)[]>();

function textCache(decimals: number, float: boolean): (string | undefined)[] {
  const name = `${decimals}${float ? 'f' : ''}`;
  let cache = textCaches.get(name);
  if (!cache) {
    cache = new Array<string | undefined>(TEXT_CACHE_SIZE);
    textCaches.set(name, cache);
  }
  return cache;
}

/** A number's text as floating point: whole numbers get `.0` (`100455` → `100455.0`). */
export function asFloatText(text: string): string {
  return /^-?\d+$/.test(text) ? text + '.0' : text;
}

/** The text of `units / 10^decimals`; `float` writes whole numbers as `1.0`. */
function unitsText(units: number, scale: number, float: boolean): string {
  const text = String(units / scale);
  return float ? asFloatText(text) : text;
}

/**
 * A writer of finite values rounded to `decimals` places, as the JSON writer writes them (`0`,
 * `15.3`), or with `float` as floating-point text (`0.0`, `15.3`), which CSV readers (polars,
 * pandas) type as a float column from the first row on.
 */
export function valueTextWriter(decimals: number, float = false): (v: number) => string {
  const scale = 10 ** decimals;
  const cache = textCache(decimals, float);
  return (v) => {
    const units = Math.round(v * scale);
    if (units >= 0 && units < TEXT_CACHE_SIZE) return (cache[units] ??= unitsText(units, scale, float));
    return unitsText(units, scale, float);
  };
}

/** `[1.5,null,2]` with values rounded to `decimals` places; NaN and ±Infinity are null. */
export function formatValues(values: Float64Array, decimals: number): string {
  const text = valueTextWriter(decimals);
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = Number.isFinite(v) ? text(v) : 'null';
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
 * Which part of a response body a generator writes: its parts [from, to) — the columns of a JSON
 * body, the row blocks of a wide table (writers/table.ts) — with or without the header before
 * them and the close after them. `to` may be lowered while it runs (the compute pool hands the
 * rest to another worker), and may be larger than the body's parts (to the end). The parts of
 * one body, concatenated in order, are byte for byte the whole body.
 */
export interface BodyPart {
  from: number;
  to: number;
  header: boolean;
  close: boolean;
}

/** The whole body. */
export const WHOLE_BODY: Readonly<BodyPart> = { from: 0, to: Number.POSITIVE_INFINITY, header: true, close: true };

/**
 * The response body in pieces: the header, then one piece per column, then the close (or the
 * `part` of them asked for). With an aborted `signal` (the client has gone) no further column
 * is computed.
 */
export function* frameJsonPieces(frame: Frame, signal?: AbortSignal, part: BodyPart = WHOLE_BODY): Generator<string> {
  if (part.header) yield header(frame);
  const buffer = new Float64Array(frame.hours.length);
  for (let c = part.from; c < Math.min(part.to, frame.columns.length); c++) {
    if (signal?.aborted) return;
    buffer.fill(Number.NaN);
    frame.columns[c].fill(buffer);
    yield (c > 0 ? ',' : '') + formatValues(buffer, frame.columns[c].decimals ?? frame.decimals);
  }
  if (part.close) yield ']}';
}

export function isLargeFrame(frame: Frame): boolean {
  return frame.hours.length * frame.columns.length > STREAM_ABOVE_VALUES;
}
