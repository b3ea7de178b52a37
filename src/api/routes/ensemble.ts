/** `/region/{iso}/{metric}/ensemble`: the members of one ensemble run for one region (level core). */
import type { IsoCode } from '../../catalog/isos.ts';
import { ENSEMBLE_MODEL_NAMES, type EnsembleModelName } from '../../models/ensembleModels.ts';
import { ENSEMBLE_METRICS, ensembleFrame } from '../../query/ensemble.ts';
import { REGION_METRICS } from '../../query/regions.ts';
import { describeMetrics } from '../../catalog/metrics.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import { ENSEMBLE_STATS, summarizeEnsemble, type EnsembleStat } from '../../query/ensembleStats.ts';
import { QueryError, type QueryErrorItem } from '../../query/errors.ts';
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

/** At most this many quantiles in one request. */
const MAX_QUANTILES = 99;

const QUANTILES_PARAM: ParamSpec = {
  name: 'quantiles',
  in: 'query',
  kind: 'string',
  description:
    'Comma-separated probabilities between 0 and 1 (e.g. 0.1,0.5,0.9; at most 99, repeats dropped): instead of the members, ' +
    'one column per quantile across the 51 members, labelled [region_id, "q0.1"] …. Estimator: Hyndman–Fan type 7 ' +
    '(linear interpolation between order statistics, as R, NumPy and PERCENTILE.INC): with the members sorted ' +
    'x[0] ≤ … ≤ x[50] and h = 50·p, the quantile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]); P10 = x[5], P90 = x[45].',
};

const STATS_PARAM: ParamSpec = {
  name: 'stats',
  in: 'query',
  kind: 'string',
  description:
    'Comma-separated statistics across the members, after any quantiles, instead of the members: mean (arithmetic mean) ' +
    'and spread (sample standard deviation, divisor 50), labelled [region_id, "mean"], [region_id, "spread"].',
};

/** The comma-separated items of a parameter, trimmed (undefined when the parameter is absent). */
function listItems(value: unknown): string[] | undefined {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()) : undefined;
}

/** The probabilities of a `quantiles` parameter, repeats dropped (undefined when absent); `fail` is told why one is bad. */
export function quantilesOf(value: unknown, fail: (msg: string) => void): number[] | undefined {
  const items = listItems(value);
  if (items === undefined) return undefined;
  const quantiles: number[] = [];
  for (const item of items) {
    const p = /^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(item) ? Number(item) : Number.NaN;
    if (!(p >= 0 && p <= 1)) {
      fail(`quantiles must be comma-separated numbers between 0 and 1 (e.g. 0.1,0.5,0.9); got ${JSON.stringify(item)}`);
      return quantiles;
    }
    if (!quantiles.includes(p)) quantiles.push(p);
  }
  if (quantiles.length > MAX_QUANTILES) fail(`at most ${MAX_QUANTILES} quantiles, got ${quantiles.length}`);
  return quantiles;
}

/** The validated `quantiles` and `stats` of a request, or a pydantic-style 422 naming each bad one. */
function ensembleSummaryOf(params: Record<string, unknown>): { quantiles: number[]; stats: EnsembleStat[] } | undefined {
  const errors: QueryErrorItem[] = [];
  const fail = (name: string, msg: string) =>
    errors.push({ type: 'value_error', loc: ['query', name], msg: `Value error, ${msg}`, input: params[name] });
  const quantileList = quantilesOf(params.quantiles, (msg) => fail('quantiles', msg));
  const statItems = listItems(params.stats);
  const quantiles = quantileList ?? [];
  const stats: EnsembleStat[] = [];
  for (const item of statItems ?? []) {
    if (!(ENSEMBLE_STATS as readonly string[]).includes(item)) {
      fail('stats', `stats must be comma-separated names among ${ENSEMBLE_STATS.join(', ')}; got ${JSON.stringify(item)}`);
      break;
    }
    if (!stats.includes(item as EnsembleStat)) stats.push(item as EnsembleStat);
  }
  if (errors.length > 0) throw new QueryError(errors);
  return quantileList || statItems ? { quantiles, stats } : undefined;
}

export const ensembleRoute: RouteDef = {
  path: '/region/{iso}/{metric}/ensemble',
  name: 'ensemble',
  summary: 'Get Ensemble Forecast',
  description:
    'Every member of the latest ensemble run for one region, or with forecasted_by the latest run created at or before ' +
    'that instant (history from the runs of 2025-12-01). One column per member, labelled [region_id, "m00"] … ' +
    '[region_id, "m50"]; created_at is the run. The members scatter around the truth with a spread that matches the ' +
    "ensemble mean's error; beyond about two weeks their skill is close to climatology. With quantiles and/or stats, " +
    'the summaries across the members replace the member columns.',
  tag: 'regions',
  level: 'core',
  params: [ISO_PARAM, ENSEMBLE_METRIC_PARAM, FORECASTED_BY_PARAM, ENSEMBLE_MODEL_PARAM, ENSEMBLE_ID_PARAM, QUANTILES_PARAM, STATS_PARAM],
  response: { kind: 'timeseries' },
  handle: ({ params, raw, nowMs, world }) => {
    const summary = ensembleSummaryOf(params);
    const members = ensembleFrame(world, {
      iso: params.iso as IsoCode,
      metric: params.metric as string,
      id: params.id as string,
      model: params.model as EnsembleModelName,
      forecastedBy: requestInstant(params.forecasted_by, raw.forecasted_by),
      nowMs,
    });
    return summary ? summarizeEnsemble(members, summary) : members;
  },
};
