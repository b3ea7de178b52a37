/**
 * Real `gridcast serve` processes: structured JSON logs with request ids and no keys, graceful
 * shutdown that finishes in-flight responses, and — on PostgreSQL (GRIDCAST_TEST_BACKEND=
 * postgres) — two API processes on one database: a key created through one works on the
 * other, a revoked key stops working on both within the stated delay (GRIDCAST_AUTH_CACHE_MS),
 * and rate limits are counted across both.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createTestDatabase,
  EMBEDDED_STORE_ONLY,
  NOW_ISO,
  rawRequest,
  runGridcast,
  spawnServe,
  TEST_BACKEND,
  waitFor,
  type ServeProcess,
} from './helpers.ts';

const TOKEN = 'replica-admin-token';
const AUTH_CACHE_MS = 2000;
const FLUSH_MS = 100;
const cleanups: (() => Promise<void> | void)[] = [];

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function baseEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GRIDCAST_NOW: NOW_ISO,
    GRIDCAST_ADMIN_TOKEN: TOKEN,
    GRIDCAST_AUTH_CACHE_MS: String(AUTH_CACHE_MS),
    ...extra,
  };
  for (const name of ['PORT', 'HOST', 'GRIDCAST_DATA_DIR', 'GRIDCAST_LOG', 'GRIDCAST_RATE_LIMITS']) if (!(name in extra)) delete env[name];
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

interface Replica extends ServeProcess {
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

async function serve(env: NodeJS.ProcessEnv): Promise<Replica> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-replica-'));
  const p = await spawnServe(['--data', dataDir], env);
  cleanups.push(() => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { ...p, dataDir, env };
}

const adminCall = (base: string, method: string, p: string, body?: unknown) =>
  rawRequest(
    base,
    p,
    { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    method,
    body ? JSON.stringify(body) : undefined,
  );

// A serve process on its own data directory (baseEnv drops DATABASE_URL): the embedded store on either backend.
describe('one serve process', { skip: EMBEDDED_STORE_ONLY }, () => {
  let a: Replica;
  before(async () => {
    a = await serve(baseEnv({}));
  });

  test('logs are JSON lines with request ids, never a key', async () => {
    const key = (await adminCall(a.baseUrl, 'POST', '/admin/keys', { name: 'logs', subscriptions: [{ iso: 'all', level: 'core' }] })).json()
      .key;
    await rawRequest(a.baseUrl, `/v1/region/isone/demand/list?api_key=${key}`, { 'x-request-id': 'trace-42' });
    await rawRequest(a.baseUrl, '/v1/region/isone/demand/list', { 'x-api-key': key });
    await new Promise((r) => setTimeout(r, 200));
    const logLines = a
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    assert.ok(logLines.length >= 4, a.stdout());
    const records = logLines.map((l) => JSON.parse(l));
    assert.ok(records.every((r) => typeof r.level === 'number' && typeof r.msg === 'string'));
    const traced = records.filter((r) => r.reqId === 'trace-42');
    assert.ok(traced.some((r) => r.msg === 'request completed' && r.res.statusCode === 200 && /^key_/.test(r.keyId)));
    assert.ok(
      !a
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .some((l) => l.includes(key)),
      'no key in the logs',
    );
    assert.ok(records.some((r) => r.req?.url === '/v1/region/isone/demand/list?api_key=[redacted]'));
  });

  test('SIGTERM lets an in-flight response finish, then exits 0', async () => {
    const key = (
      await adminCall(a.baseUrl, 'POST', '/admin/keys', { name: 'big', subscriptions: [{ iso: 'all', level: 'enterprise' }] })
    ).json().key;
    // Every ERCOT wind plant over 120 days: about a second of computing on a cold process.
    const pending = rawRequest(a.baseUrl, '/v1/plant/ercot/wind/continuous?start=2026-01-01&end=2026-04-30', { 'x-api-key': key });
    await new Promise((r) => setTimeout(r, 150));
    a.child.kill('SIGTERM');
    const res = await pending;
    assert.equal(res.status, 200);
    const body = res.json();
    assert.equal(body.time_utc.length, 120 * 24 - 1); // one 23-hour day (8 March)
    assert.ok(body.columns.length > 100);
    const { code, signal } = await a.exited;
    assert.equal(signal, null);
    assert.equal(code, 0);
    assert.match(a.stderr(), /gridcast: stopped/);
    // Nothing counted is lost on SIGTERM: the default flush interval is 1 s, and the request
    // ended just before the exit, so only the shutdown flush can have written it.
    const run = await runGridcast(['usage', '--data', a.dataDir], a.env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\t\/plant\/\{iso\}\/\{metric\}\/continuous\t1\t\d+\n/);
  });
});

describe(
  'two API processes on one PostgreSQL database',
  { skip: TEST_BACKEND !== 'postgres' && 'runs with GRIDCAST_TEST_BACKEND=postgres (.ci/run does)' },
  () => {
    let a: Replica;
    let b: Replica;
    before(async () => {
      const db = await createTestDatabase();
      cleanups.push(() => db.drop());
      const env = baseEnv({
        DATABASE_URL: db.url,
        GRIDCAST_LOG: 'off',
        GRIDCAST_RATE_LIMITS: 'core=5/min',
        GRIDCAST_FLUSH_MS: String(FLUSH_MS),
      });
      // Both start at once: the migrations serialise on an advisory lock.
      [a, b] = await Promise.all([serve(env), serve(env)]);
      // Then wait until both are ready, as a load balancer would: while a process warms up its
      // timers (the usage flush every FLUSH_MS) can run late, which is not what is tested here.
      for (const p of [a, b]) await waitFor(async () => (await rawRequest(p.baseUrl, '/readyz')).status === 200, 'ready', 120_000);
    });

    test('a key created through one works on the other; rate limits count across both', async () => {
      const created = (
        await adminCall(a.baseUrl, 'POST', '/admin/keys', { name: 'shared', subscriptions: [{ iso: 'pjm', level: 'core' }] })
      ).json();
      // The limit's window is the clock's minute: six requests must fall in one of them, so a
      // minute with too little left is waited out (a new window would admit the sixth).
      const msLeftInMinute = 60_000 - (Date.now() % 60_000);
      if (msLeftInMinute < 30_000) await new Promise((r) => setTimeout(r, msLeftInMinute + 100));
      const statuses: number[] = [];
      const usageRequests = async () =>
        ((await adminCall(b.baseUrl, 'GET', `/admin/usage?key_id=${created.id}`)).json() as { requests: number }[])[0]?.requests ?? 0;
      for (let i = 0; i < 6; i++) {
        const base = i % 2 === 0 ? b.baseUrl : a.baseUrl;
        statuses.push((await rawRequest(base, '/v1/region/pjm/demand/list', { 'x-api-key': created.key })).status);
        // Each process counts in memory and shares its counts every FLUSH_MS: its flush writes
        // the usage and then the window counts. Once the database holds this request (the
        // usage row says so), two more intervals (the writer's window upsert, then the other's
        // flush reading it back) let each process know the other's requests. Waiting for the
        // row, not a fixed time, keeps a slow commit on a loaded machine from failing the test.
        if (i < 5) {
          await waitFor(async () => (await usageRequests()) >= i + 1, `request ${i + 1} flushed`, 10_000);
          await new Promise((r) => setTimeout(r, 4 * FLUSH_MS));
        }
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      // Usage written by both processes (the refused request counted too), read through either.
      await waitFor(async () => (await usageRequests()) >= 6, 'the sixth request flushed', 10_000);
      const usage = (await adminCall(b.baseUrl, 'GET', `/admin/usage?key_id=${created.id}`)).json();
      assert.equal(usage[0].requests, 6);
      assert.equal(usage[0].values_served, 5 * 20);
    });

    test(`a revoked key stops working on both processes within ${AUTH_CACHE_MS} ms`, async () => {
      const created = (
        await adminCall(b.baseUrl, 'POST', '/admin/keys', { name: 'revoke-me', subscriptions: [{ iso: 'all', level: 'enterprise' }] })
      ).json();
      for (const p of [a, b])
        assert.equal((await rawRequest(p.baseUrl, '/v1/region/isone/demand/list', { 'x-api-key': created.key })).status, 200);
      const revokedAt = Date.now();
      assert.equal((await adminCall(a.baseUrl, 'DELETE', `/admin/keys/${created.id}`)).status, 200);
      for (const p of [a, b]) {
        let status = 200;
        while (status === 200 && Date.now() - revokedAt < AUTH_CACHE_MS + 3000) {
          status = (await rawRequest(p.baseUrl, '/v1/region/isone/demand/list', { 'x-api-key': created.key })).status;
          if (status === 200) await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(status, 401);
        assert.ok(Date.now() - revokedAt <= AUTH_CACHE_MS + 500, `refused after ${Date.now() - revokedAt} ms`);
      }
    });
  },
);
