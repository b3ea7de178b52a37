/**
 * `/{group}/…/skill`: how good each model and stored source is, scored by the service from
 * exactly what `continuous` (for each days_ahead and the latest_hour) and `actual` return for the
 * same window (query/skill.ts). Access is the group's continuous level; the models are resolved as
 * the continuous route resolves them (a synthetic model, else a stored source).
 */
import type { IsoCode } from '../../catalog/isos.ts';
import type { MetricName } from '../../catalog/metrics.ts';
import { FORECAST_MODEL_NAMES, type ForecastModelName } from '../../models/forecastModels.ts';
import type { ContinuousParams } from '../../query/kinds.ts';
import { QueryError, queryValueError } from '../../query/errors.ts';
import { addAsWritten, withoutAbsent, type Frame } from '../../query/frame.ts';
import { cachedBlocks, heldBlocks, hourBlocks, uncached } from '../../query/blockCache.ts';
import { SCORED_QUANTILES, type QuantileSeries } from '../../query/skillScores.ts';
import { lastActualHour } from '../../query/runs.ts';
import {
  SKILL_BY,
  scoringOf,
  skillRecords,
  type ForecastSeries,
  type HourSeries,
  type SkillBy,
  type SkillRecord,
} from '../../query/skill.ts';
import {
  SKILL_ENSEMBLE,
  SKILL_ENSEMBLE_METRICS,
  ensembleSkillSeries,
  isEnsembleSkillMetric,
  type EnsembleSkillMetric,
} from '../../query/skillEnsemble.ts';
import { endHourOf, startHourOf, type HourWindow, type RequestInstant } from '../../query/window.ts';
import type { SeriesKey } from '../../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../../time/hours.ts';
import { addDays, formatDate, localDateOfHour } from '../../time/zones.ts';
import type { Level } from '../../store/keys.ts';
import { authorize } from '../auth.ts';
import { parseIntLikePydantic, type ParamSpec } from '../params.ts';
import { describeSources } from '../storedSources.ts';
import { worldServed } from '../worldSwitch.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import { END_PARAM, ID_PARAM, LATEST_HOUR_PARAM, START_PARAM, requestInstant } from './common.ts';
import { continuousOf, readerOf, type GroupRoutesSpec } from './timeseries.ts';

/** days_ahead scored when the request names none ("1–7 and 14"); leads no run of a model reaches are left out. */
export const DEFAULT_SKILL_DAYS_AHEAD = [1, 2, 3, 4, 5, 6, 7, 14] as const;
/** Length of the default window, in local days (ending with the last published actual). */
export const DEFAULT_SKILL_WINDOW_DAYS = 30;
const MAX_DAYS_AHEAD = 14;
const MAX_ROLLING_DAYS = 365;

/** What the skill of a group needs besides its time-series routes. */
export interface SkillGroupSpec<R> {
  /** The synthetic models scored by default (and accepted by `model`), in record order. */
  models: readonly ForecastModelName[];
  /** The model `skill_vs_normal` compares with, when the group has it. */
  baseline?: ForecastModelName;
  /** The zone whose local days, months and hours the window and the buckets use. */
  timezone(request: R): string;
  /** The one series scored: e.g. a region request without `id` means the ISO total. */
  single?(request: R): R;
  metric(request: R): MetricName;
  /** Capacity in operation of the request's target at an hour (wind and solar), for nMAE. */
  capacityAt?(request: R): ((hour: number) => number) | undefined;
  /** The stored series a source holds for this request (stored sources scored by default). */
  storedKey?(request: R): SeriesKey;
  /** Groups with an ensemble: the level /ensemble needs and the region whose euro_ens series `model=euro_ens` scores. */
  ensemble?: { level: Level; target(request: R): { iso: IsoCode; metric: string; id: string } };
}

const SKILL_MODEL_PARAM: ParamSpec = {
  name: 'model',
  in: 'query',
  kind: 'string',
  list: true,
  description:
    'Models and stored sources to score: repeat the parameter or give a comma list (model=optimized,iso). Default: every ' +
    'deterministic model of the group (none with GRIDCAST_WORLD=off) and every stored source holding forecasts of this ' +
    'ISO and metric; region demand and poptemp also take euro_ens (the ensemble, scored only when named).',
};

