/**
 * The request kinds of a target group served from a stored source (`model=<source>`, and
 * `/actual?source=<source>`): the same frame builders as a synthetic model's (query/kinds.ts,
 * vintages.ts), given the stored source's runs and actuals instead of a model's.
 */
import {
  actualFrame,
  continuousFrame,
  forecastFrame,
  type Actuals,
  type ContinuousParams,
  type ForecastParams,
  type Forecasts,
  type SeriesGroup,
  type WindowParams,
} from './kinds.ts';
import type { Frame } from './frame.ts';
import { listRuns, vintagesFrame, type RunRecord, type RunsParams, type VintagesParams } from './vintages.ts';
import type { RequestInstant } from './window.ts';
import type { SeriesKey } from '../store/sources.ts';
import type { Unit } from '../catalog/metrics.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import type { SourceReader } from '../sources/reader.ts';
import { quantileGroup, storedActuals, storedForecasts, storedSeries, type QuantileOf } from '../sources/stored.ts';
import { dailyActualFrame, dailyContinuousFrame, dailyForecastFrame, type DailySeriesGroup } from './daily.ts';

/** What a stored request needs of a series group, hourly or daily: its targets, clock, unit and labels. */
interface TargetGroup<T> {
  timezone: string;
  units: Unit;
  targets: readonly T[];
  label(target: T): string[];
}

/**
 * A group whose values come from a stored source, not the synthetic world: it serves as an hourly
 * SeriesGroup and as a DailySeriesGroup alike (its `source` is never called).
 */
type StoredGroup<T> = TargetGroup<T> & { source(): never };

/** How a group's requests name stored series (`G`: the request's targets as a group, hourly or daily). */
export interface StoredGroupSpec<R, T, G extends TargetGroup<T> = SeriesGroup<T>> {
  /**
   * The request's targets as a series group; `held` are the ids the source holds for the
   * request's key (a group of own targets is made of them, one of catalog targets ignores them).
   */
  group(world: WeatherWorld, request: R, held: readonly string[]): G;
  key(request: R): SeriesKey;
  idOf(target: T): string;
  id(request: R): string | undefined;
}

type Omitted<P> = Omit<P, 'model'>;

/**
 * `quantiles`: the request's columns are those quantiles of each target, labelled
 * [target…, "q0.1"], instead of the point forecasts (a stored source that holds them).
 */
export interface QuantileRequest {
  quantiles?: readonly number[];
}

/** The frame builders of a cadence: hourly (kinds.ts) or daily (daily.ts), fed a stored source's forecasts and actuals. */
interface Frames {
  forecast<C>(group: StoredGroup<C>, p: ForecastParams, f: Forecasts<C>): Frame;
  continuous<C>(group: StoredGroup<C>, p: ContinuousParams, f: Forecasts<C>): Frame;
  actual<C>(group: StoredGroup<C>, p: WindowParams, a: Actuals<C>): Frame;
}

const HOURLY_FRAMES: Frames = {
  forecast: (group, p, f) => forecastFrame(group, p, f),
  continuous: (group, p, f) => continuousFrame(group, p, f.historyStart, 'continuous forecasts', f),
  actual: (group, p, a) => actualFrame(group, p, a),
};

const DAILY_FRAMES: Frames = {
  forecast: (group, p, f) => dailyForecastFrame(group, p, f),
  continuous: (group, p, f) => dailyContinuousFrame(group, p, undefined, 'continuous forecasts', f),
  actual: (group, p, a) => dailyActualFrame(group, p, a),
};

/** The group as a stored source serves it: its values never come from the synthetic world. */
function storedGroup<T>(group: TargetGroup<T>): StoredGroup<T> {
  return {
    ...group,
    source: () => {
      throw new Error('the values of stored targets come from their source');
    },
  };
}

