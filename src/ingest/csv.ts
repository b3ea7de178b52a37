/**
 * CSV records from a byte stream, in batches (one per chunk read), with the line number each
 * record ends on. Records whose field count differs from the header's are passed on for the
 * layout to report with their line; a record longer than `maxRecordBytes` is an error rather than
 * a reason to hold an unbounded string.
 *
 * Two readers, one behaviour. Most files have no quotes and end lines with LF or CRLF: those are
 * split here, a chunk at a time, in the chunk's bytes (UTF-8 never has a comma or a line feed
 * inside a character: fields are decoded only where a layout asks for their text), several times
 * faster than a general parser. From the first chunk that holds a quote
 * (or a lone CR line ending) on, the rest of the file — from the first line not yet read — goes
 * through csv-parse (RFC 4180: quoted fields, doubled quotes, CR, CRLF or LF), with line numbers
 * continued. A byte order mark at the start is skipped by both.
 */
import { pipeline, Readable } from 'node:stream';
import { parse, CsvError as ParseError } from 'csv-parse';
import { textAt } from './instants.ts';

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CsvRecord {
  line: number;
  fields: string[];
}

export const DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

const NEWLINE = Buffer.from('\n');

const tooLong = (maxRecordBytes: number) => `a line is longer than ${maxRecordBytes} characters`;

/** csv-parse's reasons, as a user reads them (its own messages name its options). */
function reason(e: ParseError, maxRecordBytes: number): string {
  switch (e.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return tooLong(maxRecordBytes);
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is not closed at the end of the file';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'characters after a closing quote';
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'characters after a closing quote';
    default:
      return e.message;
  }
}

/** Whether bytes[from, to) hold a CR that does not start a CRLF (a line ending only csv-parse reads). */
function hasLoneCr(bytes: Buffer, from: number, to: number): boolean {
  for (let i = bytes.indexOf(CR, from); i >= 0 && i < to; i = bytes.indexOf(CR, i + 1)) {
    if (i + 1 >= to || bytes[i + 1] !== LF) return true;
  }
  return false;
}

/**
 * A batch of records: each record's line, field count and fields. A field is read either as a
 * string (`field`) or in place — `source` holds its UTF-8 bytes from `fieldStart` to `fieldEnd` — so
 * a layout can compare and parse it without making a string per field (what keeps a file of
 * millions of rows from being mostly decoding and garbage collection).
 */
export interface CsvBatch {
  readonly length: number;
  line(r: number): number;
  fieldCount(r: number): number;
  field(r: number, f: number): string;
  source(r: number, f: number): Uint8Array;
  fieldStart(r: number, f: number): number;
  fieldEnd(r: number, f: number): number;
}

/**
 * Splits `bytes` into the batch's columns; returns the number of records. One loop over the bytes
 * with the columns in locals (no call per field or record: the loop is most of a large file's
 * reading). After the loop comes nothing but `return`: the loop of a chunk is compiled while it
 * runs (on-stack replacement), before code after it has ever run, and such code (a property
 * store) deoptimized the compiled loop at the end of every chunk — up to twice the split's CPU.
 * So the line count goes out through a typed array written in the loop.
 */
function splitRecords(bytes: Uint8Array, batch: ByteBatch): number {
  let { lines, ends, firstField, starts } = batch;
  const max = batch.maxRecordBytes;
  const lineAfter = batch.lineAfter;
  let line = lineAfter[0];
  let records = 0;
  let fields = 1; // starts[0] = 0: the first record's first field
  let start = 0;
  starts[0] = 0;
  firstField[0] = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === COMMA) {
      if (fields === starts.length) starts = batch.starts = grown(starts, 2 * starts.length);
      starts[fields++] = i + 1;
    } else if (c === LF) {
      lineAfter[0] = ++line;
      const end = i > start && bytes[i - 1] === CR ? i - 1 : i;
      if (end - start > max) throw new CsvError(line, tooLong(max));
      if (end > start) {
        if (records + 1 >= ends.length) {
          lines = batch.lines = grown(lines, 2 * lines.length);
          ends = batch.ends = grown(ends, 2 * ends.length);
          firstField = batch.firstField = grown(firstField, 2 * firstField.length);
        }
        firstField[records + 1] = fields;
        lines[records] = line;
        ends[records] = end;
        records++;
      } else fields = firstField[records]; // an empty line: no record
      start = i + 1;
      if (fields === starts.length) starts = batch.starts = grown(starts, 2 * starts.length);
      starts[fields++] = start;
    }
  }
  return records;
}

