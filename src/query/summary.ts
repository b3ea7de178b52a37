/**
 * The ISO summary: every region and metric of an ISO, forecast and actual, in one
 * response, as things stood at `as_of` (default now).
 *
 * - Rows: hours from local midnight two days before as_of's local day through the end of
 *   the seventh day after it (10 local days).
 * - Columns: `[region_id, metric, "forecast" | "actual"]` for each region (total first),
 *   each metric (demand, wind, solar, outage, poptemp).
 * - "actual": truth for the hours published at as_of (null after); "forecast": the latest
 *   optimized run created at or before as_of, for the hours from its creation (null before).
 * - Outage is daily: each hour carries its local day's value.
 * - Then `[node_id, "dalmp", "forecast" | "actual"]` for the ISO's trading hubs (zones where it
 *   has none): the day-ahead LMP forecast of the same run, and the day-ahead market's prices
 *   for the days cleared by as_of (published the day before at the ISO's time, lmp.ts).
 * - `units` is "mixed": demand, wind, solar and outage in MW, poptemp in °C, dalmp in USD/MWh.
 * - History follows the other kinds: actuals (and cleared day-ahead prices) only from local day
 *   2023-01-01, forecasts only from the first run of the forecast history (for 2026-01-01); a
 *   column outside its history is null, and an as_of with nothing at all is a 422.
 */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { regionsOf, type Region } from '../catalog/regions.ts';
import { FORECAST_MODELS } from '../models/forecastModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import { priceNodesOf } from '../catalog/priceNodes.ts';
import { dayAheadPublishedMs, lmpSource } from './lmp.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import type { StitchedRows } from './continuous.ts';
import type { DailyRows } from './daily.ts';
import { decimalsOf } from '../catalog/metrics.ts';
import type { Frame } from './frame.ts';
import { queryValueError } from './errors.ts';
import { ACTUAL_HISTORY_START, FORECAST_HISTORY_START } from './kinds.ts';
import { lastActualHour, runAsOf } from './runs.ts';
import type { RequestInstant } from './window.ts';
import { outageGroup, regionGroup, REGION_METRICS, type HourlyRegionMetric, type RegionMetric } from './regions.ts';

export const SUMMARY_DAYS_BEFORE = 2;
export const SUMMARY_DAYS_AFTER = 7;
const MODEL = FORECAST_MODELS.optimized;

/** The summary's instant (as_of, never after now) and its local days. */
export function summaryDays(iso: IsoCode, asOfParam: RequestInstant | undefined, nowMs: number) {
  const tz = ISOS[iso].timezone;
  const asOf = Math.min(asOfParam?.epochMs ?? nowMs, nowMs);
  const firstDay = addDays(localDateOfHour(tz, Math.floor(asOf / HOUR_MS)), -SUMMARY_DAYS_BEFORE);
  const days: CivilDate[] = [];
  for (let i = 0; i <= SUMMARY_DAYS_BEFORE + SUMMARY_DAYS_AFTER; i++) days.push(addDays(firstDay, i));
  const dayStart = days.map((d) => localDayStartHour(tz, d));
  const end = localDayStartHour(tz, addDays(days[days.length - 1], 1));
  return { asOf, days, dayStart, end };
}

/**
 * The ISO summary. `storedActuals`: for the metrics whose truth is a stored source
 * (GRIDCAST_ACTUAL_SOURCE), that source's actuals as published at as_of over the summary's days
 * (undefined: the source has none there); their "actual" columns come from it (null for a region
 * it does not hold) instead of the synthetic world.
 */
