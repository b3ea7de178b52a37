/**
 * Hardening: no client can lock the service up, no input gets a 500, no key reaches a log.
 * Each test here failed on the code before the fix it guards. Runs on the embedded store, and
 * on PostgreSQL with GRIDCAST_TEST_BACKEND=postgres.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { KeyStore } from '../src/store/keys.ts';
import { blockCache } from '../src/query/blockCache.ts';
import { gauge, okJson, rawRequest, startServer, startTestApp, waitFor, type Response, type TestApp, type TestServer } from './helpers.ts';

const TOKEN = 'hardening-admin-token-0123456789';
/** A year of every ERCOT wind plant: seconds of computing on a cold process. */
const HEAVY = '/v1/plant/ercot/wind/backcast?start=2025-01-01&end=2025-12-31';

let t: TestApp;
let logged: TestServer;
let disabled: TestServer;
let key: string;
let log = '';

before(async () => {
  t = await startTestApp({ adminToken: TOKEN, authCacheMs: 0 });
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => (log += c.toString('utf8')));
  logged = await startServer(t.store, { logger: { stream } });
  disabled = await startServer(t.store, {});
  key = await t.key({ all: 'enterprise' }, 'hardening');
});

after(async () => {
  await logged?.close();
  await disabled?.close();
  await t?.close();
});

const assertBody = (res: Response, status: number, body: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.text, body);
};

