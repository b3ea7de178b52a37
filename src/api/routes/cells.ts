/** The H3 cell group: /cells/{iso}/{metric}/… (access level: advanced; backcast: enterprise). */
import { cellVintages } from '../../query/cells.ts';
import { loadCells } from '../../catalog/cellCatalog.ts';
import { DEFAULT_CELL_RESOLUTION, MAX_CELL_RESOLUTION, MIN_CELL_RESOLUTION } from '../../catalog/cells.ts';
import { ISOS, type IsoCode } from '../../catalog/isos.ts';
import { describeMetrics, GROUP_KINDS } from '../../catalog/metrics.ts';
import { CELL_METRICS, cellQueries, cellRecord, requestResolution, type CellMetric, type CellRequest } from '../../query/cells.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import { ISO_PARAM } from './common.ts';
import { isoMetricTarget, timeseriesRoutes, type GroupRoutesSpec } from './timeseries.ts';
import { skillRoute, type SkillGroupSpec } from './skill.ts';
import { CONTINUOUS_MODEL_NAMES } from '../../models/forecastModels.ts';

const METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: CELL_METRICS,
  required: true,
  description:
    `Forecast metric type: ${describeMetrics(CELL_METRICS)}. Demand is the cell's population share of its zones' demand; ` +
    'wind and solar are the sums of the plants in the cell.',
};

const RESOLUTION_PARAM: ParamSpec = {
  name: 'resolution',
  in: 'query',
  kind: 'int',
  ge: MIN_CELL_RESOLUTION,
  le: MAX_CELL_RESOLUTION,
  default: DEFAULT_CELL_RESOLUTION,
  description:
    `H3 resolution of the cells, ${MIN_CELL_RESOLUTION} (coarsest, ~86,800 km² cells) to ${MAX_CELL_RESOLUTION} ` +
    `(~250 km²). Default ${DEFAULT_CELL_RESOLUTION} (~1,770 km²); when only id is given, that cell's resolution.`,
};

/** The ISO's cell set at the request's resolution (computed off the main thread on first use). */
async function cellTarget(ctx: RouteContext): Promise<CellRequest> {
  const target = isoMetricTarget<CellMetric>(ctx);
  const asked = ctx.raw.resolution !== undefined ? (ctx.params.resolution as number) : undefined;
  return { ...target, cells: await loadCells(target.iso, requestResolution(target.id, asked)) };
}

const cellSeries: GroupRoutesSpec<CellRequest> = {
  segment: 'cells',
  tag: 'cells',
  level: 'advanced',
  pathParams: [ISO_PARAM, METRIC_PARAM],
  targetParams: [RESOLUTION_PARAM],
  target: cellTarget,
  queries: cellQueries,
  vintages: cellVintages,
  kinds: GROUP_KINDS.cells,
  forecastSummary: 'Get Cells Forecast',
  note: 'Columns are H3 cell ids; the cells of an ISO add up to its total (demand, wind, solar).',
};

/** Cells' skill: one cell (`id`), or without it the sum of the ISO's cells (its total); no climatology, no capacity. */
const cellSkill: SkillGroupSpec<CellRequest> = {
  models: CONTINUOUS_MODEL_NAMES,
  timezone: (r) => ISOS[r.iso].timezone,
  metric: (r) => r.metric,
};

export const cellRoutes: RouteDef[] = [
  {
    path: '/cells/{iso}/{metric}/list',
    name: 'list_cells',
    catalog: true,
    summary: 'List Cells',
    description:
      'The H3 cells covering the ISO at the resolution: id (H3 index), resolution, iso, timezone, centre (latitude, ' +
      'longitude), area_km2 and geojson, the cell clipped to the ISO footprint (border cells keep only their inside part).',
    tag: 'cells',
    level: 'advanced',
    params: [ISO_PARAM, METRIC_PARAM, RESOLUTION_PARAM],
    response: { kind: 'records', schema: 'Cell' },
    handle: async ({ params }) => (await loadCells(params.iso as IsoCode, params.resolution as number)).map(cellRecord),
  },
  ...timeseriesRoutes(cellSeries),
  skillRoute(cellSeries, cellSkill),
];
