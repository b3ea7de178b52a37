/**
 * The request log: one JSON object per line (pino, through Fastify), with nothing secret in it.
 *
 * - The URL is logged with the value of every query parameter whose *decoded* name is the key
 *   parameter replaced by `[redacted]`: the service accepts `api_key` however it is
 *   percent-encoded (`api%5Fkey`, `%61pi_key`, …), so redaction must look at the name as the
 *   query parser sees it, not at the raw text. Near misses a client may send by mistake
 *   (`API-KEY`, `apikey`, `api_key%00`) are redacted too, and so is any value or path segment
 *   that holds something shaped like a key, whatever its parameter.
 * - No headers are logged (so neither X-API-Key nor Authorization).
 * - Errors are logged as type, code, message and stack only: database errors carry the SQL
 *   and its parameters as extra properties, and those must not reach the log.
 */
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { decodeQueryComponent } from './querystring.ts';

/** The query parameter that carries an API key. */
export const KEY_PARAM = 'api_key';

/** A decoded parameter name that carries, or was meant to carry, a key: letters and digits only, lower case. */
const SECRET_NAME = /apikey|token|secret/;
/** Something shaped like a gridcast key (`gc_` and 32 URL-safe characters), anywhere in a decoded text. */
const KEY_SHAPE = /gc_[A-Za-z0-9_-]{16,}/;

export const REDACTED = '[redacted]';

function isSecretName(rawName: string): boolean {
  return SECRET_NAME.test(
    decodeQueryComponent(rawName)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, ''),
  );
}

const holdsKey = (raw: string) => KEY_SHAPE.test(decodeQueryComponent(raw));

/**
 * Recently logged URLs that hold nothing to redact: a client repeats its URLs, and checking one is
 * ~1 % of a small request's CPU. A URL with something redacted is never kept (it may hold a key).
 */
const cleanUrls = new Set<string>();
const CLEAN_URLS = 1024;

/** The URL with the value of every key parameter (however spelled), and anything shaped like a key, replaced by `[redacted]`. */
export function redactRequestUrl(url: string): string {
  if (cleanUrls.has(url)) return url;
  const redacted = redactUrl(url);
  if (redacted === url) {
    if (cleanUrls.size >= CLEAN_URLS) cleanUrls.clear();
    cleanUrls.add(url);
  }
  return redacted;
}

function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q))
    .split('/')
    .map((segment) => (holdsKey(segment) ? REDACTED : segment))
    .join('/');
  if (q < 0) return path;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (holdsKey(name)) return REDACTED;
      return isSecretName(name) || (eq >= 0 && holdsKey(pair.slice(eq + 1))) ? `${name}=${REDACTED}` : pair;
    });
  return `${path}?${pairs.join('&')}`;
}

/** An error as the log shows it: never its extra properties (SQL text, query parameters). */
export function serializeError(err: Error & { code?: unknown }): { type: string; message: string; stack: string; code?: string } {
  return { type: err.name, code: typeof err.code === 'string' ? err.code : undefined, message: err.message, stack: err.stack ?? '' };
}

/** Where the log goes: off, stdout, or a stream (tests read it). */
export type LogOption = boolean | { stream: Writable };

/** Fastify's logger options for the request log. */
export function loggerOptions(option: LogOption | undefined): FastifyServerOptions['logger'] {
  if (!option) return false;
  return {
    ...(option === true ? {} : { stream: option.stream }),
    serializers: {
      req: (req) => ({ method: req.method, url: redactRequestUrl(req.url), remoteAddress: req.ip }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  };
}
