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
import { HOUR_MS } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour, localWallHourToEpochHour, type CivilDate } from '../time/zones.ts';
import {
  dayAheadPremium,
  hourPrice,
  LMP_PARAMS,
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
import { ACTUAL_LAG_MINUTES, lastActualHour } from './runs.ts';
import type { DailyRows } from './daily.ts';
import { queryValueError } from './errors.ts';
import { gasPrices } from './gas.ts';
import { actualFrame, ACTUAL_HISTORY_START, queriesFor, type Actuals, type SeriesGroup, type WindowParams } from './kinds.ts';
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

/** Per zone region of the ISO, in order: its demand, wind and solar over the rows (the run of each row, or the truth). */
function zoneSeries(world: WeatherWorld, iso: IsoCode, rows: StitchedRows, model: ForecastModel | null) {
  const demandOf = regionGroup(world, { iso, metric: 'demand' }).source(rows, model);
  const windOf = regionGroup(world, { iso, metric: 'wind' }).source(rows, model);
  const solarOf = regionGroup(world, { iso, metric: 'solar' }).source(rows, model);
  return zoneRegionsOf(iso).map((z) => ({ region: z, demand: demandOf(z), wind: windOf(z), solar: solarOf(z) }));
}

/** ISO-wide sums of the zones' series (summed in zone order, so an hour's totals never depend on the other rows). */
function totalsOf(zones: ReturnType<typeof zoneSeries>, n: number) {
  const demand = new Float64Array(n);
  const wind = new Float64Array(n);
  const solar = new Float64Array(n);
  for (const z of zones) {
    for (let i = 0; i < n; i++) {
      demand[i] += z.demand[i];
      wind[i] += z.wind[i];
      solar[i] += z.solar[i];
    }
  }
  return { demand, wind, solar };
}

/**
 * The true ISO net-load ramp into each row, as a share of its demand (0 when net load falls):
 * real-time prices spike in steep ramps where the ISO says so (profile `rtRampSpikes`). The hour
 * before a row that the rows do not hold is computed on its own, so the ramp of an hour is the
 * same in any window.
 */
function netLoadRamps(world: WeatherWorld, iso: IsoCode, rows: StitchedRows, totals: ReturnType<typeof totalsOf>): Float64Array {
  const n = rows.valid.length;
  const net = (t: ReturnType<typeof totalsOf>, i: number) => t.demand[i] - t.wind[i] - t.solar[i];
  const before = rows.valid.map((h) => h - 1).filter((h, i) => i === 0 || rows.valid[i - 1] !== h);
  const beforeRows: StitchedRows = { valid: before, created: before.map(() => Number.NaN) };
  const beforeTotals = totalsOf(zoneSeries(world, iso, beforeRows, null), before.length);
  const beforeNet = new Map(before.map((h, k) => [h, net(beforeTotals, k)]));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const previous = i > 0 && rows.valid[i - 1] === rows.valid[i] - 1 ? net(totals, i - 1) : beforeNet.get(rows.valid[i] - 1)!;
    out[i] = Math.max(0, net(totals, i) - previous) / totals.demand[i];
  }
  return out;
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
  /** The true net-load ramp into each row (share of demand), where real-time truth needs it. */
  rampShare?: Float64Array;
}

/**
 * Every input of the formation over the rows, from the run of each row (or the truth); `ramps`:
 * also the net-load ramps. `outagesAsCleared`: the day-ahead market (its clearing and forecasts of
 * it) runs on the units offered when it clears — the outages of the day before, as the row's run
 * sees them (forced outages are unplanned: a unit that trips tomorrow still offers today) — not on
 * a forecast of tomorrow's freeze-ups, whose steep cold response priced a cold day at the cap on a
 * forecast a few degrees too cold (ERCOT, January 2024: day-ahead $136 against real time $40 for
 * the month; issue 22). Units out on the day before that are back on the day offer too: an owner
 * offers a unit for the hours it expects to have it back (the return date of its outage ticket),
 * so the market runs on the smaller of the day before's outages and the run's outages of the day
 * itself. Without the returns, a heat wave's worst outage day priced the next, cooler day at the
 * cap (MISO 2023-08-16 and 08-18: reserves 0 and 3 GW day-ahead, 7 and 11 GW in real time; issue
 * 22, round 6). `gasAsTraded`: the day-ahead clearing also knows the day's gas price —
 * next-day gas for the gas day trades on the morning before, ahead of the day-ahead offer deadline
 * (ISO-NE and NYISO 10:00 Eastern, PJM 10:30), so generators offer at the gas price they will pay,
 * not at a forecast of it (a gas forecast below Algonquin's winter print put real time above twice
 * the day-ahead price in calm New England hours; issue 22).
 */
