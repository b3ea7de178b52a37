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

/** Longest text of a value beyond the text caches (`String` of a double: at most 24 characters). */
const MAX_VALUE_TEXT = 24;
/**
 * Bytes of a byte cache slot: the cached values' texts (units below 2^20, so at most 7 digits and
 * a point: `104857.5`) are at most 8 bytes long, and a slot is copied whole.
 */
const SLOT_BYTES = 8;

/**
 * The ASCII bytes of small non-negative rounded values, like textCache's strings: a fixed slot per
 * value in units of the last decimal, and its length (0: not made yet). Only the slots of values
 * that occur are touched, so only their pages take memory.
 */
interface ByteCache {
  slots: Uint8Array;
  lengths: Uint8Array;
}
const byteCaches = new Map<number, ByteCache>();

function byteCache(decimals: number): ByteCache {
  let cache = byteCaches.get(decimals);
  if (!cache) {
    cache = { slots: new Uint8Array(TEXT_CACHE_SIZE * SLOT_BYTES), lengths: new Uint8Array(TEXT_CACHE_SIZE) };
    byteCaches.set(decimals, cache);
  }
  return cache;
}

/** Scratch for one column's JSON bytes (grown as needed; its bytes are copied out). */
let scratch = new Uint8Array(64 * 1024);

/**
 * `[1.5,null,2]` (prefixed by `prefix`, ASCII) as bytes, with values rounded to `decimals` places;
 * NaN and ±Infinity are null. The values' texts are valueTextWriter's, written straight into bytes
 * from per-value cached bytes: the strings, their join and their UTF-8 encoding cost the warm large
 * request about as much as JSON.stringify of its whole body.
 */
export function formatValueBytes(values: Float64Array, decimals: number, prefix = ''): Uint8Array {
  const bound = prefix.length + 2 + values.length * (MAX_VALUE_TEXT + 1);
  if (scratch.length < bound) scratch = new Uint8Array(bound);
  const out = scratch;
  const { slots, lengths } = byteCache(decimals);
  const scale = 10 ** decimals;
  let at = 0;
  for (let k = 0; k < prefix.length; k++) out[at++] = prefix.charCodeAt(k);
  out[at++] = 0x5b; // [
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // NaN fails both comparisons, ±Infinity the second: the common case tests nothing else.
    const units = Math.round(v * scale);
    if (units >= 0 && units < TEXT_CACHE_SIZE) {
      let n = lengths[units];
      const slot = units * SLOT_BYTES;
      if (n === 0) {
        const text = unitsText(units, scale, false);
        n = text.length;
        for (let k = 0; k < n; k++) slots[slot + k] = text.charCodeAt(k);
        lengths[units] = n;
      }
      // All 8 bytes of the slot, without a loop over the text's length (bytes past it are overwritten next).
      out[at] = slots[slot];
      out[at + 1] = slots[slot + 1];
      out[at + 2] = slots[slot + 2];
      out[at + 3] = slots[slot + 3];
      out[at + 4] = slots[slot + 4];
      out[at + 5] = slots[slot + 5];
      out[at + 6] = slots[slot + 6];
      out[at + 7] = slots[slot + 7];
      at += n;
    } else if (Number.isFinite(v)) {
      const text = unitsText(units, scale, false);
      for (let k = 0; k < text.length; k++) out[at++] = text.charCodeAt(k);
    } else {
      out[at++] = 0x6e; // null
      out[at++] = 0x75;
      out[at++] = 0x6c;
      out[at++] = 0x6c;
    }
    out[at++] = 0x2c; // ,
  }
  // The last value's comma becomes the close (an empty list has none).
  if (values.length > 0) at--;
  out[at++] = 0x5d; // ]
  return out.slice(0, at);
}

/**
 * Texts of the time axis by hour, made once per process: the large warm request's axis (7,752
 * hours, each a Date and a zone offset to format) cost about a twelfth of JSON.stringify of its
 * whole body when it was formatted anew for every request. Bounded: past MAX_AXIS_TEXTS hours a
 * cache starts over.
 */
const MAX_AXIS_TEXTS = 1 << 18;
const utcTexts = new Map<number, string>();
const localTexts = new Map<string, Map<number, string>>();

function axisText(texts: Map<number, string>, hour: number, format: (hour: number) => string): string {
  let text = texts.get(hour);
  if (text === undefined) {
    if (texts.size >= MAX_AXIS_TEXTS) texts.clear();
    text = format(hour);
    texts.set(hour, text);
  }
  return text;
}

/** `["…","…"]` of the hours' texts (their characters need no JSON escaping: digits, `-:+TZ`). */
function axisJson(hours: ArrayLike<number>, texts: Map<number, string>, format: (hour: number) => string): string {
  const parts = new Array<string>(hours.length);
  for (let i = 0; i < hours.length; i++) parts[i] = axisText(texts, hours[i], format);
  return parts.length === 0 ? '[]' : `["${parts.join('","')}"]`;
}

function header(frame: Frame): string {
  let local = localTexts.get(frame.timezone);
  if (!local) localTexts.set(frame.timezone, (local = new Map()));
  const zone = frame.timezone;
  return (
    `{"model":${JSON.stringify(frame.model)},` +
    `"created_at":${frame.createdAtHour === null ? 'null' : JSON.stringify(formatUtcInstant(frame.createdAtHour * HOUR_MS))},` +
    `"units":${JSON.stringify(frame.units)},"timezone":${JSON.stringify(frame.timezone)},` +
    `"time_utc":${axisJson(frame.hours, utcTexts, formatUtcHour)},` +
    `"time_local":${axisJson(frame.hours, local, (hour) => formatLocalHour(zone, hour))},` +
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
export function* frameJsonPieces(frame: Frame, signal?: AbortSignal, part: BodyPart = WHOLE_BODY): Generator<string | Uint8Array> {
  if (part.header) yield header(frame);
  const buffer = new Float64Array(frame.hours.length);
  for (let c = part.from; c < Math.min(part.to, frame.columns.length); c++) {
    if (signal?.aborted) return;
    buffer.fill(Number.NaN);
    frame.columns[c].fill(buffer);
    yield formatValueBytes(buffer, frame.columns[c].decimals ?? frame.decimals, c > 0 ? ',' : '');
  }
  if (part.close) yield ']}';
}

/** The whole JSON body of a frame as text (small frames; tests). */
export function frameJsonText(frame: Frame): string {
  return [...frameJsonPieces(frame)].map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('latin1'))).join('');
}

export function isLargeFrame(frame: Frame): boolean {
  return frame.hours.length * frame.columns.length > STREAM_ABOVE_VALUES;
}
