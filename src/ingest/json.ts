/**
 * JSON records read as a stream: a top-level array of flat objects (gridcast's `layout=long`
 * JSON, pandas `to_json(orient="records")`) or one object per line (NDJSON / JSON Lines). Each
 * object's text is cut out of the stream as it arrives and parsed alone, so memory holds one
 * record, never the file; a record longer than the limit is refused rather than held.
 *
 * Columns are the first object's keys, in its order; a later object may leave keys out (null)
 * but not bring new ones. Records are numbered from 1.
 */
import { IngestError, type Cell, type FileRecord } from './observations.ts';

type State = 'start' | 'next' | 'comma' | 'record' | 'end';

/** The file cannot be read on from here. */
class Unreadable extends Error {}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** A parsed record's fields in the header's order, or the reason the record is not one. */
function fieldsOf(text: string, header: string[] | null): { names?: string[]; fields: Cell[] } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return `not valid JSON (${(e as Error).message.replace(/ in JSON at position \d+.*$/, '')})`;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'a record must be a JSON object';
  const entries = Object.entries(parsed as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v !== null && typeof v === 'object') return `${k}: a nested value where a string, number or null is expected`;
  }
  if (!header) return { names: entries.map(([k]) => k), fields: entries.map(([, v]) => v as Cell) };
  const fields = new Array<Cell>(header.length).fill(null);
  for (const [k, v] of entries) {
    const at = header.indexOf(k);
    if (at < 0) return `field ${JSON.stringify(k).slice(0, 60)} is not in the first record`;
    fields[at] = v as Cell;
  }
  return { fields };
}

export async function* jsonRecords(
  input: AsyncIterable<Uint8Array>,
  origin: string,
  bad: (row: number, reason: string) => void,
  maxRecordChars: number,
): AsyncGenerator<FileRecord> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  let state: State = 'start';
  let lines = false; // NDJSON rather than an array
  let header: string[] | null = null;
  let row = 0;
  // The record being cut out: its text so far, nesting depth, and string state.
  let parts: string[] = [];
  let size = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;

  const fail = (message: string): never => {
    throw new Unreadable(message);
  };

  function* finishRecord(): Generator<FileRecord> {
    const text = parts.join('');
    parts = [];
    size = 0;
    const got = fieldsOf(text, header);
    if (typeof got === 'string') {
      bad(row, got);
      return;
    }
    if (!header) {
      header = got.names!;
      yield { line: 0, fields: header };
    }
    yield { line: row, fields: got.fields };
  }

  try {
    for await (const chunk of input) {
      const text = decoder.decode(chunk, { stream: true });
      let i = 0;
      let recordStart = -1;
      let backslash = -1;
      while (i < text.length) {
        const c = text.charCodeAt(i);
        if (state === 'record') {
          if (recordStart < 0) recordStart = i;
          if (inString) {
            if (escaped) escaped = false;
            else if (c === 0x5c) escaped = true;
            else if (c === 0x22) inString = false;
            else {
              // Skip through the string's plain characters at once (the next backslash is looked
              // up again only once passed: a chunk without one is not searched to its end per string).
              if (backslash < i) {
                const b = text.indexOf('\\', i);
                backslash = b < 0 ? text.length : b;
              }
              const q = text.indexOf('"', i);
              const next = Math.min(q < 0 ? text.length : q, backslash);
              if (next > i + 1) {
                i = next;
                continue;
              }
            }
          } else if (c === 0x22) inString = true;
          else if (c === 0x7b || c === 0x5b) depth++;
          else if (c === 0x7d || c === 0x5d) {
            depth--;
            if (depth === 0) {
              parts.push(text.slice(recordStart, i + 1));
              size += i + 1 - recordStart;
              recordStart = -1;
              if (size > maxRecordChars) fail(`record ${row} is longer than ${maxRecordChars} characters`);
              yield* finishRecord();
              state = lines ? 'next' : 'comma';
            }
          }
          i++;
          continue;
        }
        if (isSpace(c) || (c === 0xfeff && state === 'start')) {
          i++;
          continue;
        }
        if (state === 'start') {
          if (c === 0x5b) state = 'next';
          else if (c === 0x7b) {
            lines = true;
            state = 'next';
            continue;
          } else fail('not JSON records: the file must be an array of objects or one object per line');
        } else if (state === 'next') {
          if (c === 0x5d && !lines && row === 0) state = 'end';
          else if (c === 0x7b) {
            row++;
            state = 'record';
            depth = 0;
            inString = false;
            escaped = false;
            continue;
          } else fail(`record ${row + 1} is not a JSON object`);
        } else if (state === 'comma') {
          if (c === 0x2c) state = 'next';
          else if (c === 0x5d) state = 'end';
          else fail(`a ',' or ']' is expected after record ${row}`);
        } else fail(`text after the end of the JSON array`);
        i++;
      }
      if (state === 'record' && recordStart >= 0) {
        parts.push(text.slice(recordStart));
        size += text.length - recordStart;
        if (size > maxRecordChars) fail(`record ${row} is longer than ${maxRecordChars} characters`);
      }
    }
    if (state === 'start') fail('the file is empty');
    if (state === 'record') fail(`the file ends inside record ${row}`);
    if (!lines && (state as State) !== 'end') fail('the file ends before the JSON array is closed');
  } catch (e) {
    if (!(e instanceof Unreadable)) throw e;
    // A problem once records have begun is listed as the record's (with any bad rows before it).
    if (row === 0) throw new IngestError(`${origin}: ${e.message}`, [], 0, undefined, 'row');
    bad(row, e.message);
  }
}
