/**
 * The gas group: /gas/list|forecast|continuous|backcast. Gas is not tied to one ISO: a
 * subscription at the core level for any ISO grants it (backcast: enterprise for any ISO).
 */
import { GROUP_KINDS } from '../../catalog/metrics.ts';
import { gasHubList, gasQueries, gasStored, storedGasHubList } from '../../query/gas.ts';
import type { RouteDef } from '../route.ts';
import { listSourceParam, timeseriesRoutes, type GroupRoutesSpec } from './timeseries.ts';
import { skillRoute, type SkillGroupSpec } from './skill.ts';
import { CONTINUOUS_MODEL_NAMES } from '../../models/forecastModels.ts';
import { GAS_TIMEZONE } from '../../catalog/gasHubs.ts';

const gasSeries: GroupRoutesSpec<{ id?: string }> = {
  segment: 'gas',
  tag: 'gas',
  level: 'core',
  pathParams: [],
  target: ({ params }) => ({ id: params.id as string | undefined }),
  queries: gasQueries,
  stored: gasStored,
  kinds: GROUP_KINDS.gas,
  forecastSummary: 'Get Gas Price Forecast',
  continuousSummary: 'Get Continuous Gas Forecast',
  note:
    'Daily day-beginning prices in $/MMBtu, one row per gas day at midnight Central (America/Chicago); days run in ' +
    "Central time. Weekends and holidays repeat the last business day's print. Access: any subscription for any ISO.",
};

/** Gas skill: one hub (default Henry Hub), by gas day; no climatology, no capacity. */
const gasSkill: SkillGroupSpec<{ id?: string }> = {
  models: CONTINUOUS_MODEL_NAMES,
  timezone: () => GAS_TIMEZONE,
  single: (r) => ({ ...r, id: r.id ?? 'henry_hub' }),
  metric: () => 'gas_price',
};

export const gasRoutes: RouteDef[] = [
  {
    path: '/gas/list',
    name: 'list_gas_hubs',
    catalog: true,
    summary: 'List Gas Hubs',
    description:
      "The natural gas trading hubs: id, name, timezone (America/Chicago, the gas day's clock) and point (GeoJSON Point, " +
      'approximate hub location); with source, the hubs a stored source holds.',
    tag: 'gas',
    level: 'core',
    params: [listSourceParam('gas hubs')],
    response: { kind: 'records', schema: 'GasHub' },
    handle: ({ params, sources }) => (params.source === undefined ? gasHubList() : storedGasHubList(sources!, params.source as string)),
  },
  ...timeseriesRoutes(gasSeries),
  skillRoute(gasSeries, gasSkill),
];
