/**
 * The time-series routes of a target group (`/region/…`, `/plant/…`, `/cells/…`, `/county/…`), declared once: each
 * kind has the reference's parameters in the reference's order, and maps them onto the
 * group's queries.
 */
import type { IsoCode } from '../../catalog/isos.ts';
import type { RequestKind } from '../../catalog/metrics.ts';
import { FORECAST_MODEL_NAMES, type ForecastModelName } from '../../models/forecastModels.ts';
import type { StoredKinds } from '../../query/stored.ts';
import type { SourceReader } from '../../sources/reader.ts';
import type { ContinuousParams, GroupQueries, TargetRequest } from '../../query/kinds.ts';
import type { Frame } from '../../query/frame.ts';
import type { VintageQueries } from '../../query/vintages.ts';
import type { Level } from '../../store/keys.ts';
import type { ParamSpec } from '../params.ts';
import { QueryError } from '../../query/errors.ts';
import { quantilesOf } from './ensemble.ts';
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
  /** The actual route's summary and description when they are not the regional ones (LMPs: realised prices). */
  actualSummary?: string;
  actualDescription?: string;
  /** A sentence added to every description (what the values mean for this group). */
  note?: string;
  /** `model` of the forecast route when the group has more models than continuous (regions: + normal). */
  forecastModelParam?: ParamSpec;
  /** The group's runs and vintages (`…/runs`, `…/vintages`), for groups with hourly forecast runs. */
  vintages?: VintageQueries<R>;
  /** The group's requests served from stored (ingested) sources: `model=<source>`, `/actual?source=<source>`. */
  stored?: StoredKinds<R>;
}

/** Where stored sources are read; every runner has one (compute/runner.ts). */
export function readerOf(ctx: RouteContext): SourceReader {
  if (!ctx.sources) throw new Error('stored sources are not available here');
  return ctx.sources;
}

/** The stored source a request's `model` names (any name that is not a synthetic model's), or undefined. */
function storedModel(ctx: RouteContext): string | undefined {
  const model = ctx.params.model as string | undefined;
  return model !== undefined && !(FORECAST_MODEL_NAMES as readonly string[]).includes(model) ? model : undefined;
}

const SOURCE_PARAM: ParamSpec = {
  name: 'source',
  in: 'query',
  kind: 'string',
  minLength: 1,
  description:
    "A stored source (ingested with `gridcast ingest`) whose actuals are served instead of the ISO's; see /v1/status for the sources that exist. " +
    'Default: the source GRIDCAST_ACTUAL_SOURCE configures for the ISO and metric, if any.',
};

/** `source` of a list route: the targets a stored source holds instead of the catalog's. */
export function listSourceParam(targets: string): ParamSpec {
  return {
    name: 'source',
    in: 'query',
    kind: 'string',
    minLength: 1,
    description:
      `A stored source (ingested with \`gridcast ingest\`): the ${targets} it holds — the catalog's and its own — each with ` +
      '`source`, instead of the catalog; see /v1/status for the sources that exist.',
  };
}

const STORED_QUANTILES_PARAM: ParamSpec = {
  name: 'quantiles',
  in: 'query',
  kind: 'string',
  description:
    'With model naming a stored source that holds quantile forecasts: comma-separated probabilities (e.g. 0.1,0.9) of ' +
    'the quantiles the source stores; one column per target and quantile, labelled [id, "q0.1"] …, instead of the point ' +
    "forecasts (null where a run lacks it). A quantile the source does not hold is a 422 naming those it holds. Synthetic models' " +
    'quantiles come from /region/{iso}/{metric}/ensemble.',
};

/**
 * The `quantiles` of a forecast or continuous request: only a stored source's (undefined when
 * absent), else a 422 on the parameter.
 */
function requestQuantiles(ctx: RouteContext, source: string | undefined): number[] | undefined {
  const fail = (msg: string): never => {
    throw new QueryError([{ type: 'value_error', loc: ['query', 'quantiles'], msg: `Value error, ${msg}`, input: ctx.params.quantiles }]);
  };
  const quantiles = quantilesOf(ctx.params.quantiles, fail);
  if (quantiles !== undefined && source === undefined) {
    fail(
      `quantiles are served for a stored source that holds them (model=<source>); model '${String(ctx.params.model)}' is synthetic: ` +
        'its quantiles come from /region/{iso}/{metric}/ensemble',
    );
  }
  return quantiles;
}

