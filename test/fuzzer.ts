/**
 * A property-based fuzzer of the HTTP API, driven by the OpenAPI documents the service
 * publishes (/v1/openapi.json and /admin/openapi.json). For every operation it generates
 * requests with fast-check — valid and invalid parameter sets, percent-encoding junk, NUL
 * bytes, huge and unicode strings, repeated and unknown parameters, keys in every spelling,
 * every method, JSON and non-JSON bodies — sends them over real sockets to a real app, and
 * checks the properties every response must have:
 *
 * - never a 5xx;
 * - every 4xx body in one of the documented shapes: `{"detail": "<text>"}`,
 *   `{"detail": [{"type": "error", "msg": …}]}` or pydantic's `{"detail": [{"type", "loc",
 *   "msg", "input", "ctx"?}]}`, as `application/json`;
 * - a 200 GET has a JSON body (a HEAD none); a 307 has a Location;
 * - no key ever appears in the request log.
 *
 * Requests are sampled from a seed (printed), so a failing run can be repeated exactly.
 * Used by test/fuzz.test.ts (a bounded run inside `npm test`) and scripts/fuzz.ts
 * (`npm run fuzz`, ≥ 20,000 requests on each store).
 */
import http from 'node:http';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { Store } from '../src/store/store.ts';
import { NO_RATE_LIMITS, NOW_MS } from './helpers.ts';
import { buildApp } from '../src/api/app.ts';
import { fixedClock } from '../src/time/clock.ts';

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';
const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE'] as const;

interface Operation {
  method: string;
  /** OpenAPI path with its server prefix, e.g. /v1/region/{iso}/{metric}/forecast. */
  path: string;
  params: { name: string; in: 'path' | 'query'; schema: Record<string, any>; required: boolean }[];
  admin: boolean;
}

interface FuzzRequest {
  op: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
  failures: { request: FuzzRequest; status: number; problem: string; body: string }[];
  /** The first log line holding a key (or the admin token), if any. */
  keyInLog: string | null;
  seconds: number;
}

/** Every byte percent-encoded, so any string (lone surrogates included) goes over the wire. */
const encodeAll = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');

