/**
 * HTTP behaviour below the routes, shaped like the public service (FastAPI on Starlette):
 *
 * - A path that exists answers a method it does not serve with 405 `{"detail":"Method Not
 *   Allowed"}` and an `Allow` header; HEAD is served wherever GET is.
 * - A trailing-slash variant of a path redirects (307) to the path.
 * - Requests the HTTP parser rejects (an unknown method, a malformed or oversized header, a
 *   request that times out) and requests without a Host header get the same JSON shape,
 *   `{"detail": "<status phrase>"}`, never Fastify's `{"error","message","statusCode"}` or an
 *   empty body.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { METHOD_NOT_ALLOWED, NOT_FOUND } from './errors.ts';

/** The methods a client may send that Fastify routes (CONNECT and the like never reach a route). */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** The JSON body of an error status in the public service's shape. */
export function statusBody(status: number): Buffer {
  return Buffer.from(JSON.stringify({ detail: http.STATUS_CODES[status] ?? 'Error' }), 'utf8');
}

/**
 * Fastify's clientErrorHandler: the HTTP parser refused the request, so there is no request
 * object; answer on the raw socket and close it, as Node itself would.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = statusBody(status);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body);
  }
  socket.destroy();
}

/** A route's URL pattern as a regular expression over concrete paths (`:param`, `*`). */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:\w+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Every route's URL and methods, collected as routes are registered, so that an unmatched
 * request can be told whether its path exists with other methods (405) or with a trailing
 * slash (307), or not at all (404).
 */
export class RouteRegistry {
  private readonly routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  /** Hook for `app.addHook('onRoute', …)`. */
  readonly onRoute = (route: RouteOptions): void => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let entry = this.routes.get(route.url);
    if (!entry) this.routes.set(route.url, (entry = { pattern: patternOf(route.url), methods: new Set() }));
    for (const m of methods) entry.methods.add(m);
  };

  /** The methods served at a concrete path (empty when no route has that path). */
  methodsAt(path: string): string[] {
    const found = new Set<string>();
    for (const { pattern, methods } of this.routes.values()) if (pattern.test(path)) for (const m of methods) found.add(m);
    return HTTP_METHODS.filter((m) => found.has(m));
  }
}

/**
 * A JSON body as the public service sends it: as a Buffer, because for a string Fastify appends
 * `; charset=utf-8`, while Starlette's JSONResponse sends exactly `application/json`.
 */
export function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(body), 'utf8'));
}

/** The not-found handler: 405 for a known path with another method, 307 for a trailing slash, else 404. */
export function unmatchedRequestHandler(registry: RouteRegistry) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    const allowed = registry.methodsAt(path);
    if (allowed.length > 0) return sendJson(reply, 405, METHOD_NOT_ALLOWED, { allow: allowed.join(', ') });
    if (path.length > 1 && path.endsWith('/') && registry.methodsAt(path.slice(0, -1)).length > 0) {
      return reply
        .code(307)
        .header('location', path.slice(0, -1) + (q < 0 ? '' : req.url.slice(q)))
        .send();
    }
    return sendJson(reply, 404, NOT_FOUND);
  };
}

/** onRequest hook: an HTTP/1.1 request must name its Host (RFC 9112 §3.2); Node's own refusal has no body. */
export async function requireHost(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
    await reply.code(400).header('content-type', 'application/json').header('connection', 'close').send(statusBody(400));
  }
}

/** Registers the protocol behaviour on an app (before its routes, so the registry sees them all). */
export function registerProtocol(app: FastifyInstance, registry: RouteRegistry): void {
  app.addHook('onRoute', registry.onRoute);
  app.setNotFoundHandler(unmatchedRequestHandler(registry));
}