const ACTUAL_AS_OF_PARAM: ParamSpec = {
  name: 'as_of',
  in: 'query',
  kind: 'datetime',
  description:
    'With source: the actuals as published at this instant (a stored source keeps every revision); a datetime without an offset is UTC. Default: now.',
};

const RUNS_START_PARAM: ParamSpec = {
  ...START_PARAM,
  description:
    'Only runs created at or after this instant (a bare date is a local day of the ISO; a datetime without an offset is UTC). ' +
    "Default: local midnight (the ISO's time zone) of end's day.",
};

const RUNS_END_PARAM: ParamSpec = {
  ...END_PARAM,
  description:
    'Only runs created at or before this instant (a bare date includes that whole local day); at most 365 days after start. ' +
    'Default: now (the latest run).',
};

const VALID_TIME_PARAM: ParamSpec = {
  name: 'valid_time',
  in: 'query',
  kind: 'datetime',
  required: true,
  description:
    'The valid hour whose vintages are wanted: a datetime means the hour containing it (without an offset it is UTC); a bare ' +
    'date means every hour of that local day of the ISO (23, 24 or 25 columns).',
};

const VINTAGE_ID_PARAM: ParamSpec = {
  name: 'id',
  in: 'query',
  kind: 'string',
  required: true,
  minLength: 1,
  description: 'Unique identifier of the target (vintages are served for one target).',
};

/** The `iso`, `metric` and `id` of a request, for groups whose path is /{segment}/{iso}/{metric}/…. */
export function isoMetricTarget<M extends string>({ params }: RouteContext): TargetRequest<M> {
  return { iso: params.iso as IsoCode, metric: params.metric as M, id: params.id as string | undefined };
}

/**
 * The continuous series `model` names for a request — a synthetic model, or else a stored source —
 * as the continuous route serves it (and the skill route scores it).
 */