const SKILL_DAYS_AHEAD_PARAM: ParamSpec = {
  name: 'days_ahead',
  in: 'query',
  kind: 'string',
  list: true,
  description:
    'Lead days to score, 1–14: repeat the parameter or give a comma list (days_ahead=1,2,7). Default: 1–7 and 14, each ' +
    "only for the models whose runs reach it (a lead named explicitly gets a record with n = 0 beyond a model's horizon).",
};

const SKILL_BY_PARAM: ParamSpec = {
  name: 'by',
  in: 'query',
  kind: 'enum',
  values: SKILL_BY,
  default: 'lead_day',
  description:
    'One record per model and days_ahead (lead_day), and per local month (month, YYYY-MM), local hour of day (hour_of_day, ' +
    '0–23, hour beginning) or ISO day of week (day_of_week, 1 Monday … 7 Sunday); none: one record per model, every ' +
    'requested days_ahead pooled.',
};

const SKILL_WINDOW_PARAM: ParamSpec = {
  name: 'window',
  in: 'query',
  kind: 'string',
  description:
    'A rolling window of N local days (e.g. 30d, at most 365d): one record per model, days_ahead and local day D (date), ' +
    'scoring D − N + 1 … D; days whose window does not lie inside start … end are left out. Only with by=lead_day.',
};

const SKILL_ACTUAL_SOURCE_PARAM: ParamSpec = {
  name: 'actual_source',
  in: 'query',
  kind: 'string',
  minLength: 1,
  description:
    "A stored source whose actuals (as /actual?source=NAME returns them) the forecasts are scored against, instead of the ISO's. " +
    'Default: the source GRIDCAST_ACTUAL_SOURCE configures for the ISO and metric, if any. Required when the service runs ' +
    'without the synthetic world (GRIDCAST_WORLD=off) and none is configured.',
};

/** The comma-separated items of a list parameter, trimmed. */
const itemsOf = (value: unknown) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()) : undefined);

/** The requested lead days, or the default; a 422 for anything but integers 1–14. */
function daysAheadOf(value: unknown): { days: number[]; explicit: boolean } {
  const items = itemsOf(value);
  if (!items) return { days: [...DEFAULT_SKILL_DAYS_AHEAD], explicit: false };
  const days: number[] = [];
  for (const item of items) {
    const parsed = parseIntLikePydantic(item);
    if (!parsed.ok || parsed.value < 1 || parsed.value > MAX_DAYS_AHEAD) {
      throw queryValueError(
        'days_ahead',
        value,
        `days_ahead must be integers from 1 to ${MAX_DAYS_AHEAD}, repeated or comma-separated (e.g. 1,2,7); got ${JSON.stringify(item)}`,
      );
    }
    if (!days.includes(parsed.value)) days.push(parsed.value);
  }
  return { days, explicit: true };
}

/** The rolling window's length in days, or undefined; a 422 for a malformed one or with a `by` other than lead_day. */
function rollingDaysOf(value: unknown, by: SkillBy): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d{1,4})\s*d\s*$/i.exec(value);
  const days = match ? Number(match[1]) : Number.NaN;
  if (!(days >= 1 && days <= MAX_ROLLING_DAYS)) {
    throw queryValueError('window', value, `window must be a number of days from 1d to ${MAX_ROLLING_DAYS}d (e.g. 30d)`);
  }
  if (by !== 'lead_day')
    throw queryValueError('window', value, `window gives one record per day and lead day: use it with by=lead_day, not by=${by}`);
  return days;
}

/** What the stored sources hold, for messages naming what exists (the format of /actual's world-off errors). */
async function storedDescription(ctx: RouteContext): Promise<string> {
  if (!ctx.sources) return describeSources([]);
  const reader = readerOf(ctx);
  const names = await reader.names();
  return describeSources(await Promise.all(names.map(async (name) => ({ name, series: await reader.kindsOf(name) }))));
}