/**
 * Records of unquoted lines: a chunk's bytes, and where each record's fields start. One per file,
 * refilled per chunk (`fill`): a reader takes a batch whole before asking for the next.
 */
class ByteBatch implements CsvBatch {
  length = 0;
  /** The last line read (the next record's line is after it). */
  lastLine = 0;
  bytes: Uint8Array = new Uint8Array(0);
  // Typed columns, not arrays of numbers: pushing millions of numbers onto arrays costs more
  // than the rest of the reading.
  lines = new Float64Array(1024);
  /** Per record, where its bytes end (before CR LF or LF). */
  ends = new Int32Array(1024);
  /** Per record, the index of its first field in `starts`; one more entry closes the last record. */
  firstField = new Int32Array(1025);
  starts = new Int32Array(4096);
  /** The line count after a fill (set in splitRecords' loop: see there). */
  readonly lineAfter = new Float64Array(1);

  constructor(readonly maxRecordBytes: number) {}

  /** Reads the records of the complete lines of `bytes` (each ending with LF), numbered on from the last line read. */
  fill(bytes: Uint8Array): this {
    this.bytes = bytes;
    // Room for lines of ≥ 16 bytes and fields of ≥ 4 (splitRecords grows them when a chunk has more).
    const records = (bytes.length >> 4) + 2;
    if (this.ends.length < records) {
      this.lines = new Float64Array(records);
      this.ends = new Int32Array(records);
      this.firstField = new Int32Array(records + 1);
    }
    if (this.starts.length < (bytes.length >> 2) + 2) this.starts = new Int32Array((bytes.length >> 2) + 2);
    this.lineAfter[0] = this.lastLine;
    this.length = splitRecords(bytes, this);
    this.lastLine = this.lineAfter[0];
    return this;
  }

  line(r: number): number {
    return this.lines[r];
  }

  fieldCount(r: number): number {
    return this.firstField[r + 1] - this.firstField[r];
  }

  source(): Uint8Array {
    return this.bytes;
  }

  fieldStart(r: number, f: number): number {
    return this.starts[this.firstField[r] + f];
  }

  fieldEnd(r: number, f: number): number {
    const k = this.firstField[r] + f + 1;
    return k < this.firstField[r + 1] ? this.starts[k] - 1 : this.ends[r];
  }

  field(r: number, f: number): string {
    return textAt(this.bytes, this.fieldStart(r, f), this.fieldEnd(r, f));
  }
}

function grown<T extends Float64Array | Int32Array>(column: T, size: number): T {
  const g = new (column.constructor as new (n: number) => T)(size);
  g.set(column);
  return g;
}

/** Records as csv-parse gives them: an array of strings each. */
class ArrayBatch implements CsvBatch {
  constructor(
    private readonly records: string[][],
    private readonly lines: number[],
  ) {}

  get length(): number {
    return this.records.length;
  }

  line(r: number): number {
    return this.lines[r];
  }

  fieldCount(r: number): number {
    return this.records[r].length;
  }

  field(r: number, f: number): string {
    return this.records[r][f];
  }

  /** The field's bytes (this reader is for quoted files, not the common case: encoded when asked). */
  source(r: number, f: number): Uint8Array {
    return Buffer.from(this.records[r][f]);
  }

  fieldStart(): number {
    return 0;
  }

  fieldEnd(r: number, f: number): number {
    return Buffer.byteLength(this.records[r][f]);
  }
}

/** The rest of a file through csv-parse, its line numbers continued after `linesBefore`. */
async function* parsedBatches(input: AsyncIterable<Uint8Array>, linesBefore: number, maxRecordBytes: number): AsyncGenerator<CsvBatch> {
  const parser = parse({
    bom: true,
    info: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: maxRecordBytes,
    relax_column_count: true,
    skip_empty_lines: true,
  });
  // pipeline, not pipe: a failing input (a broken upload, a size limit) fails the parser too.
  pipeline(Readable.from(input), parser, () => {});
  try {
    let records: string[][] = [];
    let lines: number[] = [];
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
      records.push(record);
      lines.push(linesBefore + info.lines);
      if (records.length >= 4096) {
        yield new ArrayBatch(records, lines);
        records = [];
        lines = [];
      }
    }
    if (records.length) yield new ArrayBatch(records, lines);
  } catch (e) {
    if (e instanceof ParseError) {
      throw new CsvError(linesBefore + ((e as ParseError & { lines?: number }).lines ?? 0), reason(e, maxRecordBytes));
    }
    throw e;
  } finally {
    parser.destroy();
  }
}

