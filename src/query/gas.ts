/**
 * The gas group: daily prices at the trading hubs (world/gas.ts), one row per gas day at
 * midnight Central, through the daily request kinds (forecast, continuous, backcast).
 *
 * A gas day takes the print of the last trading day before it. A forecast run made after
 * that print was published serves the print itself (it is known); otherwise it serves the
 * print as formed from its own weather forecast for the gas day after the trading day, with
 * the slow price states it knew.
 */
import { GAS_HUBS, GAS_TIMEZONE, gasHubById, type GasHub } from '../catalog/gasHubs.ts';
import { ISO_CODES, type IsoCode } from '../catalog/isos.ts';
import { unitOf } from '../catalog/metrics.ts';
import { regionsOf } from '../catalog/regions.ts';
import { beyondHorizon, type ForecastModel } from '../models/forecastModels.ts';
import { localDayStartHour, type CivilDate } from '../time/zones.ts';
import { poptempOnRows } from '../world/demand.ts';
import { epochDay, GAS_DAY_SAMPLE_HOURS, gasPrint, lastKnownTradingDay, printKnownHour, tradingDayFor } from '../world/gas.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { dailyQueriesFor, type DailyRows, type DailySeriesGroup } from './daily.ts';
import { queryValueError } from './errors.ts';
import type { SourceReader } from '../sources/reader.ts';
import { heldSeries } from '../sources/stored.ts';
import { heldTargetGroup, orderedTargets, storedDailyQueriesFor } from './stored.ts';

/** The public gas hub record. */
export function gasHubList(): Record<string, unknown>[] {
  return GAS_HUBS.map((h) => ({ id: h.id, name: h.name, timezone: GAS_TIMEZONE, point: { type: 'Point', coordinates: [h.lon, h.lat] } }));
}

function selectHubs(id: string | undefined): readonly GasHub[] {
  if (id === undefined) return GAS_HUBS;
  const hub = gasHubById(id.trim());
  if (!hub) throw queryValueError('id', id, `unknown gas hub id '${id}'; GET /v1/gas/list lists them`);
  return [hub];
}

const civilOf = (epoch: number): CivilDate => {
  const d = new Date(epoch * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

type Temps = Record<IsoCode, number>;

/**
 * Daily mean poptemp of every ISO total on gas days, truth (run NaN) or as run `created` forecast
 * it; one weather batch per ISO for all requests of the same kind.
 */
function dailyTemps(world: WeatherWorld, requests: readonly { day: number; run: number }[], model: ForecastModel | null): Temps[] {
  const out = requests.map(() => ({}) as Temps);
  const valid: number[] = [];
  const created: number[] = [];
  for (const r of requests) {
    const start = localDayStartHour(GAS_TIMEZONE, civilOf(r.day));
    for (const h of GAS_DAY_SAMPLE_HOURS) {
      valid.push(start + h);
      created.push(r.run);
    }
  }
  for (const iso of ISO_CODES) {
    const temps = poptempOnRows(world, { valid, created: model ? created : null }, model?.skill ?? null, regionsOf(iso)[0]);
    requests.forEach((_, k) => {
      let sum = 0;
      for (let j = 0; j < GAS_DAY_SAMPLE_HOURS.length; j++) sum += temps[k * GAS_DAY_SAMPLE_HOURS.length + j];
      out[k][iso] = sum / GAS_DAY_SAMPLE_HOURS.length;
    });
  }
  return out;
}

/** Prices of every hub on the rows' gas days: truth (model null) or the forecasts of each row's run. */
export function gasPrices(world: WeatherWorld, rows: DailyRows, model: ForecastModel | null): (hub: GasHub) => Float64Array {
  const n = rows.days.length;
  const trading = rows.days.map((d) => tradingDayFor(epochDay(d.year, d.month, d.day)));
  // Which rows are forecasts (the print was not yet known to the row's run) and which the truth.
  const forecastRow = rows.days.map((_, i) => model !== null && printKnownHour(trading[i]) > rows.created[i]);
  const beyond = rows.days.map((_, i) => model !== null && beyondHorizon(model, rows.dayStart[i], rows.created[i]));
  const truthIdx = [...Array(n).keys()].filter((i) => !forecastRow[i] && !beyond[i]);
  const fcIdx = [...Array(n).keys()].filter((i) => forecastRow[i] && !beyond[i]);
  const truthTemps = dailyTemps(
    world,
    truthIdx.map((i) => ({ day: trading[i] + 1, run: Number.NaN })),
    null,
  );
  const fcTemps = dailyTemps(
    world,
    fcIdx.map((i) => ({ day: trading[i] + 1, run: rows.created[i] })),
    model,
  );
  return (hub) => {
    const out = new Float64Array(n).fill(Number.NaN);
    truthIdx.forEach((i, k) => (out[i] = gasPrint(world, hub, trading[i], truthTemps[k])));
    fcIdx.forEach((i, k) => (out[i] = gasPrint(world, hub, trading[i], fcTemps[k], lastKnownTradingDay(rows.created[i]))));
    return out;
  };
}

export function gasGroup(world: WeatherWorld, { id }: { id?: string }): DailySeriesGroup<GasHub> {
  return {
    timezone: GAS_TIMEZONE,
    units: unitOf('gas_price'),
    targets: selectHubs(id),
    label: (hub) => [hub.id],
    source: (rows, model) => gasPrices(world, rows, model),
  };
}

/** forecast, continuous and backcast of gas prices (gas days). */
export const gasQueries = dailyQueriesFor(gasGroup);

/** Stored gas series: not tied to an ISO (stored with the ISO ''). */
const GAS_KEY = { group: 'gas', iso: '', metric: 'gas_price' } as const;
const catalogHubIds = GAS_HUBS.map((h) => h.id);

/**
 * Gas prices served from stored sources: the catalog's hubs by their ids, and the source's own
 * hubs (any other id); one value per gas day, as the synthetic series. Forecasts only: gas has no
 * /actual (nor does an ingest take gas actuals).
 */
const { forecast, continuous } = storedDailyQueriesFor({
  group: (_world: WeatherWorld, r: { id?: string }, held) => heldTargetGroup(GAS_TIMEZONE, unitOf('gas_price'), held, catalogHubIds, r.id),
  key: () => GAS_KEY,
  idOf: (id: string) => id,
  id: (r) => r.id,
});
export const gasStored = { forecast, continuous };

/**
 * `/gas/list?source=NAME`: the hubs the source holds, as hub records with `source`: a catalog
 * hub's record, or an own hub's (named by --catalog, else by its id; its point from the catalog
 * file's coordinates, else null).
 */
export async function storedGasHubList(reader: SourceReader, source: string): Promise<Record<string, unknown>[]> {
  const held = await heldSeries(reader, source, GAS_KEY, 'source');
  const described = new Map((await reader.catalog(source, GAS_KEY.group, GAS_KEY.iso)).map((e) => [e.target, e]));
  const hubs = new Map(gasHubList().map((h) => [h.id as string, h]));
  return orderedTargets(
    held.map((s) => s.target),
    catalogHubIds,
  ).map((id) => {
    const entry = described.get(id);
    const hub = hubs.get(id);
    if (hub && !entry) return { ...hub, source };
    const point =
      entry?.latitude != null && entry.longitude != null ? { type: 'Point', coordinates: [entry.longitude, entry.latitude] } : null;
    return { id, name: entry?.name ?? id, timezone: GAS_TIMEZONE, point, source };
  });
}
