/**
 * The public operations of the API, by SDK method name, and the types every method derives
 * from the generated OpenAPI types. Method names are the official Python client's, in
 * camelCase (list_regions → listRegions); test/sdk.test.ts derives them from the served
 * document by the Python client's rule and checks this table against it.
 */
import type { components, paths } from './openapi.generated.ts';

export const OPERATIONS = {
  listRegions: '/region/{iso}/{metric}/list',
  getRegionalForecast: '/region/{iso}/{metric}/forecast',
  getRegionContinuousForecast: '/region/{iso}/{metric}/continuous',
  getHistoricalActuals: '/region/{iso}/{metric}/actual',
  getRegionDayAheadBackcast: '/region/{iso}/{metric}/backcast',
  getEnsembleForecast: '/region/{iso}/{metric}/ensemble',
  getIsoSummary: '/region/{iso}/summary',
  listPlants: '/plant/{iso}/{metric}/list',
  getPlantForecast: '/plant/{iso}/{metric}/forecast',
  getPlantContinuousForecast: '/plant/{iso}/{metric}/continuous',
  getPlantDayAheadBackcast: '/plant/{iso}/{metric}/backcast',
  listCounties: '/county/{iso}/list',
  getCountyForecast: '/county/{iso}/forecast',
  getCountyContinuousForecast: '/county/{iso}/continuous',
  listGasHubs: '/gas/list',
  getGasPriceForecast: '/gas/forecast',
  getContinuousGasForecast: '/gas/continuous',
  getGasDayAheadBackcast: '/gas/backcast',
  listLmpNodes: '/lmp/{iso}/{type}/list',
  getLmpForecast: '/lmp/{iso}/{type}/forecast',
  getLmpContinuousForecast: '/lmp/{iso}/{type}/continuous',
  getLmpActuals: '/lmp/{iso}/{type}/actual',
  listCells: '/cells/{iso}/{metric}/list',
  getCellsForecast: '/cells/{iso}/{metric}/forecast',
  getCellsContinuousForecast: '/cells/{iso}/{metric}/continuous',
  getCellsDayAheadBackcast: '/cells/{iso}/{metric}/backcast',
  listRegionForecastRuns: '/region/{iso}/{metric}/runs',
  getRegionForecastVintages: '/region/{iso}/{metric}/vintages',
  listPlantForecastRuns: '/plant/{iso}/{metric}/runs',
  getPlantForecastVintages: '/plant/{iso}/{metric}/vintages',
  listCellsForecastRuns: '/cells/{iso}/{metric}/runs',
  getCellsForecastVintages: '/cells/{iso}/{metric}/vintages',
  listCountyForecastRuns: '/county/{iso}/runs',
  getCountyForecastVintages: '/county/{iso}/vintages',
  listLmpForecastRuns: '/lmp/{iso}/{type}/runs',
  getLmpForecastVintages: '/lmp/{iso}/{type}/vintages',
  getDataStatus: '/status',
  getRegionForecastSkill: '/region/{iso}/{metric}/skill',
  getPlantForecastSkill: '/plant/{iso}/{metric}/skill',
  getGasForecastSkill: '/gas/skill',
  getCellsForecastSkill: '/cells/{iso}/{metric}/skill',
  getLmpForecastSkill: '/lmp/{iso}/{type}/skill',
} as const satisfies Record<string, keyof paths>;

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
export type PublicPath = Operations[OperationName];

type Get<P extends PublicPath> = paths[P]['get'];
/** One part of an operation's parameters; {} where the document has none (it says `never`). */
type Part<T> = [NonNullable<T>] extends [never] ? Record<never, never> : NonNullable<T>;
type PathParamsOfPath<P extends PublicPath> = Part<Get<P>['parameters']['path']>;
type QueryOf<P extends PublicPath> = Part<Get<P>['parameters']['query']>;
/** The path parameters of an operation, by name. */
export type PathParamsOf<M extends OperationName> = PathParamsOfPath<Operations[M]>;
/** The 200 body of an operation, as the document declares it. */
export type ResponseOf<P extends PublicPath> = Get<P>['responses'][200]['content']['application/json'];

/** The documents' schemas. */
export type Schemas = components['schemas'];
export type TimeseriesBody = Schemas['TimeseriesResponse'];
export type Region = Schemas['Region'];
export type Plant = Schemas['Plant'];
export type County = Schemas['County'];
export type Cell = Schemas['Cell'];
export type GasHub = Schemas['GasHub'];
export type LmpNode = Schemas['LmpNode'];
export type Run = Schemas['Run'];
export type ModelStatus = Schemas['ModelStatus'];
export type Skill = Schemas['Skill'];

