/**
 * "Now" for the whole process: the system clock, or the instant in GRIDCAST_NOW when it
 * is set, which freezes time so that results are reproducible.
 */
export interface Clock {
  /** Current instant in epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(ms: number): Clock {
  return { now: () => ms };
}

/** Strict ISO 8601 instant with a zone designator, e.g. 2026-06-01T12:00:00Z. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const frozen = env.GRIDCAST_NOW;
  if (frozen === undefined || frozen === '') return systemClock;
  const ms = INSTANT.test(frozen) ? Date.parse(frozen) : NaN;
  if (Number.isNaN(ms)) {
    throw new Error(`GRIDCAST_NOW must be an ISO 8601 instant with a zone, e.g. 2026-06-01T12:00:00Z (got '${frozen}')`);
  }
  return fixedClock(ms);
}
