/**
 * Electricity price formation (USD/MWh): a merit order over net load, per ISO, plus reserve-
 * shortage pricing (world/scarcity.ts).
 *
 * Net thermal need N = demand − wind − solar − baseload (nuclear, hydro) − net imports. The
 * available thermal fleet (fleet − that day's outages) is stacked in order of cost at the
 * day's gas price: combined cycles (heat rate 6.8–8.2 MMBtu/MWh), coal (a $/MWh range),
 * steam and combustion turbines (8.5–13). Peakers in New York and New England burn oil when
 * gas costs more than oil does (dual fuel, ~$20/MMBtu), and so do New York's combined cycles
 * (`dualFuelCcgt`). Each ISO adds an offer markup (start-up
 * and no-load costs, uplift) that grows as the system tightens. The price is the cost of the unit
 * at N (the system lambda) plus:
 * - shortage: operating reserves (available thermal + batteries + imports and demand response −
 *   N) priced by the ISO's shortage curve: ERCOT's ORDC, the others' penalty factors, up to the cap;
 * - surplus: below the thermal units that must stay committed (a share of demand), wind and
 *   solar must be curtailed, and the price slides toward the ISO's floor (production-tax-credit
 *   wind bids below zero: SPP, ERCOT; CAISO spring middays). The day-ahead market slides more
 *   slowly: wind and solar self-schedule conservatively there and virtual supply arbitrages the
 *   deepest real-time curtailment, so negative day-ahead hours are rarer than real-time ones.
 *
 * Forecast prices are the same formation fed by forecast inputs, taken as an expectation over
 * the forecast's net-load uncertainty (Gauss–Hermite), so scarcity shows up as a smooth premium
 * rather than a sure spike. Market behaviour that no forecast can know (world/marketNoise.ts)
 * sits on top of the truths only.
 */
import { isoTable, type IsoCode } from '../catalog/isos.ts';
import type { LmpParams, ZonePricing } from '../catalog/isos/profile.ts';
import { ISO_THERMAL_FLEET_MW, OUTAGE_PARAMS, plannedSeasonalFraction } from './outage.ts';
import { shortageAdder, tightness } from './scarcity.ts';

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
  const ccFuel = p.dualFuelCcgt ? peakFuel : gas;
  const blocks: Block[] = [
    { mw: gasFleet * p.ccgtShare, low: 6.8 * ccFuel + 2, high: 8.2 * ccFuel + 3 },
    { mw: p.coalMw, low: p.coalCost[0], high: p.coalCost[1] },
    { mw: gasFleet * (1 - p.ccgtShare) * 0.5, low: 8.5 * peakFuel + 4, high: 10.5 * peakFuel + 5 },
    { mw: gasFleet * (1 - p.ccgtShare) * 0.5, low: 10.5 * peakFuel + 5, high: 13 * peakFuel + 8 },
  ].filter((b) => b.mw > 0);
  for (const b of blocks) b.mw *= availableShare;
  return blocks.sort((a, b) => a.low + a.high - (b.low + b.high));
}

/** Price of the thermal need `n` (MW) on a stack, before scarcity and surplus. */
function stackPrice(blocks: readonly Block[], n: number): number {
  let below = 0;
  for (const b of blocks) {
    if (n <= below + b.mw) return b.low + ((b.high - b.low) * Math.max(0, n - below)) / b.mw;
    below += b.mw;
  }
  return blocks[blocks.length - 1].high;
}

export interface HourInputs {
  /** Epoch hour (UTC) the inputs are for: dates the battery fleet. */
  hour: number;
  demandMw: number;
  windMw: number;
  solarMw: number;
  /** Thermal outages of the day (MW). */
  outageMw: number;
  /** The gas price of the day ($/MMBtu) at the hub that fuels the marginal unit. */
  gas: number;
}

/** Which market clears: day-ahead prices curtailment more gently (see the module comment). */
export type Market = 'da' | 'rt';

/** Surplus (share of demand) over which the price falls from the stack's bottom to the floor, per market. */
const SURPLUS_SCALE: Readonly<Record<Market, number>> = { rt: 0.06, da: 0.15 };
/** Share of the batteries' power that soaks up surplus in an hour (they fill up over a sunny midday). */
const STORAGE_SOAK = 0.6;

const HOURS_PER_YEAR = 8766;
const EPOCH_YEAR = 1970;

