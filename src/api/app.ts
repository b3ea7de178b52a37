/**
 * The HTTP application: every declared route gets authentication, FastAPI-compatible
 * validation, per-ISO authorisation and a streamed JSON response; plus the OpenAPI
 * document, interactive docs, and FastAPI's shapes for 404/405/307 and for errors.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import crypto from 'node:crypto';
import type { IsoCode } from '../catalog/isos.ts';
import { QueryError } from '../query/errors.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../time/clock.ts';
import { DEFAULT_WORLD_SEED } from '../world/weather/world.ts';
import { registerAdmin } from './admin.ts';
import { DEFAULT_INGEST_MAX_BYTES, registerAdminSources } from './adminSources.ts';
import { registerDashboard, registerHome } from './dashboard.ts';
import { AUTH_CACHE_MS, Authenticator, authorize, authorizeAnyIso, requestKey } from './auth.ts';
import { HttpError, serviceError, validationError } from './errors.ts';
import { RequestTracker, type RequestState } from './lifecycle.ts';
import { KEY_PARAM, loggerOptions, type LogOption } from './logging.ts';
import { DEFAULT_FLUSH_MS, UsageMeter } from '../store/meter.ts';
import { Metrics } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import { validateParams, type ParamValue } from './params.ts';
import { answerClientError, registerProtocol, requireHost, RouteRegistry, sendJson } from './protocol.ts';
import { parseQueryString } from './querystring.ts';
import { checkRateLimit, parseRateLimits, type RateLimits } from './rateLimits.ts';
import type { RouteDef } from './route.ts';
import { API_PREFIX, ROUTES } from './routes/index.ts';
import { ComputePool, defaultWorkers, JobAborted, type ComputeResult } from './compute/pool.ts';
import type { TestFault } from './compute/protocol.ts';
import { DEFAULT_HEAVY_VALUES, HeavyBudget } from './heavyBudget.ts';
import { holdIdleTimeout, watchSend } from './sendTimeout.ts';
import { ResponseCache } from './responseCache.ts';
import { freshnessOf, notModified } from './freshness.ts';
import { chooseOutput, type Output } from './writers/registry.ts';
import {
  readsStoredSource,
  StoredSourceNames,
  namedSource,
  undeclaredModel,
  unknownSourceError,
  SOURCE_PARAMS,
  unstoredTruthError,
  withStoredModels,
  withStoredSourceRoutes,
  worldOffError,
} from './storedSources.ts';
import { worldServed } from './worldSwitch.ts';
import { applyActualSource, configuredActualSources, hasTruthParam, readsActualSource } from './actualTruth.ts';
import { diskCacheBudgetMb } from '../query/diskBlocks.ts';
import { cachedListings } from '../sources/listCache.ts';

export { API_PREFIX, ROUTES };
const VERSION = '0.1.0';
/** The data routes answer GET and HEAD; any other method gets 405 (see protocol.ts). */
const DATA_METHODS = ['GET', 'HEAD'];
/**
 * A connection with no request in progress that sends nothing for this long is closed. While a
 * request is in progress its socket has no idle time-out (a large response may compute for a
 * while before its first byte); the send time-out (sendTimeout.ts) covers a client that stops
 * reading.
 */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface AppOptions {
  store: Store;
  clock: Clock;
  /** The world's seed (the workers build the world; the HTTP thread computes nothing). */
  seed?: number;
  /** The JSON request log: false (default) for none, true for stdout, or a stream (tests read it). */
  logger?: LogOption;
  /** How long a key lookup is cached (ms); a revoked key stops working within this time. */
  authCacheMs?: number;
  /** Request budgets per level (default: GRIDCAST_RATE_LIMITS over the documented defaults). */
  rateLimits?: RateLimits;
  /** Largest file POST /admin/ingest takes, bytes (default GRIDCAST_INGEST_MAX_BYTES or 4 GiB). */
  ingestMaxBytes?: number;
  /** Token of the /admin API (default GRIDCAST_ADMIN_TOKEN; unset disables it). */
  adminToken?: string;
  /** Heavy requests computing at once; more get a 503 (default GRIDCAST_MAX_HEAVY or 4; heavyBudget.ts). */
  maxHeavy?: number;
  /** Values (rows × series) from which a request is heavy (default GRIDCAST_HEAVY_VALUES or 1,000,000). */
  heavyValues?: number;
  /** How long a heavy request waits for room in the budget before its 503 (default GRIDCAST_HEAVY_WAIT_S or 10 s). */
  heavyWaitMs?: number;
  /** A connection with no request in progress that sends nothing for this long is closed (default 60 s). */
  idleTimeoutMs?: number;
  /** A response whose client has taken no byte for this long is cut (default GRIDCAST_SEND_TIMEOUT_S or 60 s). */
  sendTimeoutMs?: number;
  /** Largest V8 heap of each compute worker, MB (default GRIDCAST_WORKER_HEAP_MB or 1536). */
  workerHeapMb?: number;
  /** Tests only: make the compute workers fail on one route's jobs. */
  testFault?: TestFault;
  /** Longest query string accepted, bytes (default GRIDCAST_MAX_QUERY_BYTES or 4096); longer gets a 414. */
  maxQueryBytes?: number;
  /** How often counted requests are written to the database, ms (default GRIDCAST_FLUSH_MS or 1000). */
  flushMs?: number;
  /** Compute worker threads (default GRIDCAST_WORKERS or one per core); 0 computes on the HTTP thread. */
  workers?: number;
  /** Build the catalogs the first requests need (regions, cell geometry) right after start (serve does). */
  warm?: boolean;
  /**
   * The directory of the block cache's disk tier (serve: DATA_DIR/block-cache; query/diskBlocks.ts).
   * Unset, computed blocks are kept in memory only.
   */
  blockCacheDir?: string;
  /** The disk tier's budget, MB (default GRIDCAST_DISK_CACHE_MB or 1024; 0 turns it off). */
  diskCacheMb?: number;
}

