/**
 * A large CSV in the long layout is parsed on a worker thread (src/ingest/parallel.ts) while the
 * ingest assembles and writes: the outcome must be the one of the parse in one thread — the same
 * runs stored, the same bad rows listed (first 20, with lines and reasons) and counted, nothing
 * stored when one is bad. GRIDCAST_INGEST_WORKER_BYTES sets the size from which the worker is used.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestFile, IngestError, type IngestOptions } from '../src/ingest/ingest.ts';
import { PARSE_WORKER_BYTES } from '../src/ingest/parallel.ts';
import { openTestStore, rawRequest, startTestApp, type TestStore } from './helpers.ts';

const HOUR_MS = 3_600_000;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const options = (o: Partial<IngestOptions> = {}): IngestOptions => ({
  source: 'big',
  group: 'region',
  iso: 'ercot',
  metric: 'demand',
  replace: false,
  origin: 'big.csv',
  ...o,
});

/** 40 runs of two regions, 48 hours each (3,840 rows, ~220 kB); `spoil` may rewrite a row by its index. */
function fileOf(spoil: (row: string, i: number) => string = (r) => r): string {
  const lines = ['time_utc,id,value,unit,created_at'];
  let i = 0;
  for (let run = 0; run < 40; run++) {
    const issued = Date.parse('2026-03-01T00:00:00Z') + run * 6 * HOUR_MS;
    for (const id of ['ercot_total', 'ercot_coast'])
      for (let h = 0; h < 48; h++) lines.push(spoil(`${utc(issued + h * HOUR_MS)},${id},${run * 100 + h},MW,${utc(issued)}`, i++));
  }
  return lines.join('\n') + '\n';
}

/** The file in chunks of 4 kB (many chunks and batches through the worker). */
async function* chunks(text: string): AsyncGenerator<Buffer> {
  for (let i = 0; i < text.length; i += 4096) yield Buffer.from(text.slice(i, i + 4096));
}

/** The ingest's summary (without its timing) or its error, with the worker from `workerBytes` on. */
async function outcome(store: TestStore['store'], text: string, workerBytes: number, o: Partial<IngestOptions> = {}) {
  const before = process.env.GRIDCAST_INGEST_WORKER_BYTES;
  process.env.GRIDCAST_INGEST_WORKER_BYTES = String(workerBytes);
  try {
    const { seconds: _seconds, ...summary } = await ingestFile(store.sources, chunks(text), options(o));
    return summary;
  } catch (e) {
    if (!(e instanceof IngestError)) throw e;
    return { message: e.message, problems: e.problems, total: e.totalProblems, position: e.position };
  } finally {
    if (before === undefined) delete process.env.GRIDCAST_INGEST_WORKER_BYTES;
    else process.env.GRIDCAST_INGEST_WORKER_BYTES = before;
  }
}

let ts: TestStore;
before(async () => (ts = await openTestStore()));
after(() => ts?.close());

test('a file parsed on the worker lists the same bad rows as one parsed in one thread, and stores nothing', async () => {
  // 30 bad rows of kinds the parse finds (value, time, unit) and the assembly finds (target, a
  // second value): more than the 20 listed, spread over the file.
  const bad = fileOf((row, i) => {
    if (i % 120 !== 7) return row;
    const cells = row.split(',');
    const kind = (i / 120) | 0;
    if (kind % 5 === 0) cells[2] = 'NaN';
    else if (kind % 5 === 1) cells[0] = '2026-03-01T00:30:00Z';
    else if (kind % 5 === 2) cells[3] = 'USD/MWh';
    else if (kind % 5 === 3) cells[1] = 'nowhere';
    else cells[0] = utc(Date.parse(cells[4])); // the run's first hour again, with another value
    return cells.join(',');
  });
  const inThread = await outcome(ts.store, bad, 1e12);
  const onWorker = await outcome(ts.store, bad, 0);
  assert.ok('problems' in inThread && inThread.total === 32 && inThread.problems.length === 20, JSON.stringify(inThread));
  assert.deepEqual(onWorker, inThread);
  assert.deepEqual(await ts.store.sources.names(), [], 'nothing stored');
  // Every row bad: more than 20 in each batch the worker posts (listed there up to 20, the rest counted).
  const allBad = fileOf((row) => row.replace(/,MW,/, ',USD/MWh,'));
  const allInThread = await outcome(ts.store, allBad, 1e12);
  assert.ok('total' in allInThread && allInThread.total === 3840, JSON.stringify(allInThread).slice(0, 300));
  assert.deepEqual(await outcome(ts.store, allBad, 0), allInThread);
});

