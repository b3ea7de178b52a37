/**
 * When an actual without a publication time became known: at the end of its hour, or, for a daily
 * metric, at the end of its local day. Its own module so that the CSV parse worker (parseWorker.ts)
 * reads the rule without loading the group rules and the catalogs behind them (~0.1–0.2 s of its
 * start, while the ingest waits for its first batch).
 */
import { HOUR_MS } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour } from '../time/zones.ts';

/** The rule (instants in ms): hourly without `dayZone`, else by the local days of `dayZone`. */
export function knownAtRule(dayZone: string | undefined): (timeMs: number) => number {
  if (dayZone === undefined) return (timeMs) => timeMs + HOUR_MS;
  return (timeMs) => localDayStartHour(dayZone, addDays(localDateOfHour(dayZone, timeMs / HOUR_MS), 1)) * HOUR_MS;
}