/** The file's records, a batch per chunk read; each batch is read whole before the next is asked for (it may be the same object, refilled). */
export async function* csvBatches(
  input: AsyncIterable<Uint8Array | string>,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<CsvBatch> {
  const chunks = input[Symbol.asyncIterator]();
  try {
    yield* splitBatches(chunks, maxRecordBytes);
  } finally {
    await chunks.return?.();
  }
}

async function* splitBatches(chunks: AsyncIterator<Uint8Array | string>, maxRecordBytes: number): AsyncGenerator<CsvBatch> {
  let carry: Buffer = Buffer.alloc(0); // the start of a line whose end is not read yet
  const batch = new ByteBatch(maxRecordBytes);
  let first = true;
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk =
      typeof next.value === 'string'
        ? Buffer.from(next.value)
        : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    let bytes = chunk;
    if (carry.length) {
      // The carried start of a line and its end in this chunk are read as a piece of their own,
      // rather than copying the whole chunk behind the carry.
      const lf = chunk.indexOf(LF);
      if (lf < 0 || first) bytes = Buffer.concat([carry, chunk]);
      else {
        const head = Buffer.concat([carry, chunk.subarray(0, lf + 1)]);
        bytes = chunk.subarray(lf + 1);
        carry = Buffer.alloc(0);
        if (head.indexOf(QUOTE) >= 0 || hasLoneCr(head, 0, head.length)) {
          yield* parsedBatches(rest(Buffer.concat([head, bytes]), chunks), batch.lastLine, maxRecordBytes);
          return;
        }
        if (batch.fill(head).length) yield batch;
      }
    }
    if (first && bytes.length < 3) {
      carry = bytes; // too short to tell a byte order mark yet
      continue;
    }
    if (first) {
      first = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    const lastLf = bytes.lastIndexOf(LF);
    const complete = lastLf + 1;
    if (bytes.indexOf(QUOTE) >= 0 || hasLoneCr(bytes, 0, complete)) {
      yield* parsedBatches(rest(bytes, chunks), batch.lastLine, maxRecordBytes);
      return;
    }
    const filled = complete > 0 && batch.fill(bytes.subarray(0, complete)).length > 0;
    carry = bytes.subarray(complete);
    if (carry.length > maxRecordBytes) throw new CsvError(batch.lastLine + 1, tooLong(maxRecordBytes));
    // A copy, so the chunk the carry came from is not held.
    if (carry.length) carry = Buffer.from(carry);
    if (filled) yield batch;
  }
  if (carry.length === 0) return;
  if (carry.indexOf(QUOTE) >= 0 || hasLoneCr(carry, 0, carry.length)) {
    yield* parsedBatches(rest(carry, chunks), batch.lastLine, maxRecordBytes);
    return;
  }
  if (batch.fill(Buffer.concat([carry, NEWLINE])).length) yield batch;
}

/** `head`, then what is left of `chunks`. */
async function* rest(head: Buffer, chunks: AsyncIterator<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  yield head;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
}

/**
 * The file's batches, where a CSV that cannot be read on (an unclosed quote, a line over the
 * limit) ends as a bad line told to `bad` rather than an error.
 */
export async function* csvFileBatches(
  input: AsyncIterable<Uint8Array>,
  bad: (line: number, reason: string) => void,
): AsyncGenerator<CsvBatch> {
  try {
    yield* csvBatches(input);
  } catch (e) {
    if (e instanceof CsvError) bad(e.line, e.message);
    else throw e;
  }
}

/** The records of batches one at a time (for readers that take a record at a time). */
export async function* recordsOf(batches: AsyncIterable<CsvBatch>): AsyncGenerator<CsvRecord> {
  for await (const batch of batches) {
    for (let r = 0; r < batch.length; r++) {
      const fields: string[] = [];
      for (let f = 0; f < batch.fieldCount(r); f++) fields.push(batch.field(r, f));
      yield { line: batch.line(r), fields };
    }
  }
}

/** The file's records one at a time. */
export function csvRecords(
  input: AsyncIterable<Uint8Array | string>,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<CsvRecord> {
  return recordsOf(csvBatches(input, maxRecordBytes));
}
