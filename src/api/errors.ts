/**
 * HTTP errors in the public service's shapes (reference error-formats.md §2.3, isoview
 * §4.3): 401/403 as {"detail":[{"type":"error","msg":…}]}, unknown paths as
 * {"detail":"Not Found"}, 422 as {"detail":[pydantic error items]}.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' ? JSON.stringify(body) : String(body));
  }
}

export function serviceError(status: number, msg: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, { detail: [{ type: 'error', msg }] }, headers);
}

export function validationError(items: readonly object[]): HttpError {
  return new HttpError(422, { detail: items });
}

export const NOT_FOUND = { detail: 'Not Found' };
export const METHOD_NOT_ALLOWED = { detail: 'Method Not Allowed' };