/** Sends a raw HTTP request on a socket and closes it after `ms` (or on the first response byte when ms is 0). */
function abortAfter(baseUrl: string, path: string, ms: number): Promise<void> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`);
    });
    socket.on('error', () => {});
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, ms);
  });
}

/** What the server answers to bytes written on a raw socket (the whole reply, until it closes). */
function rawExchange(baseUrl: string, bytes: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let reply = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
    setTimeout(() => socket.destroy(), 5000);
  });
}

describe('aborted requests give back everything they took', () => {
  test('four aborted heavy requests leave every slot free, the gauges at rest and their usage recorded', async () => {
    const server = await startServer(t.store, { maxHeavy: 4 });
    try {
      const cached = blockCache.size;
      await Promise.all([0, 1, 2, 3].map(() => abortAfter(server.baseUrl, HEAVY, 300)));
      await waitFor(async () => (await gauge(server, 'gridcast_heavy_requests_in_flight')) === 0, 'heavy slots to be released');
      // Only this /metrics request is in flight.
      assert.equal(await gauge(server, 'gridcast_http_requests_in_flight'), 1);
      // A heavy request of another group is served, not refused with 503.
      const gas = await server.get('/v1/gas/forecast', { key });
      assert.equal(gas.status, 200, gas.text.slice(0, 200));
      // Computing stopped with the clients: nothing more is computed once they have gone, and a
      // whole year of every ERCOT wind plant (plants × 365 day blocks) was never reached.
      const computed = blockCache.size;
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(blockCache.size, computed, 'no block computed after the clients had gone');
      const plants = (await okJson<unknown[]>(server, '/v1/plant/ercot/wind/list', { key })).length;
      assert.ok(computed - cached < (plants * 365) / 2, `computed ${computed - cached} blocks for clients that had gone`);
      const keyId = (await t.store.keys.list()).find((k) => k.name === 'hardening')!.id;
      let rows: unknown[] = [];
      await waitFor(
        async () => {
          const found = await t.store.usage.query({ keyId, endpoint: '/plant/{iso}/{metric}/backcast' });
          rows = found;
          return found.length === 1 && found[0].requests >= 4;
        },
        `the usage of the aborted requests (seen ${JSON.stringify(rows)})`,
      );
      const metrics = (await server.get('/metrics')).text;
      assert.match(metrics, /gridcast_http_requests_total\{route="\/v1\/plant\/:iso\/:metric\/backcast",method="GET",status="499"\} 4/);
    } finally {
      await server.close();
    }
  });

  test('small requests answer within 1 s while 4 heavy requests are aborted and re-sent in a loop', async () => {
    const server = await startServer(t.store, { maxHeavy: 4 });
    try {
      const small = () => server.get('/v1/region/ercot/demand/forecast', { key, query: { id: 'ercot_total' } });
      // Warm: the bound is about waiting behind heavy work, not about this series' first computation.
      assert.equal((await small()).status, 200);
      const until = Date.now() + 5000;
      // At least 5 s and at least 10 samples (a loaded machine answers fewer in 5 s), at most 20 s.
      let sampling = true;
      let aborted = 0;
      const heavyLoop = async (n: number) => {
        while (sampling) {
          await abortAfter(server.baseUrl, HEAVY.replace('2025-12-31', `2025-12-${20 + n}`), 150 + 100 * n);
          aborted++;
        }
      };
      const latencies: number[] = [];
      const smallLoop = async () => {
        while ((Date.now() < until || latencies.length < 10) && Date.now() < until + 15_000) {
          const started = performance.now();
          const res = await small();
          latencies.push(performance.now() - started);
          assert.equal(res.status, 200);
          await new Promise((r) => setTimeout(r, 50));
        }
        sampling = false;
      };
      await Promise.all([heavyLoop(0), heavyLoop(1), heavyLoop(2), heavyLoop(3), smallLoop()]);
      assert.ok(aborted >= 12, `aborted ${aborted}`);
      assert.ok(latencies.length >= 10, `${latencies.length} small requests`);
      assert.ok(Math.max(...latencies) < 1000, `slowest small request ${Math.max(...latencies).toFixed(0)} ms`);
      await waitFor(async () => (await gauge(server, 'gridcast_heavy_requests_in_flight')) === 0, 'slots to be free');
    } finally {
      await server.close();
    }
  });
});

describe('no key reaches the log', () => {
  test('every spelling of api_key that is accepted is redacted in the logged URL', async () => {
    const spellings = ['api_key', 'api%5Fkey', 'api%5fkey', '%61pi_key', '%61%70%69%5F%6B%65%79', 'ap%69_key'];
    for (const name of spellings) {
      const res = await rawRequest(logged.baseUrl, `/v1/region/isone/demand/list?${name}=${key}`);
      assert.equal(res.status, 200, `${name} is accepted: ${res.text}`);
    }
    // The value percent-encoded; the parameter repeated is a 422 that does not echo the keys either.
    const encodedValue = key.replace(/_/g, '%5F');
    assert.equal((await rawRequest(logged.baseUrl, `/v1/region/isone/demand/list?api_key=${encodedValue}`)).status, 200);
    const repeated = await rawRequest(logged.baseUrl, `/v1/region/isone/demand/list?api_key=nope&api%5Fkey=${key}`);
    assert.equal(repeated.status, 422);
    assert.equal(
      repeated.text,
      '{"detail":[{"type":"value_error","loc":["query","api_key"],"msg":"Value error, api_key may be given only once; this request gives it 2 times","input":"[redacted]"}]}',
    );
    // A wrong key in any spelling is refused, and not logged either.
    assert.equal((await rawRequest(logged.baseUrl, `/v1/region/isone/demand/list?%61pi_key=gc_wrongwrongwrong`)).status, 401);
    await new Promise((r) => setTimeout(r, 100));
    const lines = log.split('\n').filter(Boolean);
    assert.ok(lines.length >= spellings.length + 3, `request log lines: ${lines.length}`);
    for (const secret of [key, encodedValue, key.slice(3, 20), 'gc_wrongwrongwrong'])
      assert.ok(!log.includes(secret), `no ${secret} in the log`);
    const urls = lines.map((l) => JSON.parse(l).req?.url).filter(Boolean);
    for (const name of spellings) assert.ok(urls.includes(`/v1/region/isone/demand/list?${name}=[redacted]`), `${name} logged redacted`);
  });
});

describe('the admin API answers bad input with 4xx in the public shapes, never a 500', () => {
  const admin = (method: string, path: string, options: { body?: string; headers?: Record<string, string>; server?: TestServer } = {}) =>
    (options.server ?? t).request(method, path, { headers: { authorization: `Bearer ${TOKEN}`, ...options.headers }, body: options.body });
  const json = { 'content-type': 'application/json' };

  test('impossible usage dates are 422 date errors', async () => {
    const cases: [string, string][] = [
      [
        '2026-13-45',
        `{"type":"date_from_datetime_parsing","loc":["query","from"],"msg":"Input should be a valid date or datetime, month value is outside expected range of 1-12","input":"2026-13-45","ctx":{"error":"month value is outside expected range of 1-12"}}`,
      ],
      [
        '2026-02-30',
        `{"type":"date_from_datetime_parsing","loc":["query","from"],"msg":"Input should be a valid date or datetime, day value is outside expected range","input":"2026-02-30","ctx":{"error":"day value is outside expected range"}}`,
      ],
      [
        '9999-99-99',
        `{"type":"date_from_datetime_parsing","loc":["query","from"],"msg":"Input should be a valid date or datetime, month value is outside expected range of 1-12","input":"9999-99-99","ctx":{"error":"month value is outside expected range of 1-12"}}`,
      ],
      [
        '0000-01-01',
        `{"type":"date_parsing","loc":["query","from"],"msg":"Input should be a valid date in the format YYYY-MM-DD, year 0 is out of range","input":"0000-01-01","ctx":{"error":"year 0 is out of range"}}`,
      ],
    ];
    for (const [bad, item] of cases) assertBody(await admin('GET', `/admin/usage?from=${bad}`), 422, `{"detail":[${item}]}`);
    const both = await admin('GET', '/admin/usage?from=2026-13-45&to=2026-01-01T10:00:00');
    assert.equal(both.status, 422);
    assert.deepEqual(
      both.json().detail.map((d: { type: string }) => d.type),
      ['date_from_datetime_parsing', 'date_from_datetime_inexact'],
    );
    assert.equal((await admin('GET', '/admin/usage?from=0001-01-01&to=9999-12-31')).status, 200);
  });

  test('NUL bytes in key_id, endpoint, a key id path segment or a name are 422 or 404', async () => {
    const nulItem = (name: string, input: string) =>
      `{"type":"value_error","loc":["query","${name}"],"msg":"Value error, NUL characters are not allowed","input":${JSON.stringify(input)}}`;
    assertBody(await admin('GET', '/admin/usage?key_id=key_%00x'), 422, `{"detail":[${nulItem('key_id', 'key_\0x')}]}`);
    assertBody(await admin('GET', '/admin/usage?endpoint=%2Fregion%00'), 422, `{"detail":[${nulItem('endpoint', '/region\0')}]}`);
    for (const [method, path] of [
      ['GET', '/admin/keys/key_%00'],
      ['DELETE', '/admin/keys/%00%00'],
      ['PUT', '/admin/keys/key_12345678%00/subscriptions/ercot'],
      ['POST', '/admin/keys/key_%00/subscriptions/ercot/expire'],
    ]) {
      const res = await admin(method, path, { body: '{"level":"core"}', headers: json });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.match(res.text, /^\{"detail":\[\{"type":"error","msg":"No key with id '[^']*\\u0000[^']*'\."\}\]\}$/);
    }
    const res = await admin('POST', '/admin/keys', { body: JSON.stringify({ name: 'a\0b', subscriptions: [] }), headers: json });
    assertBody(
      res,
      422,
      `{"detail":[{"type":"value_error","loc":["body","name"],"msg":"Value error, NUL characters are not allowed","input":"a\\u0000b"}]}`,
    );
  });

  test('the token is checked before the body is read: 401 without it, 403 with the admin API disabled', async () => {
    for (const body of ['{not json', '', 'x'.repeat(100_000)]) {
      const anonymous = await t.request('POST', '/admin/keys', { headers: json, body });
      assert.equal(anonymous.status, 401, anonymous.text);
      assert.match(anonymous.text, /Missing admin token/);
      const off = await disabled.request('POST', '/admin/keys', { headers: { ...json, authorization: `Bearer ${TOKEN}` }, body });
      assert.equal(off.status, 403, off.text);
      assert.match(off.text, /The admin API is disabled/);
    }
    // With the token, a bad body is a 422 and an oversized one a 413, both in the public shape.
    assert.equal((await admin('POST', '/admin/keys', { headers: json, body: '{not json' })).json().detail[0].type, 'json_invalid');
    const big = await admin('POST', '/admin/keys', { headers: json, body: JSON.stringify({ name: 'x'.repeat(100_000) }) });
    assert.equal(big.status, 413);
    assert.equal(typeof big.json().detail, 'string');
  });

  test('bodiless DELETE and POST sent with Content-Type: application/json work', async () => {
    const created = (
      await admin('POST', '/admin/keys', {
        headers: json,
        body: JSON.stringify({ name: 'bodiless', subscriptions: [{ iso: 'ercot', level: 'core' }] }),
      })
    ).json();
    const expired = await admin('POST', `/admin/keys/${created.id}/subscriptions/ercot/expire`, { headers: json });
    assert.equal(expired.status, 200, expired.text);
    assert.equal(expired.json().subscriptions[0].active, false);
    const removed = await admin('DELETE', `/admin/keys/${created.id}/subscriptions/ercot`, { headers: json });
    assert.equal(removed.status, 200, removed.text);
    const revoked = await admin('DELETE', `/admin/keys/${created.id}`, { headers: json });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.json().status, 'revoked');
  });

  test('limits on the name and on the number of subscriptions; one subscription per ISO', async () => {
    const tooLong = await admin('POST', '/admin/keys', {
      headers: json,
      body: JSON.stringify({ name: 'n'.repeat(201), subscriptions: [] }),
    });
    assert.equal(tooLong.status, 422);
    assert.deepEqual(
      { ...tooLong.json().detail[0], input: undefined },
      {
        type: 'string_too_long',
        loc: ['body', 'name'],
        msg: 'String should have at most 200 characters',
        input: undefined,
        ctx: { max_length: 200 },
      },
    );
    const many = Array.from({ length: 9 }, () => ({ iso: 'ercot', level: 'core' }));
    const tooMany = await admin('POST', '/admin/keys', { headers: json, body: JSON.stringify({ name: 'many', subscriptions: many }) });
    assert.equal(tooMany.status, 422);
    assert.equal(tooMany.json().detail[0].type, 'too_long');
    assert.equal(tooMany.json().detail[0].msg, 'List should have at most 8 items after validation, not 9');
    const twice = await admin('POST', '/admin/keys', {
      headers: json,
      body: JSON.stringify({
        name: 'twice',
        subscriptions: [
          { iso: 'pjm', level: 'core' },
          { iso: 'pjm', level: 'advanced' },
        ],
      }),
    });
    assertBody(
      twice,
      422,
      `{"detail":[{"type":"value_error","loc":["body","subscriptions",1,"iso"],"msg":"Value error, 'pjm' has more than one subscription in this list","input":"pjm"}]}`,
    );
  });

  test('expires_at in year 0001 stays 0001; admin instants have no milliseconds', async () => {
    const res = await admin('POST', '/admin/keys', {
      headers: json,
      body: JSON.stringify({ name: 'ancient', subscriptions: [{ iso: 'miso', level: 'core', expires_at: '0001-01-01T00:00:00Z' }] }),
    });
    assert.equal(res.status, 201, res.text);
    const record = res.json();
    assert.deepEqual(record.subscriptions, [{ iso: 'miso', level: 'core', expires_at: '0001-01-01T00:00:00Z', active: false }]);
    assert.match(record.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const again = (await admin('GET', `/admin/keys/${record.id}`)).json();
    assert.equal(again.subscriptions[0].expires_at, '0001-01-01T00:00:00Z');
    const revoked = (await admin('DELETE', `/admin/keys/${record.id}`)).json();
    assert.match(revoked.revoked_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('key ids are 96 random bits, and a colliding id is drawn again, never a 500', async () => {
    const fixed = crypto.randomBytes(12);
    let idDraws = 0;
    // create() draws the key (24 bytes) and then the id (12): the first two ids collide.
    const keys = new KeyStore(t.store.sql, (size) => (size === 12 && idDraws++ < 2 ? fixed : crypto.randomBytes(size)));
    const first = await keys.create('collide-1', []);
    const second = await keys.create('collide-2', []);
    assert.equal(first.id, `key_${fixed.toString('hex')}`);
    assert.notEqual(second.id, first.id);
    assert.match(second.id, /^key_[0-9a-f]{24}$/);
    assert.equal(idDraws, 3, 'the second key needed a second draw');
  });
});

describe('the summary follows the history rules of the other kinds', () => {
  test('as_of before any history is a 422; before the forecast history the forecasts are null', async () => {
    const path = '/v1/region/ercot/summary';
    assertBody(
      await t.get(path, { key, query: { as_of: '1999-01-01' } }),
      422,
      '{"detail":[{"type":"value_error","loc":["query","as_of"],"msg":"Value error, no data at as_of: actuals exist from 2023-01-01 and forecasts from the runs of 2025-12-31 (for 2026-01-01)","input":"1999-01-01"}]}',
    );
    const early = await okJson(t, path, { key, query: { as_of: '2023-01-02T12:00:00Z' } });
    const column = (metric: string, kind: string) =>
      early.values[early.columns.findIndex((c) => c[0] === 'ercot_total' && c[1] === metric && c[2] === kind)];
    const firstActualRow = early.time_local.indexOf('2023-01-01T00:00:00-06:00');
    assert.ok(firstActualRow > 0);
    const actual = column('demand', 'actual');
    assert.ok(
      actual.slice(0, firstActualRow).every((v) => v === null),
      'no actuals before 2023-01-01',
    );
    assert.ok(actual[firstActualRow] !== null, 'actuals from 2023-01-01');
    for (const metric of ['demand', 'wind', 'outage', 'poptemp'])
      assert.ok(
        column(metric, 'forecast').every((v) => v === null),
        `${metric}: no forecast before its history`,
      );
    const dalmp = early.columns.findIndex((c) => c[1] === 'dalmp' && c[2] === 'forecast');
    assert.ok(early.values[dalmp].every((v) => v === null));
  });
});

describe('HTTP below the routes', () => {
  test('HEAD works wherever GET does; other methods are 405 with Allow', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json', '/docs', '/admin/openapi.json']) {
      const head = await t.request('HEAD', path);
      assert.ok(head.status === 200 || head.status === 302, `HEAD ${path}: ${head.status}`);
      assert.equal(head.raw.length, 0);
      const get = await t.request('GET', path);
      assert.equal(head.status, get.status, path);
      const post = await t.request('POST', path, { headers: { 'content-type': 'application/json' }, body: '{bad' });
      assertBody(post, 405, '{"detail":"Method Not Allowed"}');
      assert.equal(post.headers.allow, 'GET, HEAD', path);
    }
    const keys = await t.request('PATCH', '/admin/keys');
    assertBody(keys, 405, '{"detail":"Method Not Allowed"}');
    assert.equal(keys.headers.allow, 'GET, HEAD, POST');
  });

  test('requests the HTTP parser refuses, and a request without Host, get JSON bodies', async () => {
    const cases: [string, string, string][] = [
      ['unknown method', 'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n', '400 Bad Request'],
      ['malformed header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n', '400 Bad Request'],
      [
        'oversized header',
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        '431 Request Header Fields Too Large',
      ],
      ['missing Host', 'GET /healthz HTTP/1.1\r\n\r\n', '400 Bad Request'],
      ['bad version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', '400 Bad Request'],
    ];
    for (const [what, bytes, status] of cases) {
      const reply = await rawExchange(t.baseUrl, bytes);
      assert.ok(reply.startsWith(`HTTP/1.1 ${status}\r\n`), `${what}: ${reply.slice(0, 120)}`);
      assert.match(reply, /\r\ncontent-type: application\/json\r\n/i, what);
      const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
      assert.deepEqual(JSON.parse(body), { detail: status.slice(4) }, what);
    }
  });

  test('the admin API has its own OpenAPI document; the public one has no admin operation', async () => {
    const adminDoc = await okJson<any>(t, '/admin/openapi.json');
    assert.deepEqual(adminDoc.servers, [{ url: '/' }]);
    assert.ok(Object.keys(adminDoc.paths).length >= 5);
    for (const [path, item] of Object.entries<any>(adminDoc.paths)) {
      assert.ok(path.startsWith('/admin/'), path);
      for (const op of Object.values<any>(item)) assert.deepEqual(op.tags, ['admin']);
    }
    const publicDoc = await okJson<any>(t, '/v1/openapi.json');
    assert.deepEqual(
      Object.keys(publicDoc.paths).filter((p) => p.includes('admin')),
      [],
    );
    assert.equal(JSON.stringify(publicDoc).includes('AdminBearer'), false);
  });
});
