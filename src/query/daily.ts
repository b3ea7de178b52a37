/**
 * Daily series (outages): one row per local day of the ISO, labelled with the day's first
 * instant (day-beginning, local midnight). The request kinds follow the hourly ones:
 * - continuous: day D takes the latest run created at or before (D − days_ahead) at
 *   latest_hour:00 local;
 * - forecast: one run, the days from the run's own local day to its horizon;
 * - actual: days that have ended (plus the publication lag), from 2023-01-01;
 * - backcast: continuous with days_ahead 1, latest_hour 10, optimized, from 2023-01-01.
 */
import { FORECAST_MODELS, type ForecastModel, type ForecastModelName } from '../models/forecastModels.ts';
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
  type Actuals,
  type ContinuousParams,
  type ForecastParams,
  type Forecasts,
  type WindowParams,
} from './kinds.ts';
import type { StitchedRows } from './continuous.ts';
import { HOUR_MS } from '../time/hours.ts';
import { lastActualHour } from './runs.ts';
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

/**
 * A synthetic model's forecasts of a daily group, as the request kinds see forecasts (kinds.ts
 * Forecasts): a daily frame's rows are its days' first hours, each with its run.
 */
export function modelDailyForecasts<T>(group: DailySeriesGroup<T>, name: ForecastModelName): Forecasts<T> {
  const model = FORECAST_MODELS[name];
  const tz = group.timezone;
  return {
    name,
    runs: modelSchedule(model),
    values: (rows) => group.source(dailyRowsOf(tz, rows), model),
    historyStart: FORECAST_HISTORY_START,
    firstRunHour: localDayStartHour(tz, addDays(FORECAST_HISTORY_START, -1)),
    noRunMessage: 'no forecast run at or before forecasted_by: forecast history begins with the runs of 2025-12-31 (for 2026-01-01)',
  };
}

/** The days of rows whose hours are days' first hours. */
function dailyRowsOf(timezone: string, rows: StitchedRows): DailyRows {
  return { days: rows.valid.map((h) => localDateOfHour(timezone, h)), dayStart: rows.valid, created: rows.created };
}

/** The rows of days as forecasts read them: each day's first hour and its run. */
const stitchedOf = (rows: DailyRows): StitchedRows => ({ valid: rows.dayStart, created: rows.created });

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
  historyStart?: CivilDate,
  kind = 'continuous forecasts',
  forecasts: Forecasts<T> = modelDailyForecasts(group, p.model),
): Frame {
  const tz = group.timezone;
  historyStart ??= forecasts.historyStart;
  const stitch: StitchOptions = { timezone: tz, runs: forecasts.runs, latestHour: p.latestHour, daysAhead: p.daysAhead };
  const stitchable = lastStitchableDay(stitch, p.nowMs);
  // A stored source's data ends with its last valid day; a model's never does.
  const lastDay =
    forecasts.lastValidHour === undefined || compareDates(stitchable, localDateOfHour(tz, forecasts.lastValidHour)) <= 0
      ? stitchable
      : localDateOfHour(tz, forecasts.lastValidHour);
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
  forecasts.prepare?.(stitchedOf(rows));
  return frameOf(group, forecasts.name, null, rows, forecasts.values(stitchedOf(rows)));
}

export function dailyBackcastFrame<T>(group: DailySeriesGroup<T>, p: WindowParams): Frame {
  return dailyContinuousFrame(
    group,
    { ...p, model: 'optimized', latestHour: 10, daysAhead: 1 },
    ACTUAL_HISTORY_START,
    'day-ahead backcasts',
  );
}

/** One run: the days from the local day of its first valid hour (a model's: its own day) to its horizon. */
export function dailyForecastFrame<T>(
  group: DailySeriesGroup<T>,
  p: ForecastParams,
  forecasts: Forecasts<T> = modelDailyForecasts(group, p.model),
): Frame {
  const tz = group.timezone;
  const asOf = Math.min(p.forecastedBy?.epochMs ?? p.nowMs, p.nowMs);
  const created = forecasts.runs.latestAtOrBefore(asOf / HOUR_MS);
  if (!(created >= forecasts.firstRunHour)) throw queryValueError('forecasted_by', p.forecastedBy?.raw ?? null, forecasts.noRunMessage);
  const { first, end } = forecasts.runs.span(created);
  const days: CivilDate[] = [];
  for (let d = localDateOfHour(tz, first); localDayStartHour(tz, d) < end; d = addDays(d, 1)) days.push(d);
  const rows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(tz, d)), created: days.map(() => created) };
  forecasts.prepare?.(stitchedOf(rows));
  return frameOf(group, forecasts.name, created, rows, forecasts.values(stitchedOf(rows)));
}

/**
 * The synthetic world's daily truth: days that have ended (a day's actual is published once its
 * last hour is), from 2023-01-01; Actuals' hours are the days' first hours.
 */
function worldDailyActuals<T>(group: DailySeriesGroup<T>, nowMs: number): Actuals<T> {
  const tz = group.timezone;
  const lastDay = addDays(localDateOfHour(tz, lastActualHour(nowMs) + 1), -1);
  return {
    firstHour: localDayStartHour(tz, ACTUAL_HISTORY_START),
    lastHour: localDayStartHour(tz, lastDay),
    values: (rows) => group.source(dailyRowsOf(tz, rows), null),
    noDataMessage: 'no actuals in the requested window: daily actuals exist from 2023-01-01 through the last complete day',
  };
}

/** Actuals of the days in the window, from the day of `actuals.firstHour` through that of its `lastHour`. */
export function dailyActualFrame<T>(
  group: DailySeriesGroup<T>,
  p: WindowParams,
  actuals: Actuals<T> = worldDailyActuals(group, p.nowMs),
): Frame {
  const tz = group.timezone;
  const firstDay = localDateOfHour(tz, actuals.firstHour);
  const lastDay = localDateOfHour(tz, actuals.lastHour);
  const window = resolveWindow(p.start, p.end, tz, { lastHour: localDayStartHour(tz, addDays(lastDay, 1)) - 1, days: DEFAULT_WINDOW_DAYS });
  const days = daysIn(tz, window, firstDay, lastDay);
  if (days.length === 0) noDays(p, window, localDayStartHour(tz, firstDay), actuals.noDataMessage);
  const rows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(tz, d)), created: days.map(() => Number.NaN) };
  actuals.prepare?.(stitchedOf(rows));
  return frameOf(group, null, null, rows, actuals.values(stitchedOf(rows)));
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
