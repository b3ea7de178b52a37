/**
 * Freshness: /status lists each model's last and next run and the last published actual hour;
 * every data response has an ETag, Last-Modified and a Cache-Control that tells the truth, and
 * If-None-Match gets a 304 without a body. The clock is frozen at 2026-06-15T18:20:00Z.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../src/time/clock.ts';
import { okJson, startTestApp, type TestApp } from './helpers.ts';

const NOW = '2026-06-15T18:20:00Z';
let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp({ clock: fixedClock(Date.parse(NOW)) });
  key = await t.key({ ercot: 'enterprise' });
});
after(() => t.close());

const maxAge = (cc: unknown) => Number(/max-age=(\d+)/.exec(String(cc))?.[1]);

describe('GET /v1/status', () => {
  test('per ISO and model: last and next run, last published actual hour', async () => {
    const status = await okJson<any[]>(t, '/v1/status', { key });
    const ercot = Object.fromEntries(status.filter((s) => s.iso === 'ercot').map((s) => [s.model, s]));
    assert.deepEqual(Object.keys(ercot), ['optimized', 'iso', 'normal', 'euro_ens', 'euro_ec46', 'euro_seas5']);
    assert.deepEqual(ercot.optimized, {
      iso: 'ercot',
      model: 'optimized',
      last_run: '2026-06-15T18:00:00Z',
      next_run: '2026-06-15T19:00:00Z',
      last_actual_hour: '2026-06-15T17:00:00Z',
    });
    assert.deepEqual([ercot.iso.last_run, ercot.iso.next_run], ['2026-06-15T18:00:00Z', '2026-06-16T00:00:00Z']);
    assert.deepEqual([ercot.normal.last_run, ercot.normal.next_run], ['2026-06-15T00:00:00Z', '2026-06-16T00:00:00Z']);
    assert.deepEqual([ercot.euro_seas5.last_run, ercot.euro_seas5.next_run], ['2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z']);
    // Each last run is what /forecast serves now.
    const latest = await okJson(t, '/v1/region/ercot/demand/forecast', { key, query: { id: 'ercot_total', model: 'iso' } });
    assert.equal(latest.created_at, ercot.iso.last_run);
    assert.equal(status.length, 7 * 6);
  });

  test('status needs a key', async () => {
    assert.equal((await t.get('/v1/status')).status, 401);
  });
});

describe('ETag, Last-Modified, Cache-Control, 304', () => {
  const p = '/v1/region/ercot/demand/forecast';

  test('a pinned run is immutable; the latest run lives until the next run', async () => {
    const pinned = await t.get(p, { key, query: { id: 'ercot_total', forecasted_by: '2026-06-10T15:30:00Z' } });
    assert.equal(pinned.headers['cache-control'], 'private, max-age=31536000, immutable');
    assert.equal(pinned.headers['last-modified'], new Date('2026-06-10T15:00:00Z').toUTCString());
    const latest = await t.get(p, { key, query: { id: 'ercot_total', model: 'iso' } });
    // The next iso run is at 00 UTC: 5 h 40 min after now.
    assert.equal(latest.headers['cache-control'], `private, max-age=${5 * 3600 + 40 * 60}`);
    assert.equal(latest.headers['last-modified'], new Date('2026-06-15T18:00:00Z').toUTCString());
    // A forecasted_by in the future is the latest run, not pinned.
    const future = await t.get(p, { key, query: { id: 'ercot_total', forecasted_by: '2026-07-01T00:00:00Z' } });
    assert.equal(future.headers['cache-control'], 'private, max-age=2400');
    const actual = await t.get('/v1/region/ercot/demand/actual', { key, query: { id: 'ercot_total' } });
    // The next actual (18:00-19:00) is published at 19:15; the next hour's runs at 19:00.
    assert.equal(actual.headers['cache-control'], 'private, max-age=2400');
    const pastWindow = await t.get('/v1/region/ercot/demand/actual', {
      key,
      query: { id: 'ercot_total', start: '2026-06-01', end: '2026-06-02' },
    });
    assert.match(String(pastWindow.headers['cache-control']), /immutable/);
    const openWindow = await t.get('/v1/region/ercot/demand/actual', {
      key,
      query: { id: 'ercot_total', start: '2026-06-14', end: '2026-06-15' },
    });
    assert.ok(maxAge(openWindow.headers['cache-control']) < 3600, 'a window reaching now is not immutable');
  });

  test('If-None-Match with the ETag is a 304 without a body; another ETag or format is a 200', async () => {
    const query = { id: 'ercot_total', forecasted_by: '2026-06-10T15:30:00Z' };
    const first = await t.get(p, { key, query });
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/"[\w-]+"$/);
    const again = await t.get(p, { key, query });
    assert.equal(again.headers.etag, etag, 'the same request has the same ETag');
    const cached = await t.get(p, { key, query, headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.raw.length, 0);
    assert.equal(cached.headers.etag, etag);
    assert.equal(cached.headers['cache-control'], first.headers['cache-control']);
    const listed = await t.get(p, { key, query, headers: { 'if-none-match': `"other", ${etag.slice(2)}` } });
    assert.equal(listed.status, 304, 'weak comparison in a list');
    const otherRun = await t.get(p, {
      key,
      query: { ...query, forecasted_by: '2026-06-10T17:00:00Z' },
      headers: { 'if-none-match': etag },
    });
    assert.equal(otherRun.status, 200);
    const csv = await t.get(p, { key, query: { ...query, format: 'csv' }, headers: { 'if-none-match': etag } });
    assert.equal(csv.status, 200);
    assert.notEqual(csv.headers.etag, etag);
    const accept = await t.get(p, { key, query, headers: { accept: 'text/csv', 'if-none-match': etag } });
    assert.equal(accept.status, 200, 'a negotiated format has its own ETag');
    assert.equal(accept.headers.vary, 'Accept');
  });

  test('every data response has the validators, lists and records too', async () => {
    for (const path of ['/v1/region/ercot/demand/list', '/v1/region/ercot/demand/runs', '/v1/region/ercot/demand/continuous']) {
      const res = await t.get(path, { key });
      assert.equal(res.status, 200, path);
      assert.ok(res.headers.etag && res.headers['last-modified'] && res.headers['cache-control'], path);
    }
  });
});

describe('validators of a repeated request', () => {
  let moving: TestApp;
  let now = Date.parse('2026-06-15T18:20:05Z');
  before(async () => {
    moving = await startTestApp({ clock: { now: () => now } });
  });
  after(() => moving.close());

  // The ETag of a request is worked out once a minute (kept by the response cache's key); max-age
  // still counts down with the clock, and a new minute past the model's next run gets a new ETag.
  test('within a minute the same ETag, max-age counting down; after the next run a new one', async () => {
    const key = await moving.key({ ercot: 'core' });
    const path = '/v1/region/ercot/demand/forecast?id=ercot_total';
    const first = await moving.get(path, { key });
    now += 30_000;
    const second = await moving.get(path, { key });
    assert.equal(second.headers.etag, first.headers.etag);
    const maxAge = (r: typeof first) => Number(/max-age=(\d+)/.exec(String(r.headers['cache-control']))![1]);
    assert.equal(maxAge(first) - maxAge(second), 30);
    now += (maxAge(second) + 60) * 1000;
    const later = await moving.get(path, { key });
    assert.notEqual(later.headers.etag, first.headers.etag);
    assert.ok(maxAge(later) > 0);
  });
});