test('a good file parsed on the worker stores what one thread stores; again, nothing changes', async () => {
  const good = fileOf();
  const onWorker = await outcome(ts.store, good, 0);
  assert.deepEqual(onWorker, {
    source: 'big',
    kind: 'forecast',
    runsAdded: 80,
    runsReplaced: 0,
    runsUnchanged: 0,
    actualsAdded: 0,
    actualsReplaced: 0,
    actualsUnchanged: 0,
    targets: 2,
    values: 3840,
    first_valid_time: '2026-03-01T00:00:00Z',
    last_valid_time: '2026-03-12T17:00:00Z',
  });
  const again = await outcome(ts.store, good, 1e12);
  assert.deepEqual(again, { ...onWorker, runsAdded: 0, runsUnchanged: 80 });
});

test('a header that is not the long layout, or actuals where the group has none, is refused as in one thread', async () => {
  const header = 'time_utc,id,value,created_at\n';
  const noValue = fileOf().replace(/^[^\n]*\n/, 'time_utc,id,amount,unit,created_at\n');
  assert.deepEqual(await outcome(ts.store, noValue, 0), await outcome(ts.store, noValue, 1e12));
  const actuals = 'time_utc,id,value\n' + '2026-03-01T00:00:00Z,p1,5\n'.repeat(100);
  const plant = { group: 'plant', metric: 'generation', source: 'plants' };
  assert.deepEqual(await outcome(ts.store, actuals, 0, plant), await outcome(ts.store, actuals, 1e12, plant));
  assert.deepEqual(await outcome(ts.store, header, 0), await outcome(ts.store, header, 1e12));
});

test('actuals of a daily metric without a publication time are known at the end of their local day, on the worker as in one thread', async () => {
  // ERCOT outages: one value per local day (America/Chicago, UTC-6 in early March), at its midnight.
  const text = 'time_utc,id,value\n2026-03-02T06:00:00Z,ercot_total,1200\n2026-03-03T06:00:00Z,ercot_total,1300\n';
  const published = async (source: string) =>
    (
      await ts.store.sql.query<{ p: number }>(
        `SELECT extract(epoch FROM a.published_at)::float8 * 1000 AS p FROM source_actuals a JOIN source_series s ON s.id = a.series_id
          WHERE s.source = $1 ORDER BY a.valid_hour`,
        [source],
      )
    ).map((r) => utc(r.p));
  for (const [source, workerBytes] of [
    ['daily_worker', 0],
    ['daily_thread', 1e12],
  ] as const) {
    const summary = await outcome(ts.store, text, workerBytes, { source, metric: 'outage' });
    assert.equal((summary as { actualsAdded?: number }).actualsAdded, 2, JSON.stringify(summary));
    assert.deepEqual(await published(source), ['2026-03-03T06:00:00Z', '2026-03-04T06:00:00Z'], source);
  }
});

test('an upload over 8 MB past the size limit is cut with the 413 while the worker parses it, and nothing is stored', async () => {
  // The first 8 MB are read before the worker starts; the limit is met in the worker's part.
  const limit = PARSE_WORKER_BYTES + 512 * 1024;
  const app = await startTestApp({ adminToken: 'admin-token', ingestMaxBytes: limit });
  try {
    const lines = ['time_utc,id,value,created_at'];
    let bytes = 0;
    for (let run = 0; bytes <= limit + 256 * 1024; run++) {
      const issued = Date.parse('2026-03-01T00:00:00Z') + run * 6 * HOUR_MS;
      for (let h = 0; h < 48; h++) {
        const line = `${utc(issued + h * HOUR_MS)},ercot_total,${run + h},${utc(issued)}`;
        lines.push(line);
        bytes += line.length + 1;
      }
    }
    const res = await rawRequest(
      app.baseUrl,
      '/admin/ingest?source=big&iso=ercot&metric=demand',
      { authorization: 'Bearer admin-token', 'content-type': 'text/csv' },
      'POST',
      lines.join('\n') + '\n',
      64 * 1024,
    );
    assert.equal(res.status, 413, res.text);
    assert.equal(res.text, `{"detail":[{"type":"error","msg":"The file is larger than ${limit} bytes (GRIDCAST_INGEST_MAX_BYTES)."}]}`);
    assert.deepEqual(await app.store.sources.names(), []);
  } finally {
    await app.close();
  }
});
