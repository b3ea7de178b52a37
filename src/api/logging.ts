/**
 * The request log: one JSON object per line (pino, through Fastify), with nothing secret in it.
 *
 * - The URL is logged with the value of every query parameter whose *decoded* name is the key
 *   parameter replaced by `[redacted]`: the service accepts `api_key` however it is
 *   percent-encoded (`api%5Fkey`, `%61pi_key`, …), so redaction must look at the name as the
 *   query parser sees it, not at the raw text.
 * - No headers are logged (so neither X-API-Key nor Authorization).
 * - Errors are logged as type, code, message and stack only: database errors carry the SQL
 *   and its parameters as extra properties, and those must not reach the log.
 */
import type { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { decodeQueryComponent } from './querystring.ts';

/** The query parameter that carries an API key. */
export const KEY_PARAM = 'api_key';

/** Parameter names redacted in logged URLs, compared after decoding and case-insensitively. */
const SECRET_PARAMS = new Set([KEY_PARAM]);

function isSecretName(rawName: string): boolean {
  return SECRET_PARAMS.has(decodeQueryComponent(rawName).trim().toLowerCase());
}

/** The URL with the value of every key parameter (however spelled) replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return isSecretName(name) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
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
      req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      res: (res) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  };
}
