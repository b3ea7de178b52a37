/**
 * One GET against the API: X-API-Key, the body as JSON, text or bytes, the service's errors
 * as GridcastError, a failure to get a complete answer as GridcastNetworkError, and retries
 * of 429 and 503 answers: after the server's Retry-After when it sends one, else with
 * exponential backoff and jitter. An AbortSignal cancels the request in flight and any wait
 * before a retry.
 */
import { detailOf, GridcastError, GridcastNetworkError } from './errors.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8000/v1';
const USER_AGENT = 'gridcast-client/0.1.0';

/** Answers worth retrying: over the rate limit, and a server busy with large requests. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export interface RetryOptions {
  /** Attempts in all, the first included (default 4); 1 turns retries off. */
  maxAttempts?: number;
  /** Backoff before the first retry, doubled for each further one, half of it random (default 500 ms). */
  baseDelayMs?: number;
  /**
   * Longest wait before a retry (default 60 s). A Retry-After beyond it (a daily quota, say)
   * is not waited for: the 429 is thrown at once, with its retryAfterSeconds.
   */
  maxDelayMs?: number;
}

/** What `onRetry` hears before each wait. */
export interface RetryEvent {
  url: string;
  status: number;
  /** The attempt that failed (1 for the first request). */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The server's Retry-After, in seconds, when it sent one. */
  retryAfterSeconds?: number;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl?: string;
  retry?: RetryOptions;
  onRetry?: (event: RetryEvent) => void;
  /** The fetch to use (default: the global fetch of Node 18+ and browsers). */
  fetch?: typeof fetch;
  /**
   * Longest time one attempt may take, its whole body included, in ms; past it the call
   * throws a GridcastNetworkError (code TIMEOUT). Default: none of its own (fetch's own
   * time-outs still apply: Node's waits 300 s for the answer's headers).
   */
  timeoutMs?: number;
}

/** How a body is read: parsed JSON, text (CSV), or bytes (Parquet, Arrow). */
export type BodyKind = 'json' | 'text' | 'bytes';
type BodyOf<K extends BodyKind> = K extends 'text' ? string : K extends 'bytes' ? Uint8Array : unknown;
const ACCEPT: Record<BodyKind, string> = { json: 'application/json', text: 'text/csv', bytes: '*/*' };

export type QueryValue = string | number | Date | null | undefined;

/** `2026-03-01T00:00:00Z` for a Date (no milliseconds when there are none); other values as text. */
export function formatQueryValue(value: string | number | Date): string {
  if (!(value instanceof Date)) return String(value);
  if (Number.isNaN(value.getTime())) throw new RangeError('Invalid Date passed as a query parameter');
  return value.toISOString().replace('.000Z', 'Z');
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, nowMs = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly onRetry?: (event: RetryEvent) => void;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number | undefined;

  constructor(options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.maxAttempts = Math.max(1, Math.floor(options.retry?.maxAttempts ?? 4));
    this.baseDelayMs = options.retry?.baseDelayMs ?? 500;
    this.maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
    this.onRetry = options.onRetry;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.timeoutMs = options.timeoutMs;
  }

  /** The full URL of `pathTemplate` (e.g. /plant/{iso}/{metric}/list) with its parameters. */
  url(pathTemplate: string, pathParams: Record<string, string>, query: Record<string, QueryValue> = {}): string {
    const path = pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = pathParams[name];
      if (value === undefined) throw new TypeError(`missing path parameter '${name}' of ${pathTemplate}`);
      return encodeURIComponent(value);
    });
    const pairs = Object.entries(query)
      .filter((e): e is [string, string | number | Date] => e[1] !== undefined && e[1] !== null)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(formatQueryValue(value))}`);
    return `${this.baseUrl}${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
  }

  /** Backoff before retry number `retry` (1-based): base·2^(retry−1), the upper half random, capped. */
  private backoffMs(retry: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (retry - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** GET `url` and parse its JSON; see `getBody`. */
  async getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
    return (await this.getBody(url, 'json', signal)) as T;
  }

  /**
   * GET `url` and read its body as `kind`; retries 429/503 as configured; throws GridcastError
   * for any other non-2xx, GridcastNetworkError when no complete answer arrives, and the
   * signal's reason when it aborts.
   */
  async getBody<K extends BodyKind>(url: string, kind: K, signal?: AbortSignal): Promise<BodyOf<K>> {
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const timeout = this.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.timeoutMs);
      const attemptSignal = timeout && signal ? AbortSignal.any([signal, timeout]) : (timeout ?? signal);
      let res: Response;
      let body: string | Uint8Array;
      try {
        res = await this.fetchImpl(url, {
          method: 'GET',
          headers: { 'x-api-key': this.apiKey, accept: ACCEPT[kind], 'user-agent': USER_AGENT },
          signal: attemptSignal,
        });
        // The body is read here: a connection that closes mid-answer fails here, not in a parser.
        body = res.ok && kind === 'bytes' ? new Uint8Array(await res.arrayBuffer()) : await res.text();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        throw new GridcastNetworkError(url, error, timeout?.aborted ? this.timeoutMs : undefined);
      }
      if (res.ok) return (kind === 'json' ? JSON.parse(body as string) : body) as BodyOf<K>;
      const text = body as string;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'));
      const error = new GridcastError(res.status, detailOf(parsed), url, retryAfterSeconds, text);
      if (!RETRY_STATUSES.has(res.status) || attempt >= this.maxAttempts) throw error;
      const retryAfterMs = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
      if (retryAfterMs > this.maxDelayMs) throw error;
      // The server's Retry-After is authoritative; a little jitter on top keeps clients that
      // were refused together from all coming back in the same instant.
      const delayMs = retryAfterSeconds === undefined ? this.backoffMs(attempt) : retryAfterMs + Math.random() * (this.baseDelayMs / 2);
      this.onRetry?.({ url, status: res.status, attempt, delayMs, retryAfterSeconds });
      await sleep(delayMs, signal);
    }
  }
}
