/**
 * Inputs of the realism audit (audit.ts) gathered through the query layer, as the API would
 * serve them, over any set of local days: the series `npm run realism` prints, and the sample
 * test/realism.test.ts checks against the bands. Importing this loads the query layer: the
 * realism script imports it only after it has set GRIDCAST_CACHE_MB.
 */
import { ISOS, type IsoCode } from '../../src/catalog/isos.ts';
import { capacityInOperation, plantsOf } from '../../src/catalog/plants.ts';
import { priceNodesOf, type PriceNode } from '../../src/catalog/priceNodes.ts';
import { FORECAST_HISTORY_START } from '../../src/query/kinds.ts';
import type { ForecastModelName } from '../../src/models/forecastModels.ts';
import { QueryError } from '../../src/query/errors.ts';
import { scoringOf, skillRecords, type SkillRecord } from '../../src/query/skill.ts';
import type { Frame } from '../../src/query/frame.ts';
import { lmpQueries, lmpSource } from '../../src/query/lmp.ts';
import { regionQueries, type RegionMetric } from '../../src/query/regions.ts';
import type { RequestInstant } from '../../src/query/window.ts';
import { HOUR_MS } from '../../src/time/hours.ts';
import {
  addDays,
  compareDates,
  daysBetween,
  formatDate,
  localDayStartHour,
  localWallHourToEpochHour,
  type CivilDate,
} from '../../src/time/zones.ts';
import type { WeatherWorld } from '../../src/world/weather/world.ts';
import { auditIso, type HourlySeries, type PriceTruth } from './audit.ts';
import { MAIN_NODE } from './targets.ts';

/** Zones reported for an ISO that has no hubs (an ISO not listed here: all its zones). */
const PRICE_ZONES: Partial<Record<IsoCode, readonly string[]>> = { nyiso: ['WEST', 'CAPITL', 'N.Y.C.', 'LONGIL'] };

/** The price nodes reported for an ISO: its hubs; without hubs, PRICE_ZONES or else all its zones. */
export function reportedNodes(iso: IsoCode): PriceNode[] {
  const nodes = priceNodesOf(iso);
  const hubs = nodes.filter((n) => n.node_type === 'hub');
  if (hubs.length) return hubs;
  const zones = nodes.filter((n) => n.node_type === 'zone');
  const picked = (PRICE_ZONES[iso] ?? []).map((id) => zones.find((n) => n.id === id)).filter((n): n is PriceNode => n !== undefined);
  return picked.length ? picked : zones;
}

/** Splits sorted days into runs of consecutive days, each at most `maxDays` long. */
export function consecutiveRuns(days: readonly CivilDate[], maxDays: number): [CivilDate, CivilDate][] {
  const out: [CivilDate, CivilDate][] = [];
  for (let i = 0; i < days.length;) {
    let j = i;
    while (j + 1 < days.length && daysBetween(days[j], days[j + 1]) === 1 && j + 1 - i < maxDays) j++;
    out.push([days[i], days[j]]);
    i = j + 1;
  }
  return out;
}

export function dayInstant(d: CivilDate): RequestInstant {
  return { epochMs: Date.UTC(d.year, d.month - 1, d.day), dateOnly: true, raw: formatDate(d) };
}

/** Continuous parameters of the optimized model at latest_hour 10 (the defaults) and a lead, over days a..b. */
function optimizedContinuous(lead: number, a: CivilDate, b: CivilDate, nowMs: number) {
  return { model: 'optimized' as const, daysAhead: lead, latestHour: 10, start: dayInstant(a), end: dayInstant(b), nowMs };
}

/** `forecasted_by` at a local wall hour of a day, as a request would send it. */
export function forecastedByLocal(timezone: string, day: CivilDate, hour: number): RequestInstant {
  const epochMs = localWallHourToEpochHour(timezone, day, hour) * HOUR_MS;
  return { epochMs, dateOnly: false, raw: new Date(epochMs).toISOString() };
}