export type Iso = PathParamsOfPath<'/region/{iso}/{metric}/list'>['iso'];
export type RegionMetric = PathParamsOfPath<'/region/{iso}/{metric}/forecast'>['metric'];
export type EnsembleMetric = PathParamsOfPath<'/region/{iso}/{metric}/ensemble'>['metric'];
export type PlantMetric = PathParamsOfPath<'/plant/{iso}/{metric}/forecast'>['metric'];
export type CellMetric = PathParamsOfPath<'/cells/{iso}/{metric}/forecast'>['metric'];
export type LmpType = PathParamsOfPath<'/lmp/{iso}/{type}/forecast'>['type'];

/** Query parameters that name an instant: they also take a Date. */
type InstantParam = 'start' | 'end' | 'forecasted_by' | 'as_of';

/** What every call takes besides its query parameters. */
export interface CallOptions {
  /** Aborts the request, including any wait before a retry. */
  signal?: AbortSignal;
}

/**
 * The options object of an operation: its query parameters (instants as an ISO 8601 string,
 * a bare date `YYYY-MM-DD` for a local day of the ISO, or a Date; an `id` as text or as the
 * number `listPlants()` gives; a `model` as one of the document's models or any other name, since
 * a stored source ingested into the service is a model name too) plus CallOptions.
 */
export type OptionsOf<M extends OperationName> = {
  [K in keyof QueryOf<Operations[M]>]: K extends InstantParam
    ? QueryOf<Operations[M]>[K] | Date
    : K extends 'id'
      ? QueryOf<Operations[M]>[K] | number
      : K extends 'model'
        ? // `string & {}` keeps the models' names as completions while taking any source name.
          QueryOf<Operations[M]>[K] | (string & {})
        : QueryOf<Operations[M]>[K];
} & CallOptions;

/**
 * The options of a skill operation: its list parameters (`model`, `days_ahead`) also as arrays,
 * sent as the comma lists the API takes.
 */
export type SkillOptionsOf<M extends OperationName, F extends Format> = Omit<OutputOptionsOf<M, F, 'wide'>, 'model' | 'days_ahead'> & {
  model?: string | readonly string[] | null;
  days_ahead?: string | number | readonly number[] | null;
};

/** The answer's format (`format=`): JSON, or a file's bytes or text. */
export type Format = 'json' | 'csv' | 'parquet' | 'arrow';
/** The table's layout (`layout=`): one column per series, or one row per hour and series. */
export type Layout = 'wide' | 'long';

/**
 * One row of a `layout: 'long'` JSON answer: the hour, the series' label (its first level as
 * `id`, further levels as `label_1`, `label_2`, …, null where a label has fewer) and the value.
 */
export interface LongRow {
  time_utc: string;
  time_local: string;
  id: string;
  [level: `label_${number}`]: string | null;
  value: number | null;
}

/**
 * What a call answers for format F and layout L, where J is its JSON (wide) answer: the text
 * of a CSV file, the bytes of a Parquet file or Arrow IPC stream, the rows of the long layout
 * as JSON, or J.
 */
export type Output<F extends Format, L extends Layout, J> = F extends 'csv'
  ? string
  : F extends 'parquet' | 'arrow'
    ? Uint8Array
    : L extends 'long'
      ? LongRow[]
      : J;

/**
 * The options of an operation with its `format` and `layout` (where it has them) as the type
 * parameters F and L, from which the method's return type follows.
 */
export type OutputOptionsOf<M extends OperationName, F extends Format, L extends Layout> = Omit<OptionsOf<M>, 'format' | 'layout'> &
  ('format' extends keyof QueryOf<Operations[M]> ? { format?: F | null } : unknown) &
  ('layout' extends keyof QueryOf<Operations[M]> ? { layout?: L } : unknown);

type PathArgs<P extends string, Params> = P extends `${string}{${infer N}}${infer Rest}`
  ? [N extends keyof Params ? Params[N] : never, ...PathArgs<Rest, Params>]
  : [];
/** The path parameters of an operation as its method's leading arguments, in path order. */
export type PathArgsOf<M extends OperationName> = PathArgs<Operations[M], PathParamsOf<M>>;

/**
 * Operations with a start/end window over time series: those the client splits into chunks of
 * at most 365 days (not the runs lists and vintages, whose windows are of another kind, nor
 * skill, whose scores over two chunks cannot be joined into the scores of the whole).
 */
export type WindowedOperationName = {
  [M in OperationName]: 'end' extends keyof QueryOf<Operations[M]>
    ? M extends `${string}ForecastRuns` | `${string}ForecastVintages` | `${string}ForecastSkill`
      ? never
      : M
    : never;
}[OperationName];

/** Does the client split the operation's windows over 365 days into chunks and join them (not skill: scores do not join)? */
export function joinsWindowChunks(method: OperationName): boolean {
  return !method.endsWith('ForecastSkill');
}

/** The path parameters of an operation, in path order (positional, like the Python client). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}
