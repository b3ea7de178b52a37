/**
 * CSV records from a byte stream, read by csv-parse (RFC 4180: quoted fields, doubled quotes,
 * CRLF or LF, a byte order mark), with the line number each record ends on. A record longer than
 * `maxRecordBytes` is an error rather than a reason to hold an unbounded string; rows whose field
 * count differs from the header's are passed on for the layout to report with their line.
 */
import { pipeline, Readable } from 'node:stream';
import { parse, CsvError as ParseError } from 'csv-parse';

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

/** csv-parse's reasons, as a user reads them (its own messages name its options). */
function reason(e: ParseError, maxRecordBytes: number): string {
  switch (e.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `a line is longer than ${maxRecordBytes} characters`;
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

export async function* csvRecords(
  input: AsyncIterable<Uint8Array | string>,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<CsvRecord> {
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
    for await (const { info, record } of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
      yield { line: info.lines, fields: record };
    }
  } catch (e) {
    if (e instanceof ParseError) throw new CsvError((e as ParseError & { lines?: number }).lines ?? 0, reason(e, maxRecordBytes));
    throw e;
  } finally {
    parser.destroy();
  }
}
