/**
 * Rate limits and quotas per key, configured per level: each level has fixed windows (per
 * second, minute, hour or day) with a request budget, counted in memory and shared through
 * the database (store/meter.ts) so that every API process on it enforces the same budget,
 * with a bounded overshoot. A key is held to the limits of its best active subscription level.
 *
 * Defaults: core 60/min and 10,000/day; advanced 600/min and 100,000/day; enterprise 6,000/min.
 * GRIDCAST_RATE_LIMITS overrides them per level, e.g. `core=60/min,advanced=600/min,
 * enterprise=6000/min` (a level named there gets exactly the windows listed for it; several
 * entries per level are allowed: `core=60/min,core=5000/day`; `enterprise=none` removes limits).
 */
import { LEVELS, levelRank, type KeyInfo, type Level } from '../store/keys.ts';
import type { UsageMeter } from '../store/meter.ts';
import { serviceError } from './errors.ts';

export interface RateWindow {
  limit: number;
  windowSecs: number;
}

export type RateLimits = Readonly<Record<Level, readonly RateWindow[]>>;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  core: [
    { limit: 60, windowSecs: 60 },
    { limit: 10_000, windowSecs: 86_400 },
  ],
  advanced: [
    { limit: 600, windowSecs: 60 },
    { limit: 100_000, windowSecs: 86_400 },
  ],
  enterprise: [{ limit: 6_000, windowSecs: 60 }],
};

const UNITS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
  d: 86_400,
  day: 86_400,
};
const UNIT_NAMES: Readonly<Record<number, string>> = { 1: 'second', 60: 'minute', 3600: 'hour', 86_400: 'day' };

/** Parses GRIDCAST_RATE_LIMITS over the defaults; throws an Error naming the bad entry. */
export function parseRateLimits(text: string | undefined, defaults: RateLimits = DEFAULT_RATE_LIMITS): RateLimits {
  if (!text || !text.trim()) return defaults;
  const out: Record<Level, RateWindow[]> = {
    core: [...defaults.core],
    advanced: [...defaults.advanced],
    enterprise: [...defaults.enterprise],
  };
  const named = new Set<Level>();
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const m = /^(\w+)=(?:(\d+)\/(\w+)|none)$/.exec(entry);
    const level = m?.[1] as Level | undefined;
    if (!m || !level || !LEVELS.includes(level) || (m[2] !== undefined && !(m[3] in UNITS))) {
      throw new Error(
        `GRIDCAST_RATE_LIMITS: bad entry '${entry}' (expected LEVEL=N/min|hour|day|second or LEVEL=none, LEVEL one of ${LEVELS.join(', ')})`,
      );
    }
    if (!named.has(level)) {
      out[level] = [];
      named.add(level);
    }
    if (m[2] !== undefined) out[level].push({ limit: Number(m[2]), windowSecs: UNITS[m[3]] });
  }
  return out;
}

/** The level whose limits a key is held to: its best active subscription (core without any). */
export function tierOf(key: KeyInfo): Level {
  let best: Level = 'core';
  for (const s of key.subscriptions) if (levelRank(s.level) > levelRank(best)) best = s.level;
  return best;
}

function perWindow(secs: number): string {
  const name = UNIT_NAMES[secs];
  return name ? `per ${name}` : `per ${secs} s`;
}

/**
 * Counts the request and returns the RateLimit-* headers of its tightest window; throws a
 * 429 HttpError (with Retry-After) when a window's budget is spent.
 */
export function checkRateLimit(meter: UsageMeter, limits: RateLimits, key: KeyInfo): Record<string, string> {
  const tier = tierOf(key);
  const windows = limits[tier];
  if (windows.length === 0) return {};
  const counts = meter.hit(
    key.id,
    windows.map((w) => w.windowSecs),
  );
  let tightest: { w: RateWindow; count: number; reset: number } | null = null;
  let exceeded: { w: RateWindow; reset: number } | null = null;
  for (const w of windows) {
    const c = counts.find((x) => x.windowSecs === w.windowSecs);
    if (!c) continue;
    const reset = Math.max(1, Math.ceil(c.resetSecs));
    if (c.count > w.limit && (!exceeded || reset > exceeded.reset)) exceeded = { w, reset };
    if (!tightest || w.limit - c.count < tightest.w.limit - tightest.count) tightest = { w, count: c.count, reset };
  }
  const policy = windows.map((w) => `${w.limit};w=${w.windowSecs}`).join(', ');
  if (exceeded) {
    throw serviceError(
      429,
      `Rate limit exceeded: keys at the '${tier}' level may make ${exceeded.w.limit} requests ${perWindow(exceeded.w.windowSecs)}. Retry in ${exceeded.reset} s.`,
      {
        'retry-after': String(exceeded.reset),
        'ratelimit-policy': policy,
        'ratelimit-limit': String(exceeded.w.limit),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(exceeded.reset),
      },
    );
  }
  if (!tightest) return {};
  return {
    'ratelimit-policy': policy,
    'ratelimit-limit': String(tightest.w.limit),
    'ratelimit-remaining': String(Math.max(0, tightest.w.limit - tightest.count)),
    'ratelimit-reset': String(tightest.reset),
  };
}
