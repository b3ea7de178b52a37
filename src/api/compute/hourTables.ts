/**
 * What the compute pool precomputes once for all its workers before it is ready: the per-instant
 * values of the weather fields (world.ts HourTables) over the hours most requests cover. Every
 * request over these hours reads its weather batch's time bases from them instead of computing
 * them (~0.03 s of CPU per year of hourly rows, about half of a batch), and nothing served
 * changes: each entry is what the field computes for that instant.
 */
import { FORECAST_MODELS } from '../../models/forecastModels.ts';
import { HOUR_MS } from '../../time/hours.ts';
import { WeatherWorld, type HourTables } from '../../world/weather/world.ts';

/** Days before now the tables hold: a year and a month (the default windows, the skill's year, a year of continuous). */
export const TABLE_PAST_DAYS = 400;
/** Days after now: the longest deterministic horizon (the optimized model's 15 days) and a local day's margin. */
export const TABLE_AHEAD_DAYS = 17;

/** The error seeds tabled: those of the deterministic forecasts (the `normal` model has no errors; ensemble members are not tabled). */
const TABLED_ERROR_SEEDS = Object.values(FORECAST_MODELS)
  .filter((m) => !m.skill.climatology && m.skill.member === undefined)
  .map((m) => m.skill.errorSeedName);

/**
 * The tables for a world of `seed` around `nowMs`, in shared memory: ~27 MB and ~0.1 s of CPU for
 * the truth and the optimized and ISO forecasts' errors over the 417 days.
 */
export function precomputedHours(seed: number, nowMs: number): HourTables {
  const nowHour = Math.floor(nowMs / HOUR_MS);
  const firstHour = nowHour - TABLE_PAST_DAYS * 24;
  return new WeatherWorld(seed).hourTables(firstHour, (TABLE_PAST_DAYS + TABLE_AHEAD_DAYS) * 24, TABLED_ERROR_SEEDS);
}