/**
 * An error of the stored actuals /skill scores against, about their source: /actual names it
 * `source`, /skill `actual_source`.
 */
function onActualSource(e: unknown): unknown {
  if (!(e instanceof QueryError)) return e;
  return new QueryError(
    e.items.map((item) =>
      item.loc.length === 2 && item.loc[0] === 'query' && item.loc[1] === 'source' ? { ...item, loc: ['query', 'actual_source'] } : item,
    ),
  );
}

/** The 422 of a skill request that needs the synthetic world while it is off. */
async function worldOff(ctx: RouteContext, param: 'model' | 'actual_source'): Promise<QueryError> {
  const off = 'the synthetic world is off (GRIDCAST_WORLD=off)';
  const exist = await storedDescription(ctx);
  if (param === 'actual_source') {
    return new QueryError([
      {
        type: 'missing',
        loc: ['query', 'actual_source'],
        msg: `Field required: ${off}; actuals come from a stored source: ${exist}`,
        input: null,
      },
    ]);
  }
  return queryValueError('model', ctx.params.model ?? null, `${off}: model must name a stored source: ${exist}`);
}

/**
 * The models named (in order, repeats dropped), or by default the group's synthetic models and
 * the stored sources holding forecasts of the series. With the world off only stored sources are scored: a
 * synthetic model named, or none holding the series, is a 422 naming what exists.
 */
async function modelsOf<R>(ctx: RouteContext, group: GroupRoutesSpec<R>, skill: SkillGroupSpec<R>, request: R): Promise<string[]> {
  const readsStored = !!group.stored && !!ctx.sources;
  const synthetic = [...skill.models, ...(skill.ensemble ? [SKILL_ENSEMBLE] : [])];
  const world = worldServed();
  const items = itemsOf(ctx.params.model);
  if (!items) {
    // One query for every source; a source holding only actuals of the series has nothing to score.
    const key = skill.storedKey?.(request);
    const holding = key && readsStored ? await readerOf(ctx).forecastSources(key, ctx.nowMs) : [];
    // The ensemble costs ~50 deterministic series: scored when named (README: Forecast skill).
    if (!world && holding.length === 0) throw await worldOff(ctx, 'model');
    return [...(world ? skill.models : []), ...holding];
  }
  const stored = readsStored ? await readerOf(ctx).names() : [];
  const models: string[] = [];
  for (const item of items) {
    if (!world && synthetic.includes(item)) throw await worldOff(ctx, 'model');
    if (!synthetic.includes(item) && !stored.includes(item)) {
      const sources = stored.length > 0 ? `; stored sources: ${stored.join(', ')}` : '';
      throw queryValueError(
        'model',
        ctx.params.model,
        `unknown model ${JSON.stringify(item)}: models are ${synthetic.join(', ')}${sources}`,
      );
    }
    if (!models.includes(item)) models.push(item);
  }
  return models;
}

/**
 * The window of a request: start and end as given; without end, up to the last published
 * actual; without start, the DEFAULT_SKILL_WINDOW_DAYS local days ending with end's day.
 */
function skillWindow(ctx: RouteContext, timezone: string): { start: RequestInstant; end: RequestInstant } {
  const givenEnd = requestInstant(ctx.params.end, ctx.raw.end);
  const endMs = lastActualHour(ctx.nowMs) * HOUR_MS;
  const end = givenEnd ?? { epochMs: endMs, dateOnly: false, raw: formatUtcInstant(endMs) };
  const given = requestInstant(ctx.params.start, ctx.raw.start);
  if (given) return { start: given, end };
  const endDay = localDateOfHour(timezone, endHourOf(end, timezone));
  const day = formatDate(addDays(endDay, -(DEFAULT_SKILL_WINDOW_DAYS - 1)));
  return { start: { epochMs: Date.parse(`${day}T00:00:00Z`), dateOnly: true, raw: day }, end };
}

/** The hours of a skill window (start and end are always set: skillWindow). */
const hourWindowOf = (w: { start: RequestInstant; end: RequestInstant }, timezone: string): HourWindow => ({
  startHour: startHourOf(w.start, timezone),
  endHour: endHourOf(w.end, timezone),
});

