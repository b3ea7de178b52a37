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