/** Percent-encoding junk and other text a careless or hostile client sends. */
const junk = fc.oneof(
  fc.constantFrom(
    '',
    '%',
    '%zz',
    '%G0',
    '%00',
    'a%00b',
    '%C0%AF',
    '%E2%82',
    '%FF%FE',
    '..%2F..%2Fetc%2Fpasswd',
    '%25',
    '+',
    '++',
    '%2B',
    'null',
    'None',
    '[]',
    '{}',
  ),
  fc.constantFrom('-1', '0', '1e3', '2.7', '+-1', '0x1F', '1_000', '%2042%20', '9'.repeat(30), '9'.repeat(5000), 'NaN', 'Infinity'),
  fc.constantFrom(
    '2026-13-45',
    '2026-02-30',
    '0000-01-01',
    '9999-12-31T23:59:59Z',
    '1767225600',
    '20000000000000',
    '2026-06-01T25:00',
    'yesterday',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeAll),
  fc.string({ maxLength: 300 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeAll),
);

/**
 * Days (relative to the frozen now) that valid instants and windows use: inside and outside
 * each kind's history. A few fixed days, in several spellings, rather than any day: valid
 * requests then mostly hit computed blocks, so the fuzzer spends its time on input handling.
 */
const NOW_DAY = new Date(NOW_MS);
const DAYS = [-900, -400, -160, -3, 0, 1, 20];
const dayText = (offset: number) =>
  new Date(Date.UTC(NOW_DAY.getUTCFullYear(), NOW_DAY.getUTCMonth(), NOW_DAY.getUTCDate() + offset)).toISOString().slice(0, 10);
const instant = fc
  .tuple(fc.constantFrom(...DAYS), fc.constantFrom('', 'T00:00:00Z', 'T06:30:00-05:00', 'T12:00:00', 'T00:00:00%2B02:00'))
  .map(([d, t]) => dayText(d) + t);
const windowPair = fc.tuple(fc.constantFrom(...DAYS), fc.constantFrom(-1, 0, 2)).map(([d, len]) => [dayText(d), dayText(d + len)] as const);

function keyParamName(): fc.Arbitrary<string> {
  return fc.constantFrom('api_key', 'api%5Fkey', '%61pi_key', 'API_KEY', 'api_key%00');
}

export interface FuzzOptions {
  store: Store;
  /** Total requests to send (spread over every operation). */
  requests: number;
  seed?: number;
  concurrency?: number;
  /** ISOs whose ids are fetched for valid requests (all of them is slower to set up). */
  isos?: readonly string[];
  /** Compute worker threads of the app under test (default 2: the production path). */
  workers?: number;
  log?: (line: string) => void;
}

/** Runs the fuzzer against a fresh app on `store`; the report lists every failure. */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const say = options.log ?? (() => {});
  let logText = '';
  const logStream = new PassThrough();
  logStream.on('data', (c: Buffer) => (logText += c.toString('utf8')));
  const app = await buildApp({
    store: options.store,
    clock: fixedClock(NOW_MS),
    rateLimits: NO_RATE_LIMITS,
    adminToken: ADMIN_TOKEN,
    maxHeavy: 2,
    workers: options.workers ?? 2,
    logger: { stream: logStream },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency ?? 4 });
  const started = performance.now();
  try {
    const created = await options.store.keys.create('fuzz', [{ iso: 'all', level: 'enterprise' }]);
    const key = created.key;
    const coreKey = (await options.store.keys.create('fuzz-core', [{ iso: 'ercot', level: 'core' }])).key;
    const send = (r: FuzzRequest) => request(port, agent, r);

    const publicDoc = JSON.parse((await send({ op: 'doc', method: 'GET', target: '/v1/openapi.json', headers: {} })).body);
    const adminDoc = JSON.parse((await send({ op: 'doc', method: 'GET', target: '/admin/openapi.json', headers: {} })).body);
    const operations = [...operationsOf(publicDoc, '/v1', false), ...operationsOf(adminDoc, '', true)];

    // Real ids, so that valid requests reach the queries: each list endpoint, for a few ISOs.
    const ids = new Map<string, string[]>();
    const isos = options.isos ?? ['ercot', 'isone'];
    for (const op of operations.filter((o) => !o.admin && o.path.endsWith('/list'))) {
      const iso = op.params.find((p) => p.name === 'iso');
      const metric = op.params.find((p) => p.name === 'metric' || p.name === 'type');
      for (const i of iso ? isos : ['-']) {
        for (const m of metric ? (metric.schema.enum as string[]) : ['-']) {
          const target = op.path.replace('{iso}', i).replace(/\{(metric|type)\}/, m);
          const res = await send({ op: 'ids', method: 'GET', target, headers: { 'x-api-key': key } });
          if (res.status === 200)
            ids.set(
              groupKey(target),
              (JSON.parse(res.body) as { id: string | number }[]).slice(0, 4).map((r) => String(r.id)),
            );
        }
      }
    }
    ids.set('admin', [created.id, 'key_00000000', 'key_' + 'f'.repeat(24)]);
    say(`fuzz: seed ${seed}, ${operations.length} operations, ids for ${ids.size} groups; ${options.requests} requests`);

    const perOp = Math.max(1, Math.ceil(options.requests / operations.length));
    const all: FuzzRequest[] = [];
    operations.forEach((op, i) => {
      all.push(...fc.sample(requestArbitrary(op, ids, key, coreKey), { numRuns: perOp, seed: seed + i }));
    });
    const report: FuzzReport = { seed, requests: 0, byStatus: {}, byOperation: {}, failures: [], keyInLog: null, seconds: 0 };
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const r = all[next++];
        let res: Awaited<ReturnType<typeof send>>;
        try {
          res = await send(r);
        } catch (e) {
          report.failures.push({ request: r, status: 0, problem: `no response: ${(e as Error).message}`, body: '' });
          continue;
        }
        report.requests++;
        report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
        report.byOperation[r.op] = (report.byOperation[r.op] ?? 0) + 1;
        const problem = checkResponse(r, res);
        if (problem) report.failures.push({ request: r, status: res.status, problem, body: res.body.slice(0, 300) });
        if (report.requests % 2000 === 0) say(`fuzz: ${report.requests} requests, ${report.failures.length} failures`);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
    await new Promise((r) => setTimeout(r, 100));
    const secrets = [key, coreKey, key.slice(3, 20), encodeAll(key), ADMIN_TOKEN];
    report.keyInLog = logText.split('\n').find((line) => secrets.some((s) => line.includes(s))) ?? null;
    report.seconds = (performance.now() - started) / 1000;
    return report;
  } finally {
    agent.destroy();
    await app.close();
  }
}

