/**
 * The shape of an ISO profile: every fact about one ISO the service uses, gathered in one
 * data-only module per ISO (isos/<iso>.ts). The layers read them through the tables derived
 * in catalog/isos.ts (isoTable), so adding an ISO is one new profile plus its data
 * (README: "How to add an ISO").
 */
import type { PlantType } from '../types.ts';

export interface Fleet {
  /** Installed AC capacity the plants add up to, MW. */
  targetMw: number;
  /** Number of plants; with targetMw it sets the mean plant size. */
  count: number;
}

/** Word pools for plant names, by landscape. */
export type Flavor = 'desert' | 'plains' | 'texas' | 'midwest' | 'south' | 'east' | 'pacific';

export interface Cluster {
  /** Centre [lat, lon]; must lie inside the ISO. */
  at: readonly [number, number];
  /** Spread (1 σ of a Gaussian offset), km. */
  km: number;
  /** Relative share of the fleet's plants. */
  w: number;
  look: Flavor;
}

export interface WindCluster extends Cluster {
  /** Typical IEC class of the site: I on the windiest plains, III on low-wind sites. */
  cls: 'I' | 'II' | 'III';
}

export interface SolarCluster extends Cluster {
  /** Share of single-axis trackers among builds before 2018 and from 2018 on. */
  tracker: readonly [number, number];
}

export const W = (at: [number, number], km: number, w: number, look: Flavor, cls: WindCluster['cls']): WindCluster => ({
  at,
  km,
  w,
  look,
  cls,
});

export const S = (at: [number, number], km: number, w: number, look: Flavor, tracker: [number, number]): SolarCluster => ({
  at,
  km,
  w,
  look,
  tracker,
});

export const SW_TRACKERS: [number, number] = [0.8, 0.97];

export type NodeType = 'hub' | 'zone' | 'node';

export type PriceNodeSpec = readonly [id: string, name: string, type: NodeType, zones: Readonly<Record<string, number>>];

export interface DemandParams {
  /** Weather-free load of the ISO (MW): the mean of base · shape · calendar is about this. */
  baseMw: number;
  /** Heating degrees below this effective temperature (°C). */
  heatBaseC: number;
  /** MW per heating degree (ISO-wide). */
  heatSlopeMwPerC: number;
  /** Extra heating degrees per °C below HEAT_CONVEX_BELOW_C (resistance heat). */
  heatConvex: number;
  /** Cooling degrees above this effective temperature (°C). */
  coolBaseC: number;
  /** MW per cooling degree (ISO-wide) at the balance point. */
  coolSlopeMwPerC: number;
  /** Quadratic steepening of cooling: cool = slope·(CDD + coolCurve·CDD²). */
  coolCurve: number;
  /**
   * Cooling degrees beyond which air conditioners run flat out (world/demand.ts): hotter hours
   * add only AC_SATURATED_SHARE of a degree each. Unset: no saturation.
   */
  coolSaturationC?: number;
  /** Midday load lost to behind-the-meter solar, as a fraction of base at solar noon in summer. */
  btmSolar: number;
  /** Standard deviation of the relative load noise. */
  noiseSd: number;
  /**
   * Standard deviation of the slow, unforecastable load drift (world/demand.ts): sized so that
   * the `normal` model's MAPE lands in 7–10 % and day 7 in 5–6.5 % (docs/realism-targets.md §1a);
   * larger where the weather explains less of the load error (ERCOT's mild winters).
   */
  driftSd: number;
  /**
   * SD a forecast's own load-model error grows to at long leads (default 0.05, world/demand.ts):
   * larger where load follows weather less closely at the horizon of a week or two.
   */
  modelErrorSd?: number;
  /** SD of the `normal` model's (climatology's) own load error (default 0.076, world/demand.ts). */
  normalErrorSd?: number;
  /** Fraction by which the daily load shape is flattened (0: the common shapes; higher lifts night minima). */
  shapeFlatten: number;
  /**
   * Relative load growth per year (ISO-wide, all hours), from mid-2025 (world/demand.ts
   * growthFactor): ERCOT 5 %/yr (mean ≈ 50, 52, 54 GW in 2023–2025; ERCOT demand reports and long-term load forecast, 2024: large loads and
   * population), PJM ~1.5 %/yr (PJM 2025 load forecast report: data centres), others ≲ 1 %/yr.
   */
  growthPerYear: number;
}

