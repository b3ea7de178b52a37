/**
 * Shared test helpers: a real app (buildApp) listening on a real socket, backed by a real
 * store with a frozen clock: embedded PGlite in a fresh temporary directory, or — with
 * GRIDCAST_TEST_BACKEND=postgres — a fresh database on the PostgreSQL server at
 * GRIDCAST_TEST_DATABASE_URL (created per store, dropped on close).
 *
 * Opening a PGlite store takes seconds, so a test file opens one store and shares it; any
 * number of apps (e.g. with different clocks) may run on that one Store object. A fresh embedded
 * store starts from a copy of an initialised, migrated PGlite directory (see freshDataDir). The
 * gridcast CLI runs compiled (see gridcastCli).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../src/api/app.ts';
import type { LogOption } from '../src/api/logging.ts';
import type { RateLimits } from '../src/api/rateLimits.ts';
import type { Level, Subscription, SubscriptionIso } from '../src/store/keys.ts';
import { EMBEDDED_DB_DIR } from '../src/store/embedded.ts';
import { MIGRATIONS } from '../src/store/migrations.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { fixedClock, type Clock } from '../src/time/clock.ts';

/** The frozen "now" of most tests: a summer afternoon (13:00 in Chicago). */
export const NOW_ISO = '2026-06-15T18:00:00Z';
export const NOW_MS = Date.parse(NOW_ISO);

/** The directory this code runs from: the checkout, or the compiled tree of `npm test` (scripts/compile-tests.mjs). */
const RUNNING_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Repository root: the checkout (the CLI and child scripts run from here; tests read its files
 * through it). The compiled tree links its package.json to the checkout's.
 */
export const ROOT = path.dirname(fs.realpathSync(path.join(RUNNING_ROOT, 'package.json')));

/** Whether this is the compiled tree of `npm test` rather than the TypeScript sources under tsx. */
const COMPILED = RUNNING_ROOT !== ROOT;

