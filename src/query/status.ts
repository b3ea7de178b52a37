/**
 * What is published when: every model's run schedule (the last run issued by now and the next
 * one), and the last published actual hour. The status endpoint lists them, and the HTTP layer
 * uses them to tell caches how long a response stays true.
 */
import { ISO_CODES } from '../catalog/isos.ts';
import { ENSEMBLE_MODELS } from '../models/ensembleModels.ts';
import { FORECAST_MODELS, latestRunAtOrBefore } from '../models/forecastModels.ts';
import { formatUtcHour, formatUtcInstant, HOUR_MS } from '../time/hours.ts';
import { ACTUAL_LAG_MINUTES, lastActualHour } from './runs.ts';

/** When a model's runs are issued: the creation hour of its latest run at or before an epoch hour. */
export type RunSchedule = (hour: number) => number;

/** Every model by name, deterministic and ensemble. */
export const RUN_SCHEDULES: ReadonlyMap<string, RunSchedule> = new Map<string, RunSchedule>([
  ...Object.values(FORECAST_MODELS).map((m) => [m.name, (hour: number) => latestRunAtOrBefore(m, hour)] as const),
  ...Object.values(ENSEMBLE_MODELS).map((m) => [m.name, (hour: number) => m.latestRunAtOrBefore(hour)] as const),
]);

/** The longest gap between two runs of any model (SEAS5: monthly), bounding the search for the next run. */
const MAX_RUN_GAP_HOURS = 32 * 24;

/** Creation hour of the first run after the one in force at `hour`. */
export function nextRunHour(schedule: RunSchedule, hour: number): number {
  const current = schedule(hour);
  for (let h = hour + 1; h <= hour + MAX_RUN_GAP_HOURS; h++) if (schedule(h) > current) return schedule(h);
  throw new Error('no run within the longest gap between runs');
}

/** The instant the actual of the hour after `lastActualHour(nowMs)` is published. */
export function nextActualMs(nowMs: number): number {
  return (lastActualHour(nowMs) + 2) * HOUR_MS + ACTUAL_LAG_MINUTES * 60_000;
}

export interface ModelStatus {
  iso: string;
  model: string;
  last_run: string;
  next_run: string;
  last_actual_hour: string;
}

/** Per ISO and model: the last run issued by now, the next one, and the last actual hour published. */
export function serviceStatus(nowMs: number): ModelStatus[] {
  const hour = Math.floor(nowMs / HOUR_MS);
  const actual = formatUtcHour(lastActualHour(nowMs));
  return ISO_CODES.flatMap((iso) =>
    [...RUN_SCHEDULES].map(([model, schedule]) => ({
      iso,
      model,
      last_run: formatUtcInstant(schedule(hour) * HOUR_MS),
      next_run: formatUtcInstant(nextRunHour(schedule, hour) * HOUR_MS),
      last_actual_hour: actual,
    })),
  );
}
