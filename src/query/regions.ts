/**
 * The region group: `<iso>_total` and the ISO's zones. Regional wind and solar are the
 * sums of the plants in the region — for truth and for every model and run — and an ISO
 * total is the sum of its zones, so aggregates always add up. Demand and population-
 * weighted temperature come from the weather at each region's load centres
 * (src/world/demand.ts); total demand is the sum of the zones' demand.
 */
import { vintageQueriesFor } from './vintages.ts';
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { METRICS, metricsOf, unitOf, type MetricsOf } from '../catalog/metrics.ts';
import { plantsByZone, populationShare, regionById, regionsOf, zoneRegionsOf, type Region } from '../catalog/regions.ts';
import { beyondHorizon, type ForecastModel } from '../models/forecastModels.ts';
import { RegionWeatherComputer } from '../world/demand.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import type { StitchedRows } from './continuous.ts';
import { QueryError, queryValueError } from './errors.ts';
import {
  eachLead,
  queriesFor,
  type ContinuousParams,
  type ForecastParams,
  type GroupQueries,
  type SeriesGroup,
  type TargetRequest,
  type WindowParams,
} from './kinds.ts';
import {
  dailyActualFrame,
  dailyBackcastFrame,
  dailyContinuousFrame,
  dailyForecastFrame,
  leadDaysOf,
  type DailyRows,
  type DailySeriesGroup,
} from './daily.ts';
import { outageForecastMw, outageTruthMw, zoneOutageMw, type OutageModelName } from '../world/outage.ts';
import { addDays, localDayStartHour } from '../time/zones.ts';
import { plantSums, regionLoadSource } from './aggregates.ts';
import { storedDailyQueriesFor, storedQueriesFor } from './stored.ts';

export const REGION_METRICS = metricsOf('region');
export type RegionMetric = MetricsOf<'region'>;
/** The hourly metrics; outage is daily (one row per local day, at local midnight). */
export type HourlyRegionMetric = Exclude<RegionMetric, 'outage'>;

/** The public region record (reference isoview-api.md §2). */
export function regionList(iso: IsoCode): Record<string, unknown>[] {
  return regionsOf(iso).map((r) => ({ id: r.id, name: r.name, region_type: r.region_type, iso: r.iso, timezone: r.timezone }));
}

/** The region `id` of an ISO (the `id` query parameter of `metric`'s endpoints), or a 422 naming the list. */
export function regionOf(iso: IsoCode, metric: string, id: string): Region {
  const region = regionById(id.trim());
  if (!region || region.iso !== iso) {
    throw queryValueError('id', id, `unknown region id '${id}' in ${iso}; GET /v1/region/${iso}/${metric}/list lists them`);
  }
  return region;
}

function selectRegions(iso: IsoCode, metric: RegionMetric, id: string | undefined): readonly Region[] {
  return id === undefined ? regionsOf(iso) : [regionOf(iso, metric, id)];
}

/** Wind or solar of regions: a zone is the sum of its plants, the ISO total the sum of its zones. */
function plantSumSource(world: WeatherWorld, iso: IsoCode, metric: 'wind' | 'solar', rows: StitchedRows, model: ForecastModel | null) {
  const sumOf = plantSums(world, metric, rows, model);
  const byZone = plantsByZone(iso, metric);
  const zoneSums = new Map<string, Float64Array>();
  const zoneSum = (zoneId: string): Float64Array => {
    let sum = zoneSums.get(zoneId);
    if (!sum) {
      sum = sumOf(byZone.get(zoneId) ?? []);
      zoneSums.set(zoneId, sum);
    }
    return sum;
  };
  return (region: Region): Float64Array => {
    if (region.region_type === 'zone') return zoneSum(region.id);
    const total = new Float64Array(rows.valid.length);
    for (const zone of zoneRegionsOf(iso)) addInto(total, zoneSum(zone.id));
    return total;
  };
}

/** total += values, row by row (a function of its own: see aggregates.ts addPlants). */
function addInto(total: Float64Array, values: Float64Array): void {
  for (let i = 0; i < total.length; i++) total[i] += values[i];
}

export function regionGroup(world: WeatherWorld, { iso, metric, id }: TargetRequest<HourlyRegionMetric>): SeriesGroup<Region> {
  return {
    timezone: ISOS[iso].timezone,
    units: unitOf(metric),
    targets: selectRegions(iso, metric, id),
    label: (region) => [region.id],
    source: (rows, model) =>
      metric === 'wind' || metric === 'solar'
        ? plantSumSource(world, iso, metric, rows, model)
        : regionLoadSource(world, metric, rows, model, ISOS[iso].timezone),
    // Climatology (`normal`) sees neither anomalies nor observations nor load noise, before or
    // after its run: every run has the same weather, demand and plant output at an hour.
    sameInEveryRun: (model) => model.skill.climatology === true,
  };
}

/**
 * Daily outages (planned + forced) of regions: the ISO's outage from the day's minimum and
 * maximum population-weighted temperature of the ISO total — truth, or as the run serving
 * the day saw it — shared among its zones by population (a proxy for thermal capacity).
 */