export interface TestStore {
  store: Store;
  dataDir: string;
  /** The database URL when the store is on PostgreSQL. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/** Which store the tests run on: 'embedded' (PGlite, default) or 'postgres'. */
export const TEST_BACKEND = process.env.GRIDCAST_TEST_BACKEND === 'postgres' ? 'postgres' : 'embedded';

/**
 * The `skip` option of a test or suite that runs on the embedded store whatever the backend (a
 * `gridcast` process on a data directory of its own, without DATABASE_URL): on PostgreSQL
 * (scripts/test-postgres.mjs) it would run exactly as in the embedded run of `npm test`, which
 * covers it, so the PostgreSQL run leaves it out.
 */
export const EMBEDDED_STORE_ONLY =
  TEST_BACKEND === 'postgres' && 'uses the embedded store on either backend: the embedded run of npm test covers it';

/**
 * The `skip` option of a suite whose answers the store does not decide (validation, HTTP-level
 * errors: the store only looks the key up, as in every other suite): on PostgreSQL
 * (scripts/test-postgres.mjs) it would check exactly what the embedded run checks, so the
 * PostgreSQL run leaves it out.
 */
export const SAME_ON_EVERY_STORE =
  TEST_BACKEND === 'postgres' && 'the store does not decide these answers: the embedded run of npm test covers them';

/** The server URL of the PostgreSQL tests (a role that may create databases). */
export function testDatabaseUrl(): string {
  const url = process.env.GRIDCAST_TEST_DATABASE_URL;
  if (!url) throw new Error('GRIDCAST_TEST_DATABASE_URL is not set (scripts/ci-postgres.sh prints one)');
  return url;
}

/** Creates an empty database on the test server; returns its URL and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const admin = testDatabaseUrl();
  const name = `gridcast_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A short digest of files' names and contents, and of extra strings (what a cached build or template was made from). */
export function digestOf(files: readonly string[], extra: readonly string[] = []): string {
  const hash = createHash('sha256');
  for (const x of extra) hash.update(`${x}\0`);
  for (const file of files) hash.update(`${path.relative(ROOT, file)}\0`).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** Every file under `dir`, in name order. */
function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? filesIn(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function packageVersion(name: string): string {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/**
 * Makes `final` once: the first process to get here builds it with `build(into)` in a directory
 * of its own and renames that into place; another process that wants it meanwhile waits for it
 * (a lock file holding the builder's pid; a lock whose process died is taken over), so that two
 * test files starting together do not both pay for the build.
 */
export async function buildOnce(final: string, build: (into: string) => Promise<void>): Promise<void> {
  const lock = `${final}.lock`;
  while (!fs.existsSync(final)) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      let alive = true;
      try {
        if (holder > 0) process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      if (fs.existsSync(final)) break;
      const building = fs.mkdtempSync(`${final}-building-`);
      try {
        await build(building);
        fs.renameSync(building, final);
      } finally {
        fs.rmSync(building, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }
}

/**
 * A new temporary data directory whose embedded database is initialised and migrated, like a
 * data directory after its first start. PGlite's initdb costs ~10 s of CPU and the migrations
 * ~1.5 s, a copy of the result ~0.1 s: the first test file to need one makes the template (kept
 * in the temporary directory per PGlite version and migrations) and every fresh store copies it.
 * The migrations still run from nothing on every first start the tests make (`gridcast serve`
 * and the image on an empty directory, every PostgreSQL test database).
 */
export async function freshDataDir(prefix = 'gridcast-test-'): Promise<string> {
  const migrations = JSON.stringify(MIGRATIONS);
  const template = path.join(os.tmpdir(), `gridcast-test-store-${digestOf([], [packageVersion('@electric-sql/pglite'), migrations])}`);
  await buildOnce(template, async (building) => {
    const store = await openStore({ dataDir: building, command: 'test template' });
    await store.close();
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(path.join(template, EMBEDDED_DB_DIR), path.join(dataDir, EMBEDDED_DB_DIR), { recursive: true });
  return dataDir;
}

/**
 * A fresh store: embedded in a new temporary directory, or a new PostgreSQL database (see
 * TEST_BACKEND); close() deletes the directory or drops the database.
 */
export async function openTestStore(): Promise<TestStore> {
  const database = TEST_BACKEND === 'postgres' ? await createTestDatabase() : null;
  const dataDir = database ? fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-test-')) : await freshDataDir();
  const store = await openStore({ dataDir, databaseUrl: database?.url, command: 'test' });
  return {
    store,
    dataDir,
    databaseUrl: database?.url,
    async close() {
      await store.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates a key; subscriptions as `{ ercot: 'advanced', all: 'core' }`. Returns the secret. */
export async function createKey(store: Store, subscriptions: Partial<Record<SubscriptionIso, Level>>, name = 'test'): Promise<string> {
  const subs: Subscription[] = Object.entries(subscriptions).map(([iso, level]) => ({ iso: iso as SubscriptionIso, level: level! }));
  return (await store.keys.create(name, subs)).key;
}

export interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it came over the wire (still compressed if the server compressed it). */
  raw: Buffer;
  /** The body as text, decompressed when content-encoding says gzip/deflate. */
  text: string;
  json(): any;
}

export type Query = Record<string, string | number | readonly (string | number)[] | undefined> | string;

export interface GetOptions {
  key?: string;
  /** An object (values are percent-encoded; arrays repeat the parameter) or a raw query string. */
  query?: Query;
  headers?: Record<string, string>;
  /** A request body (sent as is; set content-type in headers). */
  body?: string | Buffer;
}

/** `a=1&b=2` from a query object, or the raw string as given. */
export function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}

/**
 * One GET over a real socket with node:http, which sends the path byte for byte (no URL
 * normalisation, no automatic decompression): what a client sees, exactly.
 */
export function rawRequest(
  baseUrl: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string | Buffer,
  /** Sends the body in pieces of this many bytes without a content length (chunked). */
  inPiecesOf?: number,
): Promise<Response> {
  const url = new URL(baseUrl);
  const sized = body !== undefined && inPiecesOf === undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      // A body is sent with its length: without one, a GET's body would be read as a second request.
      {
        host: url.hostname,
        port: url.port,
        path: pathAndQuery,
        method,
        headers: sized ? { 'content-length': String(Buffer.byteLength(body)), ...headers } : headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body = encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw;
          const text = body.toString('utf8');
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            raw,
            text,
            json: () => JSON.parse(text),
          });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined && inPiecesOf !== undefined) {
      const bytes = Buffer.from(body);
      for (let i = 0; i < bytes.length; i += inPiecesOf) req.write(bytes.subarray(i, i + inPiecesOf));
      req.end();
    } else req.end(body);
  });
}

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  /** GET `path` (e.g. /v1/plant/ercot/wind/continuous) with an optional key (sent as X-API-Key). */
  get(path: string, options?: GetOptions): Promise<Response>;
  request(method: string, path: string, options?: GetOptions): Promise<Response>;
  close(): Promise<void>;
}

/** Options passed to buildApp as they are. */
type PassedAppOptions = Pick<
  AppOptions,
  | 'heavyValues'
  | 'heavyWaitMs'
  | 'sendTimeoutMs'
  | 'idleTimeoutMs'
  | 'workerHeapMb'
  | 'testFault'
  | 'ingestMaxBytes'
  | 'seed'
  | 'blockCacheDir'
  | 'diskCacheMb'
  | 'warm'
>;

export interface ServerOptions extends PassedAppOptions {
  clock?: Clock;
  /** Defaults to the app's own default; 0 makes revocation take effect at once. */
  authCacheMs?: number;
  /** Default: no limits (tests make many requests with one key); rate-limit tests set their own. */
  rateLimits?: RateLimits;
  adminToken?: string;
  maxHeavy?: number;
  maxQueryBytes?: number;
  /** The JSON request log (default: none). */
  logger?: LogOption;
  /** How often counted requests are written to the database (default here: 50 ms, so tests wait little). */
  flushMs?: number;
  /**
   * Compute worker threads (default here: 0, the same runner on the test's thread — starting
   * workers for each of the many servers of the suite would cost seconds; test/pool.test.ts
   * and the fuzzer run the pool).
   */
  workers?: number;
}

export const NO_RATE_LIMITS: RateLimits = { core: [], advanced: [], enterprise: [] };

/** buildApp on `store`, listening on an ephemeral port of 127.0.0.1. */
export async function startServer(store: Store, options: ServerOptions = {}): Promise<TestServer> {
  const app = await buildApp({
    store,
    clock: options.clock ?? fixedClock(NOW_MS),
    authCacheMs: options.authCacheMs,
    rateLimits: options.rateLimits ?? NO_RATE_LIMITS,
    adminToken: options.adminToken,
    maxHeavy: options.maxHeavy,
    maxQueryBytes: options.maxQueryBytes,
    logger: options.logger,
    flushMs: options.flushMs ?? 50,
    workers: options.workers ?? 0,
    heavyValues: options.heavyValues,
    heavyWaitMs: options.heavyWaitMs,
    sendTimeoutMs: options.sendTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    workerHeapMb: options.workerHeapMb,
    testFault: options.testFault,
    ingestMaxBytes: options.ingestMaxBytes,
    seed: options.seed,
    blockCacheDir: options.blockCacheDir,
    diskCacheMb: options.diskCacheMb,
    warm: options.warm,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const request = (method: string, p: string, options: GetOptions = {}) => {
    const qs = queryString(options.query);
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== undefined) headers['x-api-key'] = options.key;
    return rawRequest(baseUrl, qs ? `${p}?${qs}` : p, headers, method, options.body);
  };
  return {
    app,
    baseUrl,
    get: (p, options) => request('GET', p, options),
    request,
    close: () => app.close(),
  };
}

/** One store with two servers on it — with two compute workers, and computing on its HTTP thread — and a key to both. */
export interface PooledAndLocal {
  pooled: TestServer;
  local: TestServer;
  key: string;
  close(): Promise<void>;
}

/** Opens PooledAndLocal: the same requests on both must give the same answers. */
export async function openPooledAndLocal(keyName: string): Promise<PooledAndLocal> {
  const ts = await openTestStore();
  const pooled = await startServer(ts.store, { workers: 2 });
  const local = await startServer(ts.store, { workers: 0 });
  const { key } = await ts.store.keys.create(keyName, [{ iso: 'all', level: 'enterprise' }]);
  return {
    pooled,
    local,
    key,
    close: async () => {
      await pooled.close();
      await local.close();
      await ts.close();
    },
  };
}

export interface TestApp extends TestServer {
  store: Store;
  dataDir: string;
  databaseUrl?: string;
  /** Creates a key with these subscriptions and returns the secret. */
  key(subscriptions: Partial<Record<SubscriptionIso, Level>>, name?: string): Promise<string>;
}

/** A fresh store plus a server on it; close() stops the server, closes the store and deletes it. */
export async function startTestApp(options: ServerOptions = {}): Promise<TestApp> {
  const ts = await openTestStore();
  let server: TestServer;
  try {
    server = await startServer(ts.store, options);
  } catch (e) {
    await ts.close();
    throw e;
  }
  return {
    ...server,
    store: ts.store,
    dataDir: ts.dataDir,
    databaseUrl: ts.databaseUrl,
    key: (subs, name) => createKey(ts.store, subs, name),
    async close() {
      await server.close();
      await ts.close();
    },
  };
}

/** The TimeseriesResponse fields, as the tests read them. */
export interface Timeseries {
  model: string | null;
  created_at: string | null;
  units: string;
  timezone: string;
  time_utc: string[];
  time_local: string[];
  columns: string[][];
  values: (number | null)[][];
}

export interface ServeProcess {
  child: import('node:child_process').ChildProcess;
  baseUrl: string;
  /** Everything the process printed on stdout so far: the JSON request log. */
  stdout(): string;
  /** Everything it printed on stderr so far: messages for the person at the terminal. */
  stderr(): string;
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The gridcast CLI as the tests start it: `node <returned path>`, the compiled JavaScript of the
 * current sources behind bin/gridcast.js, as `npm start` and the image run it. Under tsx every
 * start of the CLI costs ~1.7 s more CPU (and each compute worker of `serve` ~1 s more), and the
 * suite starts it ~100 times. In `npm test` the tests run from a compiled tree
 * (scripts/compile-tests.mjs) whose bin/gridcast.js runs that tree's code. A test file run under
 * tsx by hand instead has the first test to need the CLI compile src/ with the build's
 * settings (tsconfig.build.json, ~17 s of CPU) into a directory of the temporary directory named
 * by a digest of the sources and settings, and later starts (and other test files, and later
 * runs while the sources are unchanged) reuse it. The directory has the repository's layout —
 * dist/, bin/, and links to assets/, web/, node_modules/ and package.json — so the compiled code
 * finds the files it reads relative to itself.
 */
export async function gridcastCli(): Promise<string> {
  // The compiled tree of `npm test` is such a build already: its dist/ is its compiled src/.
  if (COMPILED) return path.join(RUNNING_ROOT, 'bin', 'gridcast.js');
  const inputs = [
    ...filesIn(path.join(ROOT, 'src')),
    ...['tsconfig.json', 'tsconfig.build.json', 'bin/gridcast.js'].map((f) => path.join(ROOT, f)),
  ];
  // The checkout's path is part of the key: the build links to this checkout's node_modules,
  // assets and web, so another checkout of the same sources (or a deleted one) must not share it.
  const build = path.join(os.tmpdir(), `gridcast-test-cli-${digestOf(inputs, [packageVersion('typescript'), ROOT])}`);
  await buildOnce(build, async (into) => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(into, 'dist')], { cwd: ROOT });
    fs.cpSync(path.join(ROOT, 'bin'), path.join(into, 'bin'), { recursive: true });
    for (const linked of ['assets', 'web', 'node_modules', 'package.json'])
      fs.symlinkSync(path.join(ROOT, linked), path.join(into, linked));
  });
  return path.join(build, 'bin', 'gridcast.js');
}

/** Runs the gridcast CLI (gridcastCli) to its end (asynchronously: a server it talks to may run on the caller's thread). */
export async function runGridcast(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const cli = await gridcastCli();
  return new Promise((resolve) =>
    execFile(process.execPath, [cli, ...args], { cwd: ROOT, encoding: 'utf8', env }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

/**
 * `gridcast serve --port 0` as a real child process (gridcastCli), resolved once it prints (on
 * stderr) the URL it listens on, with the environment `env` — and one compute worker unless
 * `env` sets GRIDCAST_WORKERS: every worker warms up in the background after start (~10 s of CPU
 * each), and these tests are not about how many there are (pool.test.ts, readiness.test.ts and
 * memory.test.ts are).
 */
export async function spawnServe(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [await gridcastCli(), 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { GRIDCAST_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A serve that never says where it listens is killed: left running, it would keep the test
    // file's process (and the suite) waiting for its exit forever.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not report its URL in 60 s; stdout: ${stdout} stderr: ${stderr}`));
    }, 60_000);
    const check = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stderr!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}; stdout: ${stdout} stderr: ${stderr}`));
    });
  });
  return { child, baseUrl, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls `check` every 25 ms until it holds (fails the test after `ms`). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A gauge or counter without labels from the server's /metrics. */
export async function gauge(server: Pick<TestServer, 'get'>, name: string): Promise<number> {
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec((await server.get('/metrics')).text);
  assert.ok(m, `${name} in /metrics`);
  return Number(m[1]);
}

/** GET that must answer 200 (the body is shown on failure); returns the parsed JSON. */
export async function okJson<T = Timeseries>(server: Pick<TestServer, 'get'>, path: string, options: GetOptions = {}): Promise<T> {
  const res = await server.get(path, options);
  assert.equal(res.status, 200, res.text);
  return res.json();
}