/** The first column of a frame (the one column asked for). */
function firstColumn(frame: Frame): Float64Array {
  const out = new Float64Array(frame.hours.length);
  frame.columns[0].fill(out);
  return out;
}

/** Operating capacity (MW) of an ISO's wind or solar plants at an epoch hour. */
export function capacityAt(iso: IsoCode, type: 'wind' | 'solar'): (hour: number) => number {
  return capacityInOperation(plantsOf(iso, type));
}

/** Truth of rtlmp and dalmp at the reported nodes over every hour of the days. */
export function priceTruth(world: WeatherWorld, iso: IsoCode, days: readonly CivilDate[], chunkDays = 31): PriceTruth {
  const tz = ISOS[iso].timezone;
  const nodes = reportedNodes(iso);
  const hours: number[] = [];
  const rt: number[][] = nodes.map(() => []);
  const da: number[][] = nodes.map(() => []);
  for (const [a, b] of consecutiveRuns(days, chunkDays)) {
    const valid: number[] = [];
    for (let h = localDayStartHour(tz, a); h < localDayStartHour(tz, addDays(b, 1)); h++) valid.push(h);
    const rows = { valid, created: valid.map(() => Number.NaN) };
    const rtOf = lmpSource(world, iso, 'rtlmp', rows, null);
    const daOf = lmpSource(world, iso, 'dalmp', rows, null);
    nodes.forEach((node, j) => {
      rt[j].push(...rtOf(node));
      da[j].push(...daOf(node));
    });
    hours.push(...valid);
  }
  return { hours, nodes: nodes.map((n) => n.id), rt: rt.map((v) => Float64Array.from(v)), da: da.map((v) => Float64Array.from(v)) };
}

/**
 * MAPE (%) of the DA price forecasts (dalmp continuous, optimized, latest_hour 10) at the ISO's
 * MAIN_NODE against the clearing, per days_ahead, on the days from the start of forecast history;
 * hours whose clearing is within $5 of zero are left out (a percentage error means nothing there).
 */
export function daForecastMape(
  world: WeatherWorld,
  iso: IsoCode,
  days: readonly CivilDate[],
  clearing: ReadonlyMap<number, number>,
  nowMs: number,
  leads: readonly number[] = [1, 3, 7],
): Map<number, { mape: number; hours: number }> {
  const forecastDays = days.filter((d) => compareDates(d, FORECAST_HISTORY_START) >= 0);
  const out = new Map<number, { mape: number; hours: number }>();
  for (const lead of leads) {
    let sum = 0;
    let n = 0;
    for (const [a, b] of consecutiveRuns(forecastDays, 92)) {
      const frame = lmpQueries.continuous(world, { iso, type: 'dalmp', id: MAIN_NODE[iso], ...optimizedContinuous(lead, a, b, nowMs) });
      const values = firstColumn(frame);
      for (let i = 0; i < values.length; i++) {
        const actual = clearing.get(frame.hours[i]);
        if (actual === undefined || !(Math.abs(actual) >= 5)) continue;
        sum += Math.abs(values[i] - actual) / Math.abs(actual);
        n++;
      }
    }
    out.set(lead, { mape: n ? (100 * sum) / n : Number.NaN, hours: n });
  }
  return out;
}

/** Actuals of `<iso>_total` for a metric over the days (hourly; outage: one row per day). */
export function seriesOf(world: WeatherWorld, iso: IsoCode, metric: RegionMetric, days: readonly CivilDate[], nowMs: number): HourlySeries {
  const hours: number[] = [];
  const values: number[] = [];
  for (const [a, b] of consecutiveRuns(days, 92)) {
    const frame = regionQueries.actual(world, { iso, metric, id: `${iso}_total`, start: dayInstant(a), end: dayInstant(b), nowMs });
    hours.push(...Array.from(frame.hours));
    values.push(...firstColumn(frame));
  }
  return { hours, values };
}

/**
 * Demand MAPE (%) of the optimized model's continuous series at the given leads and of `normal`
 * the day before (its continuous series at days_ahead 1: the run made at or before 10:00 of D − 1),
 * by the API's skill code.
 */
