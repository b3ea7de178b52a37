// @ts-check
/**
 * The dashboard's only way to the service: GET /v1/… on this origin with the key in the
 * X-API-Key header (never in a URL, never to another origin), and the service's error bodies
 * turned into readable messages.
 */

/** @typedef {{ model: string | null, created_at: string | null, units: string, timezone: string, time_utc: string[], time_local: string[], columns: string[][], values: (number | null)[][] }} Timeseries */

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0 when no request was made)
   * @param {string} message
   */
  constructor(status, message) {
    super(status ? `${status}: ${message}` : message);
    this.status = status;
  }
}

/**
 * The text of an error body in the public service's shapes: `{"detail": "Not Found"}` or
 * `{"detail": [{"msg": …, "loc": […]}, …]}` (401, 403, 422, 429).
 * @param {unknown} body
 * @returns {string}
 */
export function errorText(body) {
  const detail = body && typeof body === 'object' && 'detail' in body ? body.detail : undefined;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        const loc = Array.isArray(item?.loc) ? `${item.loc.join('.')}: ` : '';
        return `${loc}${item?.msg ?? JSON.stringify(item)}`;
      })
      .join('; ');
  }
  return 'unexpected response';
}

/**
 * @param {() => string} getKey the key as the user entered it
 */
export function createApi(getKey) {
  return {
    /**
     * @param {string} path under /v1, e.g. /region/ercot/demand/forecast
     * @param {Record<string, string | number | undefined>} [query]
     * @returns {Promise<any>}
     */
    async get(path, query = {}) {
      const key = getKey();
      if (!key) throw new ApiError(0, 'Enter an API key first.');
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
      const qs = params.toString();
      const res = await fetch(`/v1${path}${qs ? `?${qs}` : ''}`, { headers: { 'X-API-Key': key }, credentials: 'omit', cache: 'no-store' });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new ApiError(res.status, errorText(body));
      return body;
    },
  };
}

/** @typedef {ReturnType<typeof createApi>} Api */

/**
 * The OpenAPI document (no key needed): the page takes its lists of ISOs and metrics from it,
 * so they are the service's own.
 * @returns {Promise<any>}
 */
export async function fetchOpenApi() {
  const res = await fetch('/v1/openapi.json', { credentials: 'omit' });
  if (!res.ok) throw new ApiError(res.status, 'could not read /v1/openapi.json');
  return res.json();
}

/**
 * The values the OpenAPI document names for a parameter of one operation: its enum, or, where the
 * parameter is a plain string (`model` once stored sources exist), its examples.
 * @param {any} doc
 * @param {string} path
 * @param {string} name
 * @returns {string[]}
 */
export function parameterChoices(doc, path, name) {
  const param = doc?.paths?.[path]?.get?.parameters?.find((/** @type {any} */ p) => p.name === name);
  const schema = param?.schema?.anyOf?.[0] ?? param?.schema;
  const values = schema?.enum ?? schema?.examples;
  if (!Array.isArray(values)) throw new Error(`the OpenAPI document names no values for ${name} of ${path}`);
  return values;
}

/**
 * The allowed values of a parameter of one operation in the OpenAPI document.
 * @param {any} doc
 * @param {string} path e.g. /region/{iso}/{metric}/ensemble
 * @param {string} name
 * @returns {string[]}
 */
export function parameterEnum(doc, path, name) {
  const op = doc?.paths?.[path]?.get;
  const param = op?.parameters?.find((/** @type {any} */ p) => p.name === name);
  const values = param?.schema?.enum;
  if (!Array.isArray(values)) throw new Error(`the OpenAPI document has no values for ${name} of ${path}`);
  return values;
}
