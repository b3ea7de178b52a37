/**
 * The LMP group: hourly prices (USD/MWh) at an ISO's price nodes (catalog/priceNodes.ts),
 * formed by world/lmp.ts from the same series the other endpoints serve — zone demand, the
 * zones' wind and solar (sums of plants), the day's outages and the zones' gas prices — for
 * the same rows and run, so a forecast price moves with the forecast it was made from.
 *
 * - `rtlmp` truth: the formation of the true inputs plus persistent real-time deviations and
 *   spikes that come mostly in tight hours (world/marketNoise.ts);
 * - `dalmp` truth (the day-ahead market's clearing): the formation of the day-ahead inputs (the
 *   optimized run at 10:00 local the day before) at one realisation of their error, times a
 *   persistent market factor (world/marketNoise.ts), plus a small premium;
 * - forecasts of either: the formation of the run's inputs as an expectation over their error
 *   (growing with lead), plus the premium for `dalmp`. The day-ahead forecast with the defaults
 *   uses the same run as the clearing, yet misses it by what the market adds (10–20 % MAPE).
 *
 * Zone prices: the ISO-wide stack at the gas price of the system's marginal unit (an import
 * pocket's own hub for N.Y.C., Long Island and the like), times an import-pocket multiplier
 * that grows with system tightness (N.Y.C., Long Island, Boston, Baltimore/Washington…), minus
 * an export-congestion discount when the zone's wind and solar exceed what can leave it
 * (ERCOT West, SPP North, MISO LRZ 1 on windy nights). A node is the weighted mix of its zones,
 * times its loss factor.
 */
import { vintageQueriesFor } from './vintages.ts';
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { metricsOf, unitOf, type MetricsOf } from '../catalog/metrics.ts';
import { GAS_TIMEZONE, gasHubById } from '../catalog/gasHubs.ts';
import { priceNodeById, priceNodesOf, type PriceNode } from '../catalog/priceNodes.ts';
import { plantsByZone, regionById, regionsOf, zoneRegionsOf } from '../catalog/regions.ts';
import { FORECAST_MODELS, type ForecastModel } from '../models/forecastModels.ts';
import { localDateOfHour, localDayStartHour, type CivilDate } from '../time/zones.ts';
import {
  dayAheadPremium,
  hourPrice,
  LMP_ZONES,
  reserveConditions,
  systemGasHub,
  withinLimits,
  zoneGasHub,
  type HourInputs,
  type ReserveConditions,
} from '../world/lmp.ts';
import { dayAheadClearing, dayAheadDraw, realTimePrice } from '../world/marketNoise.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { runForDay, type StitchedRows } from './continuous.ts';
import { modelSchedule } from '../sources/schedule.ts';
import type { DailyRows } from './daily.ts';
import { queryValueError } from './errors.ts';
import { gasPrices } from './gas.ts';
import { queriesFor, type SeriesGroup } from './kinds.ts';
import { outageGroup, regionGroup } from './regions.ts';
import type { SourceReader } from '../sources/reader.ts';
import { heldSeries } from '../sources/stored.ts';
import { heldTargetGroup, orderedTargets, storedQueriesFor } from './stored.ts';

export const LMP_TYPES = metricsOf('lmp');
export type LmpType = MetricsOf<'lmp'>;

export interface LmpRequest {
  iso: IsoCode;
  type: LmpType;
  id?: string;
}

/** The public node record. */
export function lmpNodeList(iso: IsoCode): Record<string, unknown>[] {
  return priceNodesOf(iso).map((n) => ({ id: n.id, name: n.name, iso: n.iso, timezone: n.timezone, node_type: n.node_type }));
}

function selectNodes(iso: IsoCode, type: LmpType, id: string | undefined): readonly PriceNode[] {
  if (id === undefined) return priceNodesOf(iso);
  const node = priceNodeById(iso, id.trim());
  if (!node) throw queryValueError('id', id, `unknown price node id '${id}' in ${iso}; GET /v1/lmp/${iso}/${type}/list lists them`);
  return [node];
}

