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
  type Format,
  type Layout,
  type LongRow,
  type Output,
  type OutputOptionsOf,
  type PathArgsOf,
  type EnsembleMetric,
  type GasHub,
  type Iso,
  type LmpNode,
  type LmpType,
  type ModelStatus,
  type OperationName,
  type Plant,
  type PlantMetric,
  type Region,
  type RegionMetric,
  type Run,
  type Skill,
  type SkillOptionsOf,
  type TimeseriesBody,
  type WindowedOperationName,
} from './operations.ts';
import { TimeseriesResponse } from './timeseries.ts';
import { MAX_WINDOW_DAYS, planWindows, type ChunkWindow } from './window.ts';

export type ClientOptions = TransportOptions;

/**
 * One chunk of a windowed request, as `iterateChunks` yields them. `data` holds the chunk's
 * rows (a TimeseriesResponse, or LongRow[] for `layout: 'long'`), without any row an earlier
 * chunk already yielded (chunks of instants share their boundary hour); it is null when the
 * server had no data for the chunk (a 422 on one chunk of several, kept in `error`).
 */
export type Chunk<D = TimeseriesResponse> = ChunkWindowInfo & ({ data: D; error?: undefined } | { data: null; error: GridcastError });

interface ChunkWindowInfo {
  /** 0-based position, and how many chunks the window was split into. */
  index: number;
  count: number;
  /** The window this chunk asked for (undefined where the call left start/end to the server's defaults). */
  start: string | undefined;
  end: string | undefined;
}

/** iterateChunks' arguments after the method's name: the method's own, in JSON (`layout: 'long'` said, or wide). */
type ChunkArgs<M extends WindowedOperationName, L extends Layout> =
  PathArgsOf<M> extends infer P extends unknown[]
    ? L extends 'long'
      ? [...P, options: OutputOptionsOf<M, 'json', 'long'> & { layout: 'long' }]
      : [...P, options?: OutputOptionsOf<M, 'json', 'wide'>]
    : never;

/** The options every method reads itself (the rest is the query). */
type OutputOptions = CallOptions & { format?: Format | null; layout?: Layout } & Record<string, unknown>;
type WindowOptions = { start?: string | Date | null; end?: string | Date | null };

/** The requests of a windowed call: its window in chunks, or one request as given (no start and end, or a form the planner does not read). */
function windowsOf(options: WindowOptions): Partial<ChunkWindow>[] {
  return (options.start != null && options.end != null ? planWindows(options.start, options.end) : undefined) ?? [{}];
}

/** How a JSON layout's chunks are read, trimmed of rows an earlier chunk gave, and joined. */
interface JsonLayout<D> {
  read(body: unknown): D;
  /** The rows after `instantMs`, and the last instant among them (-Infinity for none). */
  after(data: D, instantMs: number): { data: D; lastMs: number };
  concat(parts: D[]): D;
}

const WIDE: JsonLayout<TimeseriesResponse> = {
  read: (body) => new TimeseriesResponse(body as TimeseriesBody),
  after(data, instantMs) {
    const rest = data.rowsAfter(instantMs);
    return { data: rest, lastMs: rest.length > 0 ? rest.timesUtc()[rest.length - 1].getTime() : -Infinity };
  },
  concat: (parts) => TimeseriesResponse.concat(parts),
};

/** The label of a long row (its id and further levels), as one key. */
const seriesKey = (row: LongRow) => JSON.stringify(Object.entries(row).filter(([k]) => k === 'id' || k.startsWith('label_')));

const LONG: JsonLayout<LongRow[]> = {
  read: (body) => body as LongRow[],
  after(rows, instantMs) {
    const rest = rows.filter((r) => Date.parse(r.time_utc) > instantMs);
    return { data: rest, lastMs: rest.reduce((last, r) => Math.max(last, Date.parse(r.time_utc)), -Infinity) };
  },
  // Series after series, as one answer has them: each series' rows of every chunk in turn.
  concat(parts) {
    const bySeries = new Map<string, LongRow[]>();
    for (const row of parts.flat()) {
      const key = seriesKey(row);
      const rows = bySeries.get(key);
      if (rows) rows.push(row);
      else bySeries.set(key, [row]);
    }
    return [...bySeries.values()].flat();
  },
};

