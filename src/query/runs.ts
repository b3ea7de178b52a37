/**
 * Rows of the other request kinds, next to continuous stitching (continuous.ts):
 * - a single run (`forecast`, kinds.ts): the latest run created at or before `forecasted_by`
 *   (default: now; never after now — later runs do not exist yet), all its valid hours;
 * - actuals: truth for hours that have passed, after a short publication lag.
 */
import type { ForecastModel } from '../models/forecastModels.ts';
import { beyondHorizon, latestRunAtOrBefore } from '../models/forecastModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import type { StitchedRows } from './continuous.ts';
import type { HourWindow } from './window.ts';

/** An actual for hour h is published once h has ended plus this lag. */
export const ACTUAL_LAG_MINUTES = 15;

/** The last hour whose actual is published at `nowMs`, `lagMinutes` after each hour ends. */
export function lastActualHour(nowMs: number, lagMinutes = ACTUAL_LAG_MINUTES): number {
  return Math.floor((nowMs - lagMinutes * 60_000) / HOUR_MS) - 1;
}

/** Creation hour of the run a `forecast` request means. */
export function runAsOf(model: ForecastModel, forecastedByMs: number | undefined, nowMs: number): number {
  const asOf = Math.min(forecastedByMs ?? nowMs, nowMs);
  return latestRunAtOrBefore(model, Math.floor(asOf / HOUR_MS));
}

/** The rows of `rows` beyond their run's horizon (none for truth, `model` null). */
export function rowsBeyondHorizon(rows: StitchedRows, model: ForecastModel | null): Int32Array {
  const beyond: number[] = [];
  if (model) for (let i = 0; i < rows.valid.length; i++) if (beyondHorizon(model, rows.valid[i], rows.created[i])) beyond.push(i);
  return Int32Array.from(beyond);
}

/** Rows beyond their run's horizon have no value (NaN) — for a sum as for each of its parts. `model` null (truth) clears nothing. */
export function clearBeyondHorizon(out: Float64Array, rows: StitchedRows, model: ForecastModel | null): Float64Array {
  for (const i of rowsBeyondHorizon(rows, model)) out[i] = Number.NaN;
  return out;
}

/** Truth rows over a window, cut at `firstHour` (history start) and at `lastHour` (the last published). */
export function actualRows(window: HourWindow, firstHour: number, lastHour: number): StitchedRows {
  const rows: StitchedRows = { valid: [], created: [] };
  const last = Math.min(window.endHour, lastHour);
  for (let h = Math.max(window.startHour, firstHour); h <= last; h++) {
    rows.valid.push(h);
    rows.created.push(Number.NaN);
  }
  return rows;
}
