/** The region group: /region/{iso}/{metric}/… (access level: core; backcast: enterprise). */
import { regionVintages } from '../../query/regions.ts';
import { describeMetrics, describeUnits, GROUP_KINDS, metricsOf } from '../../catalog/metrics.ts';
import { REGION_METRICS, regionList, regionQueries, regionStored, type RegionMetric } from '../../query/regions.ts';
import type { ParamSpec } from '../params.ts';
import { isoSummary, summaryDays } from '../../query/summary.ts';
import type { Frame } from '../../query/frame.ts';
import { QueryError } from '../../query/errors.ts';
import type { RequestInstant } from '../../query/window.ts';
import { formatUtcHour, HOUR_MS } from '../../time/hours.ts';
import { actualSourceOf } from '../actualTruth.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import { ISO_PARAM, REGION_FORECAST_MODEL_PARAM, requestInstant } from './common.ts';
import { ensembleRoute } from './ensemble.ts';
import { isoMetricTarget, readerOf, timeseriesRoutes, type GroupRoutesSpec } from './timeseries.ts';
import { skillRoute, type SkillGroupSpec } from './skill.ts';
import { FORECAST_MODEL_NAMES } from '../../models/forecastModels.ts';
import { ISOS, type IsoCode } from '../../catalog/isos.ts';
import { capacityInOperation } from '../../catalog/plants.ts';
import { regionPlants } from '../../catalog/regions.ts';
import type { TargetRequest } from '../../query/kinds.ts';

const METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: REGION_METRICS,
  required: true,
  description: `Forecast metric type: ${describeMetrics(REGION_METRICS)}. Wind and solar are the sums of the region's plants.`,
};

const regionSeries: GroupRoutesSpec<TargetRequest<RegionMetric>> = {
  segment: 'region',
  tag: 'regions',
  level: 'core',
  pathParams: [ISO_PARAM, METRIC_PARAM],
  target: isoMetricTarget,
  queries: regionQueries,
  vintages: regionVintages,
  stored: regionStored,
  kinds: GROUP_KINDS.region,
  forecastSummary: 'Get Regional Forecast',
  forecastModelParam: REGION_FORECAST_MODEL_PARAM,
};

/** Regions' skill: the ISO total unless `id` names a zone; wind and solar also as % of the region's plants' capacity. */
const regionSkill: SkillGroupSpec<TargetRequest<RegionMetric>> = {
  models: FORECAST_MODEL_NAMES,
  baseline: 'normal',
  timezone: (r) => ISOS[r.iso].timezone,
  single: (r) => ({ ...r, id: r.id ?? `${r.iso}_total` }),
  metric: (r) => r.metric,
  capacityAt: (r) => (r.metric === 'wind' || r.metric === 'solar' ? capacityInOperation(regionPlants(r.iso, r.metric, r.id!)) : undefined),
  storedKey: (r) => ({ group: 'region', iso: r.iso, metric: r.metric }),
  ensemble: { level: ensembleRoute.level, target: (r) => ({ iso: r.iso, metric: r.metric, id: r.id! }) },
};

export const regionRoutes: RouteDef[] = [
  {
    path: '/region/{iso}/{metric}/list',
    name: 'list_regions',
    catalog: true,
    summary: 'List Regions',
    description: 'The ISO total (`<iso>_total`) and its zones (`<iso>_<zone>`).',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM],
    response: { kind: 'records', schema: 'Region' },
    handle: ({ params }) => regionList(params.iso as IsoCode),
  },
  ...timeseriesRoutes(regionSeries),
  skillRoute(regionSeries, regionSkill),
  ensembleRoute,
];

const AS_OF_PARAM: ParamSpec = {
  name: 'as_of',
  in: 'query',
  kind: 'datetime',
  description:
    'The summary as it stood at this instant (a datetime without an offset is UTC). Default: now. Actuals exist from ' +
    '2023-01-01 and forecasts from the runs of 2025-12-31: columns outside their history are null, and an as_of with no ' +
    'data at all is a 422.',
};

/** `/region/{iso}/summary`: every region and metric, forecast and actual, in one response. */
export const summaryRoute: RouteDef = {
  path: '/region/{iso}/summary',
  name: 'summary',
  summary: 'Get ISO Summary',
  description:
    'Every region and metric of the ISO, forecast and actual, as they stood at as_of: hours from local midnight two days ' +
    'before as_of through the seventh day after; columns [region_id, metric, "forecast" | "actual"]; actuals up to the ' +
    "last hour published at as_of, forecasts from the latest optimized run at as_of; outage (daily) repeats its day's " +
    'value on each hour. Then [node_id, "dalmp", "forecast" | "actual"] for the ISO\'s trading hubs (its zones where it has ' +
    'none): the day-ahead LMP forecast of the same run, and the day-ahead market prices of the days cleared by as_of (as ' +
    '/lmp/{iso}/dalmp/actual publishes them: the day before, at 11:00 (NYISO) to 14:00 (SPP) local time). units is ' +
    `"mixed": ${describeUnits(metricsOf('summary'))}.`,
  tag: 'regions',
  level: 'core',
  params: [ISO_PARAM, AS_OF_PARAM],
  response: { kind: 'timeseries' },
  actualsOfIso: true,
  handle: async (ctx) => {
    const iso = ctx.params.iso as IsoCode;
    const asOf = requestInstant(ctx.params.as_of, ctx.raw.as_of);
    return isoSummary(ctx.world, iso, asOf, ctx.nowMs, await configuredActuals(ctx, iso, asOf));
  },
};

/**
 * The actuals of the ISO's metrics whose truth is a stored source (GRIDCAST_ACTUAL_SOURCE) over the
 * summary's days, as published at as_of: what /actual?source= serves. A source without actuals of
 * a metric there (not held, none published yet) gives null columns, as hours outside the world's
 * history do.
 */
async function configuredActuals(ctx: RouteContext, iso: IsoCode, asOfParam: RequestInstant | undefined) {
  const { asOf, dayStart, end } = summaryDays(iso, asOfParam, ctx.nowMs);
  const instant = (hour: number): RequestInstant => ({ epochMs: hour * HOUR_MS, dateOnly: false, raw: formatUtcHour(hour) });
  const frames = new Map<RegionMetric, Frame | undefined>();
  for (const metric of REGION_METRICS) {
    const source = actualSourceOf(iso, metric);
    if (source === undefined) continue;
    const request = { iso, metric, start: instant(dayStart[0]), end: instant(end - 1), nowMs: ctx.nowMs, asOfMs: asOf };
    try {
      frames.set(metric, await regionStored.actual(ctx.world, readerOf(ctx), source, request));
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      frames.set(metric, undefined);
    }
  }
  return frames;
}