/** Installed wind + solar (MW) per zone region, for export congestion. */
const installedCache = new Map<IsoCode, Map<string, number>>();
function installedRenewables(iso: IsoCode): Map<string, number> {
  let m = installedCache.get(iso);
  if (!m) {
    const wind = plantsByZone(iso, 'wind');
    const solar = plantsByZone(iso, 'solar');
    m = new Map(
      zoneRegionsOf(iso).map((z) => [z.id, [...wind.get(z.id)!, ...solar.get(z.id)!].reduce((sum, p) => sum + p.capacity_mw, 0)]),
    );
    installedCache.set(iso, m);
  }
  return m;
}

/**
 * Net-load forecast error SD (MW) at a lead (hours), from demand and wind/solar error growth:
 * demand ~1.5 % a day ahead to 5 %; the ISO's wind and solar together (errors of plants far apart
 * partly cancel) ~3.5 % of installed a day ahead to 9 %.
 */
function netLoadSdMw(leadHours: number, demandMw: number, windSolarInstalledMw: number): number {
  const days = Math.max(0, leadHours) / 24;
  const d = demandMw * Math.min(0.05, 0.01 + 0.004 * days);
  const r = windSolarInstalledMw * Math.min(0.09, 0.025 + 0.008 * days);
  return Math.hypot(d, r);
}

/** The local days the rows touch, each with the run of its first row (NaN for truth). */
function daysOfRows(timezone: string, rows: StitchedRows): { days: CivilDate[]; created: number[]; dayOfRow: Int32Array } {
  const days: CivilDate[] = [];
  const created: number[] = [];
  const dayOfRow = new Int32Array(rows.valid.length);
  let lastKey = '';
  rows.valid.forEach((h, i) => {
    const d = localDateOfHour(timezone, h);
    const key = `${d.year}-${d.month}-${d.day}:${rows.created[i]}`;
    if (key !== lastKey) {
      days.push(d);
      created.push(rows.created[i]);
      lastKey = key;
    }
    dayOfRow[i] = days.length - 1;
  });
  return { days, created, dayOfRow };
}

interface Inputs {
  n: number;
  total: HourInputs[];
  /** Per zone region id: demand, wind + solar, gas per row. */
  zone: Map<string, { demand: Float64Array; renewables: Float64Array; gas: Float64Array }>;
  /** Net-load SD per row (0 for truth). */
  sd: Float64Array;
  /** ISO-wide reserves and tightness per row. */
  conditions: ReserveConditions[];
}

/** Every input of the formation over the rows, from the run of each row (or the truth). */
function inputsOf(world: WeatherWorld, iso: IsoCode, rows: StitchedRows, model: ForecastModel | null): Inputs {
  const tz = ISOS[iso].timezone;
  const n = rows.valid.length;
  const demandOf = regionGroup(world, { iso, metric: 'demand' }).source(rows, model);
  const windOf = regionGroup(world, { iso, metric: 'wind' }).source(rows, model);
  const solarOf = regionGroup(world, { iso, metric: 'solar' }).source(rows, model);
  const { days, created, dayOfRow } = daysOfRows(tz, rows);
  const outageRows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(tz, d)), created };
  const outage = outageGroup(world, iso, undefined).source(outageRows, model)(regionsOf(iso)[0]);
  const gasRows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(GAS_TIMEZONE, d)), created };
  const gasOf = gasPrices(world, gasRows, model);
  // Gas per row of each hub, one array per hub (zones on the same hub share it, and their formation).
  const gasByHub = new Map<string, Float64Array>();
  const hubSeries = (hubId: string) => {
    let s = gasByHub.get(hubId);
    if (!s) {
      const daily = gasOf(gasHubById(hubId)!);
      s = Float64Array.from(dayOfRow, (d) => daily[d]);
      gasByHub.set(hubId, s);
    }
    return s;
  };

  const zone = new Map<string, { demand: Float64Array; renewables: Float64Array; gas: Float64Array }>();
  const totalDemand = new Float64Array(n);
  const totalWind = new Float64Array(n);
  const totalSolar = new Float64Array(n);
  for (const z of zoneRegionsOf(iso)) {
    const demand = demandOf(z);
    const wind = windOf(z);
    const solar = solarOf(z);
    const gas = hubSeries(zoneGasHub(iso, z.zone!));
    zone.set(z.id, { demand, renewables: Float64Array.from(wind, (w, i) => w + solar[i]), gas });
    for (let i = 0; i < n; i++) {
      totalDemand[i] += demand[i];
      totalWind[i] += wind[i];
      totalSolar[i] += solar[i];
    }
  }
  const systemGas = hubSeries(systemGasHub(iso));
  const total: HourInputs[] = Array.from({ length: n }, (_, i) => ({
    hour: rows.valid[i],
    demandMw: totalDemand[i],
    windMw: totalWind[i],
    solarMw: totalSolar[i],
    outageMw: outage[dayOfRow[i]],
    gas: systemGas[i],
  }));
  const installed = [...installedRenewables(iso).values()].reduce((s, x) => s + x, 0);
  const sd = new Float64Array(n);
  if (model) for (let i = 0; i < n; i++) sd[i] = netLoadSdMw(rows.valid[i] - rows.created[i], totalDemand[i], installed);
  return { n, total, zone, sd, conditions: total.map((t) => reserveConditions(iso, t)) };
}