function outageSource(world: WeatherWorld, iso: IsoCode, rows: DailyRows, model: ForecastModel | null) {
  const tz = ISOS[iso].timezone;
  const valid: number[] = [];
  const created: number[] = [];
  const dayOf: number[] = [];
  rows.days.forEach((day, i) => {
    for (let h = rows.dayStart[i]; h < localDayStartHour(tz, addDays(day, 1)); h++) {
      valid.push(h);
      created.push(rows.created[i]);
      dayOf.push(i);
    }
  });
  const batch = new WeatherBatch(world, { valid, created: model ? created : null }, model?.skill ?? null, {});
  const poptemp = new Float64Array(valid.length);
  new RegionWeatherComputer(batch, valid, tz).poptemp(regionsOf(iso)[0], poptemp);
  const min = new Float64Array(rows.days.length).fill(Infinity);
  const max = new Float64Array(rows.days.length).fill(-Infinity);
  for (let k = 0; k < valid.length; k++) {
    min[dayOf[k]] = Math.min(min[dayOf[k]], poptemp[k]);
    max[dayOf[k]] = Math.max(max[dayOf[k]], poptemp[k]);
  }
  const total = rows.days.map((day, i) => {
    const input = { ...day, poptempMinC: min[i], poptempMaxC: max[i] };
    if (!model) return outageTruthMw(iso, input);
    if (beyondHorizon(model, rows.dayStart[i], rows.created[i])) return Number.NaN;
    const lead = Math.max(0, leadDaysOf(tz, rows.created[i], day));
    return outageForecastMw(iso, input, lead, model.name as OutageModelName, Math.floor(rows.created[i] / 24));
  });
  return (region: Region): Float64Array =>
    Float64Array.from(total, (t) => (region.region_type === 'iso' ? t : zoneOutageMw(t, populationShare(region))));
}

export function outageGroup(world: WeatherWorld, iso: IsoCode, id: string | undefined): DailySeriesGroup<Region> {
  return {
    timezone: ISOS[iso].timezone,
    units: unitOf('outage'),
    targets: selectRegions(iso, 'outage', id),
    label: (region) => [region.id],
    source: (rows, model) => outageSource(world, iso, rows, model),
  };
}

const hourly = queriesFor(regionGroup);
const isDaily = (r: { metric: RegionMetric }) => METRICS[r.metric].cadence === 'daily';

/** The request kinds of regions: hourly metrics, or the daily outage series. */
export const regionQueries: GroupQueries<TargetRequest<RegionMetric>> = {
  forecast: (world, r) =>
    isDaily(r)
      ? dailyForecastFrame(outageGroup(world, r.iso, r.id), r)
      : hourly.forecast(world, r as TargetRequest<HourlyRegionMetric> & ForecastParams),
  continuous: (world, r) =>
    isDaily(r)
      ? dailyContinuousFrame(outageGroup(world, r.iso, r.id), r)
      : hourly.continuous(world, r as TargetRequest<HourlyRegionMetric> & ContinuousParams),
  // The daily outage's leads are cheap: computed one by one (the route's fallback).
  continuousLeads: (world, r, leads) =>
    isDaily(r)
      ? eachLead(leads, (daysAhead) => dailyContinuousFrame(outageGroup(world, r.iso, r.id), { ...r, daysAhead }))
      : hourly.continuousLeads(world, r as TargetRequest<HourlyRegionMetric> & Omit<ContinuousParams, 'daysAhead'>, leads),
  actual: (world, r) =>
    isDaily(r)
      ? dailyActualFrame(outageGroup(world, r.iso, r.id), r)
      : hourly.actual(world, r as TargetRequest<HourlyRegionMetric> & WindowParams),
  backcast: (world, r) =>
    isDaily(r)
      ? dailyBackcastFrame(outageGroup(world, r.iso, r.id), r)
      : hourly.backcast(world, r as TargetRequest<HourlyRegionMetric> & WindowParams),
};

/** The hourly region group of a request, or a 422 for the daily outage (`what`: the requests refused). */
function hourlyRegionGroup(world: WeatherWorld, r: TargetRequest<RegionMetric>, what: string): SeriesGroup<Region> {
  if (isDaily(r)) {
    throw new QueryError([
      {
        type: 'value_error',
        loc: ['path', 'metric'],
        msg: `Value error, ${what} are served for the hourly metrics; outage is daily`,
        input: r.metric,
      },
    ]);
  }
  return regionGroup(world, r as TargetRequest<HourlyRegionMetric>);
}

/** Runs and vintages of the hourly metrics (outage is daily: its runs are those of its daily series). */
export const regionVintages = vintageQueriesFor((world: WeatherWorld, r: TargetRequest<RegionMetric>) =>
  hourlyRegionGroup(world, r, 'runs and vintages'),
);

const regionKey = (r: TargetRequest<RegionMetric>) => ({ group: 'region', iso: r.iso, metric: r.metric });

/** Regions' hourly metrics served from stored sources (runs and vintages refuse the daily outage, as for models). */
const hourlyStored = storedQueriesFor({
  group: (world: WeatherWorld, r: TargetRequest<RegionMetric>) => hourlyRegionGroup(world, r, 'runs and vintages'),
  key: regionKey,
  idOf: (region: Region) => region.id,
  id: (r) => r.id,
});

/** Regions' daily outage served from stored sources: one value per local day, as the synthetic series. */
const dailyStored = storedDailyQueriesFor({
  group: (world: WeatherWorld, r: TargetRequest<RegionMetric>) => outageGroup(world, r.iso, r.id),
  key: regionKey,
  idOf: (region: Region) => region.id,
  id: (r) => r.id,
});

/** Regions served from stored sources: the hourly metrics, or the daily outage series. */
export const regionStored: typeof hourlyStored = {
  ...hourlyStored,
  forecast: (world, reader, source, r) => (isDaily(r) ? dailyStored : hourlyStored).forecast(world, reader, source, r),
  continuous: (world, reader, source, r) => (isDaily(r) ? dailyStored : hourlyStored).continuous(world, reader, source, r),
  actual: (world, reader, source, r) => (isDaily(r) ? dailyStored : hourlyStored).actual(world, reader, source, r),
};