export function continuousOf<R>(
  spec: GroupRoutesSpec<R>,
  ctx: RouteContext,
  request: R & Omit<ContinuousParams, 'model'>,
  model: string,
): Frame | Promise<Frame> {
  if (spec.stored && !(FORECAST_MODEL_NAMES as readonly string[]).includes(model)) {
    return spec.stored.continuous(ctx.world, readerOf(ctx), model, request);
  }
  return spec.queries.continuous(ctx.world, { ...request, model: model as ForecastModelName });
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
  const path = (kind: string) => `/${[spec.segment, ...spec.pathParams.map((p) => `{${p.name}}`), kind].join('/')}`;
  const describe = (text: string) => (spec.note ? `${text} ${spec.note}` : text);
  const params = (...own: ParamSpec[]) => [...spec.pathParams, ...own, ...(spec.targetParams ?? [])];
  const common = { tag: spec.tag, response: { kind: 'timeseries' } as const };
  // The kinds whose `model` may name a stored source.
  const storedModels = spec.stored ? { storedModels: true as const } : {};
  const storedQuantiles = spec.stored ? [STORED_QUANTILES_PARAM] : [];
  const all: Record<Kind, RouteDef> = {
    forecast: {
      ...common,
      ...storedModels,
      path: path('forecast'),
      name: 'forecast',
      summary: spec.forecastSummary,
      description: describe(
        'The most recent forecast run for one or all targets of the ISO, or with forecasted_by the latest run created at or ' +
          'before that instant (history from the runs for 2026-01-01).',
      ),
      level: spec.level,
      params: params(FORECASTED_BY_PARAM, spec.forecastModelParam ?? MODEL_PARAM, ID_PARAM, ...storedQuantiles),
      handle: async (ctx) => {
        const request = {
          ...(await spec.target(ctx)),
          forecastedBy: requestInstant(ctx.params.forecasted_by, ctx.raw.forecasted_by),
          nowMs: ctx.nowMs,
        };
        const source = storedModel(ctx);
        const quantiles = requestQuantiles(ctx, spec.stored && source);
        if (source && spec.stored) return spec.stored.forecast(ctx.world, readerOf(ctx), source, { ...request, quantiles });
        return spec.queries.forecast(ctx.world, { ...request, model: ctx.params.model as ForecastModelName });
      },
    },
    continuous: {
      ...common,
      ...storedModels,
      path: path('continuous'),
      name: 'continuous',
      summary: spec.continuousSummary ?? 'Get Continuous Forecast',
      description: describe(
        'Stitches forecast runs into one series: for every local day D of the window, the latest run created at or before ' +
          '(D − days_ahead) at latest_hour:00 local time, cut to the hours of D (23 or 25 on DST days).',
      ),
      level: spec.level,
      params: params(START_PARAM, END_PARAM, ID_PARAM, MODEL_PARAM, LATEST_HOUR_PARAM, DAYS_AHEAD_PARAM, ...storedQuantiles),
      handle: async (ctx) => {
        const request = {
          ...(await spec.target(ctx)),
          ...windowOf(ctx),
          latestHour: ctx.params.latest_hour as number,
          daysAhead: ctx.params.days_ahead as number,
          quantiles: requestQuantiles(ctx, spec.stored && storedModel(ctx)),
        };
        return continuousOf(spec, ctx, request, ctx.params.model as string);
      },
    },
    actual: {
      ...common,
      path: path('actual'),
      name: 'actual',
      summary: spec.actualSummary ?? 'Get Historical Actuals',
      description: describe(
        spec.actualDescription ??
          'Observed values, from 2023-01-01 up to the last hour published (an hour is published 15 minutes after it ends). ' +
            '`model` and `created_at` are null.',
      ),
      level: spec.level,
      params: spec.stored?.actual
        ? params(START_PARAM, END_PARAM, ID_PARAM, SOURCE_PARAM, ACTUAL_AS_OF_PARAM)
        : params(START_PARAM, END_PARAM, ID_PARAM),
      handle: async (ctx) => {
        const request = { ...(await spec.target(ctx)), ...windowOf(ctx) };
        const source = ctx.params.source as string | undefined;
        if (source !== undefined && spec.stored?.actual) {
          const asOf = requestInstant(ctx.params.as_of, ctx.raw.as_of);
          return spec.stored.actual(ctx.world, readerOf(ctx), source, { ...request, asOfMs: asOf?.epochMs });
        }
        return spec.queries.actual(ctx.world, request);
      },
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
  const routes = spec.kinds.map((k) => all[k]);
  const vintages = spec.vintages;
  if (!vintages) return routes;
  const forecastModel = spec.forecastModelParam ?? MODEL_PARAM;
  return [
    ...routes,
    {
      ...common,
      ...storedModels,
      response: { kind: 'records', schema: 'Run' },
      path: path('runs'),
      name: 'runs',
      summary: 'List Forecast Runs',
      description: describe(
        'The runs of a model created between start and end (never after now; history from the runs of 2025-12-31), oldest ' +
          'first: created_at, the first and last valid hour it covers (period-beginning, UTC) and its horizon in hours. ' +
          'Each run can be fetched whole with /forecast?forecasted_by=<created_at>; it never changes once created.',
      ),
      level: spec.level,
      params: params(RUNS_START_PARAM, RUNS_END_PARAM, forecastModel),
      handle: async (ctx) => {
        const request = { ...(await spec.target(ctx)), ...windowOf(ctx) };
        const source = storedModel(ctx);
        if (source && spec.stored?.runs) return spec.stored.runs(ctx.world, readerOf(ctx), source, request);
        return vintages.runs(ctx.world, { ...request, model: ctx.params.model as ForecastModelName });
      },
    },
    {
      ...common,
      ...storedModels,
      path: path('vintages'),
      name: 'vintages',
      summary: 'Get Forecast Vintages',
      description: describe(
        "Every run's forecast for the valid hours of valid_time, for one target: rows are the runs (time_utc and " +
          "time_local are the run's created_at), oldest first, from the first run whose horizon reaches the first valid hour " +
          'to the last run created at or before the last valid hour (and now); columns are the valid hours, labelled ' +
          '[id, valid hour in UTC]; a run has null for a valid hour before its creation or beyond its horizon. The lead time ' +
          "of a value is its column's valid hour minus its row's created_at. Row r, column c equals " +
          '/forecast?forecasted_by=<created_at of r> at hour c.',
      ),
      level: spec.level,
      params: params(VALID_TIME_PARAM, VINTAGE_ID_PARAM, forecastModel),
      handle: async (ctx) => {
        const request = {
          ...(await spec.target(ctx)),
          validTime: requestInstant(ctx.params.valid_time, ctx.raw.valid_time)!,
          nowMs: ctx.nowMs,
        };
        const source = storedModel(ctx);
        if (source && spec.stored?.vintages) return spec.stored.vintages(ctx.world, readerOf(ctx), source, request);
        return vintages.vintages(ctx.world, { ...request, model: ctx.params.model as ForecastModelName });
      },
    },
  ];
}
