/**
 * The time-series routes of a target group (`/region/…`, `/plant/…`), declared once: each
 * kind has the reference's parameters in the reference's order, and maps them onto the
 * group's queries.
 */
import type { IsoCode } from '../../catalog/isos.ts';
import type { ForecastModelName } from '../../models/forecastModels.ts';
import type { GroupQueries } from '../../query/kinds.ts';
import type { Level } from '../../store/keys.ts';
import type { ParamSpec, ParamValue } from '../params.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import {
  DAYS_AHEAD_PARAM,
  END_PARAM,
  FORECASTED_BY_PARAM,
  ID_PARAM,
  ISO_PARAM,
  LATEST_HOUR_PARAM,
  MODEL_PARAM,
  START_PARAM,
  requestInstant,
} from './common.ts';

export type Kind = 'forecast' | 'continuous' | 'actual' | 'backcast';

export interface GroupRoutesSpec<M extends string> {
  /** First path segment: 'region', 'plant'. */
  segment: string;
  tag: string;
  level: Level;
  metricParam: ParamSpec;
  queries: GroupQueries<M>;
  kinds: readonly Kind[];
  /** The group's forecast summary ("Get Regional Forecast", "Get Plant Forecast"). */
  forecastSummary: string;
  /** A sentence added to every description (what the values mean for this group). */
  note?: string;
  /** `model` of the forecast route when the group has more models than continuous (regions: + normal). */
  forecastModelParam?: ParamSpec;
}

const target = <M extends string>(params: Record<string, ParamValue>) => ({
  iso: params.iso as IsoCode,
  metric: params.metric as M,
  id: params.id as string | undefined,
});

const windowOf = ({ params, raw, nowMs }: RouteContext) => ({
  start: requestInstant(params.start, raw.start),
  end: requestInstant(params.end, raw.end),
  nowMs,
});

const BACKCAST_DESCRIPTION =
  "A continuous series of the current model's day-ahead forecasts (days_ahead 1, latest_hour 10) over history, " +
  'from 2023-01-01, for evaluating the model against actuals.';

export function timeseriesRoutes<M extends string>(spec: GroupRoutesSpec<M>): RouteDef[] {
  const path = (kind: Kind) => `/${spec.segment}/{iso}/{metric}/${kind}`;
  const describe = (text: string) => (spec.note ? `${text} ${spec.note}` : text);
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
      params: [ISO_PARAM, spec.metricParam, FORECASTED_BY_PARAM, spec.forecastModelParam ?? MODEL_PARAM, ID_PARAM],
      handle: (ctx) =>
        spec.queries.forecast(ctx.world, {
          ...target<M>(ctx.params),
          model: ctx.params.model as ForecastModelName,
          forecastedBy: requestInstant(ctx.params.forecasted_by, ctx.raw.forecasted_by),
          nowMs: ctx.nowMs,
        }),
    },
    continuous: {
      ...common,
      path: path('continuous'),
      name: 'continuous',
      summary: 'Get Continuous Forecast',
      description: describe(
        'Stitches forecast runs into one series: for every local day D of the window, the latest run created at or before ' +
          '(D − days_ahead) at latest_hour:00 local time, cut to the hours of D (23 or 25 on DST days).',
      ),
      level: spec.level,
      params: [ISO_PARAM, spec.metricParam, START_PARAM, END_PARAM, ID_PARAM, MODEL_PARAM, LATEST_HOUR_PARAM, DAYS_AHEAD_PARAM],
      handle: (ctx) =>
        spec.queries.continuous(ctx.world, {
          ...target<M>(ctx.params),
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
      params: [ISO_PARAM, spec.metricParam, START_PARAM, END_PARAM, ID_PARAM],
      handle: (ctx) => spec.queries.actual(ctx.world, { ...target<M>(ctx.params), ...windowOf(ctx) }),
    },
    backcast: {
      ...common,
      path: path('backcast'),
      name: 'backcast',
      summary: 'Get Day-Ahead Backcast',
      description: describe(BACKCAST_DESCRIPTION),
      level: 'enterprise',
      params: [ISO_PARAM, spec.metricParam, START_PARAM, END_PARAM, ID_PARAM],
      handle: (ctx) => spec.queries.backcast(ctx.world, { ...target<M>(ctx.params), ...windowOf(ctx) }),
    },
  };
  return spec.kinds.map((k) => all[k]);
}
