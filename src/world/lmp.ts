/**
 * Electricity price formation (USD/MWh): a merit order over net load, per ISO.
 *
 * Net thermal need N = demand − wind − solar − baseload (nuclear, hydro) − net imports. The
 * available thermal fleet (fleet − that day's outages) is stacked in order of cost at the
 * day's gas price: combined cycles (heat rate 6.8–8.2 MMBtu/MWh), coal (a $/MWh range),
 * steam and combustion turbines (8.5–13). Peakers in New York and New England burn oil when
 * gas costs more than oil does (dual fuel, ~$20/MMBtu). Each ISO adds an offer markup (start-up
 * and no-load costs, uplift). The price is the cost of the unit at N:
 * - scarcity: approaching the available fleet, an adder rises steeply to the ISO's cap;
 * - surplus: below the thermal units that must stay committed (a share of demand), wind and
 *   solar must be curtailed, and the price slides toward the ISO's floor (production-tax-credit
 *   wind bids below zero: SPP, ERCOT; CAISO spring middays).
 *
 * Forecast prices are the same formation fed by forecast inputs, taken as an expectation over
 * the forecast's net-load uncertainty (3-point Gauss–Hermite), so scarcity shows up as a
 * smooth premium rather than a sure spike. Real-time truth adds the volatility of 5-minute
 * markets: a small hourly noise and rare spikes, more frequent when the system is tight.
 */
import { isoNumber, isoTable, type IsoCode } from '../catalog/isos.ts';
import type { LmpParams, ZonePricing } from '../catalog/isos/profile.ts';
import { gaussianish, seedOf, unit } from './hash.ts';
import { ISO_THERMAL_FLEET_MW } from './outage.ts';

export const LMP_PARAMS: Readonly<Record<IsoCode, LmpParams>> = isoTable((p) => p.lmp);

/** One block of the stack: its size and its cost at the bottom and top, $/MWh. */
interface Block {
  mw: number;
  low: number;
  high: number;
}

/**
 * The ISO's supply stack at a gas price with `availableShare` of the fleet available, cheapest
 * first. Cheap to build: done per (ISO, gas price, availability) when pricing an hour.
 */
function stack(p: LmpParams, iso: IsoCode, gas: number, availableShare: number): Block[] {
  const gasFleet = ISO_THERMAL_FLEET_MW[iso] - p.nuclearMw - p.coalMw;
  const peakFuel = Math.min(gas, p.oilSwitch);
  const blocks: Block[] = [
    { mw: gasFleet * p.ccgtShare, low: 6.8 * gas + 2, high: 8.2 * gas + 3 },
    { mw: p.coalMw, low: p.coalCost[0], high: p.coalCost[1] },
    { mw: gasFleet * (1 - p.ccgtShare) * 0.5, low: 8.5 * peakFuel + 4, high: 10.5 * peakFuel + 5 },
    { mw: gasFleet * (1 - p.ccgtShare) * 0.5, low: 10.5 * peakFuel + 5, high: 13 * peakFuel + 8 },
  ].filter((b) => b.mw > 0);
  for (const b of blocks) b.mw *= availableShare;
  return blocks.sort((a, b) => a.low + a.high - (b.low + b.high));
}

/** Price of the thermal need `n` (MW) on a stack whose total is `available`, before scarcity and surplus. */
function stackPrice(blocks: readonly Block[], n: number): number {
  let below = 0;
  for (const b of blocks) {
    if (n <= below + b.mw) return b.low + ((b.high - b.low) * Math.max(0, n - below)) / b.mw;
    below += b.mw;
  }
  return blocks[blocks.length - 1].high;
}

export interface HourInputs {
  demandMw: number;
  windMw: number;
  solarMw: number;
  /** Thermal outages of the day (MW). */
  outageMw: number;
  /** The local gas price of the day ($/MMBtu). */
  gas: number;
}

/** Utilization at which the scarcity adder starts, and its shape exponent. */
const SCARCITY_FROM = 0.86;
const SCARCITY_POWER = 4;
/** Surplus (share of demand) over which the price falls from the stack's bottom to the floor. */
const SURPLUS_SCALE = 0.06;