/** The frame's one series: its column, or the sum of its columns as written (rounded; nulls skipped). */
function seriesOf(frame: Frame): HourSeries {
  const n = frame.hours.length;
  const values = new Float64Array(n);
  if (frame.columns.length === 1) {
    frame.columns[0].fill(values);
    return { hours: frame.hours, values };
  }
  if (frame.sumAsWritten) {
    frame.sumAsWritten(values);
    return { hours: frame.hours, values };
  }
  const column = new Float64Array(n);
  const present = new Uint8Array(n);
  for (const c of frame.columns) {
    c.fill(column);
    addAsWritten(values, present, column, frame.decimals);
  }
  return { hours: frame.hours, values: withoutAbsent(values, present) };
}

/** The longest window euro_ens is scored over: its 51 members cost ~50 continuous series each. */
export const MAX_ENSEMBLE_SKILL_DAYS = 31;

/** The metric and hours euro_ens is scored over, or a 422 when it cannot be scored for the request (metric, length). */
function ensembleScope(metric: string, window: HourWindow, end: RequestInstant): { metric: EnsembleSkillMetric; window: HourWindow } {
  if (!isEnsembleSkillMetric(metric)) {
    throw queryValueError(
      'model',
      SKILL_ENSEMBLE,
      `${SKILL_ENSEMBLE} is scored for ${SKILL_ENSEMBLE_METRICS.join(' and ')} (a wind or solar member is a sum over every plant: too costly to stitch)`,
    );
  }
  // Local days have 23–25 hours: a window of at most N days spans at most N·24 + 1 hours.
  if (window.endHour - window.startHour + 1 > MAX_ENSEMBLE_SKILL_DAYS * 24 + 1) {
    throw queryValueError(
      'end',
      end.raw,
      `${SKILL_ENSEMBLE} is scored over at most ${MAX_ENSEMBLE_SKILL_DAYS} local days per request (51 members each): split longer windows`,
    );
  }
  return { metric, window };
}

/**
 * The P10, P50 and P90 a stored source holds for the request's one target (else P10 and P90
 * alone; else none), as /continuous?model=SOURCE&quantiles=… serves them, on the rows `hours`.
 */
async function storedQuantiles<R>(
  group: GroupRoutesSpec<R>,
  ctx: RouteContext,
  request: R & Omit<ContinuousParams, 'model'>,
  source: string,
  hours: ArrayLike<number>,
): Promise<QuantileSeries[] | undefined> {
  if (!group.stored) return undefined;
  for (const levels of [SCORED_QUANTILES, OUTER_QUANTILES]) {
    let frame: Frame;
    try {
      frame = await group.stored.continuous(ctx.world, readerOf(ctx), source, { ...request, quantiles: levels });
    } catch (e) {
      // A 422 naming the quantiles the source holds: it lacks one of these levels.
      if (e instanceof QueryError) continue;
      throw e;
    }
    const index = new Map<number, number>();
    for (let i = 0; i < frame.hours.length; i++) index.set(frame.hours[i], i);
    // One column per level, in the order asked (the request has one target).
    return frame.columns.map((column, k) => {
      const values = new Float64Array(frame.hours.length);
      column.fill(values);
      return { p: levels[k], values: Float64Array.from(hours, (h) => values[index.get(h) ?? -1] ?? Number.NaN) };
    });
  }
  return undefined;
}

/** The levels coverage needs (a source without a P50 still has a coverage). */
const OUTER_QUANTILES = [0.1, 0.9] as const;

const isSynthetic = (model: string) => (FORECAST_MODEL_NAMES as readonly string[]).includes(model);

/**
 * The frame's one series (seriesOf) of a synthetic model at a lead and latest_hour, or the
 * synthetic world's actuals — values fixed forever for each valid hour — kept in the block cache
 * under `name`, one block per day of valid hours. Computed, when a block is missing, without
 * keeping the blocks of the targets it is made of: a sum over every plant of an ISO would
 * otherwise push ~110 plants' blocks per series through the cache (a year of 24 series is more
 * than its budget), evicting the very sums a repeated request needs. `computed`: its values,
 * computed already (by another runner).
 */
