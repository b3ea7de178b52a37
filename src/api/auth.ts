/**
 * API-key authentication and per-ISO authorisation.
 *
 * The key comes from the X-API-Key header or the api_key query parameter; when both are
 * present the header wins (it is the documented, recommended channel). Lookups are
 * cached per process for AUTH_CACHE_MS, so a revoked key stops working within that time.
 */
import type { IsoCode } from '../catalog/isos.ts';
import { hashKey, levelFor, levelRank, type KeyInfo, type KeyStore, type Level } from '../store/keys.ts';
import { serviceError, validationError } from './errors.ts';
import { KEY_PARAM, REDACTED } from './logging.ts';
import { singleQueryValue } from './params.ts';

export const AUTH_CACHE_MS = 5_000;

/** The key a request carries, or null. An empty header or parameter counts as missing. */
export function requestKey(headerValue: string | string[] | undefined, queryValue: string | string[] | undefined): string | null {
  const header = Array.isArray(headerValue) ? headerValue[0] : headerValue;
  if (header) return header;
  // A repeated api_key is refused like any repeated parameter (params.ts), not guessed at; its
  // values are keys, so the error does not echo them.
  const single = singleQueryValue(KEY_PARAM, queryValue);
  if (!single.ok) throw validationError([{ ...single.error, input: REDACTED }]);
  return single.value ? single.value : null;
}

export class Authenticator {
  private readonly cache = new Map<string, { info: KeyInfo | null; until: number }>();

  constructor(
    private readonly keys: KeyStore,
    private readonly cacheMs = AUTH_CACHE_MS,
  ) {}

  /** The key's record, or a 401 HttpError for a missing, unknown or revoked key. */
  async authenticate(key: string | null): Promise<KeyInfo> {
    if (key === null) {
      throw serviceError(401, 'Missing API key: send it in the X-API-Key header or the api_key query parameter.', {
        'www-authenticate': 'APIKey',
      });
    }
    const digest = hashKey(key); // the raw key is never kept
    const now = Date.now();
    let hit = this.cache.get(digest);
    if (!hit || hit.until < now) {
      hit = { info: await this.keys.authenticate(key), until: now + this.cacheMs };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(digest, hit);
    }
    if (!hit.info) throw serviceError(401, 'Invalid API key.', { 'www-authenticate': 'APIKey' });
    return hit.info;
  }
}

/** Throws a 403 HttpError unless the key's subscription for `iso` reaches `needed`. */
export function authorize(key: KeyInfo, iso: IsoCode, needed: Level): void {
  const level = levelFor(key.subscriptions, iso);
  if (level === null) {
    throw serviceError(
      403,
      `Your API key has no subscription for ISO '${iso}'. This endpoint needs the '${needed}' level or higher for '${iso}'.`,
    );
  }
  if (levelRank(level) < levelRank(needed)) {
    throw serviceError(
      403,
      `Your subscription for ISO '${iso}' is at the '${level}' level. This endpoint needs the '${needed}' level or higher for '${iso}'.`,
    );
  }
}

/**
 * For routes not tied to one ISO (gas): any subscription reaching `needed`, for any ISO or
 * 'all', grants access. Throws a 403 HttpError otherwise.
 */
export function authorizeAnyIso(key: KeyInfo, needed: Level): void {
  if (key.subscriptions.some((s) => levelRank(s.level) >= levelRank(needed))) return;
  throw serviceError(403, `This endpoint needs a subscription at the '${needed}' level or higher for at least one ISO.`);
}
