/**
 * Streaming CSV records (RFC 4180: quoted fields, doubled quotes, CRLF or LF) from a byte stream,
 * with the line number each record starts on. A record longer than `maxRecordBytes` is an error
 * rather than a reason to hold an unbounded string.
 *
 * Kept behind this one function so that an npm streaming parser (csv-parse) can replace it
 * without touching the layouts that read records.
 */
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

export async function* csvRecords(
  input: AsyncIterable<Uint8Array | string>,
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES,
): AsyncGenerator<CsvRecord> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let recordChars = 0;
  let pendingCr = false;
  let started = false;
  const endRecord = (): CsvRecord => {
    fields.push(field);
    const record = { line: recordLine, fields };
    fields = [];
    field = '';
    afterQuote = false;
    recordChars = 0;
    started = false;
    return record;
  };
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const out: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (++recordChars > maxRecordBytes) throw new CsvError(recordLine, `line ${recordLine} is longer than ${maxRecordBytes} characters`);
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') continue;
      }
      if (!started) {
        started = true;
        recordLine = line;
        if (line === 1 && c === '\uFEFF') continue; // byte order mark
      }
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else if (i + 1 === text.length) {
            // The next chunk decides: a doubled quote split across chunks is rare; treat as closing and fix below.
            quoted = false;
            afterQuote = true;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (c === '\n') line++;
          field += c;
        }
      } else if (c === '"' && field === '' && !afterQuote) {
        quoted = true;
      } else if (c === '"' && afterQuote) {
        // A doubled quote split across two chunks.
        field += '"';
        quoted = true;
        afterQuote = false;
      } else if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        line++;
        if (c === '\r') pendingCr = true;
        out.push(endRecord());
      } else {
        if (afterQuote) throw new CsvError(recordLine, `line ${recordLine}: characters after a closing quote`);
        field += c;
      }
    }
    for (const r of out) if (!(r.fields.length === 1 && r.fields[0] === '')) yield r;
  }
  if (quoted) throw new CsvError(recordLine, `line ${recordLine}: a quoted field is not closed at the end of the file`);
  if (started && !(fields.length === 0 && field === '')) yield endRecord();
}
