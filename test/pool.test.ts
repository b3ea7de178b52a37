/**
 * The compute pool (src/api/compute/): with worker threads the service answers exactly as
 * it does computing on its own thread — the same bytes, the same errors — a client that goes
 * away cancels its job in the worker, and small requests are answered while heavy ones run.
 */
import { after, before, describe, test } from 'node:test';
import { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ResponseCache } from '../src/api/responseCache.ts';
import { gauge, openPooledAndLocal, waitFor, type PooledAndLocal, type TestServer } from './helpers.ts';

let servers: PooledAndLocal | undefined;
let pooled: TestServer;
let local: TestServer;
let key: string;

before(async () => ({ pooled, local, key } = servers = await openPooledAndLocal('pool')));
after(() => servers?.close());

describe('the same answers with workers as without', () => {
  const cases: [string, Record<string, string>][] = [
    ['/v1/region/ercot/demand/forecast', { id: 'ercot_total' }],
    ['/v1/plant/ercot/wind/continuous', { start: '2026-06-01', end: '2026-06-10' }],
    ['/v1/plant/ercot/wind/list', {}],
    ['/v1/region/ercot/demand/forecast', { id: 'nope' }],
    ['/v1/region/ercot/demand/continuous', { start: '2020-01-01', end: '2020-01-02', id: 'ercot_total' }],
    ['/v1/lmp/pjm/dalmp/forecast', { id: 'WESTERN HUB' }],
    ['/v1/region/isone/summary', {}],
  ];
  for (const [path, query] of cases) {
    test(`${path}?${new URLSearchParams(query)}`, async () => {
      const [a, b] = await Promise.all([pooled.get(path, { key, query }), local.get(path, { key, query })]);
      assert.equal(a.status, b.status);
      assert.equal(a.headers['content-type'], b.headers['content-type']);
      assert.ok(a.text === b.text, `bodies differ (${a.text.length} vs ${b.text.length} bytes)`);
      const gz = await pooled.get(path, { key, query, headers: { 'accept-encoding': 'gzip' } });
      assert.ok(gz.text === a.text, 'gzip inflates to the same body');
    });
  }

  test('HEAD checks without computing: 200, or the 422 GET would give', async () => {
    assert.equal((await pooled.request('HEAD', '/v1/plant/ercot/wind/continuous', { key })).status, 200);
    assert.equal((await pooled.request('HEAD', '/v1/plant/ercot/wind/continuous', { key, query: { id: '1' } })).status, 422);
  });
});

test('a small body is sent again from the HTTP thread within the minute, the same bytes', async () => {
  const before = await gauge(pooled, 'gridcast_response_cache_hits_total');
  const query = { id: 'pjm_total' };
  const first = await pooled.get('/v1/region/pjm/wind/forecast', { key, query });
  const again = await pooled.get('/v1/region/pjm/wind/forecast', { key, query });
  assert.equal(first.status, 200);
  assert.ok(again.text === first.text);
  assert.equal(await gauge(pooled, 'gridcast_response_cache_hits_total'), before + 1);
  // Another parameter is another body.
  const iso = await pooled.get('/v1/region/pjm/wind/forecast', { key, query: { ...query, model: 'iso' } });
  assert.notEqual(iso.text, first.text);
  assert.equal(await gauge(pooled, 'gridcast_response_cache_hits_total'), before + 1);
});

test('a large streamed body is sent again from the HTTP thread within the minute, the same bytes, computing nothing', async () => {
  const query = { start: '2025-05-01', end: '2025-05-20' };
  const hits = await gauge(pooled, 'gridcast_response_cache_hits_total');
  const splits = await gauge(pooled, 'gridcast_compute_splits_total');
  const first = await pooled.get('/v1/plant/miso/solar/backcast', { key, query });
  assert.equal(first.status, 200);
  assert.ok(first.text.length > 256 * 1024, `a streamed body (${first.text.length} bytes)`);
  assert.equal(await gauge(pooled, 'gridcast_compute_splits_total'), splits + 1, 'the first one was computed (shared out)');
  const again = await pooled.get('/v1/plant/miso/solar/backcast', { key, query });
  assert.ok(again.text === first.text, 'the same bytes');
  assert.equal(again.headers.etag, first.headers.etag);
  assert.equal(await gauge(pooled, 'gridcast_response_cache_hits_total'), hits + 1);
  assert.equal(await gauge(pooled, 'gridcast_compute_splits_total'), splits + 1, 'the second one computed nothing');
});