/** The price of one hour's inputs with a net-load shift `dNetMw` (for expectations over forecast error). */
function formPrice(iso: IsoCode, x: HourInputs, dNetMw: number, blocks: readonly Block[], available: number): number {
  const p = LMP_PARAMS[iso];
  let need = x.demandMw + dNetMw - x.windMw - x.solarMw - p.baseloadMw - p.importsMw;
  const committed = p.minThermalShare * x.demandMw;
  // Batteries soak up surplus below the committed units, and discharge as the system tightens.
  if (need < committed) need = Math.min(committed, need + p.storageMw);
  else need -= p.storageMw * Math.min(1, Math.max(0, (need / available - 0.7) / 0.2));
  const bottom = blocks[0].low + 0.3 * p.markup;
  if (need < committed) {
    const surplus = (committed - need) / (SURPLUS_SCALE * x.demandMw);
    return p.floor + (bottom - p.floor) * Math.exp(-surplus);
  }
  const u = need / available;
  // Offers rise above cost as the system tightens (start-ups of less efficient units, scarcity
  // of flexible capacity): the markup scales from 0.3× at low load to ~1.9× at 80 % utilization.
  const energy = stackPrice(blocks, need) + p.markup * (0.3 + 2.5 * u * u);
  const scarcity = u <= SCARCITY_FROM ? 0 : p.cap * Math.min(1, ((u - SCARCITY_FROM) / (1 - SCARCITY_FROM)) ** SCARCITY_POWER);
  return Math.min(p.cap, energy + scarcity);
}

/** Gauss–Hermite (probabilists') 3-point nodes and weights for E[f(Z)], Z ~ N(0, 1). */
const GH3 = [
  [-Math.sqrt(3), 1 / 6],
  [0, 2 / 3],
  [Math.sqrt(3), 1 / 6],
] as const;

/**
 * The price of an hour: the truth when `netSdMw` is 0, or its expectation over a normal
 * net-load error with that SD (forecasts).
 */
export function hourPrice(iso: IsoCode, x: HourInputs, netSdMw = 0): number {
  const p = LMP_PARAMS[iso];
  const availableShare = Math.max(0.3, 1 - x.outageMw / ISO_THERMAL_FLEET_MW[iso]);
  const blocks = stack(p, iso, x.gas, availableShare);
  const available = (ISO_THERMAL_FLEET_MW[iso] - p.nuclearMw) * availableShare + p.reserveMw;
  if (netSdMw <= 0) return formPrice(iso, x, 0, blocks, available);
  let sum = 0;
  for (const [z, w] of GH3) sum += w * formPrice(iso, x, z * netSdMw, blocks, available);
  return sum;
}

/** Utilization of the available thermal fleet (for real-time volatility). */
export function utilization(iso: IsoCode, x: HourInputs): number {
  const p = LMP_PARAMS[iso];
  const available = (ISO_THERMAL_FLEET_MW[iso] - p.nuclearMw) * Math.max(0.3, 1 - x.outageMw / ISO_THERMAL_FLEET_MW[iso]) + p.reserveMw;
  return (x.demandMw - x.windMw - x.solarMw - p.baseloadMw - p.importsMw) / available;
}

const RT_SEED = seedOf('gridcast/world/lmp/rt/v1');
/** Hourly real-time noise (share of price) and spike frequency / size. */
const RT_NOISE = 0.07;
const RT_SPIKE_BASE = 0.003;
const RT_SPIKE_TIGHT = 0.06;

/**
 * Real-time truth from the hour's price: multiplicative noise, plus rare spikes (5-minute
 * scarcity, ramps), more likely when the system is tight. `stream` separates nodes' noise.
 */
export function realTimePrice(iso: IsoCode, price: number, hour: number, u: number, stream: number): number {
  const isoIndex = isoNumber(iso);
  const common = gaussianish(RT_SEED, isoIndex, hour);
  const own = gaussianish(RT_SEED, 1000 + stream, hour);
  let rt = price + Math.abs(price) * RT_NOISE * (0.8 * common + 0.6 * own) + 2 * common;
  const chance = RT_SPIKE_BASE + RT_SPIKE_TIGHT * Math.max(0, (u - 0.75) / 0.25);
  if (unit(RT_SEED, 2000 + isoIndex, hour) < chance) {
    rt += Math.min(LMP_PARAMS[iso].cap, 80 * Math.exp(1.2 * Math.abs(gaussianish(RT_SEED, 3000 + isoIndex, hour))));
  }
  return rt;
}

/** The day-ahead premium over expected real-time prices ($/MWh): small and positive. */
export function dayAheadPremium(price: number): number {
  return 0.8 + 0.02 * Math.abs(price);
}

export const LMP_ZONES: Readonly<Record<IsoCode, Readonly<Record<string, ZonePricing>>>> = isoTable((p) => p.lmpZones);

/** The gas hub that fuels each zone's marginal units: the ISO's default, or a zone's own. */
const ZONE_GAS: Readonly<Record<IsoCode, { default: string; zones?: Readonly<Record<string, string>> }>> = isoTable((p) => p.zoneGas);

/** Id of the gas hub of an ISO zone. */
export function zoneGasHub(iso: IsoCode, zone: string): string {
  return ZONE_GAS[iso].zones?.[zone] ?? ZONE_GAS[iso].default;
}