/** The formation of every row's ISO-wide inputs at one gas hub's prices, for one kind of price. */
function formation(iso: IsoCode, x: Inputs, gas: Float64Array, kind: PriceKind): Float64Array {
  const out = new Float64Array(x.n);
  for (let i = 0; i < x.n; i++) {
    const inputs = { ...x.total[i], gas: gas[i] };
    if (kind === 'rt-truth') out[i] = hourPrice(iso, inputs, 0, 'rt');
    else if (kind === 'da-truth') {
      const realised = hourPrice(iso, inputs, x.sd[i], 'da', dayAheadDraw(iso, inputs.hour));
      out[i] = dayAheadClearing(iso, realised, inputs.hour, x.conditions[i].tightness);
    } else out[i] = hourPrice(iso, inputs, x.sd[i], kind === 'da-forecast' ? 'da' : 'rt');
  }
  return out;
}

/** What is being priced: a truth (real-time, or the day-ahead clearing) or a forecast of either. */
type PriceKind = 'rt-truth' | 'da-truth' | 'rt-forecast' | 'da-forecast';

/**
 * Zone prices over the rows. The formation runs once per gas hub that sets zone prices (the
 * system's, and the import pockets' own); each zone then adds its pocket premium and export
 * congestion, and real-time truth each node's own real-time volatility (`stream`).
 */
function zonePrices(iso: IsoCode, rows: StitchedRows, x: Inputs, kind: PriceKind) {
  const installed = installedRenewables(iso);
  const byHub = new Map<Float64Array, Float64Array>();
  const formed = new Map<string, Float64Array>();
  const formedOf = (regionId: string) => {
    let f = formed.get(regionId);
    if (f) return f;
    const z = x.zone.get(regionId)!;
    let system = byHub.get(z.gas);
    if (!system) {
      system = formation(iso, x, z.gas, kind);
      byHub.set(z.gas, system);
    }
    const params = LMP_ZONES[iso][regionById(regionId)!.zone!] ?? {};
    const exportLimit = (params.exportShare ?? 0.6) * installed.get(regionId)!;
    f = new Float64Array(x.n);
    for (let i = 0; i < x.n; i++) {
      let price = system[i] * (1 + (params.pocket ?? 0) * (0.5 + Math.min(1, Math.max(0, x.conditions[i].utilization)) ** 2));
      const surplus = z.renewables[i] - z.demand[i] - exportLimit;
      if (surplus > 0) price -= ((params.exportPrice ?? 4) * surplus) / 1000;
      f[i] = price;
    }
    formed.set(regionId, f);
    return f;
  };
  const premium = kind === 'da-truth' || kind === 'da-forecast';
  return (regionId: string, stream: number): Float64Array => {
    const f = formedOf(regionId);
    return f.map((p, i) => {
      const price = kind === 'rt-truth' ? realTimePrice(iso, p, rows.valid[i], x.conditions[i].tightness, stream) : p;
      return premium ? price + dayAheadPremium(price) : price;
    });
  };
}

/** The rows of the day-ahead market for the given hours: each local day from the optimized run at 10:00 the day before. */
function dayAheadRows(iso: IsoCode, valid: readonly number[]): StitchedRows {
  const stitch = { timezone: ISOS[iso].timezone, runs: modelSchedule(FORECAST_MODELS.optimized), latestHour: 10, daysAhead: 1 };
  return { valid: [...valid], created: valid.map((h) => runForDay(stitch, localDateOfHour(stitch.timezone, h))) };
}