export function demandMape(world: WeatherWorld, iso: IsoCode, days: readonly CivilDate[], truth: HourlySeries, nowMs: number) {
  const mapeByLead = (model: ForecastModelName, leads: readonly number[]) =>
    new Map([...skillByLead(world, iso, 'demand', model, days, leads, truth, nowMs)].map(([lead, r]) => [lead, r.mape ?? Number.NaN]));
  return new Map([
    ['optimized', mapeByLead('optimized', [1, 7, 10, 14])],
    ['normal', mapeByLead('normal', [1])],
  ]);
}

/**
 * Every audit figure an ISO gives over a set of local days (forecast figures from the days in
 * forecast history); demand forecasts, cheap and noisy, may be scored on more days.
 */
export function sampleAudit(
  world: WeatherWorld,
  iso: IsoCode,
  days: readonly CivilDate[],
  nowMs: number,
  demandForecastDays: readonly CivilDate[] = days,
): Map<string, number> {
  const series = (metric: RegionMetric) => seriesOf(world, iso, metric, days, nowMs);
  const demand = series('demand');
  const prices = priceTruth(world, iso, days);
  const main = prices.nodes.indexOf(MAIN_NODE[iso]);
  const clearing = new Map(prices.hours.map((h, i) => [h, prices.da[main][i]]));
  const da = daForecastMape(world, iso, days, clearing, nowMs);
  return auditIso({
    iso,
    timezone: ISOS[iso].timezone,
    demand,
    wind: series('wind'),
    solar: series('solar'),
    poptemp: series('poptemp'),
    outage: series('outage'),
    windCapacityAt: capacityAt(iso, 'wind'),
    demandMape: demandMape(world, iso, demandForecastDays, seriesOf(world, iso, 'demand', demandForecastDays, nowMs), nowMs),
    prices,
    daForecastMape: new Map([...da].map(([lead, s]) => [lead, s.mape])),
  });
}

/**
 * The skill records (src/query/skill.ts, the code of the API's /skill) of `model` for `<iso>_total`
 * by lead day, over the days in forecast history: the continuous series at each lead (latest_hour
 * 10) against the actuals `truth`, joined over chunks of consecutive days. A lead no run reaches
 * (or a model without continuous series for the metric) gets n = 0.
 */
export function skillByLead(
  world: WeatherWorld,
  iso: IsoCode,
  metric: RegionMetric,
  model: ForecastModelName,
  days: readonly CivilDate[],
  leads: readonly number[],
  truth: HourlySeries,
  nowMs: number,
): Map<number, SkillRecord> {
  const forecastDays = days.filter((d) => compareDates(d, FORECAST_HISTORY_START) >= 0);
  const forecasts = leads.map((daysAhead) => {
    const hours: number[] = [];
    const values: number[] = [];
    for (const [a, b] of consecutiveRuns(forecastDays, 92)) {
      let frame: Frame;
      try {
        frame = regionQueries.continuous(world, {
          iso,
          metric,
          id: `${iso}_total`,
          model,
          daysAhead,
          latestHour: 10,
          start: dayInstant(a),
          end: dayInstant(b),
          nowMs,
        });
      } catch (e) {
        // A chunk no run serves yet (after now) has no rows to score.
        if (e instanceof QueryError) continue;
        throw e;
      }
      hours.push(...Array.from(frame.hours));
      values.push(...firstColumn(frame));
    }
    return { model, daysAhead, hours, values: Float64Array.from(values) };
  });
  const records = skillRecords({
    timezone: ISOS[iso].timezone,
    actual: { hours: truth.hours, values: Float64Array.from(truth.values) },
    forecasts,
    capacityAt: metric === 'wind' || metric === 'solar' ? capacityAt(iso, metric) : undefined,
    ...scoringOf(metric),
    by: 'lead_day',
  });
  return new Map(records.map((r) => [r.days_ahead!, r]));
}
