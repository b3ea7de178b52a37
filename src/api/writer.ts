/**
 * Writes Frames as the public service's TimeseriesResponse JSON. Large frames are
 * streamed column by column, computing each column only when the client is ready for
 * it, so memory stays flat whatever the size; small ones are sent as one string so that
 * compression can skip bodies under 1 KB.
 */
import os from 'node:os';
import type { Frame } from '../query/frame.ts';
import { DAY_HOURS, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import { offsetMinutesAtHour } from '../time/zones.ts';

/** Above this many values a frame is streamed rather than built as one string. */
const STREAM_ABOVE_VALUES = 20_000;

/**
 * Text of small non-negative rounded values, by style and decimals then by the value in units of
 * the last decimal: number-to-string conversion is the writers' main cost, and output values
 * repeat (0, capacity, common MW levels), so each text is made once per process.
 */
const TEXT_CACHE_SIZE = 1 << 20;
/**
 * The caches are made of chunks of CHUNK_SIZE values, each made when a value in it first occurs:
 * a request's values lie in a few ranges (a plant's MW, a region's demand), and caches made whole
 * held ~9 MB per number of decimals in every thread that wrote values (most of it resident).
 */
const CHUNK_BITS = 12;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;
const CHUNKS = TEXT_CACHE_SIZE >>> CHUNK_BITS;
const textCaches = new Map<string, (string | undefined)[][]>();

function textCache(decimals: number, float: boolean): (string | undefined)[][] {
  const name = `${decimals}${float ? 'f' : ''}`;
  let cache = textCaches.get(name);
  if (!cache) {
    cache = new Array<(string | undefined)[]>(CHUNKS);
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
    if (units >= 0 && units < TEXT_CACHE_SIZE) {
      const chunk = (cache[units >>> CHUNK_BITS] ??= new Array<string | undefined>(CHUNK_SIZE));
      return (chunk[units & CHUNK_MASK] ??= unitsText(units, scale, float));
    }
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
 *
 * A slot is copied as one float64 (`words`, written with DataView.setFloat64 at any offset): four
 * times faster than its eight bytes one by one (the large request's 1.86 M values: ~5 against
 * ~22 ms). A float64 read and written again keeps its bits unless it is a NaN, and a slot never
 * is: its bytes are ASCII or zero, so its top byte is below 0x80 and its exponent is never all
 * ones.
 */
interface ByteCacheChunk {
  slots: Uint8Array;
  words: Float64Array;
  lengths: Uint8Array;
}
/** Per number of decimals, the chunks (CHUNK_SIZE values each) made so far. */
const byteCaches = new Map<number, (ByteCacheChunk | undefined)[]>();

function byteChunk(): ByteCacheChunk {
  const slots = new Uint8Array(CHUNK_SIZE * SLOT_BYTES);
  return { slots, words: new Float64Array(slots.buffer), lengths: new Uint8Array(CHUNK_SIZE) };
}
/** A slot's float64 is read in this machine's byte order, so it is written in it too. */
const LITTLE_ENDIAN = os.endianness() === 'LE';

function byteCache(decimals: number): (ByteCacheChunk | undefined)[] {
  let cache = byteCaches.get(decimals);
  if (!cache) {
    cache = new Array<ByteCacheChunk | undefined>(CHUNKS).fill(undefined);
    byteCaches.set(decimals, cache);
  }
  return cache;
}

/**
 * Bytes a piece of a streamed body gathers before it is handed over: at least the compute
 * runner's chunk (compute/runner.ts CHUNK_BYTES), so that the runner sends each piece as it is —
 * one array of its own, transferred — rather than gathering and copying small ones.
 */
const PIECE_BYTES = 256 * 1024;

/**
 * Where pieces are written before their bytes are copied out once, into an array of their own
 * (grown as needed). Nothing stays in it across a yield: a runner interleaves its jobs' writers at
 * their yields. Before, a column at a time was copied out of a scratch, then the runner gathered
 * and copied the columns into its chunk: two copies and a fresh array per column (a profile of the
 * first large request after a restart had the runner's copy at a tenth of a worker's time).
 */
class Scratch {
  bytes = new Uint8Array(PIECE_BYTES * 2);
  /** The same memory, for a value's slot (ByteCache) at any offset. */
  view = new DataView(this.bytes.buffer);
  /** The same memory, for strings (Buffer's UTF-8 write is native). */
  private text = Buffer.from(this.bytes.buffer, 0, this.bytes.length);

  /** Makes room for `more` bytes after the first `used`. */
  room(used: number, more: number): Uint8Array {
    if (used + more > this.bytes.length) {
      const grown = new Uint8Array(Math.max(used + more, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, used));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
      this.text = Buffer.from(grown.buffer, 0, grown.length);
    }
    return this.bytes;
  }

  /** Writes `text` (UTF-8) at `at`; returns where it ends. */
  write(text: string, at: number): number {
    this.room(at, Buffer.byteLength(text));
    return at + this.text.write(text, at, 'utf8');
  }

  /** Its first `used` bytes, copied into an array of their own. */
  take(used: number): Uint8Array {
    return this.bytes.slice(0, used);
  }
}

const scratch = new Scratch();

/** Bytes one value's text may take in a column, its comma included. */
const VALUE_BYTES_BOUND = MAX_VALUE_TEXT + 1;

/**
 * Writes `[1.5,null,2]` (after `prefix`, ASCII) into the scratch at `at`; returns where it ends. Values
 * are rounded to `decimals` places; NaN and ±Infinity are null. The values' texts are
 * valueTextWriter's, written straight into bytes from per-value cached bytes: the strings, their
 * join and their UTF-8 encoding cost the warm large request about as much as JSON.stringify of its
 * whole body.
 */
function writeValues(at: number, values: Float64Array, decimals: number, prefix: string): number {
  const out = scratch.room(at, prefix.length + 2 + values.length * VALUE_BYTES_BOUND);
  const view = scratch.view;
  const chunks = byteCache(decimals);
  const scale = 10 ** decimals;
  for (let k = 0; k < prefix.length; k++) out[at++] = prefix.charCodeAt(k);
  out[at++] = 0x5b; // [
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // NaN fails both comparisons, ±Infinity the second: the common case tests nothing else.
    const units = Math.round(v * scale);
    if (units >= 0 && units < TEXT_CACHE_SIZE) {
      const chunk = (chunks[units >>> CHUNK_BITS] ??= byteChunk());
      const k = units & CHUNK_MASK;
      let n = chunk.lengths[k];
      if (n === 0) chunk.lengths[k] = n = writeUnitsAscii(units, decimals, chunk.slots, k * SLOT_BYTES);
      // All 8 bytes of the slot at once, without a loop over the text's length (bytes past it are overwritten next).
      view.setFloat64(at, chunk.words[k], LITTLE_ENDIAN);
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
  return at;
}

/** Digits of a value being written (writeUnitsAscii), last digit first. */
const digits = new Uint8Array(24);

/**
 * Writes the text of units / 10^decimals at `at` of `out` and returns its length: the text
 * unitsText makes (String() of the quotient: no exponent, no trailing zeros in the fraction —
 * checked for every units below TEXT_CACHE_SIZE and up to 4 decimals), without making a string:
 * a cold large request meets ~10^6 values for the first time, whose strings were ~24 MB of garbage.
 */
function writeUnitsAscii(units: number, decimals: number, out: Uint8Array, at: number): number {
  let count = 0;
  let rest = units;
  do {
    digits[count++] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (rest > 0);
  // At least one digit before the point: 5 units at 2 decimals is 0.05.
  while (count <= decimals) digits[count++] = 0x30;
  let zeros = 0;
  while (zeros < decimals && digits[zeros] === 0x30) zeros++;
  let k = at;
  for (let i = count - 1; i >= decimals; i--) out[k++] = digits[i];
  if (zeros < decimals) {
    out[k++] = 0x2e; // .
    for (let i = decimals - 1; i >= zeros; i--) out[k++] = digits[i];
  }
  return k - at;
}

/** `[1.5,null,2]` (prefixed by `prefix`, ASCII) as bytes of their own: writeValues's text. */
export function formatValueBytes(values: Float64Array, decimals: number, prefix = ''): Uint8Array {
  return scratch.take(writeValues(0, values, decimals, prefix));
}

/** Writes n (0–99) as two digits at `at`. */
function write2(out: Uint8Array, at: number, n: number): void {
  out[at] = 0x30 + Math.floor(n / 10);
  out[at + 1] = 0x30 + (n % 10);
}

/** Writes `"YYYY-MM-DDT` of the UTC day `day` (days since 1970-01-01) at `at`; returns where it ends. */
function writeDayPrefix(out: Uint8Array, at: number, day: number): number {
  const d = new Date(day * DAY_HOURS * HOUR_MS);
  const year = d.getUTCFullYear();
  out[at++] = 0x22; // "
  if (year >= 1000 && year <= 9999) {
    write2(out, at, Math.floor(year / 100));
    write2(out, at + 2, year % 100);
    at += 4;
  } else {
    const text = String(year);
    for (let k = 0; k < text.length; k++) out[at++] = text.charCodeAt(k);
  }
  out[at++] = 0x2d; // -
  write2(out, at, d.getUTCMonth() + 1);
  out[at + 2] = 0x2d;
  write2(out, at + 3, d.getUTCDate());
  out[at + 5] = 0x54; // T
  return at + 6;
}

/**
 * The time axis as a JSON list of texts — `["2026-03-08T06:00:00Z",…]` (UTC, `zone` null) or
 * `["2026-03-08T00:00:00-06:00",…]` (the wall time in `zone` with its offset, as
 * formatLocalHour writes it) — written straight into bytes at `at`; returns where it ends. The date
 * is worked out once per day, not per hour: the first large request of a process formatted
 * 15,000 texts through a Date each, which cost a tenth of JSON.stringify of its whole body.
 */
function writeAxis(hours: ArrayLike<number>, zone: string | null, at: number): number {
  /** `"YYYY-MM-DDT` (12) `hh:mm:00` (8) `+hh:mm"` (7) `,` */
  const out = scratch.room(at, 2 + hours.length * 28);
  out[at++] = 0x5b; // [
  let day = Number.NaN;
  /** Where the current day's `"YYYY-MM-DDT` was written last. */
  let dayAt = 0;
  for (let i = 0; i < hours.length; i++) {
    const offset = zone === null ? 0 : offsetMinutesAtHour(zone, hours[i]);
    const minutes = hours[i] * 60 + offset;
    const wallDay = Math.floor(minutes / (DAY_HOURS * 60));
    if (wallDay !== day) {
      day = wallDay;
      dayAt = at;
      at = writeDayPrefix(out, at, day);
    } else {
      out.copyWithin(at, dayAt, dayAt + 12);
      at += 12;
    }
    const ofDay = minutes - wallDay * DAY_HOURS * 60;
    write2(out, at, Math.floor(ofDay / 60));
    out[at + 2] = 0x3a; // :
    write2(out, at + 3, ofDay % 60);
    out[at + 5] = 0x3a;
    out[at + 6] = 0x30;
    out[at + 7] = 0x30;
    at += 8;
    if (zone === null)
      out[at++] = 0x5a; // Z
    else {
      const abs = Math.abs(offset);
      out[at] = offset < 0 ? 0x2d : 0x2b;
      write2(out, at + 1, Math.floor(abs / 60));
      out[at + 3] = 0x3a;
      write2(out, at + 4, abs % 60);
      at += 6;
    }
    out[at++] = 0x22; // "
    out[at++] = 0x2c; // ,
  }
  if (hours.length > 0) at--;
  out[at++] = 0x5d; // ]
  return at;
}

/** Writes the body's opening — its fields up to the values' list — at `at`; returns where it ends. */
function writeHeader(frame: Frame, at: number): number {
  at = scratch.write(
    `{"model":${JSON.stringify(frame.model)},` +
      `"created_at":${frame.createdAtHour === null ? 'null' : JSON.stringify(formatUtcInstant(frame.createdAtHour * HOUR_MS))},` +
      `"units":${JSON.stringify(frame.units)},"timezone":${JSON.stringify(frame.timezone)},"time_utc":`,
    at,
  );
  at = writeAxis(frame.hours, null, at);
  at = scratch.write(',"time_local":', at);
  at = writeAxis(frame.hours, frame.timezone, at);
  return scratch.write(`,"columns":${JSON.stringify(frame.columns.map((c) => c.label))},"values":[`, at);
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
 * The response body in pieces of about PIECE_BYTES each, whole columns (the header before the
 * first, the close after the last), or the `part` of them asked for. With an aborted `signal`
 * (the client has gone) no further column is computed.
 */
export function* frameJsonPieces(frame: Frame, signal?: AbortSignal, part: BodyPart = WHOLE_BODY): Generator<Uint8Array> {
  let at = part.header ? writeHeader(frame, 0) : 0;
  const buffer = new Float64Array(frame.hours.length);
  // part.to is read on every column: it may be lowered meanwhile.
  for (let c = part.from; c < Math.min(part.to, frame.columns.length); c++) {
    if (signal?.aborted) return;
    buffer.fill(Number.NaN);
    frame.columns[c].fill(buffer);
    at = writeValues(at, buffer, frame.columns[c].decimals ?? frame.decimals, c > 0 ? ',' : '');
    if (at >= PIECE_BYTES) {
      yield scratch.take(at);
      at = 0;
    }
  }
  if (part.close) at = scratch.write(']}', at);
  if (at > 0) yield scratch.take(at);
}

/** The whole JSON body of a frame as text (small frames; tests). */
export function frameJsonText(frame: Frame): string {
  return Buffer.concat([...frameJsonPieces(frame)]).toString('utf8');
}

export function isLargeFrame(frame: Frame): boolean {
  return frame.hours.length * frame.columns.length > STREAM_ABOVE_VALUES;
}