/** The request kinds served from stored sources, over a cadence's frame builders. */
function storedKindsFor<R, T, G extends TargetGroup<T>>(spec: StoredGroupSpec<R, T, G>, frames: Frames) {
  // `param`: the request's parameter naming the source (`source` for actuals), which its errors name.
  const series = (world: WeatherWorld, reader: SourceReader, source: string, r: R, param: 'model' | 'source' = 'model') =>
    storedSeries(reader, source, spec.key(r), (held) => spec.group(world, r, held), spec.idOf, spec.id(r), param);
  /** Builds a frame from the source's forecasts: of each target's point forecast, or of the quantiles the request names. */
  const withForecasts = async <F>(
    world: WeatherWorld,
    reader: SourceReader,
    source: string,
    r: R & { nowMs: number } & QuantileRequest,
    build: <C>(group: StoredGroup<C>, f: Forecasts<C>) => F,
  ): Promise<F> => {
    const s = await series(world, reader, source, r);
    const stored = await storedForecasts(reader, s, r.nowMs);
    const result = r.quantiles?.length
      ? build<QuantileOf<T>>(quantileGroup(s.group, r.quantiles), stored.quantiles(r.quantiles))
      : build<T>(storedGroup(s.group), stored.forecasts);
    await stored.load();
    return result;
  };
  return {
    withForecasts,
    forecast: (
      world: WeatherWorld,
      reader: SourceReader,
      source: string,
      r: R & { forecastedBy?: RequestInstant; nowMs: number } & QuantileRequest,
    ) => withForecasts(world, reader, source, r, (group, f): Frame => frames.forecast(group, { ...r, model: 'optimized' }, f)),
    continuous: (world: WeatherWorld, reader: SourceReader, source: string, r: R & Omitted<ContinuousParams> & QuantileRequest) =>
      withForecasts(world, reader, source, r, (group, f): Frame => frames.continuous(group, { ...r, model: 'optimized' }, f)),
    /** Actuals as published at or before `asOfMs` (default now; never after now). */
    actual: async (world: WeatherWorld, reader: SourceReader, source: string, r: R & WindowParams & { asOfMs?: number }) => {
      const s = await series(world, reader, source, r, 'source');
      const { actuals, load } = await storedActuals(reader, s, Math.min(r.asOfMs ?? r.nowMs, r.nowMs));
      const frame = frames.actual(storedGroup(s.group), r, actuals);
      await load();
      return frame;
    },
  };
}

/** The request kinds of an hourly group served from stored sources: forecast, continuous, runs, vintages and actual. */
export function storedQueriesFor<R, T>(spec: StoredGroupSpec<R, T>) {
  const { withForecasts, forecast, continuous, actual } = storedKindsFor(spec, HOURLY_FRAMES);
  return {
    forecast,
    continuous,
    runs: (world: WeatherWorld, reader: SourceReader, source: string, r: R & Omitted<RunsParams>) =>
      withForecasts(world, reader, source, { ...r, quantiles: undefined }, (group, f): RunRecord[] =>
        listRuns(group.timezone, { ...r, model: 'optimized' }, f),
      ),
    vintages: (world: WeatherWorld, reader: SourceReader, source: string, r: R & Omitted<VintagesParams>) =>
      withForecasts(world, reader, source, { ...r, quantiles: undefined }, (group, f): Frame =>
        vintagesFrame(group, { ...r, model: 'optimized' }, f),
      ),
    actual,
  };
}

export type StoredQueries<R> = ReturnType<typeof storedQueriesFor<R, unknown>>;

/**
 * The request kinds of a daily group (gas, regions' outage) served from stored sources: a stored
 * run holds one value per day at the day's first hour (as the daily frames' rows are), so the
 * same stored forecasts and actuals serve it through the daily frame builders. No runs or
 * vintages: the synthetic daily series have none either.
 */
export function storedDailyQueriesFor<R, T>(spec: StoredGroupSpec<R, T, DailySeriesGroup<T>>) {
  const { forecast, continuous, actual } = storedKindsFor(spec, DAILY_FRAMES);
  return { forecast, continuous, actual };
}

/** The request kinds a group may serve from stored sources (a daily group: forecast and continuous). */
export type StoredKinds<R> = Pick<StoredQueries<R>, 'forecast' | 'continuous'> & Partial<StoredQueries<R>>;

/**
 * The ids a source holds of a group that takes own targets (plants, price nodes), in the order
 * of its lists: the synthetic catalog's ids in catalog order, then the source's own ids in
 * natural order (`GEN_2` before `GEN_10`).
 */
export function orderedTargets(held: readonly string[], catalogIds: readonly string[]): string[] {
  const holds = new Set(held);
  const known = new Set(catalogIds);
  const own = held.filter((t) => !known.has(t)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return [...catalogIds.filter((t) => holds.has(t)), ...own];
}

/**
 * A series group of the target ids a source holds (own targets: no synthetic source). With `id`,
 * only that one (none when the source does not hold it: storedSeries then names what it holds).
 */
export function heldTargetGroup(
  timezone: string,
  units: Unit,
  held: readonly string[],
  catalogIds: readonly string[],
  id: string | undefined,
): SeriesGroup<string> & DailySeriesGroup<string> {
  const ordered = orderedTargets(held, catalogIds);
  return {
    timezone,
    units,
    targets: id === undefined ? ordered : ordered.filter((t) => t === id.trim()),
    label: (target) => [target],
    source: () => {
      throw new Error('the values of stored targets come from their source');
    },
  };
}

/** A target id as list records carry it: an integer id (catalog plants have them) as a number, else the text. */
export function recordId(id: string): number | string {
  return /^[1-9]\d{0,14}$/.test(id) ? Number(id) : id;
}