/** Per-ISO behaviour, as fractions of the thermal fleet (calibrated by scripts/outage-calibration.ts). */
export interface OutageParams {
  /** Planned outages left at the summer/winter peaks (long-running overhauls, derates). */
  plannedFloor: number;
  /** Peak height of the spring and fall maintenance seasons above the floor. */
  plannedSpring: number;
  plannedFall: number;
  /** Days the fall season is shifted later (ISOs whose summer peak runs into September). */
  fallShiftDays: number;
  /** Forced outage rate on a normal day. */
  forcedBase: number;
  /** Cold-day effective temperature (°C) below which freeze-ups and gas curtailments begin. */
  coldThresholdC: number;
  /** Daily Tmax (°C) above which heat derates and trips begin. */
  heatThresholdC: number;
}

/**
 * Approximate climatology of each ISO's population-weighted temperature, used only by the
 * `normal` model (expected forced outages by season) and as the calibration stand-in.
 * Daily mean = meanC − ampC·cos(2π(doy − coldestDoy)/365.25); Tmin/Tmax = mean ∓ rangeC/2;
 * day-to-day anomalies have standard deviation sdWinterC (mid-January) … sdSummerC (July).
 */
export interface PoptempClimate {
  meanC: number;
  ampC: number;
  coldestDoy: number;
  rangeC: number;
  sdWinterC: number;
  sdSummerC: number;
}

export interface LmpParams {
  /** Nuclear, hydro and other zero-cost must-run output (MW). */
  baseloadMw: number;
  /** Net imports (MW). */
  importsMw: number;
  nuclearMw: number;
  coalMw: number;
  /** $/MWh of the cheapest and dearest coal unit. */
  coalCost: readonly [number, number];
  /** Share of the gas fleet that is combined cycle. */
  ccgtShare: number;
  /** Thermal units that stay committed, as a share of demand. */
  minThermalShare: number;
  /** Lowest price (the deepest negative bids) and the scarcity cap, $/MWh. */
  floor: number;
  cap: number;
  /** Offer markup over fuel and variable costs, $/MWh. */
  markup: number;
  /** Peakers switch to oil above this gas price ($/MMBtu equivalent), or never. */
  oilSwitch: number;
  /**
   * Combined cycles switch to oil too (dual fuel) at `oilSwitch`: where a reliability rule makes
   * them able to (New York City). Absent: combined cycles burn gas at any price.
   */
  dualFuelCcgt?: boolean;
  /** Capacity outside the thermal fleet that serves near the peak (imports, demand response, peaking hydro), MW. */
  reserveMw: number;
  /**
   * Storage (MW: batteries, and pumped hydro where the ISO has it) installed on 1 July of each
   * year, linear in between and flat outside: it charges from surplus wind and solar (and night
   * load), discharges when the system is tight, and counts as reserves.
   */
  storageMw: readonly (readonly [year: number, mw: number])[];
  /**
   * Thermal capacity of the outage model's fleet that the market's reserves never see (MW):
   * mothballed and seasonal units, hot- and cold-weather derates, capacity sold to neighbours.
   * Calibrated so shortage pricing fires a realistic number of hours a year.
   */
  unofferedMw: number;
  /** How the ISO prices reserve shortages (world/scarcity.ts). */
  shortage: ShortageCurve;
  /**
   * Real-time spikes in steep net-load ramps (world/marketNoise.ts): above an upward ramp of
   * `share` of demand in an hour, the spike threshold falls by up to `drop` SDs (at twice that
   * ramp). For markets whose 5-minute dispatch runs short of ramp capability; none by default.
   */
  rtRampSpikes?: { share: number; drop: number };
}