function inputsOf(
  world: WeatherWorld,
  iso: IsoCode,
  rows: StitchedRows,
  model: ForecastModel | null,
  { ramps = false, outagesAsCleared = false, gasAsTraded = false } = {},
): Inputs {
  const tz = ISOS[iso].timezone;
  const n = rows.valid.length;
  const zones = zoneSeries(world, iso, rows, model);
  const { days, created, dayOfRow } = daysOfRows(tz, rows);
  const outagesOf = (of: CivilDate[]) =>
    outageGroup(world, iso, undefined).source(
      { days: of, dayStart: of.map((d) => localDayStartHour(tz, d)), created },
      model,
    )(regionsOf(iso)[0]);
  const outage = outagesOf(days);
  if (outagesAsCleared) {
    const before = outagesOf(days.map((d) => addDays(d, -1)));
    for (let k = 0; k < outage.length; k++) outage[k] = Number.isNaN(outage[k]) ? before[k] : Math.min(before[k], outage[k]);
  }
  const gasRows: DailyRows = { days, dayStart: days.map((d) => localDayStartHour(GAS_TIMEZONE, d)), created };
  const gasOf = gasPrices(world, gasRows, gasAsTraded ? null : model);
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
  for (const { region, demand, wind, solar } of zones) {
    const gas = hubSeries(zoneGasHub(iso, region.zone!));
    zone.set(region.id, { demand, renewables: Float64Array.from(wind, (w, i) => w + solar[i]), gas });
  }
  const totals = totalsOf(zones, n);
  const systemGas = hubSeries(systemGasHub(iso));
  const total: HourInputs[] = Array.from({ length: n }, (_, i) => ({
    hour: rows.valid[i],
    demandMw: totals.demand[i],
    windMw: totals.wind[i],
    solarMw: totals.solar[i],
    outageMw: outage[dayOfRow[i]],
    gas: systemGas[i],
  }));
  const installed = [...installedRenewables(iso).values()].reduce((s, x) => s + x, 0);
  const sd = new Float64Array(n);
  if (model) for (let i = 0; i < n; i++) sd[i] = netLoadSdMw(rows.valid[i] - rows.created[i], totals.demand[i], installed);
  return {
    n,
    total,
    zone,
    sd,
    conditions: total.map((t) => reserveConditions(iso, t)),
    rampShare: ramps ? netLoadRamps(world, iso, rows, totals) : undefined,
  };
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
      const price =
        kind === 'rt-truth' ? realTimePrice(iso, p, rows.valid[i], x.conditions[i].tightness, stream, x.rampShare?.[i] ?? 0) : p;
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
  if (!model && type === 'dalmp') {
    return inputsOf(world, iso, dayAheadRows(iso, rows.valid), FORECAST_MODELS.optimized, { outagesAsCleared: true, gasAsTraded: true });
  }
  return inputsOf(world, iso, rows, model, {
    ramps: !model && LMP_PARAMS[iso].rtRampSpikes !== undefined,
    outagesAsCleared: type === 'dalmp',
  });
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

/**
 * When each ISO publishes its prices, in the ISO's own clock (the zone of its profile):
 * - `dayAhead`: the local time of the day before at which the day-ahead market's results for a
 *   day are posted. PJM, MISO (13:30–14:00 EPT, i.e. 12:30 Central), ERCOT and ISO-NE post by
 *   13:30, SPP at 14:00 Central (since its move of the day-ahead close to 09:30, FERC Order 809),
 *   CAISO about 13:00 Pacific, NYISO (day-ahead close 05:00) by 11:00 Eastern.
 * - `realTimeLagMinutes`: how long after an hour ends its real-time price is posted. Every ISO
 *   prices real time in 5-minute (ERCOT 15-minute) intervals posted within minutes of each
 *   interval; the hourly average is complete a few minutes after the hour, and gridcast publishes
 *   it with the lag of every other actual (query/runs.ts). Settlement revisions are not modelled.
 */
export const LMP_PUBLICATION: Record<IsoCode, { dayAhead: { hour: number; minute: number }; realTimeLagMinutes: number }> = {
  pjm: { dayAhead: { hour: 13, minute: 30 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  miso: { dayAhead: { hour: 12, minute: 30 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  spp: { dayAhead: { hour: 14, minute: 0 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  ercot: { dayAhead: { hour: 13, minute: 30 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  caiso: { dayAhead: { hour: 13, minute: 0 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  nyiso: { dayAhead: { hour: 11, minute: 0 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
  isone: { dayAhead: { hour: 13, minute: 30 }, realTimeLagMinutes: ACTUAL_LAG_MINUTES },
};

const clock = ({ hour, minute }: { hour: number; minute: number }) => `${hour}:${String(minute).padStart(2, '0')}`;

/** The publication times in words, for the API's documentation: "pjm 13:30 America/New_York, …". */
export function describeLmpPublication(): { dayAhead: string; realTime: string } {
  const isos = Object.keys(LMP_PUBLICATION) as IsoCode[];
  const lags = [...new Set(isos.map((iso) => LMP_PUBLICATION[iso].realTimeLagMinutes))];
  return {
    dayAhead: isos.map((iso) => `${iso} ${clock(LMP_PUBLICATION[iso].dayAhead)} ${ISOS[iso].timezone}`).join(', '),
    realTime: isos
      .filter((iso, i) => lags.length > 1 || i === 0)
      .map((iso) => `${lags.length > 1 ? `${iso} ` : ''}${LMP_PUBLICATION[iso].realTimeLagMinutes} minutes`)
      .join(', '),
  };
}

/** The instant (epoch ms) at which the day-ahead prices of local day `day` are published. */
export function dayAheadPublishedMs(iso: IsoCode, day: CivilDate): number {
  const { hour, minute } = LMP_PUBLICATION[iso].dayAhead;
  return localWallHourToEpochHour(ISOS[iso].timezone, addDays(day, -1), hour) * HOUR_MS + minute * 60_000;
}

/** The last hour whose price of `type` is published at `nowMs`: the end of the last cleared day, or the last real-time hour. */
export function lastPublishedPriceHour(iso: IsoCode, type: LmpType, nowMs: number): number {
  if (type === 'rtlmp') return lastActualHour(nowMs, LMP_PUBLICATION[iso].realTimeLagMinutes);
  const tz = ISOS[iso].timezone;
  const tomorrow = addDays(localDateOfHour(tz, Math.floor(nowMs / HOUR_MS)), 1);
  const lastCleared = dayAheadPublishedMs(iso, tomorrow) <= nowMs ? tomorrow : addDays(tomorrow, -1);
  return localDayStartHour(tz, addDays(lastCleared, 1)) - 1;
}

/** Realised prices: the day-ahead clearing (`dalmp`) or real-time prices (`rtlmp`), from 2023-01-01 as each is published. */
function lmpActuals(group: SeriesGroup<PriceNode>, r: LmpRequest & WindowParams): Actuals<PriceNode> {
  const what = r.type === 'dalmp' ? 'cleared day-ahead prices' : 'real-time prices';
  const when =
    r.type === 'dalmp'
      ? `each day's published at ${clock(LMP_PUBLICATION[r.iso].dayAhead)} local time the day before`
      : `each hour's published ${LMP_PUBLICATION[r.iso].realTimeLagMinutes} minutes after it ends`;
  return {
    firstHour: localDayStartHour(group.timezone, ACTUAL_HISTORY_START),
    lastHour: lastPublishedPriceHour(r.iso, r.type, r.nowMs),
    values: (rows) => group.source(rows, null),
    noDataMessage: `no actuals in the requested window: ${what} exist from 2023-01-01 up to the last published (${when})`,
  };
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

/** forecast, continuous and actual (realised prices as published) of LMPs; no backcast. */
export const lmpQueries = {
  ...queriesFor(lmpGroup),
  actual: (world: WeatherWorld, r: LmpRequest & WindowParams) => {
    const group = lmpGroup(world, r);
    return actualFrame(group, r, lmpActuals(group, r));
  },
};
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