export function isoSummary(
  world: WeatherWorld,
  iso: IsoCode,
  asOfParam: RequestInstant | undefined,
  nowMs: number,
  storedActuals: ReadonlyMap<RegionMetric, Frame | undefined> = new Map(),
): Frame {
  const tz = ISOS[iso].timezone;
  const { asOf, days, dayStart, end } = summaryDays(iso, asOfParam, nowMs);
  const hours: number[] = [];
  const dayIndex: number[] = [];
  for (let d = 0; d < days.length; d++) {
    for (let h = dayStart[d]; h < (d + 1 < days.length ? dayStart[d + 1] : end); h++) {
      hours.push(h);
      dayIndex.push(d);
    }
  }
  const created = runAsOf(MODEL, asOf, nowMs);
  const firstActual = localDayStartHour(tz, ACTUAL_HISTORY_START);
  const lastActual = lastActualHour(asOf);
  const hasForecast = created >= localDayStartHour(tz, addDays(FORECAST_HISTORY_START, -1));
  if (!hasForecast && lastActual < firstActual) {
    throw queryValueError(
      'as_of',
      asOfParam?.raw ?? null,
      'no data at as_of: actuals exist from 2023-01-01 and forecasts from the runs of 2025-12-31 (for 2026-01-01)',
    );
  }
  /** Forecast values of hour `i` of the rows (null before the run's first hour, or with no run in history). */
  const forecastAt = (v: number, i: number) => (hasForecast && hours[i] >= created ? v : Number.NaN);
  const actualAt = (v: number, i: number) => (hours[i] >= firstActual && hours[i] <= lastActual ? v : Number.NaN);
  const forecastRows: StitchedRows = { valid: hours, created: hours.map(() => created) };
  const truthRows: StitchedRows = { valid: hours, created: hours.map(() => Number.NaN) };
  const dailyForecast: DailyRows = { days, dayStart, created: days.map(() => created) };
  const dailyTruth: DailyRows = { days, dayStart, created: days.map(() => Number.NaN) };
  // A day's actual is published once its last hour is.
  const lastCompleteDay = days.findLastIndex((_, d) => (d + 1 < days.length ? dayStart[d + 1] : end) - 1 <= lastActual);

  const regions = regionsOf(iso);
  type Source = (region: Region) => Float64Array;
  /** A stored source's actuals, on the summary's hours (a daily frame's day on each of its hours). */
  const storedSource = (frame: Frame | undefined, daily: boolean): Source => {
    const columns = new Map<string, Float64Array>();
    if (frame) {
      const rowOf = new Map(Array.from(frame.hours, (h, i) => [h, i]));
      for (const column of frame.columns) {
        const values = new Float64Array(frame.hours.length);
        column.fill(values);
        const at = (i: number) => rowOf.get(daily ? dayStart[dayIndex[i]] : hours[i]);
        columns.set(
          column.label[0],
          Float64Array.from(hours, (_, i) => {
            const row = at(i);
            return row === undefined ? Number.NaN : values[row];
          }),
        );
      }
    }
    return (region) => columns.get(region.id) ?? new Float64Array(hours.length).fill(Number.NaN);
  };
  const sources = new Map<string, { forecast: Source; actual: Source }>();
  for (const metric of REGION_METRICS) {
    if (metric === 'outage') {
      const group = outageGroup(world, iso, undefined);
      const hourlyOf =
        (daily: Source): Source =>
        (region) => {
          const perDay = daily(region);
          return Float64Array.from(hours, (_, i) => perDay[dayIndex[i]]);
        };
      const fc = group.source(dailyForecast, MODEL);
      const ac = group.source(dailyTruth, null);
      sources.set(metric, {
        forecast: hourlyOf((r) => fc(r).map((v, d) => (!hasForecast || dayStart[d] + 24 <= created ? Number.NaN : v))),
        actual: hourlyOf((r) => ac(r).map((v, d) => (d <= lastCompleteDay && dayStart[d] >= firstActual ? v : Number.NaN))),
      });
    } else {
      const group = regionGroup(world, { iso, metric: metric as HourlyRegionMetric });
      const fc = group.source(forecastRows, MODEL);
      const ac = group.source(truthRows, null);
      sources.set(metric, { forecast: (r) => fc(r).map(forecastAt), actual: (r) => ac(r).map(actualAt) });
    }
    if (storedActuals.has(metric)) sources.get(metric)!.actual = storedSource(storedActuals.get(metric), metric === 'outage');
  }

  const columns: Frame['columns'] = regions.flatMap((region) =>
    REGION_METRICS.flatMap((metric) =>
      (['forecast', 'actual'] as const).map((kind) => ({
        label: [region.id, metric, kind],
        fill: (out: Float64Array) => out.set(sources.get(metric)![kind](region)),
        decimals: decimalsOf(metric),
      })),
    ),
  );
  // Day-ahead LMPs of the ISO's trading hubs (its zones where it has no hubs, as NYISO): the
  // forecast of the run at as_of, and the day-ahead market's prices for the days it has
  // cleared by as_of (published the day before, at the ISO's time: lmp.ts LMP_PUBLICATION) —
  // the same numbers as /lmp/{iso}/dalmp/actual.
  const nodes = priceNodesOf(iso).filter((n) => n.node_type === 'hub');
  const lmpNodes = nodes.length > 0 ? nodes : priceNodesOf(iso).filter((n) => n.node_type === 'zone');
  const dalmpForecast = lmpSource(world, iso, 'dalmp', forecastRows, MODEL);
  const dalmpActual = lmpSource(world, iso, 'dalmp', truthRows, null);
  const cleared = days.map((d, i) => dayStart[i] >= firstActual && dayAheadPublishedMs(iso, d) <= asOf);
  for (const node of lmpNodes) {
    columns.push(
      {
        label: [node.id, 'dalmp', 'forecast'],
        fill: (out: Float64Array) => out.set(dalmpForecast(node).map(forecastAt)),
        decimals: decimalsOf('dalmp'),
      },
      {
        label: [node.id, 'dalmp', 'actual'],
        fill: (out: Float64Array) => out.set(dalmpActual(node).map((v, i) => (cleared[dayIndex[i]] ? v : Number.NaN))),
        decimals: decimalsOf('dalmp'),
      },
    );
  }
  return { model: null, createdAtHour: null, units: 'mixed', timezone: tz, hours, decimals: 2, columns };
}