/**
 * A reserve-shortage curve. `ordc`: ERCOT's operating reserve demand curve, adder = (VOLL − λ) ·
 * LOLP(reserves − minimum contingency level). `steps`: penalty factors ($/MWh) paid when reserves
 * fall below each requirement (MW). `sdMw`: the spread of the reserve shortfall (the ORDC's σ;
 * for steps, the smoothing of an hour of 5-minute intervals).
 */
export type ShortageCurve =
  | { kind: 'ordc'; voll: number; minContingencyMw: number; sdMw: number }
  | { kind: 'steps'; steps: readonly (readonly [requirementMw: number, penalty: number])[]; sdMw: number };

/**
 * Per-zone pricing: `pocket` scales the zone's price with system tightness (import-constrained
 * load pockets above 0, export areas below); `exportShare` of the zone's installed wind and
 * solar can leave it before congestion, which then costs `exportPrice` $/MWh per GW of surplus.
 */
export interface ZonePricing {
  pocket?: number;
  exportShare?: number;
  exportPrice?: number;
}

/**
 * The gas hub that fuels the ISO's marginal units (`default`: the system's marginal unit sets
 * every zone's energy price), and the import-constrained pockets whose own units burn gas from
 * a local hub (`zones`: their price follows that hub when they are the pocket's marginal unit).
 */
export interface ZoneGas {
  default: string;
  zones?: Readonly<Record<string, string>>;
}

export interface IsoProfile<C extends string = string> {
  /** The ISO's id in every path and record (`/v1/region/{iso}/…`). */
  code: C;
  name: string;
  /** IANA zone of the ISO's operating clock: local days, latest_hour and time_local use it. */
  timezone: string;
  /**
   * The ISO's fixed number, independent of its place in the ISO list: it sets its block of plant
   * ids (wind 50000 + 2000·n + k + 1, solar 51000 + 2000·n + k + 1) and keys its random streams
   * (plants, outages, real-time prices). Ids are public: a number is never changed or reused; a
   * new ISO takes the next free one.
   */
  isoNumber: number;
  /** Prefix of region names ("PJM ComEd", "ISO-NE Maine"). */
  label: string;
  /** Zones [id, name] in the order the ISO publishes them (NYISO A..K, MISO LRZ 1..10). */
  zones: readonly (readonly [id: string, name: string])[];
  /** Installed utility-scale wind and solar and how many plants carry it. */
  fleets: Readonly<Record<PlantType, Fleet>>;
  windClusters: readonly WindCluster[];
  solarClusters: readonly SolarCluster[];
  /** Relative number of solar plants entering service per year from 2010 (default: the US shape, catalog/plants.ts). */
  solarYearWeights?: readonly number[];
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: readonly PriceNodeSpec[];
  demand: DemandParams;
  /** Dispatchable thermal fleet (coal, gas, oil, nuclear; MW) that outages are counted against. */
  thermalFleetMw: number;
  outage: OutageParams;
  poptempClimate: PoptempClimate;
  lmp: LmpParams;
  /** Per-zone pricing: load pockets and export congestion (zones not listed price plainly). */
  lmpZones: Readonly<Record<string, ZonePricing>>;
  zoneGas: ZoneGas;
  /** Rough population weight of the ISO in the national temperature anomaly that moves Henry Hub (the weights sum to 1). */
  nationalGasWeight: number;
  /** Transmission-limited curtailment of the ISO's wind plants (none by default): see WindCurtailment. */
  windCurtailment?: WindCurtailment;
}

/**
 * Wind the grid cannot take when the fleet blows hard: of a plant's available output above
 * `fromShare` of its capacity, `curtailedShare` is curtailed. A plant's hub winds move with its
 * whole resource area's (the same fronts and low-level jets cross it), so a plant near rated
 * output means its export interface is loaded to its limit — ERCOT's West Texas and Panhandle
 * generic transmission constraints — and the excess is dispatched down, plant by plant, as the
 * ISO's base points share it.
 */
export interface WindCurtailment {
  fromShare: number;
  curtailedShare: number;
}

/** Checks a profile against IsoProfile while keeping its code as a literal type. */
export function defineIsoProfile<const C extends string>(profile: IsoProfile<C>): IsoProfile<C> {
  return profile;
}
