/**
 * `/{group}/…/skill`: how good each model and stored source is, scored by the service from
 * exactly what `continuous` (for each days_ahead and the latest_hour) and `actual` return for the
 * same window (query/skill.ts). Access is the group's continuous level; the models are resolved as
 * the continuous route resolves them (a synthetic model, else a stored source).
 */
import type { MetricName } from '../../catalog/metrics.ts';
import type { ForecastModelName } from '../../models/forecastModels.ts';
import { QueryError, queryValueError } from '../../query/errors.ts';
import type { Frame } from '../../query/frame.ts';
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
import { endHourOf, startHourOf, type RequestInstant } from '../../query/window.ts';
import type { SeriesKey } from '../../store/sources.ts';
import { HOUR_MS, formatUtcInstant } from '../../time/hours.ts';
import { addDays, formatDate, localDateOfHour } from '../../time/zones.ts';
import { parseIntLikePydantic, type ParamSpec } from '../params.ts';
import type { RouteContext, RouteDef } from '../route.ts';
import { END_PARAM, ID_PARAM, LATEST_HOUR_PARAM, START_PARAM, requestInstant } from './common.ts';
import { continuousOf, readerOf, type GroupRoutesSpec } from './timeseries.ts';
import { worldServed } from '../worldSwitch.ts';

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
}

const SKILL_MODEL_PARAM: ParamSpec = {
  name: 'model',
  in: 'query',
  kind: 'string',
  list: true,
  description:
    'Models and stored sources to score: repeat the parameter or give a comma list (model=optimized,iso). Default: every ' +
    'model of the group and every stored source holding this ISO and metric (with GRIDCAST_WORLD=off, the stored sources only).',
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

const SKILL_SOURCE_PARAM: ParamSpec = {
  name: 'source',
  in: 'query',
  kind: 'string',
  minLength: 1,
  description:
    'A stored source whose actuals the forecasts are scored against (what /actual?source= returns, as published by now), ' +
    "instead of the ISO's; the default window then ends with its last actual. Required when the synthetic world is off.",
};

/**
 * The models named (in order, repeats dropped), or the group's models and the stored sources holding the series.
 * With the synthetic world off, only stored sources.
 */
async function modelsOf<R>(ctx: RouteContext, group: GroupRoutesSpec<R>, skill: SkillGroupSpec<R>, request: R): Promise<string[]> {
  const stored = group.stored && ctx.sources ? await readerOf(ctx).names() : [];
  const synthetic = worldServed() ? skill.models : [];
  const items = itemsOf(ctx.params.model);
  if (!items) {
    const holding: string[] = [];
    const key = skill.storedKey?.(request);
    for (const name of key ? stored : []) {
      const kinds = await readerOf(ctx).kindsOf(name);
      if (kinds.some((k) => k.group === key!.group && k.iso === key!.iso && k.metric === key!.metric)) holding.push(name);
    }
    return [...synthetic, ...holding];
  }
  const known = [...synthetic, ...stored];
  const models: string[] = [];
  for (const item of items) {
    if (!known.includes(item)) {
      const sources = stored.length > 0 ? `stored sources: ${stored.join(', ')}` : 'no stored source';
      const models = worldServed()
        ? `models are ${skill.models.join(', ')}${stored.length > 0 ? `; ${sources}` : ''}`
        : `the synthetic world is off (GRIDCAST_WORLD=off): ${sources}`;
      throw queryValueError('model', ctx.params.model, `unknown model ${JSON.stringify(item)}: ${models}`);
    }
    if (!models.includes(item)) models.push(item);
  }
  return models;
}

/**
 * The window of a request: start and end as given; without end, up to the last published
 * actual (`lastActualMs`); without start, the DEFAULT_SKILL_WINDOW_DAYS local days ending with end's day.
 */
function skillWindow(ctx: RouteContext, timezone: string, lastActualMs: number): { start: RequestInstant; end: RequestInstant } {
  const givenEnd = requestInstant(ctx.params.end, ctx.raw.end);
  const endMs = lastActualMs;
  const end = givenEnd ?? { epochMs: endMs, dateOnly: false, raw: formatUtcInstant(endMs) };
  const given = requestInstant(ctx.params.start, ctx.raw.start);
  if (given) return { start: given, end };
  const endDay = localDateOfHour(timezone, endHourOf(end, timezone));
  const day = formatDate(addDays(endDay, -(DEFAULT_SKILL_WINDOW_DAYS - 1)));
  return { start: { epochMs: Date.parse(`${day}T00:00:00Z`), dateOnly: true, raw: day }, end };
}

/** The frame's one series: its column, or the sum of its columns as written (rounded; nulls skipped). */
function seriesOf(frame: Frame): HourSeries {
  const n = frame.hours.length;
  const values = new Float64Array(n);
  if (frame.columns.length === 1) {
    frame.columns[0].fill(values);
    return { hours: frame.hours, values };
  }
  const f = 10 ** frame.decimals;
  const column = new Float64Array(n);
  const present = new Uint8Array(n);
  for (const c of frame.columns) {
    c.fill(column);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(column[i])) continue;
      values[i] += Math.round(column[i] * f) / f;
      present[i] = 1;
    }
  }
  for (let i = 0; i < n; i++) if (!present[i]) values[i] = Number.NaN;
  return { hours: frame.hours, values };
}

