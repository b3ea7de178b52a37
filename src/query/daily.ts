/**
 * Daily series (outages): one row per local day of the ISO, labelled with the day's first
 * instant (day-beginning, local midnight). The request kinds follow the hourly ones:
 * - continuous: day D takes the latest run created at or before (D − days_ahead) at
 *   latest_hour:00 local;
 * - forecast: one run, the days from the run's own local day to its horizon;
 * - actual: days that have ended (plus the publication lag), from 2023-01-01;
 * - backcast: continuous with days_ahead 1, latest_hour 10, optimized, from 2023-01-01.
 */
import { FORECAST_MODELS, type ForecastModel } from '../models/forecastModels.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { addDays, compareDates, daysBetween, formatDate, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import { lastStitchableDay, runForDay, type StitchOptions } from './continuous.ts';
import { modelSchedule } from '../sources/schedule.ts';
import { queryValueError } from './errors.ts';
import { UNIT_DECIMALS, type Unit } from '../catalog/metrics.ts';
import type { Frame } from './frame.ts';
import {
  ACTUAL_HISTORY_START,
  DEFAULT_WINDOW_DAYS,
  FORECAST_HISTORY_START,
  type ContinuousParams,
  type ForecastParams,
  type WindowParams,
} from './kinds.ts';
import { lastActualHour, runAsOf } from './runs.ts';
import { resolveWindow, type HourWindow } from './window.ts';

/** Rows of a daily series: local days and, for forecasts, the run serving each. */
export interface DailyRows {
  days: CivilDate[];
  /** First epoch hour of each day (local midnight). */
  dayStart: number[];
  /** Creation hour of the run of each day (NaN for truth). */
  created: number[];
}

export interface DailySeriesGroup<T> {
  timezone: string;
  units: Unit;
  targets: readonly T[];
  label(target: T): string[];
  /** Values of each target on the rows' days; `model` null means truth. */
  source(rows: DailyRows, model: ForecastModel | null): (target: T) => Float64Array;
}

function frameOf<T>(
  group: DailySeriesGroup<T>,
  model: string | null,
  createdAtHour: number | null,
  rows: DailyRows,
  values: (t: T) => Float64Array,
): Frame {
  return {
    model,
    createdAtHour,
    units: group.units,
    timezone: group.timezone,
    hours: rows.dayStart,
    decimals: UNIT_DECIMALS[group.units],
    columns: group.targets.map((t) => ({ label: group.label(t), fill: (out: Float64Array) => out.set(values(t)) })),
  };
}

/** Local days whose first hour lies in the window, from `historyStart` through `lastDay`. */
function daysIn(timezone: string, window: HourWindow, historyStart: CivilDate, lastDay: CivilDate): CivilDate[] {
  const days: CivilDate[] = [];
  let day = localDateOfHour(timezone, window.startHour);
  if (localDayStartHour(timezone, day) < window.startHour) day = addDays(day, 1);
  if (compareDates(day, historyStart) < 0) day = historyStart;
  for (; compareDates(day, lastDay) <= 0 && localDayStartHour(timezone, day) <= window.endHour; day = addDays(day, 1)) days.push(day);
  return days;
}

function noDays(p: { start?: { raw: string }; end?: { raw: string } }, window: HourWindow, firstHour: number, message: string): never {
  const param = window.endHour < firstHour ? (p.end ? 'end' : 'start') : p.start ? 'start' : 'end';
  throw queryValueError(param, (param === 'end' ? p.end?.raw : p.start?.raw) ?? null, message);
}