function keptSeries(name: string, frame: Frame, computed?: Float64Array): HourSeries {
  const values = cachedBlocks(name, hourBlocks(frame.hours), frame.hours.length, (out) =>
    out.set(computed ?? uncached(() => seriesOf(frame).values)),
  );
  return { hours: frame.hours, values };
}

/** Whether keptSeries holds the series of `frame` under `name` (nothing is computed). */
const isKept = (name: string, frame: Frame) => heldBlocks(name, hourBlocks(frame.hours), frame.hours.length) !== null;

/** What a skill request asks of another compute runner (RouteContext.helper): synthetic models' series at its leads. */
interface SeriesTask {
  models: string[];
}

/**
 * The models whose series another compute runner computes, when one is idle: the first synthetic
 * model (measured on PJM wind and demand: the request's runner computes the actual and the rest,
 * the baseline's one series per hour among them, about as long).
 */
function handedOutModels(scored: readonly string[]): string[] {
  return scored.length >= 2 && isSynthetic(scored[0]) ? [scored[0]] : [];
}

/**
 * A model's continuous frames at each lead (a 422 in place of a lead no run serves): a synthetic
 * model's leads computed together where the group can (they share their runs' lagged days and
 * the truth), else one continuous request per lead.
 */
async function leadFrames<R>(
  group: GroupRoutesSpec<R>,
  ctx: RouteContext,
  request: R & Omit<ContinuousParams, 'daysAhead' | 'model'>,
  model: string,
  days: readonly number[],
): Promise<(Frame | QueryError)[]> {
  const together = group.queries.continuousLeads;
  if (together && isSynthetic(model)) {
    return together(ctx.world, { ...request, model: model as ForecastModelName }, days);
  }
  const out: (Frame | QueryError)[] = [];
  for (const daysAhead of days) {
    ctx.signal?.throwIfAborted();
    try {
      out.push(await continuousOf(group, ctx, { ...request, daysAhead }, model));
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      out.push(e);
    }
  }
  return out;
}

/** Leaves out the (model, days_ahead) pairs without any counted row: leads beyond a model's runs. */
function withoutUnreached(records: SkillRecord[]): SkillRecord[] {
  const reached = new Set(records.filter((r) => r.n > 0).map((r) => `${r.model}\u0000${r.days_ahead}`));
  return records.filter((r) => reached.has(`${r.model}\u0000${r.days_ahead}`));
}

