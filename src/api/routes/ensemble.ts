/** `/region/{iso}/{metric}/ensemble`: the members of one ensemble run for one region (level core). */
import type { IsoCode } from '../../catalog/isos.ts';
import { ENSEMBLE_MODEL_NAMES, type EnsembleModelName } from '../../models/ensembleModels.ts';
import { ENSEMBLE_METRICS, ensembleFrame } from '../../query/ensemble.ts';
import { REGION_METRICS } from '../../query/regions.ts';
import { describeMetrics } from '../../catalog/metrics.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { FORECASTED_BY_PARAM, ISO_PARAM, requestInstant } from './common.ts';

const ENSEMBLE_METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: ENSEMBLE_METRICS,
  required: true,
  description:
    `Forecast metric type: ${describeMetrics(ENSEMBLE_METRICS)}. Wind and solar are the region's fleet. ` +
    `Regional metrics without an ensemble: ${REGION_METRICS.filter((m) => !(ENSEMBLE_METRICS as readonly string[]).includes(m)).join(', ')}.`,
};

const ENSEMBLE_MODEL_PARAM: ParamSpec = {
  name: 'model',
  in: 'query',
  kind: 'enum',
  values: ENSEMBLE_MODEL_NAMES,
  default: 'euro_ens',
  description:
    'Ensemble model, 51 members each: euro_ens (runs every 6 hours, 15 days, hourly values), euro_ec46 (runs daily at ' +
    '00 UTC, 46 days, 6-hourly means at 00/06/12/18 UTC) or euro_seas5 (runs at 00 UTC on the 1st of each month, 215 ' +
    'days, daily means over local days).',
};

const ENSEMBLE_ID_PARAM: ParamSpec = {
  name: 'id',
  in: 'query',
  kind: 'string',
  required: true,
  minLength: 1,
  description: 'Unique identifier of the region (an ensemble is served for one specific region).',
};

export const ensembleRoute: RouteDef = {
  path: '/region/{iso}/{metric}/ensemble',
  name: 'ensemble',
  summary: 'Get Ensemble Forecast',
  description:
    'Every member of the latest ensemble run for one region, or with forecasted_by the latest run created at or before ' +
    'that instant (history from the runs of 2025-12-01). One column per member, labelled [region_id, "m00"] … ' +
    '[region_id, "m50"]; created_at is the run. The members scatter around the truth with a spread that matches the ' +
    "ensemble mean's error; beyond about two weeks their skill is close to climatology.",
  tag: 'regions',
  level: 'core',
  params: [ISO_PARAM, ENSEMBLE_METRIC_PARAM, FORECASTED_BY_PARAM, ENSEMBLE_MODEL_PARAM, ENSEMBLE_ID_PARAM],
  response: { kind: 'timeseries' },
  handle: ({ params, raw, nowMs, world }) =>
    ensembleFrame(world, {
      iso: params.iso as IsoCode,
      metric: params.metric as string,
      id: params.id as string,
      model: params.model as EnsembleModelName,
      forecastedBy: requestInstant(params.forecasted_by, raw.forecasted_by),
      nowMs,
    }),
};
