/**
 * GridcastClient: one method per public operation, named like the official Python client's
 * (in camelCase). Path parameters are positional, in path order; query parameters and the
 * AbortSignal go in an options object. Time series come back as TimeseriesResponse; windows
 * longer than 365 days are fetched in chunks and joined (or iterated with iterateChunks).
 */
import { GridcastError } from './errors.ts';
import { formatQueryValue, Transport, type QueryValue, type TransportOptions } from './http.ts';
import {
  OPERATIONS,
  pathParamNames,
  type CallOptions,
  type Cell,
  type CellMetric,
  type County,
  type EnsembleMetric,
  type GasHub,
  type Iso,
  type LmpNode,
  type LmpType,
  type ModelStatus,
  type OperationName,
  type Operations,
  type OptionsOf,
  type PathParamsOf,
  type Plant,
  type PlantMetric,
  type Region,
  type RegionMetric,
  type ResponseOf,
  type Run,
  type TimeseriesBody,
  type WindowedOperationName,
} from './operations.ts';
import { TimeseriesResponse } from './timeseries.ts';
import { planWindows, type ChunkWindow } from './window.ts';

export type ClientOptions = TransportOptions;

/**
 * One chunk of a windowed request, as `iterateChunks` yields them. `data` holds the chunk's
 * rows, without any row an earlier chunk already yielded (chunks of instants share their
 * boundary hour); it is null when the server had no data for the chunk (a 422 on one chunk
 * of several, kept in `error`).
 */
export type Chunk = ChunkWindowInfo & ({ data: TimeseriesResponse; error?: undefined } | { data: null; error: GridcastError });

interface ChunkWindowInfo {
  /** 0-based position, and how many chunks the window was split into. */
  index: number;
  count: number;
  /** The window this chunk asked for (undefined where the call left start/end to the server's defaults). */
  start: string | undefined;
  end: string | undefined;
}

/** The query part of an options object, without the signal. */
function queryOf(options: CallOptions & object): Record<string, QueryValue> {
  const { signal: _signal, ...query } = options as CallOptions & Record<string, QueryValue>;
  return query;
}