export function dailyContinuousFrame<T>(
  group: DailySeriesGroup<T>,
  p: ContinuousParams,
  historyStart = FORECAST_HISTORY_START,
  kind = 'continuous forecasts',
): Frame {
  const tz = group.timezone;
  const model = FORECAST_MODELS[p.model];
  const stitch: StitchOptions = { timezone: tz, runs: modelSchedule(model), latestHour: p.latestHour, daysAhead: p.daysAhead };
  const lastDay = lastStitchableDay(stitch, p.nowMs);
  const window = resolveWindow(p.start, p.end, tz, { lastHour: localDayStartHour(tz, addDays(lastDay, 1)) - 1, days: DEFAULT_WINDOW_DAYS });
  const days = daysIn(tz, window, historyStart, lastDay);
  if (days.length === 0) {
    noDays(
      p,
      window,
      localDayStartHour(tz, historyStart),
      `no forecast data in the requested window: ${kind} exist for local days from ${formatDate(historyStart)} ` +
        `through the last day whose run (days_ahead=${p.daysAhead}, latest_hour=${p.latestHour}) has been issued`,
    );
  }
  const rows: DailyRows = {
    days,
    dayStart: days.map((d) => localDayStartHour(tz, d)),
    created: days.map((d) => runForDay(stitch, d)),
  };
  return frameOf(group, p.model, null, rows, group.source(rows, model));
}

export function dailyBackcastFrame<T>(group: DailySeriesGroup<T>, p: WindowParams): Frame {
  return dailyContinuousFrame(
    group,
    { ...p, model: 'optimized', latestHour: 10, daysAhead: 1 },
    ACTUAL_HISTORY_START,
    'day-ahead backcasts',
  );
}

export function dailyForecastFrame<T>(group: DailySeriesGroup<T>, p: ForecastParams): Frame {
  const tz = group.timezone;
  const model = FORECAST_MODELS[p.model];
  const created = runAsOf(model, p.forecastedBy?.epochMs, p.nowMs);
  if (created < localDayStartHour(tz, addDays(FORECAST_HISTORY_START, -1))) {
    throw queryValueError(
      'forecasted_by',
      p.forecastedBy?.raw ?? null,
      'no forecast run at or before forecasted_by: forecast history begins with the runs of 2025-12-31 (for 2026-01-01)',
    );
  }
  const days: CivilDate[] = [];
  for (let d = localDateOfHour(tz, created); localDayStartHour(tz, d) < created + model.horizonHours; d = addDays(d, 1)) days.push(d);
  const rows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(tz, d)), created: days.map(() => created) };
  return frameOf(group, p.model, created, rows, group.source(rows, model));
}

export function dailyActualFrame<T>(group: DailySeriesGroup<T>, p: WindowParams): Frame {
  const tz = group.timezone;
  // A day's actual is published once its last hour is.
  const lastDay = addDays(localDateOfHour(tz, lastActualHour(p.nowMs) + 1), -1);
  const window = resolveWindow(p.start, p.end, tz, { lastHour: localDayStartHour(tz, addDays(lastDay, 1)) - 1, days: DEFAULT_WINDOW_DAYS });
  const days = daysIn(tz, window, ACTUAL_HISTORY_START, lastDay);
  if (days.length === 0) {
    noDays(
      p,
      window,
      localDayStartHour(tz, ACTUAL_HISTORY_START),
      'no actuals in the requested window: daily actuals exist from 2023-01-01 through the last complete day',
    );
  }
  const rows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(tz, d)), created: days.map(() => Number.NaN) };
  return frameOf(group, null, null, rows, group.source(rows, null));
}

/** Whole days from a run's own local day to `day` (0 = the run's day). */
export function leadDaysOf(timezone: string, createdHour: number, day: CivilDate): number {
  return daysBetween(localDateOfHour(timezone, createdHour), day);
}

/** The request kinds of a daily target group, given how to make its series group from a request. */
export function dailyQueriesFor<R, T>(groupOf: (world: WeatherWorld, request: R) => DailySeriesGroup<T>) {
  return {
    forecast: (world: WeatherWorld, r: R & ForecastParams) => dailyForecastFrame(groupOf(world, r), r),
    continuous: (world: WeatherWorld, r: R & ContinuousParams) => dailyContinuousFrame(groupOf(world, r), r),
    actual: (world: WeatherWorld, r: R & WindowParams) => dailyActualFrame(groupOf(world, r), r),
    backcast: (world: WeatherWorld, r: R & WindowParams) => dailyBackcastFrame(groupOf(world, r), r),
  };
}
