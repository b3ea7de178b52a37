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
 * - `units` is "mixed": demand, wind, solar and outage in MW, poptemp in °C.
 */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { regionsOf, type Region } from '../catalog/regions.ts';
import { FORECAST_MODELS } from '../models/forecastModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import type { WeatherWorld } from '../world/weather.ts';
import type { StitchedRows } from './continuous.ts';
import type { DailyRows } from './daily.ts';
import { DECIMALS_BY_UNIT, type Frame } from './frame.ts';
import { lastActualHour, runAsOf } from './runs.ts';
import { outageGroup, regionGroup, REGION_METRICS, type HourlyRegionMetric } from './regions.ts';

export const SUMMARY_DAYS_BEFORE = 2;
export const SUMMARY_DAYS_AFTER = 7;
const MODEL = FORECAST_MODELS.optimized;

export function isoSummary(world: WeatherWorld, iso: IsoCode, asOfMs: number | undefined, nowMs: number): Frame {
  const tz = ISOS[iso].timezone;
  const asOf = Math.min(asOfMs ?? nowMs, nowMs);
  const firstDay = addDays(localDateOfHour(tz, Math.floor(asOf / HOUR_MS)), -SUMMARY_DAYS_BEFORE);
  const days: CivilDate[] = [];
  for (let i = 0; i <= SUMMARY_DAYS_BEFORE + SUMMARY_DAYS_AFTER; i++) days.push(addDays(firstDay, i));
  const dayStart = days.map((d) => localDayStartHour(tz, d));
  const end = localDayStartHour(tz, addDays(days[days.length - 1], 1));
  const hours: number[] = [];
  const dayIndex: number[] = [];
  for (let d = 0; d < days.length; d++) {
    for (let h = dayStart[d]; h < (d + 1 < days.length ? dayStart[d + 1] : end); h++) {
      hours.push(h);
      dayIndex.push(d);
    }
  }
  const created = runAsOf(MODEL, asOf, nowMs);
  const lastActual = lastActualHour(asOf);
  const forecastRows: StitchedRows = { valid: hours, created: hours.map(() => created) };
  const truthRows: StitchedRows = { valid: hours, created: hours.map(() => Number.NaN) };
  const dailyForecast: DailyRows = { days, dayStart, created: days.map(() => created) };
  const dailyTruth: DailyRows = { days, dayStart, created: days.map(() => Number.NaN) };
  // A day's actual is published once its last hour is.
  const lastCompleteDay = days.findLastIndex((_, d) => (d + 1 < days.length ? dayStart[d + 1] : end) - 1 <= lastActual);

  const regions = regionsOf(iso);
  type Source = (region: Region) => Float64Array;
  const sources = new Map<string, { forecast: Source; actual: Source }>();
  for (const metric of REGION_METRICS) {
    if (metric === 'outage') {
      const group = outageGroup(world, iso, undefined);
      const hourlyOf = (daily: Source): Source => (region) => {
        const perDay = daily(region);
        return Float64Array.from(hours, (_, i) => perDay[dayIndex[i]]);
      };
      const fc = group.source(dailyForecast, MODEL);
      const ac = group.source(dailyTruth, null);
      sources.set(metric, {
        forecast: hourlyOf((r) => fc(r).map((v, d) => (dayStart[d] + 24 <= created ? Number.NaN : v))),
        actual: hourlyOf((r) => ac(r).map((v, d) => (d <= lastCompleteDay ? v : Number.NaN))),
      });
    } else {
      const group = regionGroup(world, { iso, metric: metric as HourlyRegionMetric });
      const fc = group.source(forecastRows, MODEL);
      const ac = group.source(truthRows, null);
      sources.set(metric, {
        forecast: (r) => fc(r).map((v, i) => (hours[i] < created ? Number.NaN : v)),
        actual: (r) => ac(r).map((v, i) => (hours[i] <= lastActual ? v : Number.NaN)),
      });
    }
  }

  const columns = regions.flatMap((region) =>
    REGION_METRICS.flatMap((metric) =>
      (['forecast', 'actual'] as const).map((kind) => ({
        label: [region.id, metric, kind],
        fill: (out: Float64Array) => out.set(sources.get(metric)![kind](region)),
        decimals: DECIMALS_BY_UNIT[metric === 'poptemp' ? '°C' : 'MW'],
      })),
    ),
  );
  return { model: null, createdAtHour: null, units: 'mixed', timezone: tz, hours, decimals: 2, columns };
}
