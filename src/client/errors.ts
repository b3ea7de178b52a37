/** The error every failed API call throws (except an abort, which throws the signal's reason). */

/** One item of the server's `detail` array: `{type, msg}` for service errors, plus `loc`/`input`/`ctx` for validation errors. */
export interface ErrorDetailItem {
  type: string;
  msg: string;
  loc?: (string | number)[];
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class GridcastError extends Error {
  override readonly name = 'GridcastError';
  /** HTTP status of the answer (401, 403, 404, 422, 429, 503, …). */
  readonly status: number;
  /**
   * The server's `detail`: an array of items for 401/403/422/429/503, a string for 404/405
   * (`"Not Found"`); undefined when the body was not the service's JSON.
   */
  readonly detail: ErrorDetailItem[] | string | undefined;
  /** The request URL (without the API key, which travels in a header). */
  readonly url: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, detail: ErrorDetailItem[] | string | undefined, url: string, retryAfterSeconds?: number, bodyText?: string) {
    super(`${status}: ${describeDetail(detail) ?? bodyText?.slice(0, 200) ?? 'no body'} (GET ${url})`);
    this.status = status;
    this.detail = detail;
    this.url = url;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The messages of `detail`, one per item. */
  get messages(): string[] {
    if (this.detail === undefined) return [];
    return typeof this.detail === 'string' ? [this.detail] : this.detail.map((d) => d.msg);
  }
}

function describeDetail(detail: ErrorDetailItem[] | string | undefined): string | undefined {
  if (detail === undefined) return undefined;
  if (typeof detail === 'string') return detail;
  return detail.map((d) => (d.loc ? `${d.loc.join('.')}: ${d.msg}` : d.msg)).join('; ');
}

/** `detail` of a parsed error body, when the body has the service's shape. */
export function detailOf(body: unknown): ErrorDetailItem[] | string | undefined {
  if (body === null || typeof body !== 'object' || !('detail' in body)) return undefined;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail) && detail.every((d) => d && typeof d === 'object' && typeof d.msg === 'string'))
    return detail as ErrorDetailItem[];
  return undefined;
}

/**
 * A request that got no complete answer: nothing listens at the address, the host name does
 * not resolve, TLS failed, the time-out passed, or the connection closed mid-answer. The
 * message names the URL and the cause in words; `code` is the system's or fetch's code
 * (ECONNREFUSED, ENOTFOUND, ERR_SSL_…, UND_ERR_SOCKET, TIMEOUT) and `cause` the original error.
 */
export class GridcastNetworkError extends Error {
  override readonly name = 'GridcastNetworkError';
  /** The request URL. */
  readonly url: string;
  readonly code: string | undefined;

  constructor(url: string, cause: unknown, timeoutMs?: number) {
    const { code, text } = timeoutMs === undefined ? describeNetworkFailure(url, cause) : timeoutText(timeoutMs);
    super(`GET ${url}: ${text}`, { cause });
    this.url = url;
    this.code = code;
  }
}

function timeoutText(timeoutMs: number): { code: string; text: string } {
  return { code: 'TIMEOUT', text: `no complete answer within ${timeoutMs / 1000} s (time-out)` };
}

/** fetch's error chain (a TypeError "fetch failed" or "terminated", then the socket's or resolver's error) in words. */
function describeNetworkFailure(url: string, error: unknown): { code: string | undefined; text: string } {
  const chain: { message: string; code?: unknown }[] = [];
  for (let e: unknown = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e as Error & { code?: unknown });
  const found = chain.find((e) => typeof e.code === 'string');
  const code = found?.code as string | undefined;
  const { host } = new URL(url);
  const reason = chain.at(-1)?.message.trim().split('\n')[0] ?? String(error);
  const text = (() => {
    if (code === 'ECONNREFUSED') return `connection refused: nothing listens at ${host} (is the service running?)`;
    if (code === 'ENOTFOUND') return `DNS: no such host '${new URL(url).hostname}'`;
    if (code === 'EAI_AGAIN') return `DNS: the name server did not answer for '${new URL(url).hostname}'`;
    if (code === 'ECONNRESET') return 'the server reset the connection';
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `time-out connecting to ${host}`;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return `time-out waiting for ${host} to answer`;
    if (code && /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|EPROTO$)/.test(code)) return `TLS failed: ${reason}`;
    if (chain[0]?.message === 'terminated') return `the connection closed before the whole answer arrived (terminated: ${reason})`;
    return chain.map((e) => e.message).join(': ');
  })();
  return { code, text: code ? `${text} (${code})` : text };
}
