/** The LMP group: /lmp/{iso}/{type}/list|forecast|continuous|actual|runs|vintages (access level: core). */
import { lmpVintages } from '../../query/lmp.ts';
import { describeMetrics, GROUP_KINDS } from '../../catalog/metrics.ts';
import {
  describeLmpPublication,
  LMP_TYPES,
  lmpNodeList,
  lmpQueries,
  lmpStored,
  storedLmpNodeList,
  type LmpRequest,
  type LmpType,
} from '../../query/lmp.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { ISO_PARAM } from './common.ts';
import { listSourceParam, timeseriesRoutes, type GroupRoutesSpec } from './timeseries.ts';
import { skillRoute, type SkillGroupSpec } from './skill.ts';
import { ISOS, type IsoCode } from '../../catalog/isos.ts';
import { priceNodesOf } from '../../catalog/priceNodes.ts';
import { CONTINUOUS_MODEL_NAMES } from '../../models/forecastModels.ts';

const PUBLICATION = describeLmpPublication();

const TYPE_PARAM: ParamSpec = {
  name: 'type',
  in: 'path',
  kind: 'enum',
  values: LMP_TYPES,
  required: true,
  description: `LMP market type: ${describeMetrics(LMP_TYPES)}.`,
};

const lmpSeries: GroupRoutesSpec<LmpRequest> = {
  segment: 'lmp',
  tag: 'lmp',
  level: 'core',
  pathParams: [ISO_PARAM, TYPE_PARAM],
  target: ({ params }) => ({ iso: params.iso as IsoCode, type: params.type as LmpType, id: params.id as string | undefined }),
  queries: lmpQueries,
  vintages: lmpVintages,
  stored: lmpStored,
  kinds: GROUP_KINDS.lmp,
  forecastSummary: 'Get LMP Forecast',
  actualSummary: 'Get LMP Actuals',
  actualDescription:
    "Realised prices, from 2023-01-01 up to the last published: for dalmp the day-ahead market's cleared prices, each " +
    `local day published the day before (${PUBLICATION.dayAhead}), so tomorrow's prices appear in the afternoon; for ` +
    `rtlmp the real-time prices, an hour published ${PUBLICATION.realTime} after it ends. Real-time prices spike in ` +
    'tight hours and go negative where wind and solar exceed what can leave a zone; forecasts are expectations and do ' +
    'not. The dalmp values are those of the ISO summary\'s "actual" columns. `model` and `created_at` are null.',
  note:
    'Hourly prices in USD/MWh (hour beginning), from a merit order over the forecast net load, outages and gas prices; ' +
    'dalmp includes the small day-ahead premium over expected real-time prices.',
};

/**
 * LMP skill: one node (`id`, default the ISO's first trading hub, the first node /list gives)
 * against its realised prices; no climatology, no capacity; MAPE with the price rule.
 */
const lmpSkill: SkillGroupSpec<LmpRequest> = {
  models: CONTINUOUS_MODEL_NAMES,
  timezone: (r) => ISOS[r.iso].timezone,
  single: (r) => ({ ...r, id: r.id ?? priceNodesOf(r.iso)[0].id }),
  metric: (r) => r.type,
  storedKey: (r) => ({ group: 'lmp', iso: r.iso, metric: r.type }),
};

export const lmpRoutes: RouteDef[] = [
  {
    path: '/lmp/{iso}/{type}/list',
    name: 'list_lmp_nodes',
    catalog: true,
    summary: 'List LMP Nodes',
    description:
      "The ISO's pricing nodes: trading hubs, load zones and generated load and generator nodes (node_type hub | zone | node); " +
      'with source, the nodes a stored source holds.',
    tag: 'lmp',
    level: 'core',
    params: [ISO_PARAM, TYPE_PARAM, listSourceParam('price nodes')],
    response: { kind: 'records', schema: 'LmpNode' },
    handle: ({ params, sources }) =>
      params.source === undefined
        ? lmpNodeList(params.iso as IsoCode)
        : storedLmpNodeList(sources!, params.source as string, params.iso as IsoCode, params.type as LmpType),
  },
  ...timeseriesRoutes(lmpSeries),
  skillRoute(lmpSeries, lmpSkill),
];
