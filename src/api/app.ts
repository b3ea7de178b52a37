/**
 * The HTTP application: every declared route gets authentication, FastAPI-compatible
 * validation, per-ISO authorisation and a streamed JSON response; plus the OpenAPI
 * document, interactive docs, and FastAPI's shapes for 404/405/307 and for errors.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { IsoCode } from '../catalog/isos.ts';
import { QueryError } from '../query/errors.ts';
import type { Frame } from '../query/frame.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../time/clock.ts';
import { WeatherWorld } from '../world/weather.ts';
import { AUTH_CACHE_MS, Authenticator, authorize, authorizeAnyIso, requestKey } from './auth.ts';
import crypto from 'node:crypto';
import { registerAdmin } from './admin.ts';
import { registerDashboard } from './dashboard.ts';
import { HttpError, METHOD_NOT_ALLOWED, NOT_FOUND, serviceError, validationError } from './errors.ts';
import { Metrics } from './metrics.ts';
import { checkRateLimit, parseRateLimits, type RateLimits } from './rateLimits.ts';
import { buildOpenApi } from './openapi.ts';
import { validateParams } from './params.ts';
import { parseQueryString } from './querystring.ts';
import type { RouteDef } from './route.ts';
import { cellRoutes } from './routes/cells.ts';
import { countyRoutes } from './routes/county.ts';
import { gasRoutes } from './routes/gas.ts';
import { lmpRoutes } from './routes/lmp.ts';
import { plantRoutes } from './routes/plant.ts';
import { regionRoutes, summaryRoute } from './routes/region.ts';
import { frameBody } from './writer.ts';

export const API_PREFIX = '/v1';
export const ROUTES: readonly RouteDef[] = [...regionRoutes, summaryRoute, ...plantRoutes, ...countyRoutes, ...gasRoutes, ...lmpRoutes, ...cellRoutes];
const VERSION = '0.1.0';
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export interface AppOptions {
  store: Store;
  clock: Clock;
  world?: WeatherWorld;
  /** Fastify logger option: false in tests, JSON lines in production. */
  logger?: FastifyServerOptions['logger'];
  /** How long a key lookup is cached (ms); a revoked key stops working within this time. */
  authCacheMs?: number;
  /** Request budgets per level (default: GRIDCAST_RATE_LIMITS over the documented defaults). */
  rateLimits?: RateLimits;
  /** Token of the /admin API (default GRIDCAST_ADMIN_TOKEN; unset disables it). */
  adminToken?: string;
  /** Heavy (all-target time-series) requests computed at once; more get a 503 (default GRIDCAST_MAX_HEAVY or 4). */
  maxHeavy?: number;
  /** Longest query string accepted, bytes (default GRIDCAST_MAX_QUERY_BYTES or 4096); longer gets a 414. */
  maxQueryBytes?: number;
}

/** A positive integer from the environment, or the fallback. */
function envInt(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return process.env[name] && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** What a request carries from authentication to the response hooks. */
interface RequestState {
  startedAt: bigint;
  keyId?: string;
  endpoint?: string;
  values?: number;
  heavy?: boolean;
}

const stateOf = new WeakMap<FastifyRequest, RequestState>();

/** The URL without an api_key parameter, so keys never reach the logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]');
}

/**
 * JSON bodies go out as Buffers: for a string Fastify appends `; charset=utf-8`, while the
 * public service (Starlette JSONResponse) sends exactly `application/json`.
 */
function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(status).headers(headers).header('content-type', 'application/json').send(Buffer.from(JSON.stringify(body), 'utf8'));
}

