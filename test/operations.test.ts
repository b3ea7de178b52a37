/**
 * Running gridcast for paying users: the admin API (keys, subscriptions with expiry, usage),
 * rate limits and quotas in the public error format, usage metering, health/readiness/metrics,
 * request ids, and the limits that turn overload into a clear 4xx/503. Runs on the embedded
 * store, and on PostgreSQL with GRIDCAST_TEST_BACKEND=postgres.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startTestApp, waitFor, type TestApp, type TestServer } from './helpers.ts';

const TOKEN = 'test-admin-token-0123456789';
let t: TestApp;
let limited: TestServer;
let busy: TestServer;

before(async () => {
  t = await startTestApp({ adminToken: TOKEN, authCacheMs: 0 });
  limited = await startServer(t.store, {
    rateLimits: { core: [{ limit: 3, windowSecs: 60 }], advanced: [{ limit: 1000, windowSecs: 60 }], enterprise: [] },
    maxQueryBytes: 200,
  });
  busy = await startServer(t.store, { maxHeavy: 0, heavyValues: 50_000 });
});

after(async () => {
  await limited?.close();
  await busy?.close();
  await t?.close();
});

const admin = (method: string, path: string, body?: unknown, token = TOKEN) =>
  t.request(method, path, {
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('admin API', () => {
  test('needs the admin token: 401 without or with a wrong one; disabled (403) when none is configured', async () => {
    let res = await t.get('/admin/keys');
    assert.equal(res.status, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer');
    assert.equal(res.text, '{"detail":[{"type":"error","msg":"Missing admin token: send Authorization: Bearer <GRIDCAST_ADMIN_TOKEN>."}]}');
    res = await admin('GET', '/admin/keys', undefined, 'wrong');
    assert.equal(res.status, 401);
    assert.equal(res.text, '{"detail":[{"type":"error","msg":"Invalid admin token."}]}');
    // An API key is not an admin token.
    res = await t.get('/admin/keys', { key: await t.key({ all: 'enterprise' }) });
    assert.equal(res.status, 401);
    res = await limited.get('/admin/keys', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 403);
    assert.equal(
      res.text,
      '{"detail":[{"type":"error","msg":"The admin API is disabled: start the service with GRIDCAST_ADMIN_TOKEN set."}]}',
    );
  });

  test('create → the key works; list never shows secrets; subscriptions set, changed, expired, removed; revoke', async () => {
    let res = await admin('POST', '/admin/keys', { name: 'acme', subscriptions: [{ iso: 'ercot', level: 'core' }] });
    assert.equal(res.status, 201);
    const created = res.json();
    assert.match(created.key, /^gc_[\w-]{32}$/);
    assert.match(created.id, /^key_[0-9a-f]{24}$/);
    assert.deepEqual(created.subscriptions, [{ iso: 'ercot', level: 'core', expires_at: null, active: true }]);
    const key = created.key as string;
    assert.equal((await t.get('/v1/region/ercot/demand/list', { key })).status, 200);
    assert.equal((await t.get('/v1/plant/ercot/wind/list', { key })).status, 403);

    const list = await admin('GET', '/admin/keys');
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(key) && !list.text.includes('key_hash'));
    assert.ok(list.json().some((k: any) => k.id === created.id && k.status === 'active'));

    res = await admin('PUT', `/admin/keys/${created.id}/subscriptions/ercot`, { level: 'advanced' });
    assert.equal(res.status, 200);
    assert.equal((await t.get('/v1/plant/ercot/wind/list', { key })).status, 200);

    res = await admin('PUT', `/admin/keys/${created.id}/subscriptions/pjm`, { level: 'core', expires_at: '2099-01-01T00:00:00Z' });
    assert.deepEqual(
      res.json().subscriptions.find((s: any) => s.iso === 'pjm'),
      { iso: 'pjm', level: 'core', expires_at: '2099-01-01T00:00:00Z', active: true },
    );
    assert.equal((await t.get('/v1/region/pjm/demand/list', { key })).status, 200);
    res = await admin('POST', `/admin/keys/${created.id}/subscriptions/pjm/expire`);
    assert.equal(res.json().subscriptions.find((s: any) => s.iso === 'pjm').active, false);
    res = await t.get('/v1/region/pjm/demand/list', { key });
    assert.equal(res.status, 403, 'an expired subscription grants nothing');

    res = await admin('DELETE', `/admin/keys/${created.id}/subscriptions/pjm`);
    assert.deepEqual(
      res.json().subscriptions.map((s: any) => s.iso),
      ['ercot'],
    );
    assert.equal((await admin('DELETE', `/admin/keys/${created.id}/subscriptions/pjm`)).status, 404);

    res = await admin('DELETE', `/admin/keys/${created.id}`);
    assert.equal(res.json().status, 'revoked');
    assert.equal((await t.get('/v1/region/ercot/demand/list', { key })).status, 401);
    res = await admin('GET', '/admin/keys/key_00000000');
    assert.equal(res.status, 404);
    assert.equal(res.text, `{"detail":[{"type":"error","msg":"No key with id 'key_00000000'."}]}`);
  });

  test('bodies are validated like FastAPI: every error at once, with body locations; bad JSON is json_invalid', async () => {
    let res = await admin('POST', '/admin/keys', { subscriptions: [{ iso: 'texas', level: 'gold', expires_at: 'soon' }] });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.json().detail.map((e: any) => [e.type, e.loc.join('.')]),
      [
        ['missing', 'body.name'],
        ['enum', 'body.subscriptions.0.iso'],
        ['enum', 'body.subscriptions.0.level'],
        ['datetime_from_date_parsing', 'body.subscriptions.0.expires_at'],
      ],
    );
    res = await admin('POST', '/admin/keys', '{"name": ');
    assert.equal(res.status, 422);
    assert.equal(res.json().detail[0].type, 'json_invalid');
    res = await admin('PUT', '/admin/keys/key_00000000/subscriptions/mars', { level: 'core' });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().detail[0].loc, ['path', 'iso']);
  });

  test('usage: requests and values served per key, day and endpoint', async () => {
    const created = (await admin('POST', '/admin/keys', { name: 'metered', subscriptions: [{ iso: 'all', level: 'enterprise' }] })).json();
    const key = created.key;
    for (let i = 0; i < 2; i++)
      assert.equal((await t.get('/v1/region/isone/demand/forecast', { key, query: { id: 'isone_total' } })).status, 200);
    assert.equal((await t.get('/v1/region/isone/demand/list', { key })).status, 200);
    assert.equal((await t.get('/v1/region/isone/demand/forecast', { key, query: { id: 'nope' } })).status, 422);
    // Usage is counted in memory and written in batches (every 50 ms in these tests).
    const today = new Date().toISOString().slice(0, 10);
    const expected = [
      [today, '/region/{iso}/{metric}/forecast', 3, 2 * 360],
      [today, '/region/{iso}/{metric}/list', 1, 9],
    ];
    let rows: any[] = [];
    await waitFor(
      async () => {
        rows = (await admin('GET', `/admin/usage?key_id=${created.id}`))
          .json()
          .map((r: any) => [r.day, r.endpoint, r.requests, r.values_served]);
        return JSON.stringify(rows) === JSON.stringify(expected);
      },
      `usage rows ${JSON.stringify(expected)} (last seen ${JSON.stringify(rows)})`,
    );
    const bad = await admin('GET', '/admin/usage?from=yesterday');
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['query', 'from']);
  });
});

describe('rate limits', () => {
  test("a key over its level's budget gets 429 with Retry-After and RateLimit-* headers, in the public error format", async () => {
    const key = await t.key({ spp: 'core' });
    for (let i = 1; i <= 3; i++) {
      const res = await limited.get('/v1/region/spp/demand/list', { key });
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.equal(res.headers['ratelimit-remaining'], String(3 - i));
      assert.equal(res.headers['ratelimit-policy'], '3;w=60');
    }
    const res = await limited.get('/v1/region/spp/demand/list', { key });
    assert.equal(res.status, 429);
    const retry = Number(res.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    assert.equal(res.headers['ratelimit-remaining'], '0');
    assert.equal(
      res.text,
      `{"detail":[{"type":"error","msg":"Rate limit exceeded: keys at the 'core' level may make 3 requests per minute. Retry in ${retry} s."}]}`,
    );
    // Another key has its own budget; a better level has a bigger one.
    assert.equal((await limited.get('/v1/region/spp/demand/list', { key: await t.key({ spp: 'core' }) })).status, 200);
    assert.equal(
      (await limited.get('/v1/region/spp/demand/list', { key: await t.key({ spp: 'advanced' }) })).headers['ratelimit-limit'],
      '1000',
    );
  });
});

describe('operations', () => {
  test('/healthz and /readyz; /metrics counts requests by route pattern and status', async () => {
    assert.deepEqual((await t.get('/healthz')).json(), { status: 'ok' });
    const ready = (await t.get('/readyz')).json();
    assert.equal(ready.status, 'ready');
    assert.ok(['embedded', 'postgres'].includes(ready.database));
    await t.get('/v1/region/ercot/demand/list');
    const text = (await t.get('/metrics')).text;
    assert.match(text, /# TYPE gridcast_http_requests_total counter/);
    assert.match(text, /gridcast_http_requests_total\{route="\/v1\/region\/:iso\/:metric\/list",method="GET",status="401"\} \d+/);
    assert.match(
      text,
      /gridcast_http_request_duration_seconds_bucket\{route="\/v1\/region\/:iso\/:metric\/list",method="GET",le="\+Inf"\} \d+/,
    );
    assert.match(text, /process_resident_memory_bytes \d+/);
  });

  test('every response carries a request id; a sane X-Request-Id from the caller is kept', async () => {
    const res = await t.get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.headers['x-request-id'], 'abc-123');
    assert.match(String((await t.get('/healthz')).headers['x-request-id']), /^[0-9a-f-]{36}$/);
    assert.notEqual(
      (await t.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } })).headers['x-request-id'],
      'bad id with spaces',
    );
  });

  test('an over-long query string is a 414, not a crash', async () => {
    const res = await limited.get('/v1/region/spp/demand/forecast', { query: { id: 'x'.repeat(300) } });
    assert.equal(res.status, 414);
    assert.equal(res.text, '{"detail":[{"type":"error","msg":"The query string is too long: 303 bytes (at most 200)."}]}');
  });

  test('too many heavy requests at once: 503 with Retry-After; small requests, all-target ones included, still work', async () => {
    const key = await t.key({ all: 'enterprise' });
    // Every ERCOT wind plant over a run: more values than this server's heavyValues.
    const res = await busy.get('/v1/plant/ercot/wind/forecast', { key });
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(
      res.text,
      '{"detail":[{"type":"error","msg":"The server is busy computing 0 large requests; retry in a few seconds, or ask for fewer targets or a shorter window."}]}',
    );
    // Heavy is a matter of size, not of asking for every target: all regions, all gas hubs are small.
    assert.equal((await busy.get('/v1/plant/ercot/wind/forecast', { key, query: { id: '56001' } })).status, 200);
    assert.equal((await busy.get('/v1/region/ercot/demand/forecast', { key })).status, 200);
    assert.equal((await busy.get('/v1/gas/forecast', { key })).status, 200);
  });
});
