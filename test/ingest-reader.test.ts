/**
 * The ingest's fast readers give what the general ones give: the in-place CSV split the records
 * and line numbers of csv-parse (whatever the chunking, quotes anywhere, CR/CRLF/LF, a byte order
 * mark), the value reader exactly Number's doubles, the time reader exactly Date.UTC's instants.
 * And a run whose hours span more than ten years is a bad row (its values are held densely).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { csvRecords } from '../src/ingest/csv.ts';
import { ingestFile, IngestError } from '../src/ingest/ingest.ts';
import { parseInstant, parseValue } from '../src/ingest/instants.ts';
import { openTestStore, type TestStore } from './helpers.ts';

const CASES = [
  'a,b,c\n1,2,3\n4,5,6\n',
  'a,b\r\n1,2\r\n\r\n3,4\r\n',
  'a,b\n1,2',
  '\ufeffa,b\n1,2\n',
  'a,b\n\n\n1,2\n\n',
  'a,b\n1,"x,y"\n2,3\n',
  'a,b\r1,2\r3,4',
  'a,b\n1,2\n3,"4\n5"\n6,7\n',
  'a,,b\n,,\n1,,2\n',
  'é,ü\nñ,ß\n1,2\n',
  'a,b\n1,2\r',
  'x,y\n' + '1,2\n'.repeat(300) + '3,"q"\n' + '5,6\n'.repeat(10),
];

async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

test('CSV records and line numbers are those of csv-parse, whatever the chunks', async () => {
  for (const text of CASES) {
    const want = (
      parse(text, {
        bom: true,
        info: true,
        record_delimiter: ['\r\n', '\n', '\r'],
        relax_column_count: true,
        skip_empty_lines: true,
      }) as unknown as {
        info: { lines: number };
        record: string[];
      }[]
    ).map((r) => ({ line: r.info.lines, fields: r.record }));
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const got = [];
      for await (const r of csvRecords(chunked(text, size))) got.push(r);
      assert.deepEqual(got, want, `${JSON.stringify(text.slice(0, 30))} in chunks of ${size}`);
    }
  }
});

test('values read exactly as Number reads them; text that is not a decimal is refused', () => {
  const decimals = ['0', '-0', '-0.0', '5.', '.5', '007', '123456789012345', '1234567890123456', '-12345.678901234', '0.000000000000001'];
  for (let i = 0; i < 20_000; i++) {
    const digits = 1 + (i % 16);
    let t = String(Math.floor(Math.random() * 10 ** Math.min(digits, 15))).padStart(digits, '0');
    const point = i % (digits + 1);
    t = (i % 2 ? '-' : '') + t.slice(0, point) + '.' + t.slice(point);
    decimals.push(t);
  }
  for (const t of decimals) assert.ok(Object.is(parseValue(t), Number(t)), t);
  for (const t of ['.', '-', '1e5x', '0x10', 'Infinity', 'NaN', '1.2.3']) assert.equal(typeof parseValue(t), 'string', t);
  assert.ok(Number.isNaN(parseValue('')));
});

test('UTC times read exactly as Date.UTC reads their fields (days past a month end run on, as before)', () => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  for (let y = 1899; y <= 2101; y += 3) {
    for (let m = 1; m <= 12; m++) {
      for (const d of [0, 1, 28, 29, 31]) {
        const text = `${pad(y, 4)}-${pad(m)}-${pad(d)}T23:59:59Z`;
        assert.equal(parseInstant(text, undefined), Date.UTC(y, m - 1, d, 23, 59, 59), text);
      }
    }
  }
  assert.equal(parseInstant('0050-01-01T00:00:00Z', undefined), Date.UTC(50, 0, 1));
  assert.equal(typeof parseInstant('2026-13-01T00:00:00Z', undefined), 'string');
});

let ts: TestStore;
before(async () => (ts = await openTestStore()));
after(() => ts?.close());

test('a run whose valid hours span more than ten years is a bad row; nothing is stored', async () => {
  const csv =
    'time_utc,id,value,created_at\n2026-01-01T00:00:00Z,miso_lrz1,1,2026-01-01T00:00:00Z\n2037-01-01T00:00:00Z,miso_lrz1,2,2026-01-01T00:00:00Z\n';
  const options = { source: 'wide', group: 'region', iso: 'miso', metric: 'demand', replace: false, origin: 'wide.csv' };
  await assert.rejects(
    ingestFile(ts.store.sources, chunked(csv, 64), options),
    (e: unknown) =>
      e instanceof IngestError &&
      JSON.stringify(e.problems) ===
        JSON.stringify([{ line: 3, reason: 'the run issued 2026-01-01T00:00:00Z spans more than 87660 hours (10 years) for miso_lrz1' }]),
  );
  assert.deepEqual(await ts.store.sources.names(), []);
});