function isFrame(x: Frame | unknown[]): x is Frame {
  return !Array.isArray(x);
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const world = options.world ?? new WeatherWorld();
  const store = options.store;
  const auth = new Authenticator(store.keys, options.authCacheMs ?? envInt('GRIDCAST_AUTH_CACHE_MS', AUTH_CACHE_MS));
  const rateLimits = options.rateLimits ?? parseRateLimits(process.env.GRIDCAST_RATE_LIMITS);
  const maxHeavy = options.maxHeavy ?? envInt('GRIDCAST_MAX_HEAVY', 4);
  const maxQueryBytes = options.maxQueryBytes ?? envInt('GRIDCAST_MAX_QUERY_BYTES', 4096);
  const metrics = new Metrics();
  /** Usage writes not yet finished: shutdown waits for them. */
  const pendingUsage = new Set<Promise<void>>();
  const app = Fastify({
    logger:
      options.logger === undefined
        ? false
        : options.logger === true
          ? {
              // JSON lines; the URL without api_key, no headers (so no X-API-Key, no Authorization).
              serializers: {
                req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
                res: (res) => ({ statusCode: res.statusCode }),
              },
            }
          : options.logger,
    // A caller's X-Request-Id (if sane) names the request in our logs and comes back in the response.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : crypto.randomUUID();
    },
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 1000, querystringParser: (qs: string) => parseQueryString(qs) },
    // A path Fastify cannot route (bad percent-encoding, an over-long segment) is an
    // unknown path; answer in the public service's shape rather than Fastify's.
    frameworkErrors: (_error, _req, reply) => {
      void sendJson(reply, 404, NOT_FOUND);
    },
  });

  // Level 4 compresses a 10 MB forecast body about 4× faster than zlib's default 6 for ~5 %
  // more bytes: for large generated responses the CPU is the bottleneck, not the network.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['gzip', 'deflate'], zlibOptions: { level: 4 } });
  const document = buildOpenApi(ROUTES, VERSION);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/v1/openapi.json', { schema: { hide: true } as never }, (_req, reply) => sendJson(reply, 200, document));
  app.get('/openapi.json', { schema: { hide: true } as never }, (_req, reply) => sendJson(reply, 200, document));
  app.get('/', { schema: { hide: true } as never }, (_req, reply) =>
    sendJson(reply, 200, { service: 'gridcast', version: VERSION, docs: '/docs', openapi: `${API_PREFIX}/openapi.json` }),
  );

  // Operations: liveness, readiness (the database answers), Prometheus metrics.
  app.get('/healthz', { schema: { hide: true } as never }, (_req, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } as never }, async (_req, reply) => {
    try {
      await store.sql.query('SELECT 1');
      return sendJson(reply, 200, { status: 'ready', database: store.kind });
    } catch (e) {
      return sendJson(reply, 503, { status: 'unavailable', database: store.kind, detail: (e as Error).message });
    }
  });
  app.get('/metrics', { schema: { hide: true } as never }, (_req, reply) =>
    reply.code(200).header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(metrics.render()),
  );
  registerAdmin(app, { store, token: options.adminToken ?? process.env.GRIDCAST_ADMIN_TOKEN });
  registerDashboard(app);

  app.addHook('onRequest', async (req, reply) => {
    stateOf.set(req, { startedAt: process.hrtime.bigint() });
    metrics.inFlight++;
    void reply.header('x-request-id', req.id);
    const q = req.url.indexOf('?');
    if (q >= 0 && Buffer.byteLength(req.url) - q - 1 > maxQueryBytes) {
      throw serviceError(414, `The query string is too long: ${Buffer.byteLength(req.url) - q - 1} bytes (at most ${maxQueryBytes}).`);
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    metrics.inFlight--;
    const state = stateOf.get(req);
    if (!state) return;
    if (state.heavy) metrics.heavyInFlight--;
    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
    metrics.observe(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, seconds);
    if (state.keyId && state.endpoint && reply.statusCode < 500) {
      const write = store.usage
        .record(state.keyId, state.endpoint, reply.statusCode === 200 ? (state.values ?? 0) : 0)
        .catch((e: Error) => req.log.error({ err: e }, 'usage write failed'))
        .finally(() => pendingUsage.delete(write));
      pendingUsage.add(write);
    }
  });
  // Old rate-limit windows are dropped now and then (by whichever process gets there).
  const pruneTimer = setInterval(() => void store.usage.pruneWindows().catch(() => {}), 10 * 60_000);
  pruneTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(pruneTimer);
    await Promise.all([...pendingUsage]);
  });

  const routePatterns: RegExp[] = [];
  for (const def of ROUTES) {
    const url = API_PREFIX + def.path.replace(/\{(\w+)\}/g, ':$1');
    routePatterns.push(new RegExp('^' + (API_PREFIX + def.path).replace(/\{\w+\}/g, '[^/]+') + '$'));
    app.route({
      method: [...ALL_METHODS],
      url,
      schema: { hide: true } as never,
      // FastAPI answers other methods with 405 before reading any body.
      onRequest: async (req, reply) => {
        if (req.method !== 'GET') {
          await sendJson(reply, 405, METHOD_NOT_ALLOWED, { allow: 'GET' });
        }
      },
      handler: (req, reply) => handle(def, req, reply),
    });
  }

  async function handle(def: RouteDef, req: FastifyRequest, reply: FastifyReply) {
    const query = req.query as Record<string, string | string[] | undefined>;
    const key = await auth.authenticate(requestKey(req.headers['x-api-key'], query.api_key));
    const state = stateOf.get(req)!;
    state.keyId = key.id;
    // The key's public id (never the secret) on this request's log lines.
    req.log = reply.log = req.log.child({ keyId: key.id });
    state.endpoint = def.path;
    void reply.headers(await checkRateLimit(store.usage, rateLimits, key));
    const { values, errors } = validateParams(def.params, { path: req.params as Record<string, string>, query });
    if (errors.length > 0) throw validationError(errors);
    if (values.iso === undefined) authorizeAnyIso(key, def.level);
    else authorize(key, values.iso as IsoCode, def.level);
    // Every target of a group over a long window can take seconds of CPU and tens of MB: only
    // maxHeavy of them run at once, and the rest are told to come back rather than queue up
    // until memory runs out.
    if (def.response.kind === 'timeseries' && values.id === undefined) {
      if (metrics.heavyInFlight >= maxHeavy) {
        metrics.heavyRejected++;
        throw serviceError(
          503,
          `The server is busy with ${metrics.heavyInFlight} large requests; retry in a few seconds, or ask for one id at a time.`,
          { 'retry-after': '5' },
        );
      }
      metrics.heavyInFlight++;
      state.heavy = true;
    }
    const result = await def.handle({ params: values, raw: query, key, nowMs: options.clock.now(), world });
    if (!isFrame(result)) {
      state.values = result.length;
      return sendJson(reply, 200, result);
    }
    state.values = result.hours.length * result.columns.length;
    const body = frameBody(result);
    return reply.code(200).header('content-type', 'application/json').send(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  }

  app.setNotFoundHandler((req, reply) => {
    const [path, qs] = req.url.split('?', 2);
    // FastAPI redirects a trailing-slash variant of a route to the route (307).
    if (path.length > 1 && path.endsWith('/') && routePatterns.some((re) => re.test(path.slice(0, -1)))) {
      return reply.code(307).header('location', path.slice(0, -1) + (qs !== undefined ? '?' + qs : '')).send();
    }
    return sendJson(reply, 404, NOT_FOUND);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (error instanceof HttpError) return sendJson(reply, error.status, error.body, error.headers);
    if (error instanceof QueryError) return sendJson(reply, 422, { detail: error.items });
    // A malformed JSON body (admin API): FastAPI's json_invalid 422.
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendJson(reply, 422, { detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: error.message } }] });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendJson(reply, status, { detail: error.message });
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).header('content-type', 'text/plain; charset=utf-8').send('Internal Server Error');
  });

  return app;
}
