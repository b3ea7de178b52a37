/**
 * The time-series routes of a target group (`/region/…`, `/plant/…`, `/cells/…`, `/county/…`), declared once: each
 * kind has the reference's parameters in the reference's order, and maps them onto the
 * group's queries.
 */
import type { IsoCode } from '../../catalog/isos.ts';
import type { RequestKind } from '../../catalog/metrics.ts';
import type { ForecastModelName } from '../../models/forecastModels.ts';
import type { GroupQueries, TargetRequest } from '../../query/kinds.ts';
import type { Level } from '../../store/keys.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import {
  DAYS_AHEAD_PARAM,
  END_PARAM,
  FORECASTED_BY_PARAM,
  ID_PARAM,
  LATEST_HOUR_PARAM,
  MODEL_PARAM,
  START_PARAM,
  requestInstant,
} from './common.ts';

export type Kind = RequestKind;

export interface GroupRoutesSpec<R> {
  /** First path segment: 'region', 'plant', 'cells', 'county'. */
  segment: string;
  /** The path parameters after the segment, in path order: [iso, metric] or just [iso]. */
  pathParams: readonly ParamSpec[];
  /** Query parameters that select targets besides `id` (cells: resolution), after the kind's own. */
  targetParams?: readonly ParamSpec[];
  /** The request's targets from its validated parameters (may wait, e.g. for cell geometry). */
  target(ctx: RouteContext): R | Promise<R>;
  tag: string;
  level: Level;
  queries: GroupQueries<R>;
  kinds: readonly Kind[];
  /** The group's forecast summary ("Get Regional Forecast", "Get Plant Forecast"). */
  forecastSummary: string;
  /** The continuous summary, when the client's method name needs another than "Get Continuous Forecast" (gas). */
  continuousSummary?: string;
  /** A sentence added to every description (what the values mean for this group). */
  note?: string;
  /** `model` of the forecast route when the group has more models than continuous (regions: + normal). */
  forecastModelParam?: ParamSpec;
}

/** The `iso`, `metric` and `id` of a request, for groups whose path is /{segment}/{iso}/{metric}/…. */
export function isoMetricTarget<M extends string>({ params }: RouteContext): TargetRequest<M> {
  return { iso: params.iso as IsoCode, metric: params.metric as M, id: params.id as string | undefined };
}

const windowOf = ({ params, raw, nowMs }: RouteContext) => ({
  start: requestInstant(params.start, raw.start),
  end: requestInstant(params.end, raw.end),
  nowMs,
});

const BACKCAST_DESCRIPTION =
  "A continuous series of the current model's day-ahead forecasts (days_ahead 1, latest_hour 10) over history, " +
  'from 2023-01-01, for evaluating the model against actuals.';

export function timeseriesRoutes<R>(spec: GroupRoutesSpec<R>): RouteDef[] {
  const path = (kind: Kind) => `/${[spec.segment, ...spec.pathParams.map((p) => `{${p.name}}`), kind].join('/')}`;
  const describe = (text: string) => (spec.note ? `${text} ${spec.note}` : text);
  const params = (...own: ParamSpec[]) => [...spec.pathParams, ...own, ...(spec.targetParams ?? [])];
  const common = { tag: spec.tag, response: { kind: 'timeseries' } as const };
  const all: Record<Kind, RouteDef> = {
    forecast: {
      ...common,
      path: path('forecast'),
      name: 'forecast',
      summary: spec.forecastSummary,
      description: describe(
        'The most recent forecast run for one or all targets of the ISO, or with forecasted_by the latest run created at or ' +
          'before that instant (history from the runs for 2026-01-01).',
      ),
      level: spec.level,
      params: params(FORECASTED_BY_PARAM, spec.forecastModelParam ?? MODEL_PARAM, ID_PARAM),
      handle: async (ctx) =>
        spec.queries.forecast(ctx.world, {
          ...(await spec.target(ctx)),
          model: ctx.params.model as ForecastModelName,
          forecastedBy: requestInstant(ctx.params.forecasted_by, ctx.raw.forecasted_by),
          nowMs: ctx.nowMs,
        }),
    },
    continuous: {
      ...common,
      path: path('continuous'),
      name: 'continuous',
      summary: spec.continuousSummary ?? 'Get Continuous Forecast',
      description: describe(
        'Stitches forecast runs into one series: for every local day D of the window, the latest run created at or before ' +
          '(D − days_ahead) at latest_hour:00 local time, cut to the hours of D (23 or 25 on DST days).',
      ),
      level: spec.level,
      params: params(START_PARAM, END_PARAM, ID_PARAM, MODEL_PARAM, LATEST_HOUR_PARAM, DAYS_AHEAD_PARAM),
      handle: async (ctx) =>
        spec.queries.continuous(ctx.world, {
          ...(await spec.target(ctx)),
          ...windowOf(ctx),
          model: ctx.params.model as ForecastModelName,
          latestHour: ctx.params.latest_hour as number,
          daysAhead: ctx.params.days_ahead as number,
        }),
    },
    actual: {
      ...common,
      path: path('actual'),
      name: 'actual',
      summary: 'Get Historical Actuals',
      description: describe(
        'Observed values, from 2023-01-01 up to the last hour published (an hour is published 15 minutes after it ends). ' +
          '`model` and `created_at` are null.',
      ),
      level: spec.level,
      params: params(START_PARAM, END_PARAM, ID_PARAM),
      handle: async (ctx) => spec.queries.actual(ctx.world, { ...(await spec.target(ctx)), ...windowOf(ctx) }),
    },
    backcast: {
      ...common,
      path: path('backcast'),
      name: 'backcast',
      summary: 'Get Day-Ahead Backcast',
      description: describe(BACKCAST_DESCRIPTION),
      level: 'enterprise',
      params: params(START_PARAM, END_PARAM, ID_PARAM),
      handle: async (ctx) => spec.queries.backcast(ctx.world, { ...(await spec.target(ctx)), ...windowOf(ctx) }),
    },
  };
  return spec.kinds.map((k) => all[k]);
}