/** A positive integer from the environment, or the fallback. */
/** A request as resolve() (in buildApp) makes it out. */
interface Resolved {
  values: Record<string, ParamValue>;
  output: Output;
  /** The response-cache key without its minute (ResponseCache.keyBase). */
  keyBase: string;
  /** Answered fresh: no validators, no cached body. */
  fresh: boolean;
}

/** Resolved requests kept by URL (per app): cleared whole when full. */
const RESOLVED_URLS = 2048;

function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return process.env[name] && Number.isInteger(n) && n > 0 ? n : fallback;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const resolvedByUrl = new Map<string, Resolved>();
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const responses = new ResponseCache(Number(process.env.GRIDCAST_RESPONSE_CACHE_MB ?? 32) * 1024 * 1024);
  const pool = new ComputePool({
    workers: options.workers ?? defaultWorkers(),
    seed: options.seed ?? DEFAULT_WORLD_SEED,
    warm: options.warm,
    now: () => options.clock.now(),
    sources: cachedListings(options.store.sources),
    diskCache: options.blockCacheDir ? { root: options.blockCacheDir, budgetMb: options.diskCacheMb ?? diskCacheBudgetMb() } : undefined,
    workerHeapMb: options.workerHeapMb,
    testFault: options.testFault,
    onWorkerError: (e) => app.log.error({ err: e }, 'compute worker failed'),
  });
  const store = options.store;
  const storedNames = new StoredSourceNames(store.sources);
  const auth = new Authenticator(store.keys, options.authCacheMs ?? envInt('GRIDCAST_AUTH_CACHE_MS', AUTH_CACHE_MS));
  const rateLimits = options.rateLimits ?? parseRateLimits(process.env.GRIDCAST_RATE_LIMITS);
  configuredActualSources(); // a malformed GRIDCAST_ACTUAL_SOURCE stops the start, not a request
  const maxQueryBytes = options.maxQueryBytes ?? envInt('GRIDCAST_MAX_QUERY_BYTES', 4096);
  const metrics = new Metrics();
  // Rate-limit windows and usage are counted in memory and written in batches (store/meter.ts):
  // no request waits for the database after its key lookup (cached).
  const meter = new UsageMeter(store.usage, {
    flushMs: options.flushMs ?? envInt('GRIDCAST_FLUSH_MS', DEFAULT_FLUSH_MS),
    onError: (e) => app.log.error({ err: e }, 'usage flush failed; its counts are kept for the next one'),
  });
  const app = Fastify({
    logger: loggerOptions(options.logger),
    // lifecycle.ts writes one line per request when it ends, abandoned ones included.
    logController: new LogController({ disableRequestLogging: true }),
    // A caller's X-Request-Id (if sane) names the request in our logs and comes back in the response.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
    // GET routes answer HEAD too; the data routes declare both themselves.
    exposeHeadRoutes: true,
    // Fastify fails start-up when a plugin takes over 10 s to register. Ours only read local
    // files, but with GRIDCAST_WORKERS=0 the warm-up computes on this thread while they
    // register, and on a busy host that took longer: the server then refused to start.
    pluginTimeout: 120_000,
    connectionTimeout: idleTimeoutMs,
    // Node would refuse a request without Host with an empty 400; requireHost answers it in JSON.
    http: { requireHostHeader: false },
    clientErrorHandler: answerClientError,
    routerOptions: { maxParamLength: 1000, querystringParser: (qs: string) => parseQueryString(qs) },
    // A path Fastify cannot route (bad percent-encoding, an over-long segment) is an
    // unknown path; answer in the public service's shape rather than Fastify's.
    frameworkErrors: (_error, _req, reply) => {
      void sendJson(reply, 404, { detail: 'Not Found' });
    },
  });
  if (pool.diskCacheOff) {
    app.log.warn({ err: pool.diskCacheOff }, 'the block cache directory cannot be written: computed blocks are kept in memory only');
  }
  meter.start();
  metrics.addGauge('gridcast_compute_workers', 'Compute worker threads (0: computing on the HTTP thread).', () => pool.workers);
  metrics.addGauge('gridcast_compute_warm', 'Compute runners warm (catalogs built, warm-up requests served).', () => pool.warmRunners);
  metrics.addGauge('gridcast_compute_jobs_in_flight', 'Jobs handed to the compute pool and not yet done.', () => pool.jobsInFlight);
  metrics.addGauge(
    'gridcast_response_cache_hits_total',
    "Responses sent again from the HTTP thread's cache of small bodies.",
    () => responses.hits,
    'counter',
  );
  metrics.addGauge(
    'gridcast_compute_splits_total',
    'Large responses shared out between two workers (half the columns or row blocks each).',
    () => pool.splits,
    'counter',
  );
  metrics.addGauge(
    'gridcast_compute_helps_total',
    "Parts of a request computed by an idle worker for another worker's job (a skill request's series of one model).",
    () => pool.helps,
    'counter',
  );
  const routes = new RouteRegistry();
  registerProtocol(app, routes);
  // No public route takes a body: whatever a client sends is read and ignored, so that a
  // wrong method or path is answered as such (405/404, as FastAPI does before reading a body)
  // rather than as a body error. The admin API parses its own bodies (admin.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  // Set before any plugin is registered: an encapsulated plugin (the admin API) keeps the
  // error handler its parent had when it was registered.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (error instanceof HttpError) return sendJson(reply, error.status, error.body, error.headers);
    if (error instanceof QueryError) return sendJson(reply, 422, { detail: error.items });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendJson(reply, status, { detail: error.message });
    req.log.error({ err: error, keyId: tracker.keyIdOf(req) }, 'unhandled error');
    return reply.code(500).header('content-type', 'text/plain; charset=utf-8').send('Internal Server Error');
  });

  // Every request is tracked from its first byte to its end, however it ends (lifecycle.ts):
  // gauges, the heavy slot, latency and the usage record are settled there exactly once.
  const heavyBudget = new HeavyBudget(
    options.maxHeavy ?? envInt('GRIDCAST_MAX_HEAVY', 4),
    options.heavyValues ?? envInt('GRIDCAST_HEAVY_VALUES', DEFAULT_HEAVY_VALUES),
    options.heavyWaitMs ?? envInt('GRIDCAST_HEAVY_WAIT_S', 10) * 1000,
  );
  const sendTimeoutMs = options.sendTimeoutMs ?? envInt('GRIDCAST_SEND_TIMEOUT_S', 60) * 1000;
  metrics.addGauge(
    'gridcast_heavy_requests_computing',
    'Heavy requests with a block being computed now (the budget counts these).',
    () => heavyBudget.computing,
  );
  const tracker = new RequestTracker(metrics, heavyBudget, (state, { status, completed }) => {
    if (!state.keyId || !state.endpoint || status >= 500) return;
    meter.record(state.keyId, state.endpoint, completed && status === 200 ? (state.values ?? 0) : 0);
  });
  app.addHook('onRequest', async (req, reply) => {
    tracker.begin(req, reply);
    holdIdleTimeout(req.raw.socket, reply.raw, idleTimeoutMs);
    void reply.header('x-request-id', req.id);
    const q = req.url.indexOf('?');
    if (q >= 0 && Buffer.byteLength(req.url) - q - 1 > maxQueryBytes) {
      throw serviceError(414, `The query string is too long: ${Buffer.byteLength(req.url) - q - 1} bytes (at most ${maxQueryBytes}).`);
    }
  });
  app.addHook('onRequest', requireHost);

  // Level 4 compresses a 10 MB forecast body about 4× faster than zlib's default 6 for ~5 %
  // more bytes: for large generated responses the CPU is the bottleneck, not the network.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'], zlibOptions: { level: 4 } });
  const document = buildOpenApi(ROUTES, VERSION);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const hidden = { schema: { hide: true } as never };
  // The document served names the stored sources that exist in `model` and `source`, and leaves the synthetic
  // models out when the world is off (storedSources.ts); the static one at /docs does not. Keyed by both.
  let withSources = { names: 'true:', document };
  const documentNow = async () => {
    const names = await storedNames.get();
    const world = worldServed();
    const key = `${world}:${[...names].sort().join(',')}`;
    if (key !== withSources.names) {
      withSources = { names: key, document: buildOpenApi(withStoredSourceRoutes(ROUTES, names, world), VERSION) };
    }
    return withSources.document;
  };
  app.get('/v1/openapi.json', hidden, async (_req, reply) => sendJson(reply, 200, await documentNow()));
  app.get('/openapi.json', hidden, async (_req, reply) => sendJson(reply, 200, await documentNow()));
  registerHome(app, {
    service: 'gridcast',
    version: VERSION,
    docs: '/docs',
    openapi: `${API_PREFIX}/openapi.json`,
    admin_openapi: '/admin/openapi.json',
  });

  // Operations: liveness, readiness (the database answers and every compute runner is warm:
  // compute/pool.ts), Prometheus metrics.
  app.get('/healthz', hidden, (_req, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', hidden, async (_req, reply) => {
    const warmingUp = pool.warmingUp;
    if (warmingUp) return sendJson(reply, 503, { status: 'starting', database: store.kind, detail: warmingUp }, { 'retry-after': '1' });
    try {
      await store.sql.query('SELECT 1');
      return sendJson(reply, 200, { status: 'ready', database: store.kind });
    } catch (e) {
      return sendJson(reply, 503, { status: 'unavailable', database: store.kind, detail: (e as Error).message });
    }
  });
  app.get('/metrics', hidden, (_req, reply) =>
    reply.code(200).header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(metrics.render()),
  );
  const adminToken = options.adminToken ?? process.env.GRIDCAST_ADMIN_TOKEN;
  await registerAdmin(app, { store, token: adminToken, version: VERSION });
  await registerAdminSources(app, {
    store,
    token: adminToken,
    maxBytes: options.ingestMaxBytes ?? envInt('GRIDCAST_INGEST_MAX_BYTES', DEFAULT_INGEST_MAX_BYTES),
    clock: options.clock,
    changed: () => storedNames.invalidate(),
  });
  registerDashboard(app);

  // Old rate-limit windows are dropped now and then (by whichever process gets there).
  const pruneTimer = setInterval(() => void store.usage.pruneWindows().catch(() => {}), 10 * 60_000);
  pruneTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(pruneTimer);
    await pool.close();
    // Requests still finishing are counted when they end, so flush once they have.
    await meter.stop().catch((e: Error) => app.log.error({ err: e }, 'usage flush failed at shutdown'));
  });

  for (const def of ROUTES) {
    app.route({
      method: DATA_METHODS,
      url: API_PREFIX + def.path.replace(/\{(\w+)\}/g, ':$1'),
      ...hidden,
      handler: (req, reply) => handle(def, req, reply, tracker.stateOf(req)),
    });
  }

  async function handle(def: RouteDef, req: FastifyRequest, reply: FastifyReply, state: RequestState) {
    const query = req.query as Record<string, string | string[] | undefined>;
    const key = await auth.authenticate(requestKey(req.headers['x-api-key'], query[KEY_PARAM]));
    // The key's public id (never the secret) goes on the request's log line (lifecycle.ts).
    tracker.identify(state, key.id, def.path);
    void reply.headers(checkRateLimit(meter, rateLimits, key));
    const { values, output, keyBase, fresh } = await resolve(def, req, query);
    if (values.iso === undefined) authorizeAnyIso(key, def.level);
    else authorize(key, values.iso as IsoCode, def.level);
    const head = req.method === 'HEAD';
    const nowMs = options.clock.now();
    void reply.code(200).headers(output.headers);
    // A body served this minute is sent again as it was (responseCache.ts); its ETag too.
    const cacheKey = ResponseCache.keyAt(keyBase, nowMs);
    if (fresh) void reply.header('cache-control', 'private, no-cache');
    else {
      const fresh = freshnessOf(def, values, output.options, nowMs, VERSION, cacheKey);
      void reply.headers(fresh.headers);
      if (notModified(req.headers['if-none-match'], fresh.etag)) return reply.code(304).send();
    }
    const cached = head || fresh ? undefined : responses.get(cacheKey);
    if (cached) {
      state.values = cached.values;
      return reply.send(cached.body);
    }
    // The computing happens in the pool (compute/pool.ts); a client that goes away cancels it.
    let result: ComputeResult;
    try {
      const job = { path: def.path, params: values, raw: query, key, nowMs, head, output: output.options };
      // A large body may be shared out between two workers when one is idle (compute/pool.ts).
      result = await pool.run(job, state.abort.signal);
    } catch (e) {
      if (e instanceof JobAborted) return reply;
      throw e;
    }
    if (result.kind === 'stream') {
      await admitHeavy(state, key.id, result);
      // Ended by the server rather than the client: the log line says so (lifecycle.ts).
      result.body.once('error', (e: Error) => (state.serverEnded ??= e.message));
      watchSend(
        reply.raw,
        sendTimeoutMs,
        () => (state.serverEnded = `send time-out: the client took no byte for ${sendTimeoutMs / 1000} s`),
      );
    }
    // HEAD answers as GET would (the query has checked ids and the window) without computing values.
    if (result.kind === 'head') return reply.send();
    const served = result.kind === 'records' ? result.count : result.values;
    if (!head) state.values = served;
    if (fresh) return reply.send(result.body);
    if (result.kind === 'stream') return reply.send(responses.keepStreamed(cacheKey, result.body, served));
    responses.set(cacheKey, { body: result.body, values: served });
    return reply.send(result.body);
  }

  /**
   * What a request means: its validated parameters, its output (format and headers: from the
   * request alone, so a 304 computes nothing), the base of its response-cache key, and whether it
   * is answered fresh (stored data, or a configured truth). Throws the request's 4xx.
   *
   * Where nothing but the URL, Accept and the world switch decides it — no stored source named
   * and none configured for the route, no key in the URL — it is kept by URL: a repeated request
   * skips validation, the output's negotiation and the cache key's serialisation (~10 % of a small
   * cached request's CPU on the HTTP thread).
   */
  async function resolve(def: RouteDef, req: FastifyRequest, query: Record<string, string | string[] | undefined>): Promise<Resolved> {
    // `model` may name a stored source as well as a synthetic model (storedSources.ts).
    const named = undeclaredModel(def.params, query);
    const sources = SOURCE_PARAMS.map((param) => namedSource(query, param));
    const namesStored = named !== undefined || sources.some((s) => s !== undefined);
    const memoKey =
      namesStored || query[KEY_PARAM] !== undefined || hasTruthParam(def) || def.actualsOfIso || def.readsStore
        ? undefined
        : `${req.url}\u0000${req.headers.accept ?? ''}`;
    const memo = memoKey === undefined ? undefined : resolvedByUrl.get(memoKey);
    if (memo) {
      if (!worldServed() && !def.catalog) throw worldOffError(def, memo.values, await store.sources.list(options.clock.now()));
      return memo;
    }
    const stored = namesStored ? await storedNames.get(named, ...sources) : new Set<string>();
    const { values, errors } = validateParams(withStoredModels(def.params, stored), { path: req.params as Record<string, string>, query });
    if (errors.length > 0) throw validationError(errors);
    for (const param of SOURCE_PARAMS) {
      const name = values[param];
      if (typeof name === 'string' && !stored.has(name))
        throw unknownSourceError(name, await store.sources.list(options.clock.now()), param);
    }
    // An ISO's actuals may come from a stored source by configuration (actualTruth.ts): it stands for an unnamed truth.
    const truth = applyActualSource(def, values);
    if (truth && !(await storedNames.get(truth.source)).has(truth.source)) {
      throw unstoredTruthError(truth.param, truth.source, String(values.iso), await store.sources.list(options.clock.now()));
    }
    // Stored data changes with any ingest: it is answered fresh, without validators or a cached body.
    const storedData = readsStoredSource(values, stored) || def.readsStore === true;
    // With the world off a request may read stored data only; where a route's truth comes from `source`
    // (/actual, /skill), it must name one.
    const truthUnnamed = def.params.some((p) => p.name === 'source') && values.source === undefined;
    if (!worldServed() && !def.catalog && (!storedData || truthUnnamed))
      throw worldOffError(def, values, await store.sources.list(options.clock.now()));
    const output = chooseOutput(def, values, req.headers.accept);
    const resolved: Resolved = {
      values,
      output,
      keyBase: ResponseCache.keyBase(def.path, { values, output: output.options }),
      fresh: storedData || readsActualSource(def, values),
    };
    if (memoKey !== undefined && !resolved.fresh) {
      if (resolvedByUrl.size >= RESOLVED_URLS) resolvedByUrl.clear();
      resolvedByUrl.set(memoKey, resolved);
    }
    return resolved;
  }

  /**
   * A large streamed response computes only within the heavy budget (heavyBudget.ts): checked
   * once its size is known and before anything of it is computed or sent, so a refusal is a
   * whole 503.
   */
  async function admitHeavy(state: RequestState, keyId: string, result: ComputeResult & { kind: 'stream' }): Promise<void> {
    if (heavyBudget.isHeavy(result.values)) {
      const admission = await tracker.takeHeavy(state, { keyId, computing: result.computing });
      if (admission !== 'admitted') {
        result.body.destroy();
        throw serviceError(
          503,
          admission === 'busy'
            ? `The server is busy computing ${heavyBudget.max} large requests; retry in a few seconds, or ask for fewer targets or a shorter window.`
            : `This API key already has ${heavyBudget.perKey} large requests computing (at most ${heavyBudget.perKey} of the server's ` +
                `${heavyBudget.max} at once per key); retry when one has finished.`,
          { 'retry-after': '5' },
        );
      }
    }
    result.begin();
  }

  return app;
}