/** The last row's hour of a frame. */
const lastHourOf = (frame: Frame) => frame.hours[frame.hours.length - 1];

/** Leaves out the (model, days_ahead) pairs without any counted row: leads beyond a model's runs. */
function withoutUnreached(records: SkillRecord[]): SkillRecord[] {
  const reached = new Set(records.filter((r) => r.n > 0).map((r) => `${r.model}\u0000${r.days_ahead}`));
  return records.filter((r) => reached.has(`${r.model}\u0000${r.days_ahead}`));
}

/** The skill route of a group whose time-series routes `group` declares. */
export function skillRoute<R>(group: GroupRoutesSpec<R>, skill: SkillGroupSpec<R>): RouteDef {
  const pathParams = group.pathParams.map((p) => `{${p.name}}`);
  const baseline = skill.baseline
    ? ` skill_vs_normal = 1 − MAE / MAE of ${skill.baseline} over the hours both have.`
    : ` This group has no climatological baseline: skill_vs_normal is null.`;
  const description =
    'Forecast skill of each model and stored source against the actuals, computed from exactly what /continuous (for each ' +
    'days_ahead and latest_hour) and /actual return for the window (default: the 30 local days ending with the last ' +
    'published actual): n (hours with both values), mae, rmse, bias (mean forecast − actual), mape (leaving out hours ' +
    'whose |actual| is below 1 % of the mean |actual|; mape_skipped counts them), nmae_pct_capacity (wind and solar: ' +
    '|error| / capacity in operation, %), skill_vs_normal, coverage_p10_p90, pinball and crps (null where the forecast ' +
    'has no quantiles or members). Solar counts only hours where the forecast or the actual is above 0.' +
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
      ...(group.stored?.actual ? [SKILL_SOURCE_PARAM] : []),
      ...(group.targetParams ?? []),
    ],
    response: { kind: 'records', schema: 'Skill' },
    handle: async (ctx) => {
      const target = await group.target(ctx);
      const request = skill.single ? skill.single(target) : target;
      const by = ctx.params.by as SkillBy;
      const { days, explicit } = daysAheadOf(ctx.params.days_ahead);
      const rollingDays = rollingDaysOf(ctx.params.window, by);
      const models = await modelsOf(ctx, group, skill, request);
      const timezone = skill.timezone(request);
      const source = ctx.params.source as string | undefined;
      const storedActual = group.stored?.actual;
      // The truth scored against: the ISO's (the synthetic world), or a stored source's as published by now.
      const actualOf = (w: { start?: RequestInstant; end?: RequestInstant; nowMs: number }) =>
        source !== undefined && storedActual
          ? storedActual(ctx.world, readerOf(ctx), source, { ...request, ...w })
          : group.queries.actual(ctx.world, { ...request, ...w });
      // A stored source's window ends with its last actual (its default /actual window ends there).
      const lastActualMs =
        source !== undefined ? lastHourOf(await actualOf({ nowMs: ctx.nowMs })) * HOUR_MS : lastActualHour(ctx.nowMs) * HOUR_MS;
      const window = { ...skillWindow(ctx, timezone, lastActualMs), nowMs: ctx.nowMs };
      // The actuals first: they check the id and the window (a 422 when the window has none).
      const actual = seriesOf(await actualOf(window));
      // The climatological baseline is a synthetic model: not scored with the world off.
      const baseline = worldServed() ? skill.baseline : undefined;
      const scored = baseline && !models.includes(baseline) ? [...models, baseline] : models;
      const forecasts: ForecastSeries[] = [];
      let firstMissing: QueryError | undefined;
      for (const model of scored) {
        for (const daysAhead of days) {
          ctx.signal?.throwIfAborted();
          try {
            const continuous = { ...request, ...window, latestHour: ctx.params.latest_hour as number, daysAhead };
            forecasts.push({ model, daysAhead, ...seriesOf(await continuousOf(group, ctx, continuous, model)) });
          } catch (e) {
            // The window and id are valid (the actuals passed): a continuous 422 here means no run serves it.
            if (!(e instanceof QueryError)) throw e;
            firstMissing ??= e;
            forecasts.push({ model, daysAhead, hours: [], values: new Float64Array(0) });
          }
        }
      }
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
  };
}