export class GridcastClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** The API's base URL, e.g. http://127.0.0.1:8000/v1. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  private async get<M extends OperationName>(
    method: M,
    pathParams: PathParamsOf<M>,
    options: CallOptions & object = {},
  ): Promise<ResponseOf<Operations[M]>> {
    const url = this.transport.url(OPERATIONS[method], pathParams as Record<string, string>, queryOf(options));
    return this.transport.getJson<ResponseOf<Operations[M]>>(url, options.signal);
  }

  private async timeseries<M extends OperationName>(
    method: M,
    pathParams: PathParamsOf<M>,
    options: CallOptions & object = {},
  ): Promise<TimeseriesResponse> {
    return new TimeseriesResponse((await this.get(method, pathParams, options)) as TimeseriesBody);
  }

  /** The chunks of a windowed request, fetched one at a time as the caller iterates. */
  private async *chunksOf(
    method: WindowedOperationName,
    pathParams: Record<string, string>,
    options: CallOptions & { start?: string | Date | null; end?: string | Date | null },
  ): AsyncGenerator<Chunk> {
    const query = queryOf(options);
    const planned = options.start != null && options.end != null ? planWindows(options.start, options.end) : undefined;
    // Without a plan: one request with start/end as given (or left to the server's defaults).
    const windows: Partial<ChunkWindow>[] = planned ?? [{}];
    const text = (v: QueryValue) => (v === null || v === undefined ? undefined : formatQueryValue(v));
    let lastMs = -Infinity;
    for (const [index, window] of windows.entries()) {
      const windowQuery = { ...query, ...window };
      const url = this.transport.url(OPERATIONS[method], pathParams, windowQuery);
      const [start, end] = [text(windowQuery.start), text(windowQuery.end)];
      let data: TimeseriesResponse;
      try {
        data = new TimeseriesResponse(await this.transport.getJson<TimeseriesBody>(url, options.signal));
      } catch (error) {
        // One chunk of several with no data (before history begins, say) is no data, not a failure.
        if (windows.length > 1 && error instanceof GridcastError && error.status === 422) {
          yield { index, count: windows.length, start, end, data: null, error };
          continue;
        }
        throw error;
      }
      data = data.rowsAfter(lastMs);
      if (data.length > 0) lastMs = data.timesUtc()[data.length - 1].getTime();
      yield { index, count: windows.length, start, end, data };
    }
  }

  /** Every chunk joined; when no chunk had data, the first chunk's error. */
  private async joined(chunks: AsyncIterable<Chunk>): Promise<TimeseriesResponse> {
    const parts: TimeseriesResponse[] = [];
    let firstError: GridcastError | undefined;
    for await (const chunk of chunks) {
      if (chunk.data) parts.push(chunk.data);
      else firstError ??= chunk.error;
    }
    // No chunk had data: every one of them (there is at least one) carried its error.
    if (parts.length === 0) throw firstError!;
    return TimeseriesResponse.concat(parts);
  }

  private windowed<M extends WindowedOperationName>(
    method: M,
    pathParams: PathParamsOf<M>,
    options: OptionsOf<M>,
  ): Promise<TimeseriesResponse> {
    return this.joined(this.chunksOf(method, pathParams as Record<string, string>, options));
  }

  /**
   * The chunks of a windowed call one by one, for progress and resumable downloads: the same
   * arguments as the method, e.g.
   * `for await (const c of client.iterateChunks('getPlantContinuousForecast', 'ercot', 'wind', { start, end })) …`.
   * Each chunk is fetched when the loop asks for it; breaking out of the loop stops there.
   */
  iterateChunks<M extends WindowedOperationName>(method: M, ...args: Parameters<GridcastClient[M]>): AsyncGenerator<Chunk> {
    const names = pathParamNames(OPERATIONS[method]);
    const pathParams = Object.fromEntries(names.map((name, i) => [name, String(args[i])]));
    const options = (args[names.length] ?? {}) as OptionsOf<M>;
    return this.chunksOf(method, pathParams, options);
  }

  // ---- regions --------------------------------------------------------------------------

  /** The ISO total (`<iso>_total`) and its zones. */
  listRegions(iso: Iso, metric: RegionMetric, options: CallOptions = {}): Promise<Region[]> {
    return this.get('listRegions', { iso, metric }, options);
  }

  /** The latest forecast run (or the latest at or before `forecasted_by`) for one or all regions. */
  getRegionalForecast(iso: Iso, metric: RegionMetric, options: OptionsOf<'getRegionalForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getRegionalForecast', { iso, metric }, options);
  }

  /** Forecast runs stitched into one series by local day (`latest_hour`, `days_ahead`). */
  getRegionContinuousForecast(
    iso: Iso,
    metric: RegionMetric,
    options: OptionsOf<'getRegionContinuousForecast'> = {},
  ): Promise<TimeseriesResponse> {
    return this.windowed('getRegionContinuousForecast', { iso, metric }, options);
  }

  /** Observed values (history from 2023-01-01). */
  getHistoricalActuals(iso: Iso, metric: RegionMetric, options: OptionsOf<'getHistoricalActuals'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getHistoricalActuals', { iso, metric }, options);
  }

  /** The optimized model's day-ahead series (enterprise). */
  getRegionDayAheadBackcast(
    iso: Iso,
    metric: RegionMetric,
    options: OptionsOf<'getRegionDayAheadBackcast'> = {},
  ): Promise<TimeseriesResponse> {
    return this.windowed('getRegionDayAheadBackcast', { iso, metric }, options);
  }

  /** The 51 members of an ensemble run for one region (`id` required). */
  getEnsembleForecast(iso: Iso, metric: EnsembleMetric, options: OptionsOf<'getEnsembleForecast'>): Promise<TimeseriesResponse> {
    return this.timeseries('getEnsembleForecast', { iso, metric }, options);
  }

  /** Every region × metric, forecast and actual, around `as_of`. */
  getIsoSummary(iso: Iso, options: OptionsOf<'getIsoSummary'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getIsoSummary', { iso }, options);
  }

  // ---- plants ---------------------------------------------------------------------------

  /** The ISO's operating plants of the metric's type. */
  listPlants(iso: Iso, metric: PlantMetric, options: CallOptions = {}): Promise<Plant[]> {
    return this.get('listPlants', { iso, metric }, options);
  }

  getPlantForecast(iso: Iso, metric: PlantMetric, options: OptionsOf<'getPlantForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getPlantForecast', { iso, metric }, options);
  }

  getPlantContinuousForecast(
    iso: Iso,
    metric: PlantMetric,
    options: OptionsOf<'getPlantContinuousForecast'> = {},
  ): Promise<TimeseriesResponse> {
    return this.windowed('getPlantContinuousForecast', { iso, metric }, options);
  }

  getPlantDayAheadBackcast(
    iso: Iso,
    metric: PlantMetric,
    options: OptionsOf<'getPlantDayAheadBackcast'> = {},
  ): Promise<TimeseriesResponse> {
    return this.windowed('getPlantDayAheadBackcast', { iso, metric }, options);
  }

  // ---- counties -------------------------------------------------------------------------

  /** The ISO's member counties (demand only). */
  listCounties(iso: Iso, options: CallOptions = {}): Promise<County[]> {
    return this.get('listCounties', { iso }, options);
  }

  getCountyForecast(iso: Iso, options: OptionsOf<'getCountyForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getCountyForecast', { iso }, options);
  }

  getCountyContinuousForecast(iso: Iso, options: OptionsOf<'getCountyContinuousForecast'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getCountyContinuousForecast', { iso }, options);
  }

  // ---- gas ------------------------------------------------------------------------------

  /** The gas trading hubs. */
  listGasHubs(options: CallOptions = {}): Promise<GasHub[]> {
    return this.get('listGasHubs', {}, options);
  }

  getGasPriceForecast(options: OptionsOf<'getGasPriceForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getGasPriceForecast', {}, options);
  }

  getContinuousGasForecast(options: OptionsOf<'getContinuousGasForecast'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getContinuousGasForecast', {}, options);
  }

  getGasDayAheadBackcast(options: OptionsOf<'getGasDayAheadBackcast'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getGasDayAheadBackcast', {}, options);
  }

  // ---- LMPs -----------------------------------------------------------------------------

  /** The ISO's pricing nodes (hubs, zones, generated nodes). */
  listLmpNodes(iso: Iso, type: LmpType, options: CallOptions = {}): Promise<LmpNode[]> {
    return this.get('listLmpNodes', { iso, type }, options);
  }

  getLmpForecast(iso: Iso, type: LmpType, options: OptionsOf<'getLmpForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getLmpForecast', { iso, type }, options);
  }

  getLmpContinuousForecast(iso: Iso, type: LmpType, options: OptionsOf<'getLmpContinuousForecast'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getLmpContinuousForecast', { iso, type }, options);
  }

  // ---- H3 cells -------------------------------------------------------------------------

  /** The H3 cells covering the ISO at `resolution` (2–5, default 4). */
  listCells(iso: Iso, metric: CellMetric, options: OptionsOf<'listCells'> = {}): Promise<Cell[]> {
    return this.get('listCells', { iso, metric }, options);
  }

  getCellsForecast(iso: Iso, metric: CellMetric, options: OptionsOf<'getCellsForecast'> = {}): Promise<TimeseriesResponse> {
    return this.timeseries('getCellsForecast', { iso, metric }, options);
  }

  getCellsContinuousForecast(
    iso: Iso,
    metric: CellMetric,
    options: OptionsOf<'getCellsContinuousForecast'> = {},
  ): Promise<TimeseriesResponse> {
    return this.windowed('getCellsContinuousForecast', { iso, metric }, options);
  }

  getCellsDayAheadBackcast(iso: Iso, metric: CellMetric, options: OptionsOf<'getCellsDayAheadBackcast'> = {}): Promise<TimeseriesResponse> {
    return this.windowed('getCellsDayAheadBackcast', { iso, metric }, options);
  }

  // ---- runs, vintages and status -------------------------------------------------------

  /** The runs of a model created between `start` and `end` (regions). */
  listRegionForecastRuns(iso: Iso, metric: RegionMetric, options: OptionsOf<'listRegionForecastRuns'> = {}): Promise<Run[]> {
    return this.get('listRegionForecastRuns', { iso, metric }, options);
  }

  /** Every run's value for the hours of `valid_time` (or a window), one row per run. */
  getRegionForecastVintages(iso: Iso, metric: RegionMetric, options: OptionsOf<'getRegionForecastVintages'>): Promise<TimeseriesResponse> {
    return this.timeseries('getRegionForecastVintages', { iso, metric }, options);
  }

  listPlantForecastRuns(iso: Iso, metric: PlantMetric, options: OptionsOf<'listPlantForecastRuns'> = {}): Promise<Run[]> {
    return this.get('listPlantForecastRuns', { iso, metric }, options);
  }

  getPlantForecastVintages(iso: Iso, metric: PlantMetric, options: OptionsOf<'getPlantForecastVintages'>): Promise<TimeseriesResponse> {
    return this.timeseries('getPlantForecastVintages', { iso, metric }, options);
  }

  listCellsForecastRuns(iso: Iso, metric: CellMetric, options: OptionsOf<'listCellsForecastRuns'> = {}): Promise<Run[]> {
    return this.get('listCellsForecastRuns', { iso, metric }, options);
  }

  getCellsForecastVintages(iso: Iso, metric: CellMetric, options: OptionsOf<'getCellsForecastVintages'>): Promise<TimeseriesResponse> {
    return this.timeseries('getCellsForecastVintages', { iso, metric }, options);
  }

  listCountyForecastRuns(iso: Iso, options: OptionsOf<'listCountyForecastRuns'> = {}): Promise<Run[]> {
    return this.get('listCountyForecastRuns', { iso }, options);
  }

  getCountyForecastVintages(iso: Iso, options: OptionsOf<'getCountyForecastVintages'>): Promise<TimeseriesResponse> {
    return this.timeseries('getCountyForecastVintages', { iso }, options);
  }

  listLmpForecastRuns(iso: Iso, type: LmpType, options: OptionsOf<'listLmpForecastRuns'> = {}): Promise<Run[]> {
    return this.get('listLmpForecastRuns', { iso, type }, options);
  }

  getLmpForecastVintages(iso: Iso, type: LmpType, options: OptionsOf<'getLmpForecastVintages'>): Promise<TimeseriesResponse> {
    return this.timeseries('getLmpForecastVintages', { iso, type }, options);
  }

  /** Per ISO and model: the last and next run and the last published actual hour. */
  getDataStatus(options: CallOptions = {}): Promise<ModelStatus[]> {
    return this.get('getDataStatus', {}, options);
  }
}