test('a streamed body cut short by its client is not kept: the next request computes it whole', async () => {
  const path = '/v1/plant/ercot/solar/backcast?start=2023-01-01&end=2023-12-31';
  const { port } = new URL(pooled.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('data', resolve));
  socket.destroy();
  await waitFor(async () => (await gauge(pooled, 'gridcast_compute_jobs_in_flight')) === 0, 'the job to be cancelled');
  const hits = await gauge(pooled, 'gridcast_response_cache_hits_total');
  const whole = await pooled.get(path, { key });
  assert.equal(whole.status, 200);
  assert.equal(JSON.parse(whole.text).time_utc.length, 365 * 24);
  assert.equal(await gauge(pooled, 'gridcast_response_cache_hits_total'), hits);
});

test('a large all-target body is shared out between two idle workers, byte for byte the same', async () => {
  const before = await gauge(pooled, 'gridcast_compute_splits_total');
  const query = { start: '2025-03-01', end: '2025-03-20' };
  const split = await pooled.get('/v1/plant/ercot/solar/backcast', { key, query });
  assert.equal(await gauge(pooled, 'gridcast_compute_splits_total'), before + 1);
  const whole = await local.get('/v1/plant/ercot/solar/backcast', { key, query });
  assert.equal(split.status, 200);
  assert.ok(split.text === whole.text, `bodies differ (${split.text.length} vs ${whole.text.length} bytes)`);
});

describe('a large wide table is shared out between two idle workers, its blocks in two runs, byte for byte the same', () => {
  // 240 wind plants over 2024: 2.1 M values, two blocks of rows (writers/table.ts BLOCK_VALUES).
  const query = { start: '2024-01-01', end: '2024-12-31' };
  for (const format of ['csv', 'parquet', 'arrow']) {
    test(format, async () => {
      const before = await gauge(pooled, 'gridcast_compute_splits_total');
      const split = await pooled.get('/v1/plant/ercot/wind/backcast', { key, query: { ...query, format } });
      assert.equal(await gauge(pooled, 'gridcast_compute_splits_total'), before + 1);
      const whole = await local.get('/v1/plant/ercot/wind/backcast', { key, query: { ...query, format } });
      assert.equal(split.status, 200);
      assert.ok(split.raw.equals(whole.raw), `bodies differ (${split.raw.length} vs ${whole.raw.length} bytes)`);
    });
  }
});

test('a client that goes away cancels its job in the worker', async () => {
  const { port } = new URL(pooled.baseUrl);
  const socket = net.connect(Number(port), '127.0.0.1', () =>
    socket.write(`GET /v1/plant/ercot/solar/backcast?start=2024-01-01&end=2024-12-31 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`),
  );
  socket.on('error', () => {});
  // A year of plants is shared out between two idle workers as soon as it starts: one job or two.
  await waitFor(async () => (await gauge(pooled, 'gridcast_compute_jobs_in_flight')) >= 1, 'the job to start');
  socket.destroy();
  await waitFor(async () => (await gauge(pooled, 'gridcast_compute_jobs_in_flight')) === 0, 'the job to be cancelled');
  assert.equal(await gauge(pooled, 'gridcast_heavy_requests_in_flight'), 0);
  assert.equal(await gauge(pooled, 'gridcast_compute_workers'), 2);
});

test('small requests are answered while four heavy requests compute', async () => {
  const heavy = ['wind', 'solar'].flatMap((metric) =>
    ['2023', '2025'].map((year) =>
      pooled.get(`/v1/plant/ercot/${metric}/backcast`, { key, query: { start: `${year}-01-01`, end: `${year}-06-30` } }),
    ),
  );
  const latencies: number[] = [];
  let heavyDone = false;
  void Promise.all(heavy).then(() => (heavyDone = true));
  await new Promise((r) => setTimeout(r, 200));
  while (!heavyDone && latencies.length < 40) {
    const started = performance.now();
    const res = await pooled.get('/v1/gas/forecast', { key, query: { id: 'HENRY' } });
    assert.ok(res.status === 200 || res.status === 422, res.text.slice(0, 200));
    latencies.push(performance.now() - started);
  }
  for (const res of await Promise.all(heavy)) assert.equal(res.status, 200);
  assert.ok(latencies.length >= 3, `${latencies.length} small requests while the heavy ones ran`);
  assert.ok(Math.max(...latencies) < 2000, `slowest small request ${Math.max(...latencies).toFixed(0)} ms`);
});

