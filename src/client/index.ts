/** @gridcast/client — a typed TypeScript client for the gridcast (ISOview-compatible) API. */
export { GridcastClient, type Chunk, type ClientOptions } from './client.ts';
export { GridcastError, GridcastNetworkError, type ErrorDetailItem } from './errors.ts';
export { DEFAULT_BASE_URL, type RetryEvent, type RetryOptions } from './http.ts';
export {
  joinsWindowChunks,
  OPERATIONS,
  type CallOptions,
  type Cell,
  type CellMetric,
  type County,
  type EnsembleMetric,
  type Format,
  type GasHub,
  type Iso,
  type LmpNode,
  type Layout,
  type LmpType,
  type LongRow,
  type ModelStatus,
  type OperationName,
  type OptionsOf,
  type Output,
  type OutputOptionsOf,
  type PathArgsOf,
  type Plant,
  type PlantMetric,
  type Region,
  type RegionMetric,
  type Run,
  type Schemas,
  type Skill,
  type SkillOptionsOf,
  type TimeseriesBody,
  type WindowedOperationName,
} from './operations.ts';
export { labelKey, TimeseriesResponse, type TimeseriesRow } from './timeseries.ts';
export { MAX_WINDOW_DAYS, planWindows, type ChunkWindow } from './window.ts';
export type { components, operations, paths } from './openapi.generated.ts';
