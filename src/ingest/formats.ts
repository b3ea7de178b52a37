/**
 * The file formats an ingest reads, registered once: a name (--format), the file extensions and
 * content types that declare it, the bytes it begins with, and its reader (bytes → the column
 * names, then records of cells; CSV as the CSV reader's batches of text fields, which the long
 * layout reads in place and any other layout as records). Which one a file is: --format if given; else its first bytes when they
 * are a binary format's magic (Parquet `PAR1`, Arrow `ARROW1` or an IPC stream's continuation
 * marker); else the file name's extension, then the upload's content type; else `[` or `{` for
 * JSON, and CSV for the rest (binary content that is none of these is refused).
 */
import { csvFileBatches, DEFAULT_MAX_RECORD_BYTES, type CsvBatch } from './csv.ts';
import { arrowRecords } from './arrow.ts';
import { jsonRecords } from './json.ts';
import { parquetRecords } from './parquet.ts';
import { IngestError, optionError, type FileRecord, type Position } from './observations.ts';

export interface FormatReading {
  origin: string;
  /** Key/value metadata of the file, filled in before the first record. */
  metadata: Record<string, string>;
  bad(line: number, reason: string): void;
}

interface InputFormat {
  name: string;
  extensions: readonly string[];
  contentTypes: readonly string[];
  position: Position;
  magic?: (head: Uint8Array) => boolean;
  read(input: AsyncIterable<Uint8Array>, reading: FormatReading): FileContent;
}

/** A file's content as its format reads it: CSV batches, or records of cells. */
export type FileContent = { batches: AsyncIterable<CsvBatch>; records?: never } | { records: AsyncIterable<FileRecord>; batches?: never };

const startsWith = (head: Uint8Array, bytes: readonly number[]) => bytes.every((b, i) => head[i] === b);

export const INPUT_FORMATS: readonly InputFormat[] = [
  {
    name: 'csv',
    extensions: ['csv', 'txt'],
    contentTypes: ['text/csv', 'text/plain', 'application/csv'],
    position: 'line',
    read: (input, r) => ({ batches: csvFileBatches(input, r.bad) }),
  },
  {
    name: 'json',
    extensions: ['json', 'ndjson', 'jsonl'],
    contentTypes: ['application/json', 'application/x-ndjson', 'application/jsonl'],
    position: 'row',
    read: (input, r) => ({ records: jsonRecords(input, r.origin, r.bad, DEFAULT_MAX_RECORD_BYTES) }),
  },
  {
    name: 'parquet',
    extensions: ['parquet', 'pq'],
    contentTypes: ['application/vnd.apache.parquet', 'application/x-parquet'],
    position: 'row',
    magic: (head) => startsWith(head, [0x50, 0x41, 0x52, 0x31]),
    read: (input, r) => ({ records: parquetRecords(input, r.origin, r.metadata) }),
  },
  {
    name: 'arrow',
    extensions: ['arrow', 'arrows', 'feather', 'ipc'],
    contentTypes: ['application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.file'],
    position: 'row',
    magic: (head) => startsWith(head, [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]) || startsWith(head, [0xff, 0xff, 0xff, 0xff]),
    read: (input, r) => ({ records: arrowRecords(input, r.origin, r.metadata) }),
  },
];

export const INPUT_FORMAT_NAMES = INPUT_FORMATS.map((f) => f.name);

/** Checks a --format option. */
export function checkFormat(format: string | undefined): void {
  if (format !== undefined && !INPUT_FORMAT_NAMES.includes(format)) {
    throw optionError('format', `--format must be one of ${INPUT_FORMAT_NAMES.join(', ')} (got '${format}')`);
  }
}

export interface FormatHints {
  /** --format. */
  format?: string;
  /** The file's name (its extension). */
  filename?: string;
  /** The upload's content type. */
  contentType?: string;
}

/** Bytes looked at to tell the format. */
const HEAD_BYTES = 64;

function firstSignificant(head: Uint8Array): number {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i])) i++;
  return head[i];
}

export function detectFormat(head: Uint8Array, hints: FormatHints, origin: string): InputFormat {
  const named = (name: string) => INPUT_FORMATS.find((f) => f.name === name)!;
  if (hints.format !== undefined) return named(hints.format);
  const byMagic = INPUT_FORMATS.find((f) => f.magic?.(head));
  if (byMagic) return byMagic;
  const extension = hints.filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const byExtension = extension ? INPUT_FORMATS.find((f) => f.extensions.includes(extension)) : undefined;
  if (byExtension) return byExtension;
  const media = hints.contentType?.split(';')[0].trim().toLowerCase();
  const byType = media ? INPUT_FORMATS.find((f) => f.contentTypes.includes(media)) : undefined;
  if (byType) return byType;
  const first = firstSignificant(head);
  if (first === 0x5b || first === 0x7b) return named('json');
  if (head.includes(0)) {
    throw new IngestError(`${origin}: binary content that is not Parquet or Arrow (and not CSV or JSON text); nothing was stored`);
  }
  return named('csv');
}

/** The first bytes of a stream, and the whole stream again (those bytes included). */
async function peek(input: AsyncIterable<Uint8Array | string>): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = input[Symbol.asyncIterator]();
  const taken: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    taken.push(chunk);
    size += chunk.length;
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* taken;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  return { head: Buffer.concat(taken).subarray(0, HEAD_BYTES), all: all() };
}

/** A file's content in its format (detected from `hints` and its first bytes), and how its rows are counted. */
export async function fileContent(
  input: AsyncIterable<Uint8Array | string>,
  hints: FormatHints,
  reading: FormatReading,
): Promise<{ format: string; position: Position; content: FileContent; bytes: AsyncIterable<Uint8Array> }> {
  const { head, all } = await peek(input);
  const format = detectFormat(head, hints, reading.origin);
  // The content reads `bytes` when iterated; a reader of its own may take `bytes` instead (never both).
  return { format: format.name, position: format.position, content: format.read(all, reading), bytes: all };
}