/** Batteries (MW) of an ISO at an epoch hour: the profile's yearly points (1 July), linear in between. */
export function storageMwAt(iso: IsoCode, hour: number): number {
  const points = LMP_PARAMS[iso].storageMw;
  const year = EPOCH_YEAR + hour / HOURS_PER_YEAR - 0.5;
  if (year <= points[0][0]) return points[0][1];
  for (let k = 1; k < points.length; k++) {
    const [y1, mw1] = points[k];
    if (year <= y1) {
      const [y0, mw0] = points[k - 1];
      return mw0 + ((mw1 - mw0) * (year - y0)) / (y1 - y0);
    }
  }
  return points[points.length - 1][1];
}

/**
 * Share of the seasonal planned maintenance (spring and fall, above the year-round floor) that
 * operators recall or defer when reserves run short (ERCOT outage coordination, PJM/MISO
 * maintenance-margin rules): it counts as reserves but not as supply in the stack.
 */
const PLANNED_RECALL = 0.6;

/** What an hour's formation needs besides its inputs: the stack and the capacity behind it. */
interface Capacity {
  /** Available non-nuclear thermal capacity (MW). */
  thermalMw: number;
  storageMw: number;
  /** Planned maintenance that would be recalled in a shortage (MW). */
  recallableMw: number;
}

interface Supply extends Capacity {
  blocks: Block[];
}

/** Day of the year (0–365.25) of an epoch hour, as plannedSeasonalFraction takes it. */
function dayOfYear(hour: number): number {
  return (((hour / 24) % 365.25) + 365.25) % 365.25;
}

/**
 * Seasonal rating of the thermal fleet relative to its summer rating (the fleet sizes are
 * summer net capabilities): gas turbines and combined cycles make more power in cool, dense air,
 * so the ISOs rate them higher in autumn, winter and spring (ERCOT's seasonal assessments: "capacity
 * ratings ... are higher in the fall due to the effects of moderate ambient temperatures"; winter
 * ratings run a few per cent above summer ones). Up to WINTER_RATING_GAIN in mid-January, none in
 * mid-July, by day of the year like the ISOs' seasonal ratings.
 */
const WINTER_RATING_GAIN = 0.08;

export function thermalRating(hour: number): number {
  return 1 + WINTER_RATING_GAIN * (0.5 + 0.5 * Math.cos((2 * Math.PI * (dayOfYear(hour) - 15)) / 365.25));
}

/** The share of the thermal fleet's summer rating available after the day's outages, at the season's rating. */
function availableShareOf(iso: IsoCode, x: HourInputs): number {
  return Math.max(0.3, 1 - x.outageMw / ISO_THERMAL_FLEET_MW[iso]) * thermalRating(x.hour);
}

/** What could serve in an hour (reserves need only this; the stack is built for pricing). */
function capacityOf(iso: IsoCode, x: HourInputs): Capacity {
  const p = LMP_PARAMS[iso];
  return {
    thermalMw: (ISO_THERMAL_FLEET_MW[iso] - p.nuclearMw) * availableShareOf(iso, x),
    storageMw: storageMwAt(iso, x.hour),
    recallableMw:
      PLANNED_RECALL * ISO_THERMAL_FLEET_MW[iso] * (plannedSeasonalFraction(iso, dayOfYear(x.hour)) - OUTAGE_PARAMS[iso].plannedFloor),
  };
}

function supplyOf(iso: IsoCode, x: HourInputs): Supply {
  return { ...capacityOf(iso, x), blocks: stack(LMP_PARAMS[iso], iso, x.gas, availableShareOf(iso, x)) };
}

/** Net thermal need (MW) before batteries, with a net-load shift. */
function netNeed(p: LmpParams, x: HourInputs, dNetMw: number): number {
  return x.demandMw + dNetMw - x.windMw - x.solarMw - p.baseloadMw - p.importsMw;
}

/**
 * Share of the batteries' power that counts as reserves: 2–4 hour batteries cannot hold their
 * full output through a long evening peak, and part of them already serves regulation.
 */
const STORAGE_RESERVE_SHARE = 0.5;

/** Operating reserves (MW): capacity that could still serve (thermal, batteries, imports/DR) minus the need. */
function reservesOf(p: LmpParams, s: Capacity, need: number): number {
  return s.thermalMw + s.recallableMw + p.reserveMw + STORAGE_RESERVE_SHARE * s.storageMw - p.unofferedMw - need;
}