/** The list a request's ids come from: `/v1/plant/ercot/wind/forecast` → `plant/ercot/wind`. */
function groupKey(target: string): string {
  const parts = target.split('?')[0].split('/').filter(Boolean);
  return parts.slice(1, -1).join('/');
}

function operationsOf(doc: any, prefix: string, admin: boolean): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      ops.push({
        method: method.toUpperCase(),
        path: prefix + path,
        admin,
        params: (op.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, schema: p.schema ?? {}, required: Boolean(p.required) })),
      });
    }
  }
  return ops;
}

/** A valid value for a parameter's schema, when one can be made. */
function validValue(param: Operation['params'][number], known: string[] | undefined): fc.Arbitrary<string> {
  const schema = param.schema.anyOf ? param.schema.anyOf[0] : param.schema;
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? 100;
    return fc.oneof(
      fc.integer({ min, max }).map(String),
      fc.integer({ min, max }).map((n) => `+${n}`),
      fc.integer({ min, max }).map((n) => `0${n}.0`),
    );
  }
  if (schema.format === 'date-time') return instant;
  if (schema.format === 'date') return fc.constantFrom(...DAYS).map(dayText);
  if (param.name === 'id' || param.name === 'key_id')
    return known && known.length ? fc.constantFrom(...known.map(encodeURIComponent)) : fc.constant('nope');
  return fc.string({ maxLength: 12 }).map(encodeURIComponent);
}

function requestArbitrary(op: Operation, ids: Map<string, string[]>, key: string, coreKey: string): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(
    ...pathParams.map((p) => fc.oneof({ weight: 6, arbitrary: validValue(p, undefined) }, { weight: 1, arbitrary: junk })),
  );
  return fc
    .record({
      pathValues: pathParams.length ? pathValues : fc.constant([] as string[]),
      method: fc.oneof({ weight: 3, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      window: windowPair,
      useWindow: fc.boolean(),
      choices: fc.array(fc.nat({ max: 9 }), { minLength: queryParams.length, maxLength: queryParams.length }),
      junkValues: fc.array(junk, { minLength: queryParams.length, maxLength: queryParams.length }),
      validIndex: fc.nat(),
      extra: fc.array(
        fc.tuple(fc.oneof(fc.constantFrom('foo', 'ID', 'start[]', '', '%00', 'model'), fc.string({ maxLength: 8 }).map(encodeAll)), junk),
        { maxLength: 3 },
      ),
      auth: fc.constantFrom('header', 'header', 'header', 'query', 'none', 'wrong', 'core', 'both'),
      keyName: keyParamName(),
      adminAuth: fc.constantFrom('token', 'token', 'token', 'none', 'wrong'),
      body: fc.oneof(
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        fc
          .record({
            name: fc.oneof(fc.string({ maxLength: 5 }), fc.constant('n'.repeat(300)), fc.constant('a\u0000b')),
            subscriptions: fc.array(
              fc.record({
                iso: fc.constantFrom('all', 'ercot', 'pjm', 'mars'),
                level: fc.constantFrom('core', 'gold'),
                expires_at: fc.oneof(instant, fc.constant(null), fc.constant('0001-01-01')),
              }),
              { maxLength: 10 },
            ),
          })
          .map((v) => JSON.stringify(v)),
        fc.record({ level: fc.constantFrom('core', 'advanced', 'x'), expires_at: fc.oneof(instant, junk) }).map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 50 }),
      ),
      contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
    })
    .map((g): FuzzRequest => {
      let path = op.path;
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, g.pathValues[i] ?? '')));
      const known = ids.get(op.admin ? 'admin' : groupKey(path));
      const query: string[] = [];
      queryParams.forEach((p, i) => {
        const choice = g.choices[i];
        // A valid window is sent whole: a valid start alone would ask for up to a year of data,
        // which tests the computing, not the input handling (the benchmark does that).
        if ((p.name === 'start' || p.name === 'end') && g.useWindow) {
          query.push(`${p.name}=${g.window[p.name === 'start' ? 0 : 1]}`);
          return;
        }
        if (choice <= 2) return; // omitted
        if (choice <= 7 && (p.name === 'start' || p.name === 'end')) {
          query.push(`${p.name}=${p.name === 'start' ? dayText(-3) : dayText(-2)}`);
        } else if (choice <= 7) {
          const values = fc.sample(validValue(p, known), { numRuns: 1, seed: g.validIndex + i });
          query.push(`${p.name}=${values[0]}`);
        } else {
          query.push(`${p.name}=${g.junkValues[i]}`);
          if (choice === 9) query.push(`${p.name}=${g.junkValues[(i + 1) % g.junkValues.length] ?? ''}`);
        }
      });
      for (const [name, value] of g.extra) query.push(`${name}=${value}`);
      const headers: Record<string, string> = {};
      if (op.admin) {
        if (g.adminAuth === 'token') headers.authorization = `Bearer ${ADMIN_TOKEN}`;
        if (g.adminAuth === 'wrong') headers.authorization = 'Bearer nope';
      } else {
        if (g.auth === 'header' || g.auth === 'both') headers['x-api-key'] = key;
        if (g.auth === 'query' || g.auth === 'both') query.push(`${g.keyName}=${key}`);
        if (g.auth === 'wrong') headers['x-api-key'] = 'gc_wrong';
        if (g.auth === 'core') headers['x-api-key'] = coreKey;
      }
      const method = g.method;
      const sendsBody = g.body !== undefined && !['GET', 'HEAD', 'TRACE'].includes(method);
      if (sendsBody && g.contentType) headers['content-type'] = g.contentType;
      return {
        op: `${op.method} ${op.path}`,
        method,
        target: path + (query.length ? `?${query.join('&')}` : ''),
        headers,
        body: sendsBody ? g.body : undefined,
      };
    });
}