test('the response cache keys on the minute and keeps within its byte budget', () => {
  const t0 = Date.parse('2026-06-15T18:00:00Z');
  const params = { iso: 'pjm', id: 'pjm_total' };
  assert.equal(ResponseCache.keyOf('/p', params, t0), ResponseCache.keyOf('/p', params, t0 + 59_999));
  assert.notEqual(ResponseCache.keyOf('/p', params, t0), ResponseCache.keyOf('/p', params, t0 + 60_000));
  const cache = new ResponseCache(250);
  for (let i = 0; i < 5; i++) cache.set(`k${i}`, { body: Buffer.alloc(100), values: 1 });
  assert.equal(cache.get('k0'), undefined, 'the oldest went first');
  assert.ok(cache.get('k3') && cache.get('k4'));
});

test('the response cache counts the memory a streamed body keeps, not only its bytes', async () => {
  /** Four chunks of 1,000 bytes: views of a 64 KiB buffer each, or all four of one. */
  const views = (shared: boolean) => {
    const one = new ArrayBuffer(65_536);
    return Array.from({ length: 4 }, (_, i) =>
      Buffer.from(shared ? one : new ArrayBuffer(65_536), shared ? i * 1_000 : 0, 1_000).fill(0x61),
    );
  };
  const stream = async (cache: ResponseCache, key: string, chunks: Buffer[]) => {
    for await (const chunk of cache.keepStreamed(key, Readable.from(chunks), 1)) void chunk;
  };
  // 4,000 bytes that hold 256 KiB: more than the largest body kept (100,000 of a 200,000 budget).
  const cache = new ResponseCache(200_000);
  await stream(cache, 'apart', views(false));
  assert.equal(cache.get('apart'), undefined);
  // The views of one buffer hold it once (65,536): kept; with 150,000 more the budget is passed and the oldest goes.
  await stream(cache, 'shared', views(true));
  cache.set('b', { body: Buffer.alloc(60_000), values: 1 });
  cache.set('c', { body: Buffer.alloc(60_000), values: 1 });
  cache.set('d', { body: Buffer.alloc(30_000), values: 1 });
  assert.equal(cache.get('shared'), undefined, 'the 64 KiB its chunks hold count');
  assert.ok(cache.get('b') && cache.get('c') && cache.get('d'));
  // Once served again it is joined and holds its 4,000 bytes only: 184,000 in all stay within the budget.
  const joined = new ResponseCache(200_000);
  await stream(joined, 'shared', views(true));
  assert.equal(joined.get('shared')?.body.toString(), 'a'.repeat(4_000));
  for (const key of ['b', 'c', 'd']) joined.set(key, { body: Buffer.alloc(60_000), values: 1 });
  assert.equal(joined.get('shared')?.body.length, 4_000);
});

test('the response cache keeps a streamed body as it went out, served again whole', async () => {
  const cache = new ResponseCache(1 << 20);
  const chunks = ['{"time_utc":[', '"a","b"', '],"values":[[1,2]]}'].map((c) => Buffer.from(c));
  const out: Buffer[] = [];
  for await (const chunk of cache.keepStreamed('k', Readable.from(chunks), 2)) out.push(chunk as Buffer);
  assert.equal(Buffer.concat(out).toString(), '{"time_utc":["a","b"],"values":[[1,2]]}');
  for (let i = 0; i < 2; i++) assert.deepEqual(cache.get('k'), { body: Buffer.concat(chunks), values: 2 }, `served again (${i + 1})`);
  // A body cut short is not kept.
  const failing = Readable.from(
    (function* () {
      yield Buffer.from('{"time_utc":[');
      throw new Error('the computation failed');
    })(),
  );
  await assert.rejects(async () => {
    for await (const chunk of cache.keepStreamed('cut', failing, 2)) void chunk;
  });
  assert.equal(cache.get('cut'), undefined);
});