/** The price of one hour's inputs with a net-load shift `dNetMw` (for expectations over forecast error). */
function formPrice(iso: IsoCode, x: HourInputs, dNetMw: number, s: Supply, market: Market): number {
  const p = LMP_PARAMS[iso];
  const gross = netNeed(p, x, dNetMw);
  const committed = p.minThermalShare * x.demandMw;
  const available = s.thermalMw + p.reserveMw;
  let need = gross;
  // Batteries soak up surplus below the committed units, and discharge as the system tightens.
  if (need < committed) need = Math.min(committed, need + STORAGE_SOAK * s.storageMw);
  else need -= s.storageMw * Math.min(1, Math.max(0, (need / available - 0.7) / 0.2));
  const bottom = s.blocks[0].low + 0.3 * p.markup;
  if (need < committed) {
    const surplus = (committed - need) / (SURPLUS_SCALE[market] * x.demandMw);
    return p.floor + (bottom - p.floor) * Math.exp(-surplus);
  }
  const u = Math.min(1, need / available);
  // Offers rise above cost as the system tightens (start-ups of less efficient units, scarcity
  // of flexible capacity): the markup scales from 0.3× at low load to ~1.9× at 80 % utilization.
  const lambda = stackPrice(s.blocks, need) + p.markup * (0.3 + 2.5 * u * u);
  return Math.min(p.cap, lambda + shortageAdder(p.shortage, reservesOf(p, s, gross), lambda));
}

/** Gauss–Hermite (probabilists') 5-point nodes and weights for E[f(Z)], Z ~ N(0, 1): the shortage curve is steep. */
const GH5 = [
  [-2.856970013872806, 0.011257411327721],
  [-1.355626179974266, 0.222075922005613],
  [0, 0.533333333333333],
  [1.355626179974266, 0.222075922005613],
  [2.856970013872806, 0.011257411327721],
] as const;

/**
 * The price of an hour: the formation at a net-load shift of `z`·`netSdMw` (the truth with
 * z = 0, or one realisation), or, when `z` is undefined, its expectation over a normal net-load
 * error with SD `netSdMw` (forecasts).
 */
export function hourPrice(iso: IsoCode, x: HourInputs, netSdMw = 0, market: Market = 'rt', z?: number): number {
  const s = supplyOf(iso, x);
  if (z !== undefined || netSdMw <= 0) return formPrice(iso, x, (z ?? 0) * netSdMw, s, market);
  let sum = 0;
  for (const [node, w] of GH5) sum += w * formPrice(iso, x, node * netSdMw, s, market);
  return sum;
}

export interface ReserveConditions {
  /** Operating reserves (MW). */
  reservesMw: number;
  /** How tight that is, 0…1 (world/scarcity.ts). */
  tightness: number;
  /** Net thermal need over the capacity that can serve it (≈ 0.3 off-peak … 1 in shortage). */
  utilization: number;
}

/** Reserves, tightness and utilization of an hour's inputs. */
export function reserveConditions(iso: IsoCode, x: HourInputs): ReserveConditions {
  const p = LMP_PARAMS[iso];
  const s = capacityOf(iso, x);
  const need = netNeed(p, x, 0);
  const reservesMw = reservesOf(p, s, need);
  return { reservesMw, tightness: tightness(p.shortage, reservesMw), utilization: need / (s.thermalMw + p.reserveMw + s.storageMw) };
}

/** Clamps a price into the ISO's [floor, cap]. */
export function withinLimits(iso: IsoCode, price: number): number {
  const p = LMP_PARAMS[iso];
  return Math.min(p.cap, Math.max(p.floor, price));
}

/**
 * The day-ahead premium over expected real-time prices ($/MWh): small and positive (the clearing's
 * convexity in tight hours and its gentler curtailment pricing add the rest of DA − RT).
 */
export function dayAheadPremium(price: number): number {
  return 0.3 + 0.01 * Math.abs(price);
}

export const LMP_ZONES: Readonly<Record<IsoCode, Readonly<Record<string, ZonePricing>>>> = isoTable((p) => p.lmpZones);

/** The gas hub that fuels the system's marginal unit, and the pockets that burn their own. */
const ZONE_GAS: Readonly<Record<IsoCode, { default: string; zones?: Readonly<Record<string, string>> }>> = isoTable((p) => p.zoneGas);

/** Id of the gas hub that fuels the ISO's marginal unit. */
export function systemGasHub(iso: IsoCode): string {
  return ZONE_GAS[iso].default;
}

/** Id of the gas hub that sets an ISO zone's energy price: the system's, or an import pocket's own. */
export function zoneGasHub(iso: IsoCode, zone: string): string {
  return ZONE_GAS[iso].zones?.[zone] ?? ZONE_GAS[iso].default;
}