/** The skill route of a group whose time-series routes `group` declares. */
export function skillRoute<R>(group: GroupRoutesSpec<R>, skill: SkillGroupSpec<R>): RouteDef {
  /** The request's target (the one the skill scores: skill.single of a group's target). */
  const skillRequest = async (ctx: RouteContext) => {
    const target = await group.target(ctx);
    return skill.single ? skill.single(target) : target;
  };
  /** Its zone, window and the continuous request each lead's series is (handle's and help's alike). */
  const skillScope = (ctx: RouteContext, request: R) => {
    const timezone = skill.timezone(request);
    const window = { ...skillWindow(ctx, timezone), nowMs: ctx.nowMs };
    return { timezone, window, continuous: { ...request, ...window, latestHour: ctx.params.latest_hour as number } };
  };
  const pathParams = group.pathParams.map((p) => `{${p.name}}`);
  const baseline = skill.baseline
    ? ` skill_vs_normal = 1 − MAE / MAE of ${skill.baseline} over the hours both have.`
    : ` This group has no climatological baseline: skill_vs_normal is null.`;
  const description =
    'Forecast skill of each model and stored source against the actuals, computed from exactly what /continuous (for each ' +
    'days_ahead and latest_hour) and /actual return for the window (default: the 30 local days ending with the last ' +
    'published actual): n (hours with both values), mae, rmse, bias (mean forecast − actual), mape (leaving out hours ' +
    'whose |actual| is below 1 % of the mean |actual|, 10 % for prices; mape_skipped counts them), nmae_pct_capacity ' +
    '(wind and solar: |error| / capacity in operation, %), skill_vs_normal, coverage_p10_p90 and pinball (mean pinball ' +
    'loss over P10, P50, P90) where the forecast has quantiles, crps where it has members (the ensemble). Solar counts ' +
    'only hours where the forecast or the actual is above 0.' +
    (skill.ensemble
      ? ` model=${SKILL_ENSEMBLE} (demand and poptemp, at most ${MAX_ENSEMBLE_SKILL_DAYS} days, not scored by default) scores ` +
        'the ensemble: day D from the run /ensemble?forecasted_by=(D − days_ahead at latest_hour local) serves, point ' +
        'forecast the members’ mean, quantiles type 7 across the members.'
      : '') +
    baseline +
    (group.note ? ` ${group.note}` : '');
  return {
    path: `/${[group.segment, ...pathParams, 'skill'].join('/')}`,
    name: 'skill',
    summary: 'Get Forecast Skill',
    description,
    tag: group.tag,
    level: group.level,
    // The default models include every stored source holding the series: answered fresh, never cached.
    readsStore: true,
    params: [
      ...group.pathParams,
      START_PARAM,
      END_PARAM,
      ID_PARAM,
      SKILL_MODEL_PARAM,
      LATEST_HOUR_PARAM,
      SKILL_DAYS_AHEAD_PARAM,
      SKILL_BY_PARAM,
      SKILL_WINDOW_PARAM,
      ...(group.stored?.actual ? [SKILL_ACTUAL_SOURCE_PARAM] : []),
      ...(group.targetParams ?? []),
    ],
    response: { kind: 'records', schema: 'Skill' },
    handle: async (ctx) => {
      const request = await skillRequest(ctx);
      const by = ctx.params.by as SkillBy;
      const { days, explicit } = daysAheadOf(ctx.params.days_ahead);
      const rollingDays = rollingDaysOf(ctx.params.window, by);
      const models = await modelsOf(ctx, group, skill, request);
      const { timezone, window, continuous } = skillScope(ctx, request);
      // The series the skill scores are what it keeps (by valid hour, for the synthetic world's): see keptSeries.
      const keep = `skill:${group.segment}:${JSON.stringify(request)}`;
      // The climatology is part of the synthetic world: no baseline without it.
      const baseline = worldServed() ? skill.baseline : undefined;
      const scored = baseline && !models.includes(baseline) ? [...models, baseline] : models;
      const latestHour = continuous.latestHour;
      const keptName = (model: string, daysAhead: number) => `${keep}:${model}:${daysAhead}:${latestHour}`;
      // With an idle compute runner, some synthetic models' series are computed there while this
      // one computes the actual and the others (unless they are kept already): asked before the
      // actuals, which the helper does not need. A window the actuals refuse is refused as before
      // (the helper's work is then thrown away); frames that cannot be made here are left to the
      // path below, which reports what it reported.
      let handedOut = ctx.helper && worldServed() ? handedOutModels(scored) : [];
      const handedFrames = new Map<string, (Frame | QueryError)[]>();
      try {
        for (const model of handedOut) handedFrames.set(model, await leadFrames(group, ctx, continuous, model, days));
      } catch {
        handedOut = [];
      }
      const help = handedOut.some((model) =>
        handedFrames.get(model)!.some((f, i) => !(f instanceof QueryError) && !isKept(keptName(model, days[i]), f)),
      )
        ? ctx.helper!({ models: handedOut } satisfies SeriesTask).catch(() => null)
        : undefined;
      // The actuals first: they check the id and the window (a 422 when the window has none).
      const actualSource = ctx.params.actual_source as string | undefined;
      if (actualSource === undefined && !worldServed()) throw await worldOff(ctx, 'actual_source');
      const storedActual = group.stored?.actual;
      const actualFrame =
        actualSource !== undefined && storedActual
          ? await storedActual(ctx.world, readerOf(ctx), actualSource, { ...request, ...window }).catch((e: unknown) => {
              throw onActualSource(e);
            })
          : await group.queries.actual(ctx.world, { ...request, ...window });
      const actual = actualSource === undefined ? keptSeries(`${keep}:actual`, actualFrame) : seriesOf(actualFrame);
      let firstMissing: QueryError | undefined;
      /** A synthetic model's kept series at each lead (`given`: values computed by another runner). */
      const syntheticSeries = (model: string, frames: readonly (Frame | QueryError)[], given?: readonly unknown[] | null) =>
        frames.map((frame, i): ForecastSeries => {
          ctx.signal?.throwIfAborted();
          // The window and id are valid (the actuals passed): a continuous 422 here means no run serves it.
          if (frame instanceof QueryError) {
            firstMissing ??= frame;
            return { model, daysAhead: days[i], hours: [], values: new Float64Array(0) };
          }
          const values = given?.[i];
          const computed = values instanceof Float64Array && values.length === frame.hours.length ? values : undefined;
          return { model, daysAhead: days[i], ...keptSeries(keptName(model, days[i]), frame, computed) };
        });
      const perModel = new Map<string, ForecastSeries[]>();
      for (const model of scored) {
        if (handedOut.includes(model)) continue;
        const series: ForecastSeries[] = [];
        perModel.set(model, series);
        if (model === SKILL_ENSEMBLE && skill.ensemble) {
          const target = skill.ensemble.target(request);
          // A model the key may not see is refused as its own route refuses it.
          authorize(ctx.key, target.iso, skill.ensemble.level);
          const scope = ensembleScope(target.metric, hourWindowOf(window, timezone), window.end);
          series.push(...ensembleSkillSeries(ctx.world, { ...target, ...scope, latestHour, daysAhead: days, nowMs: ctx.nowMs }));
          continue;
        }
        const frames = await leadFrames(group, ctx, continuous, model, days);
        if (isSynthetic(model)) {
          series.push(...syntheticSeries(model, frames));
          continue;
        }
        for (const [i, frame] of frames.entries()) {
          ctx.signal?.throwIfAborted();
          if (frame instanceof QueryError) {
            firstMissing ??= frame;
            series.push({ model, daysAhead: days[i], hours: [], values: new Float64Array(0) });
            continue;
          }
          const hourSeries = seriesOf(frame);
          // Quantiles of one target only: those of a sum are not the sum of its targets' quantiles.
          const quantiles =
            frame.columns.length === 1
              ? await storedQuantiles(group, ctx, { ...continuous, daysAhead: days[i] }, model, hourSeries.hours)
              : undefined;
          series.push({ model, daysAhead: days[i], ...hourSeries, quantiles });
        }
      }
      // Declined (no runner was idle) or failed: computed here.
      const given = (await help) as (readonly unknown[] | null)[] | null | undefined;
      handedOut.forEach((model, k) => perModel.set(model, syntheticSeries(model, handedFrames.get(model)!, given?.[k])));
      const forecasts = scored.flatMap((model) => perModel.get(model)!);
      if (firstMissing && forecasts.every((f) => f.hours.length === 0)) throw firstMissing;
      const metric = skill.metric(request);
      const records = skillRecords({
        timezone,
        actual,
        forecasts,
        baselineModel: baseline,
        capacityAt: skill.capacityAt?.(request),
        ...scoringOf(metric),
        by,
        windowDays: rollingDays,
        firstDay: localDateOfHour(timezone, startHourOf(window.start, timezone)),
      }).filter((r) => models.includes(r.model));
      return explicit ? records : withoutUnreached(records);
    },
    // Another runner's part of a request (handle's handedOut): synthetic models' series at the request's leads.
    help: async (ctx, task) => {
      const { models } = task as SeriesTask;
      const { continuous } = skillScope(ctx, await skillRequest(ctx));
      const days = daysAheadOf(ctx.params.days_ahead).days;
      const values: (Float64Array | null)[][] = [];
      for (const model of models) {
        const frames = await leadFrames(group, ctx, continuous, model, days);
        values.push(frames.map((f) => (f instanceof QueryError ? null : uncached(() => seriesOf(f).values))));
      }
      return { result: values, transfer: values.flat().flatMap((v) => (v ? [v.buffer as ArrayBuffer] : [])) };
    },
  };
}
