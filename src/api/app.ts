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
import { Authenticator, authorize, authorizeAnyIso, requestKey } from './auth.ts';
import { HttpError, METHOD_NOT_ALLOWED, NOT_FOUND, validationError } from './errors.ts';
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
}

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
  const auth = new Authenticator(options.store.keys, options.authCacheMs);
  const app = Fastify({
    logger:
      options.logger === undefined
        ? false
        : options.logger === true
          ? { serializers: { req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }) } }
          : options.logger,
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
    const { values, errors } = validateParams(def.params, { path: req.params as Record<string, string>, query });
    if (errors.length > 0) throw validationError(errors);
    if (values.iso === undefined) authorizeAnyIso(key, def.level);
    else authorize(key, values.iso as IsoCode, def.level);
    const result = await def.handle({ params: values, raw: query, key, nowMs: options.clock.now(), world });
    if (!isFrame(result)) return sendJson(reply, 200, result);
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

  app.setErrorHandler((error: Error & { statusCode?: number }, req, reply) => {
    if (error instanceof HttpError) return sendJson(reply, error.status, error.body, error.headers);
    if (error instanceof QueryError) return sendJson(reply, 422, { detail: error.items });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendJson(reply, status, { detail: error.message });
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).header('content-type', 'text/plain; charset=utf-8').send('Internal Server Error');
  });

  return app;
}
