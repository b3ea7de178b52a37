/** The plant group: /plant/{iso}/{metric}/… (access level: advanced; backcast: enterprise). */
import { plantVintages } from '../../query/plants.ts';
import { describeMetrics, GROUP_KINDS } from '../../catalog/metrics.ts';
import { listPlants, plantQueries, plantStored, selectPlants, storedPlantList } from '../../query/plants.ts';
import { PLANT_METRICS, type PlantMetric } from '../../world/plantOutput.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { ISO_PARAM } from './common.ts';
import { isoMetricTarget, listSourceParam, timeseriesRoutes, type GroupRoutesSpec } from './timeseries.ts';
import { skillRoute, type SkillGroupSpec } from './skill.ts';
import { CONTINUOUS_MODEL_NAMES } from '../../models/forecastModels.ts';
import { ISOS, type IsoCode } from '../../catalog/isos.ts';
import { capacityInOperation } from '../../catalog/plants.ts';
import type { TargetRequest } from '../../query/kinds.ts';

const METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: PLANT_METRICS,
  required: true,
  description: `Plant metric: ${describeMetrics(PLANT_METRICS)}.`,
};

const plantSeries: GroupRoutesSpec<TargetRequest<PlantMetric>> = {
  segment: 'plant',
  tag: 'plants',
  level: 'advanced',
  pathParams: [ISO_PARAM, METRIC_PARAM],
  target: isoMetricTarget,
  queries: plantQueries,
  vintages: plantVintages,
  stored: plantStored,
  kinds: GROUP_KINDS.plant,
  forecastSummary: 'Get Plant Forecast',
  note: 'Output is the theoretical generation potential: no curtailment, transmission constraints or maintenance.',
};

/** Plants' skill: one plant (`id`), or without it the sum of the ISO's plants of the metric; no climatology. */
const plantSkill: SkillGroupSpec<TargetRequest<PlantMetric>> = {
  models: CONTINUOUS_MODEL_NAMES,
  timezone: (r) => ISOS[r.iso].timezone,
  metric: (r) => r.metric,
  capacityAt: (r) => (r.metric === 'wind' || r.metric === 'solar' ? capacityInOperation(selectPlants(r.iso, r.metric, r.id)) : undefined),
};

export const plantRoutes: RouteDef[] = [
  {
    path: '/plant/{iso}/{metric}/list',
    name: 'list_plants',
    catalog: true,
    summary: 'List Plants',
    description:
      'Active wind or solar plants of the ISO for the metric, with their physical parameters; with source, the plants a ' +
      'stored source holds.',
    tag: 'plants',
    level: 'advanced',
    params: [ISO_PARAM, METRIC_PARAM, listSourceParam('plants')],
    response: { kind: 'records', schema: 'Plant' },
    handle: ({ params, nowMs, sources }) =>
      params.source === undefined
        ? listPlants(params.iso as IsoCode, params.metric as PlantMetric, nowMs)
        : storedPlantList(sources!, params.source as string, params.iso as IsoCode, params.metric as PlantMetric, nowMs),
  },
  ...timeseriesRoutes(plantSeries),
  skillRoute(plantSeries, plantSkill),
];
