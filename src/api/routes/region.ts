/** The region group: /region/{iso}/{metric}/… (access level: core; backcast: enterprise). */
import type { IsoCode } from '../../catalog/isos.ts';
import { REGION_METRICS, regionList, regionQueries, type RegionMetric } from '../../query/regions.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { ISO_PARAM } from './common.ts';
import { timeseriesRoutes } from './timeseries.ts';

const METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: REGION_METRICS,
  required: true,
  description:
    "Forecast metric type: demand (MW), wind or solar output (MW, the sum of the region's plants), outage " +
    '(planned + forced generation outages, MW, daily: one value per local day at local midnight), poptemp ' +
    '(population-weighted temperature, °C).',
};

export const regionRoutes: RouteDef[] = [
  {
    path: '/region/{iso}/{metric}/list',
    name: 'list_regions',
    summary: 'List Regions',
    description: 'The ISO total (`<iso>_total`) and its zones (`<iso>_<zone>`).',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM],
    response: { kind: 'records', schema: 'Region' },
    handle: ({ params }) => regionList(params.iso as IsoCode),
  },
  ...timeseriesRoutes<RegionMetric>({
    segment: 'region',
    tag: 'regions',
    level: 'core',
    metricParam: METRIC_PARAM,
    queries: regionQueries,
    kinds: ['forecast', 'continuous', 'actual', 'backcast'],
    forecastSummary: 'Get Regional Forecast',
  }),
];