/** The JSON layout's reader, for a caller that knows (by its types) which data it gets. */
function jsonLayout<D>(layout: Layout | undefined): JsonLayout<D> {
  return (layout === 'long' ? LONG : WIDE) as unknown as JsonLayout<D>;
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

  /** The answer to one request, as its options' format and layout ask; `fromJson` makes the JSON wide answer. */
  private async answer(
    method: OperationName,
    pathParams: Record<string, string>,
    options: OutputOptions,
    fromJson: (body: unknown) => unknown,
  ): Promise<unknown> {
    const url = this.transport.url(OPERATIONS[method], pathParams, queryOf(options));
    const format = options.format ?? 'json';
    if (format === 'csv') return this.transport.getBody(url, 'text', options.signal);
    if (format === 'parquet' || format === 'arrow') return this.transport.getBody(url, 'bytes', options.signal);
    const body = await this.transport.getJson(url, options.signal);
    return options.layout === 'long' ? body : fromJson(body);
  }

  /** A list of records (or its file). T is the method's declared answer. */
  private async list<T>(method: OperationName, pathParams: object, options: OutputOptions): Promise<T> {
    return (await this.answer(method, pathParams as Record<string, string>, options, (body) => body)) as T;
  }

  /** One time series request (or its file). T is the method's declared answer. */
  private async series<T>(method: OperationName, pathParams: object, options: OutputOptions): Promise<T> {
    const body = await this.answer(
      method,
      pathParams as Record<string, string>,
      options,
      (b) => new TimeseriesResponse(b as TimeseriesBody),
    );
    return body as T;
  }

  /**
   * A windowed request: in JSON, chunks of at most 365 days joined into one answer. A file
   * format (CSV, Parquet, Arrow) is one file per request, which the client does not merge: a
   * window that needs several requests is refused before any is made.
   */
  private async windowed<T>(method: WindowedOperationName, pathParams: object, options: OutputOptions & WindowOptions): Promise<T> {
    const format = options.format ?? 'json';
    const params = pathParams as Record<string, string>;
    if (format === 'json') {
      const layout = jsonLayout<T>(options.layout);
      return this.joined(layout, this.chunksOf(layout, method, params, options));
    }
    const windows = windowsOf(options);
    if (windows.length > 1) {
      throw new RangeError(
        `format '${format}' answers one file per request, and ${formatQueryValue(options.start!)} … ${formatQueryValue(options.end!)} ` +
          `needs ${windows.length} requests of at most ${MAX_WINDOW_DAYS} days: ask for format 'json' (joined here), ` +
          'call once per window of planWindows(start, end), or use `gridcast get`, which writes them as one file',
      );
    }
    return (await this.answer(method, params, { ...options, ...windows[0] }, () => undefined)) as T;
  }

  /** The chunks of a windowed JSON request, fetched one at a time as the caller iterates. */
  private async *chunksOf<D>(
    layout: JsonLayout<D>,
    method: WindowedOperationName,
    pathParams: Record<string, string>,
    options: OutputOptions & WindowOptions,
  ): AsyncGenerator<Chunk<D>> {
    const query = queryOf(options);
    const windows = windowsOf(options);
    const text = (v: QueryValue) => (v === null || v === undefined ? undefined : formatQueryValue(v));
    let lastMs = -Infinity;
    for (const [index, window] of windows.entries()) {
      const windowQuery = { ...query, ...window };
      const url = this.transport.url(OPERATIONS[method], pathParams, windowQuery);
      const [start, end] = [text(windowQuery.start), text(windowQuery.end)];
      let body: unknown;
      try {
        body = await this.transport.getJson(url, options.signal);
      } catch (error) {
        // One chunk of several with no data (before history begins, say) is no data, not a failure.
        if (windows.length > 1 && error instanceof GridcastError && error.status === 422) {
          yield { index, count: windows.length, start, end, data: null, error };
          continue;
        }
        throw error;
      }
      const rest = layout.after(layout.read(body), lastMs);
      lastMs = Math.max(lastMs, rest.lastMs);
      yield { index, count: windows.length, start, end, data: rest.data };
    }
  }

  /** Every chunk joined; when no chunk had data, the first chunk's error. */
  private async joined<D>(layout: JsonLayout<D>, chunks: AsyncIterable<Chunk<D>>): Promise<D> {
    const parts: D[] = [];
    let firstError: GridcastError | undefined;
    for await (const chunk of chunks) {
      if (chunk.data) parts.push(chunk.data);
      else firstError ??= chunk.error;
    }
    // No chunk had data: every one of them (there is at least one) carried its error.
    if (parts.length === 0) throw firstError!;
    return layout.concat(parts);
  }

  /**
   * The chunks of a windowed call one by one, for progress and resumable downloads: the same
   * arguments as the method (JSON, wide or long), e.g.
   * `for await (const c of client.iterateChunks('getPlantContinuousForecast', 'ercot', 'wind', { start, end })) …`.
   * Each chunk is fetched when the loop asks for it; breaking out of the loop stops there.
   */
  iterateChunks<M extends WindowedOperationName>(method: M, ...args: ChunkArgs<M, 'long'>): AsyncGenerator<Chunk<LongRow[]>>;
  iterateChunks<M extends WindowedOperationName>(method: M, ...args: ChunkArgs<M, 'wide'>): AsyncGenerator<Chunk<TimeseriesResponse>>;
  iterateChunks(method: WindowedOperationName, ...args: unknown[]): AsyncGenerator<Chunk<TimeseriesResponse | LongRow[]>> {
    const names = pathParamNames(OPERATIONS[method]);
    const pathParams = Object.fromEntries(names.map((name, i) => [name, String(args[i])]));
    const options = (args[names.length] ?? {}) as OutputOptions & WindowOptions;
    if ((options.format ?? 'json') !== 'json') throw new TypeError(`iterateChunks reads JSON (got format '${options.format}')`);
    return this.chunksOf(jsonLayout(options.layout), method, pathParams, options);
  }

  // ---- regions --------------------------------------------------------------------------

  /** The ISO total (`<iso>_total`) and its zones. */
  listRegions<F extends Format = 'json'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'listRegions', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Region[]>> {
    return this.list<Output<F, 'wide', Region[]>>('listRegions', { iso, metric }, options);
  }

  /** The latest forecast run (or the latest at or before `forecasted_by`) for one or all regions. */
  getRegionalForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'getRegionalForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getRegionalForecast', { iso, metric }, options);
  }

  /** Forecast runs stitched into one series by local day (`latest_hour`, `days_ahead`). */
  getRegionContinuousForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'getRegionContinuousForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getRegionContinuousForecast', { iso, metric }, options);
  }

  /** Observed values (history from 2023-01-01). */
  getHistoricalActuals<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'getHistoricalActuals', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getHistoricalActuals', { iso, metric }, options);
  }

  /** The optimized model's day-ahead series (enterprise). */
  getRegionDayAheadBackcast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'getRegionDayAheadBackcast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getRegionDayAheadBackcast', { iso, metric }, options);
  }

  /** The 51 members of an ensemble run for one region (`id` required). */
  getEnsembleForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: EnsembleMetric,
    options: OutputOptionsOf<'getEnsembleForecast', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getEnsembleForecast', { iso, metric }, options);
  }

  /** Every region × metric, forecast and actual, around `as_of`. */
  getIsoSummary<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    options: OutputOptionsOf<'getIsoSummary', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getIsoSummary', { iso }, options);
  }

  // ---- plants ---------------------------------------------------------------------------

  /** The ISO's operating plants of the metric's type. */
  listPlants<F extends Format = 'json'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'listPlants', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Plant[]>> {
    return this.list<Output<F, 'wide', Plant[]>>('listPlants', { iso, metric }, options);
  }

  getPlantForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'getPlantForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getPlantForecast', { iso, metric }, options);
  }

  getPlantContinuousForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'getPlantContinuousForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getPlantContinuousForecast', { iso, metric }, options);
  }

  getPlantDayAheadBackcast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'getPlantDayAheadBackcast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getPlantDayAheadBackcast', { iso, metric }, options);
  }

  // ---- counties -------------------------------------------------------------------------

  /** The ISO's member counties (demand only). */
  listCounties<F extends Format = 'json'>(
    iso: Iso,
    options: OutputOptionsOf<'listCounties', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', County[]>> {
    return this.list<Output<F, 'wide', County[]>>('listCounties', { iso }, options);
  }

  getCountyForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    options: OutputOptionsOf<'getCountyForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getCountyForecast', { iso }, options);
  }

  getCountyContinuousForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    options: OutputOptionsOf<'getCountyContinuousForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getCountyContinuousForecast', { iso }, options);
  }

  // ---- gas ------------------------------------------------------------------------------

  /** The gas trading hubs. */
  listGasHubs<F extends Format = 'json'>(options: OutputOptionsOf<'listGasHubs', F, 'wide'> = {}): Promise<Output<F, 'wide', GasHub[]>> {
    return this.list<Output<F, 'wide', GasHub[]>>('listGasHubs', {}, options);
  }

  getGasPriceForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    options: OutputOptionsOf<'getGasPriceForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getGasPriceForecast', {}, options);
  }

  getContinuousGasForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    options: OutputOptionsOf<'getContinuousGasForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getContinuousGasForecast', {}, options);
  }

  getGasDayAheadBackcast<F extends Format = 'json', L extends Layout = 'wide'>(
    options: OutputOptionsOf<'getGasDayAheadBackcast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getGasDayAheadBackcast', {}, options);
  }

  // ---- LMPs -----------------------------------------------------------------------------

  /** The ISO's pricing nodes (hubs, zones, generated nodes). */
  listLmpNodes<F extends Format = 'json'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'listLmpNodes', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', LmpNode[]>> {
    return this.list<Output<F, 'wide', LmpNode[]>>('listLmpNodes', { iso, type }, options);
  }

  getLmpForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'getLmpForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getLmpForecast', { iso, type }, options);
  }

  getLmpContinuousForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'getLmpContinuousForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getLmpContinuousForecast', { iso, type }, options);
  }

  /** Realised prices: the day-ahead market's cleared prices (dalmp) or real-time prices (rtlmp), from 2023-01-01. */
  getLmpActuals<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'getLmpActuals', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getLmpActuals', { iso, type }, options);
  }

  // ---- H3 cells -------------------------------------------------------------------------

  /** The H3 cells covering the ISO at `resolution` (2–5, default 4). */
  listCells<F extends Format = 'json'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'listCells', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Cell[]>> {
    return this.list<Output<F, 'wide', Cell[]>>('listCells', { iso, metric }, options);
  }

  getCellsForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'getCellsForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getCellsForecast', { iso, metric }, options);
  }

  getCellsContinuousForecast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'getCellsContinuousForecast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getCellsContinuousForecast', { iso, metric }, options);
  }

  getCellsDayAheadBackcast<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'getCellsDayAheadBackcast', F, L> = {},
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.windowed<Output<F, L, TimeseriesResponse>>('getCellsDayAheadBackcast', { iso, metric }, options);
  }

  // ---- runs, vintages and status -------------------------------------------------------

  /** The runs of a model created between `start` and `end` (regions). */
  listRegionForecastRuns<F extends Format = 'json'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'listRegionForecastRuns', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Run[]>> {
    return this.list<Output<F, 'wide', Run[]>>('listRegionForecastRuns', { iso, metric }, options);
  }

  /** Every run's value for the hours of `valid_time` (or a window), one row per run. */
  getRegionForecastVintages<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: RegionMetric,
    options: OutputOptionsOf<'getRegionForecastVintages', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getRegionForecastVintages', { iso, metric }, options);
  }

  listPlantForecastRuns<F extends Format = 'json'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'listPlantForecastRuns', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Run[]>> {
    return this.list<Output<F, 'wide', Run[]>>('listPlantForecastRuns', { iso, metric }, options);
  }

  getPlantForecastVintages<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: PlantMetric,
    options: OutputOptionsOf<'getPlantForecastVintages', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getPlantForecastVintages', { iso, metric }, options);
  }

  listCellsForecastRuns<F extends Format = 'json'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'listCellsForecastRuns', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Run[]>> {
    return this.list<Output<F, 'wide', Run[]>>('listCellsForecastRuns', { iso, metric }, options);
  }

  getCellsForecastVintages<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    metric: CellMetric,
    options: OutputOptionsOf<'getCellsForecastVintages', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getCellsForecastVintages', { iso, metric }, options);
  }

  listCountyForecastRuns<F extends Format = 'json'>(
    iso: Iso,
    options: OutputOptionsOf<'listCountyForecastRuns', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Run[]>> {
    return this.list<Output<F, 'wide', Run[]>>('listCountyForecastRuns', { iso }, options);
  }

  getCountyForecastVintages<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    options: OutputOptionsOf<'getCountyForecastVintages', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getCountyForecastVintages', { iso }, options);
  }

  listLmpForecastRuns<F extends Format = 'json'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'listLmpForecastRuns', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', Run[]>> {
    return this.list<Output<F, 'wide', Run[]>>('listLmpForecastRuns', { iso, type }, options);
  }

  getLmpForecastVintages<F extends Format = 'json', L extends Layout = 'wide'>(
    iso: Iso,
    type: LmpType,
    options: OutputOptionsOf<'getLmpForecastVintages', F, L>,
  ): Promise<Output<F, L, TimeseriesResponse>> {
    return this.series<Output<F, L, TimeseriesResponse>>('getLmpForecastVintages', { iso, type }, options);
  }

  // ---- forecast skill -------------------------------------------------------------------

  /** A skill request: `model` and `days_ahead` arrays as comma lists; one request (scores of chunks do not join). */
  private skill<F extends Format>(method: OperationName, pathParams: object, options: SkillOptionsOf<OperationName, F>) {
    const list = (v: unknown) => (Array.isArray(v) ? v.join(',') : v);
    const query = { ...options, model: list(options.model), days_ahead: list(options.days_ahead) } as OutputOptions;
    return this.list<Output<F, 'wide', Skill[]>>(method, pathParams, query);
  }

  /**
   * How good each model and stored source is for a region (default the ISO total): one record per
   * model and days_ahead (and `by` bucket, or rolling `window` day), scored from the continuous and
   * actual series of the window.
   */
  getRegionForecastSkill<F extends Format = 'json'>(
    iso: Iso,
    metric: RegionMetric,
    options: SkillOptionsOf<'getRegionForecastSkill', F> = {},
  ): Promise<Output<F, 'wide', Skill[]>> {
    return this.skill<F>('getRegionForecastSkill', { iso, metric }, options);
  }

  /** Forecast skill of one plant (`id`), or of the sum of the ISO's plants of the metric. */
  getPlantForecastSkill<F extends Format = 'json'>(
    iso: Iso,
    metric: PlantMetric,
    options: SkillOptionsOf<'getPlantForecastSkill', F> = {},
  ): Promise<Output<F, 'wide', Skill[]>> {
    return this.skill<F>('getPlantForecastSkill', { iso, metric }, options);
  }

  /** Forecast skill of one H3 cell (`id`), or of the sum of the ISO's cells. */
  getCellsForecastSkill<F extends Format = 'json'>(
    iso: Iso,
    metric: CellMetric,
    options: SkillOptionsOf<'getCellsForecastSkill', F> = {},
  ): Promise<Output<F, 'wide', Skill[]>> {
    return this.skill<F>('getCellsForecastSkill', { iso, metric }, options);
  }

  /** Forecast skill of one price node (`id`, default the ISO's first trading hub) against its realised prices. */
  getLmpForecastSkill<F extends Format = 'json'>(
    iso: Iso,
    type: LmpType,
    options: SkillOptionsOf<'getLmpForecastSkill', F> = {},
  ): Promise<Output<F, 'wide', Skill[]>> {
    return this.skill<F>('getLmpForecastSkill', { iso, type }, options);
  }

  /** Forecast skill of a gas hub's price (`id`, default henry_hub), by gas day. */
  getGasForecastSkill<F extends Format = 'json'>(
    options: SkillOptionsOf<'getGasForecastSkill', F> = {},
  ): Promise<Output<F, 'wide', Skill[]>> {
    return this.skill<F>('getGasForecastSkill', {}, options);
  }

  /** Per ISO and model: the last and next run and the last published actual hour. */
  getDataStatus<F extends Format = 'json'>(
    options: OutputOptionsOf<'getDataStatus', F, 'wide'> = {},
  ): Promise<Output<F, 'wide', ModelStatus[]>> {
    return this.list<Output<F, 'wide', ModelStatus[]>>('getDataStatus', {}, options);
  }
}
