/**
 * Validators and cache lifetimes of data responses: an ETag and Last-Modified, and a
 * Cache-Control that says how long the response stays true.
 *
 * What determines the bytes of a response is the route, its validated parameters, the output
 * format and the data in force at the time of the request. A request pinned in the past (an
 * explicit forecasted_by or as_of at or before now; an end or valid_time whose hours are all
 * published) always gets the same bytes: it is immutable. Otherwise the data in force changes
 * at the next run of the request's model (a latest forecast), or at the next hour (new runs,
 * plants coming online) or actual publication, whichever is first. The ETag hashes exactly
 * these inputs, so it is known before anything is computed, and a 304 computes nothing.
 */
import crypto from 'node:crypto';
import { ACTUAL_LAG_MINUTES, lastActualHour } from '../query/runs.ts';
import { nextActualMs, nextRunHour, RUN_SCHEDULES } from '../query/status.ts';
import { HOUR_MS } from '../time/hours.ts';
import type { ParamValue, ParsedDateTime } from './params.ts';
import type { RouteDef } from './route.ts';
import type { OutputOptions } from './writers/registry.ts';

/** A year: what HTTP caches treat as "never expires". */
const IMMUTABLE_SECONDS = 365 * 24 * 3600;
/** A bare date's hours end at most this long after its midnight read as UTC (a day plus the largest ISO offset, with margin). */
const DATE_SPAN_MS = 36 * HOUR_MS;

/** The instant after which a parameter pins the response, or undefined when it does not. */
function pinnedAt(params: Record<string, ParamValue>): number | undefined {
  const instant = (name: string) => params[name] as ParsedDateTime | undefined;
  const asOf = instant('forecasted_by') ?? instant('as_of');
  if (asOf) return asOf.dateOnly ? asOf.epochMs + DATE_SPAN_MS : asOf.epochMs;
  // A window or valid hour is final once its last hour's actual is published and its runs are issued.
  const last = instant('end') ?? instant('valid_time');
  if (last) return (last.dateOnly ? last.epochMs + DATE_SPAN_MS : last.epochMs) + HOUR_MS + ACTUAL_LAG_MINUTES * 60_000;
  return undefined;
}

export interface Freshness {
  etag: string;
  headers: Record<string, string>;
}

/** What a request's freshness headers are made of; the same for every request of the same key within a minute. */
interface Validators {
  etag: string;
  lastModified: string;
  /** Immutable (pinned in the past), or true until this instant. */
  fixed: boolean;
  expiresMs: number;
  vary: boolean;
}

/** Validators by response-cache key (route, parameters, output and minute: responseCache.ts), most recent last. */
const memo = new Map<string, Validators>();
const MEMO_ENTRIES = 4096;

/**
 * The freshness headers of a request at `nowMs`. `memoKey` (the response cache's key of the
 * request, which includes the minute: everything below changes on whole minutes at most) lets
 * a repeated request skip the ETag's hash; only max-age is worked out again.
 */
export function freshnessOf(
  def: RouteDef,
  params: Record<string, ParamValue>,
  output: OutputOptions,
  nowMs: number,
  version: string,
  memoKey?: string,
): Freshness {
  let v = memoKey === undefined ? undefined : memo.get(memoKey);
  if (!v) {
    v = validatorsOf(def, params, output, nowMs, version);
    if (memoKey !== undefined) {
      if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
      memo.set(memoKey, v);
    }
  }
  const maxAge = v.fixed ? IMMUTABLE_SECONDS : Math.max(0, Math.floor((v.expiresMs - nowMs) / 1000));
  const headers: Record<string, string> = {
    etag: v.etag,
    'last-modified': v.lastModified,
    // Responses need a key: shared caches must not hand them to others.
    'cache-control': v.fixed ? `private, max-age=${maxAge}, immutable` : `private, max-age=${maxAge}`,
  };
  if (v.vary) headers.vary = 'Accept';
  return { etag: v.etag, headers };
}

function validatorsOf(
  def: RouteDef,
  params: Record<string, ParamValue>,
  output: OutputOptions,
  nowMs: number,
  version: string,
): Validators {
  const nowHour = Math.floor(nowMs / HOUR_MS);
  const pinned = pinnedAt(params);
  const fixed = pinned !== undefined && pinned <= nowMs;
  // The routes that answer one run (forecast, ensemble) are those that take forecasted_by.
  const schedule = typeof params.model === 'string' ? RUN_SCHEDULES.get(params.model) : undefined;
  const singleRun = schedule !== undefined && def.params.some((p) => p.name === 'forecasted_by');
  let state: string;
  let lastModified: number;
  let expiresMs: number;
  if (fixed) {
    state = 'fixed';
    // A pinned run was last modified when it was created.
    const asOf = params.forecasted_by as ParsedDateTime | undefined;
    lastModified = singleRun && asOf ? schedule(Math.floor(asOf.epochMs / HOUR_MS)) * HOUR_MS : Math.min(pinned, nowMs);
    expiresMs = Infinity;
  } else if (singleRun && schedule) {
    // The latest run: true until the model's next run is issued.
    const run = schedule(nowHour);
    state = `run:${run}`;
    lastModified = run * HOUR_MS;
    expiresMs = nextRunHour(schedule, nowHour) * HOUR_MS;
  } else {
    const actualHour = lastActualHour(nowMs);
    state = `now:${nowHour}:${actualHour}`;
    lastModified = Math.max(nowHour * HOUR_MS, (actualHour + 1) * HOUR_MS + ACTUAL_LAG_MINUTES * 60_000);
    expiresMs = Math.min((nowHour + 1) * HOUR_MS, nextActualMs(nowMs));
  }
  const key = JSON.stringify([version, def.path, Object.entries(params).sort(), output, state]);
  const etag = `W/"${crypto.createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;
  return { etag, lastModified: new Date(lastModified).toUTCString(), fixed, expiresMs, vary: params.format === undefined };
}

/** True when If-None-Match names the ETag (weak comparison, as RFC 9110 requires for it) or is `*`. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}