function request(
  port: number,
  agent: http.Agent,
  r: FuzzRequest,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = r.body === undefined ? r.headers : { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) };
    const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error('timed out after 60 s')));
    req.on('error', reject);
    req.end(r.body);
  });
}

const isString = (v: unknown) => typeof v === 'string';

/** The documented error shapes (reference error-formats.md). */
function errorShapeProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'error body is not an object';
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'detail') return `error body keys ${JSON.stringify(keys)}`;
  const detail = (body as { detail: unknown }).detail;
  if (isString(detail)) return null;
  if (!Array.isArray(detail) || detail.length === 0) return 'detail is neither a string nor a non-empty list';
  for (const item of detail) {
    if (typeof item !== 'object' || item === null) return 'detail item is not an object';
    const k = Object.keys(item);
    if (item.type === 'error' && k.length === 2 && isString(item.msg)) continue;
    const pydantic = isString(item.type) && Array.isArray(item.loc) && isString(item.msg) && 'input' in item;
    const allowed = k.every((x) => ['type', 'loc', 'msg', 'input', 'ctx'].includes(x));
    if (!pydantic || !allowed) return `detail item ${JSON.stringify(item).slice(0, 200)}`;
  }
  return null;
}

function checkResponse(r: FuzzRequest, res: { status: number; headers: http.IncomingHttpHeaders; body: string }): string | null {
  if (res.status >= 500 && res.status !== 503) return `server error ${res.status}`;
  if (r.method === 'HEAD') return res.body === '' ? null : 'HEAD with a body';
  if (res.status === 503 && !/^\{"detail":\[\{"type":"error","msg":"The server is busy/.test(res.body))
    return 'a 503 other than the busy answer';
  if (res.status === 307) return res.headers.location ? null : '307 without Location';
  if (res.status === 200) {
    if (r.target.startsWith('/docs') || r.target === '/metrics') return null;
    // format=csv|parquet|arrow (or their Accept types): the documented non-JSON bodies.
    if (/^(text\/csv|application\/vnd\.apache\.(parquet|arrow\.stream))(;|$)/.test(String(res.headers['content-type']))) return null;
    try {
      JSON.parse(res.body);
      return null;
    } catch {
      return '200 without a JSON body';
    }
  }
  if (res.status >= 400) {
    if (res.headers['content-type'] !== 'application/json') return `content-type ${res.headers['content-type']}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return 'error body is not JSON';
    }
    return errorShapeProblem(parsed);
  }
  return null;
}

/** One line per failure, for a test message or the fuzz script's output. */
export function describeFailures(report: FuzzReport, max = 10): string {
  return report.failures
    .slice(0, max)
    .map(
      (f) =>
        `${f.problem}: ${f.request.method} ${f.request.target} ${JSON.stringify(f.request.headers)} body=${JSON.stringify(f.request.body)} → ${f.status} ${f.body}`,
    )
    .join('\n');
}
