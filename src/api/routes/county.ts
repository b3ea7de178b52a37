/** The county group: /county/{iso}/… (demand only; access level: core). */
import { countyVintages } from '../../query/counties.ts';
import type { IsoCode } from '../../catalog/isos.ts';
import { GROUP_KINDS } from '../../catalog/metrics.ts';
import { countyList, countyQueries, type CountyRequest } from '../../query/counties.ts';
import type { RouteDef } from '../route.ts';
import { ISO_PARAM } from './common.ts';
import { timeseriesRoutes } from './timeseries.ts';

export const countyRoutes: RouteDef[] = [
  {
    path: '/county/{iso}/list',
    name: 'list_counties',
    catalog: true,
    summary: 'List Counties',
    description:
      'The member counties of the ISO: id (5-digit FIPS), name, state, iso, region_id (the zone it is counted in) and ' +
      'geojson (Census 2017 cartographic boundary). A county several balancing authorities serve belongs to the one ' +
      'serving most of its load.',
    tag: 'counties',
    level: 'core',
    params: [ISO_PARAM],
    response: { kind: 'records', schema: 'County' },
    handle: ({ params }) => countyList(params.iso as IsoCode),
  },
  ...timeseriesRoutes<CountyRequest>({
    segment: 'county',
    tag: 'counties',
    level: 'core',
    pathParams: [ISO_PARAM],
    target: ({ params }) => ({ iso: params.iso as IsoCode, id: params.id as string | undefined }),
    queries: countyQueries,
    vintages: countyVintages,
    kinds: GROUP_KINDS.county,
    forecastSummary: 'Get County Forecast',
    note: "County demand (MW) is the county's population share of its zone's demand; the counties of an ISO add up to its total.",
  }),
];