/** The inputs behind prices of a type: the day-ahead market's for its truth, else the rows' own. */
function priceInputs(world: WeatherWorld, iso: IsoCode, type: LmpType, rows: StitchedRows, model: ForecastModel | null): Inputs {
  return !model && type === 'dalmp'
    ? inputsOf(world, iso, dayAheadRows(iso, rows.valid), FORECAST_MODELS.optimized)
    : inputsOf(world, iso, rows, model);
}

/** Prices of nodes over rows: forecasts of `model`, or the truth of the type (model null). Within the ISO's [floor, cap]. */
export function lmpSource(world: WeatherWorld, iso: IsoCode, type: LmpType, rows: StitchedRows, model: ForecastModel | null) {
  const x = priceInputs(world, iso, type, rows, model);
  const kind: PriceKind = model ? (type === 'dalmp' ? 'da-forecast' : 'rt-forecast') : type === 'dalmp' ? 'da-truth' : 'rt-truth';
  const zones = zonePrices(iso, rows, x, kind);
  const nodes = priceNodesOf(iso);
  return (node: PriceNode): Float64Array => {
    const stream = nodes.indexOf(node);
    const out = new Float64Array(x.n);
    for (const { regionId, weight } of node.zones) {
      const z = zones(regionId, stream);
      for (let i = 0; i < x.n; i++) out[i] += weight * z[i];
    }
    for (let i = 0; i < x.n; i++) out[i] = withinLimits(iso, out[i] * node.lossFactor);
    return out;
  };
}

/**
 * ISO-wide operating reserves and tightness over rows, as the prices of `type` see them (the
 * day-ahead market's inputs for the dalmp truth): for reports and tests of shortage pricing.
 */
export function lmpConditions(
  world: WeatherWorld,
  iso: IsoCode,
  type: LmpType,
  rows: StitchedRows,
  model: ForecastModel | null,
): readonly ReserveConditions[] {
  return priceInputs(world, iso, type, rows, model).conditions;
}

function lmpGroup(world: WeatherWorld, r: LmpRequest): SeriesGroup<PriceNode> {
  return {
    timezone: ISOS[r.iso].timezone,
    units: unitOf(r.type),
    targets: selectNodes(r.iso, r.type, r.id),
    label: (node) => [node.id],
    source: (rows, model) => lmpSource(world, r.iso, r.type, rows, model),
  };
}

/** forecast and continuous of LMPs (no actual or backcast routes, as in the public service). */
export const lmpQueries = queriesFor(lmpGroup);
export const lmpVintages = vintageQueriesFor(lmpGroup);

/**
 * Prices served from stored sources: the catalog's nodes by their ids, and the source's own
 * nodes (any other id) — whichever ids the source holds for the ISO and type.
 */
export const lmpStored = storedQueriesFor({
  group: (_world: WeatherWorld, r: LmpRequest, held) =>
    heldTargetGroup(
      ISOS[r.iso].timezone,
      unitOf(r.type),
      held,
      priceNodesOf(r.iso).map((n) => n.id),
      r.id,
    ),
  key: (r) => ({ group: 'lmp', iso: r.iso, metric: r.type }),
  idOf: (id: string) => id,
  id: (r) => r.id,
});

/**
 * `/lmp/{iso}/{type}/list?source=NAME`: the nodes the source holds, as node records with
 * `source`: a catalog node's record, or an own node's (named by --catalog, else by its id;
 * node_type `node`).
 */
export async function storedLmpNodeList(
  reader: SourceReader,
  source: string,
  iso: IsoCode,
  type: LmpType,
): Promise<Record<string, unknown>[]> {
  const held = await heldSeries(reader, source, { group: 'lmp', iso, metric: type }, 'source');
  const described = new Map((await reader.catalog(source, 'lmp', iso)).map((e) => [e.target, e]));
  const nodes = new Map(lmpNodeList(iso).map((n) => [n.id as string, n]));
  return orderedTargets(
    held.map((s) => s.target),
    [...nodes.keys()],
  ).map((id) => {
    const entry = described.get(id);
    const node = nodes.get(id);
    if (node && !entry) return { ...node, source };
    return { id, name: entry?.name ?? id, iso, timezone: ISOS[iso].timezone, node_type: node?.node_type ?? 'node', source };
  });
}
