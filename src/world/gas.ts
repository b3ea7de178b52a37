/**
 * Daily natural gas prices ($/MMBtu) at the trading hubs (catalog/gasHubs.ts).
 *
 * Henry Hub, in logs: a yearly level (annual averages of docs/realism-targets.md §0/§4: 2023 $2.55,
 * 2024 $2.19, 2025 $3.5, 2026 $4.2), a winter premium, the national heating/cooling demand
 * anomaly (population-weighted temperature of the seven ISOs against its normal, with an extra
 * response to severe cold), storage (the decaying sum of past extra weather-driven demand: a
 * cold winter keeps prices up for weeks), a slow market state X (AR(1), half-life ~70 days)
 * and a daily shock. Each other hub adds a basis in $/MMBtu: its mean (Waha deeply negative, Eastern Gas
 * South at a discount, citygates at a premium), a winter/summer swing, a cold-weather spike
 * that grows exponentially once its region's daily temperature drops below a threshold
 * (pipelines full: Algonquin, Transco Z6 NY), a slow AR(1) state Y of its own and a daily shock.
 *
 * Prices are prints of trading days: the print of trading day T (a weekday that is not a NERC
 * holiday) is made for the next gas day from that day's weather and is known from 11:00
 * Central on T. A gas day takes the print of the last trading day before it, so weekends and
 * holidays repeat the previous business day's print. A forecast made before a print is known
 * uses the forecast weather, carries the slow states forward from the last print it knows
 * (X·φ^k: their conditional expectation) and expects no daily shock — the same formation
 * fed by forecast inputs.
 */
import { GAS_HUBS, GAS_TIMEZONE, type GasHub } from '../catalog/gasHubs.ts';
import { ISO_CODES, ISO_CODES_BY_NUMBER, isoTable, type IsoCode } from '../catalog/isos.ts';
import { regionsOf } from '../catalog/regions.ts';
import { localDayStartHour } from '../time/zones.ts';
import { nercHolidayOf, poptempOnRows } from './demand.ts';
import { gaussianish, seedOf } from './hash.ts';
import { climatePoptemp, yearPosition } from './outage.ts';
import type { WeatherWorld } from './weather/world.ts';

const DAY_MS = 86_400_000;
const SEED = seedOf('gridcast/world/gas/v1');

/** Henry Hub annual averages ($/MMBtu) the yearly level is anchored to (mid-year points). */
const HENRY_ANNUAL: Readonly<Record<number, number>> = { 2021: 3.9, 2022: 6.4, 2023: 2.55, 2024: 2.19, 2025: 3.5, 2026: 4.2, 2027: 4.0 };
/** Winter premium of Henry Hub (log amplitude, peak mid-January). */
const HENRY_WINTER = 0.1;
/** Log response per °C of national anomaly, weighted by how much heating (or cooling) the season needs. */
const HEATING_PER_C = 0.016;
const COOLING_PER_C = 0.01;
/**
 * Extra log response to severe national cold: per (°C below a −4 °C anomaly)², capped. Supply
 * freezes off and heating demand peaks together, so an Uri-class week (national anomaly around
 * −10 °C) multiplies the cash price several times: Henry Hub cash ~$24 in February 2021 against
 * ~$3 before (EIA, Natural Gas Weekly Update, 2021-02-18); Elliott ~$7–8 from ~$5 (Dec 2022).
 */
const SEVERE_COLD_BELOW_C = -4;
const SEVERE_COLD = 0.035;
const SEVERE_COLD_CAP = 2.3;
/**
 * Production freeze-offs: when the producing basins (Permian, Anadarko, Haynesville: the ERCOT and
 * SPP footprints) run more than FREEZE_OFF_BELOW_C under normal, wells and gathering freeze and
 * supply drops: log response FREEZE_OFF·(°C below)², within the same cap. Uri cut US dry gas
 * output by ~20 % for days (EIA, Today in Energy, 2021-03-01), January 2024 by ~15 %.
 */
const FREEZE_OFF_BELOW_C = -8;
const FREEZE_OFF = 0.012;
const PRODUCING_ISOS: readonly IsoCode[] = ['ercot', 'spp'];
/** Slow state X: AR(1) per trading day, and the daily shock. */
const X_PHI = 0.99;
const X_SD = 0.13;
const HENRY_DAILY_SD = 0.025;
/** Rough population weights of the seven ISOs in the national temperature anomaly. */
const NATIONAL_WEIGHTS: Readonly<Record<IsoCode, number>> = isoTable((p) => p.nationalGasWeight);

interface BasisParams {
  /** Mean basis by year ($/MMBtu), or one value for all years. */
  mean: number | Readonly<Record<number, number>>;
  /** Added in mid-winter, subtracted in mid-summer ($/MMBtu). */
  winter: number;
  /** Slow state: stationary SD ($/MMBtu) and AR(1) coefficient per trading day. */
  sd: number;
  phi: number;
  /** Daily shock SD ($/MMBtu). */
  daily: number;
  /** Cold spike: scale·(exp((threshold − T)/width) − 1) for T below threshold (°C), at most cap. */
  spike?: { threshold: number; width: number; scale: number; cap: number };
}

const BASIS: Readonly<Record<string, BasisParams>> = {
  henry_hub: { mean: 0, winter: 0, sd: 0, phi: 0, daily: 0 },
  // Permian takeaway: negative on ~45 % of 2024's days, record lows around −$4 to −$5.
  waha: {
    mean: { 2021: -0.4, 2022: -0.9, 2023: -1.2, 2024: -2.9, 2025: -2.4, 2026: -3.4, 2027: -1.8 },
    winter: 0.3,
    sd: 0.95,
    phi: 0.93,
    daily: 0.25,
  },
  houston_ship_channel: {
    mean: -0.22,
    winter: 0.05,
    sd: 0.12,
    phi: 0.9,
    daily: 0.05,
    spike: { threshold: 0, width: 3, scale: 0.3, cap: 15 },
  },
  katy: { mean: -0.1, winter: 0.05, sd: 0.1, phi: 0.9, daily: 0.05, spike: { threshold: 0, width: 3, scale: 0.3, cap: 15 } },
  carthage: { mean: -0.15, winter: 0.05, sd: 0.1, phi: 0.9, daily: 0.05, spike: { threshold: -1, width: 3, scale: 0.25, cap: 12 } },
  panhandle_eastern: {
    mean: -0.55,
    winter: 0.15,
    sd: 0.3,
    phi: 0.95,
    daily: 0.08,
    spike: { threshold: -6, width: 3, scale: 0.4, cap: 20 },
  },
  chicago_citygate: {
    mean: -0.05,
    winter: 0.15,
    sd: 0.15,
    phi: 0.93,
    daily: 0.06,
    spike: { threshold: -12, width: 3, scale: 0.4, cap: 25 },
  },
  michcon: { mean: 0, winter: 0.1, sd: 0.12, phi: 0.93, daily: 0.05, spike: { threshold: -13, width: 3, scale: 0.3, cap: 15 } },
  ventura: { mean: 0.05, winter: 0.2, sd: 0.15, phi: 0.93, daily: 0.06, spike: { threshold: -15, width: 3, scale: 0.5, cap: 25 } },
  dominion_south: { mean: -0.95, winter: 0.1, sd: 0.3, phi: 0.95, daily: 0.08, spike: { threshold: -10, width: 3, scale: 0.3, cap: 10 } },
  texas_eastern_m3: { mean: -0.35, winter: 1.1, sd: 0.35, phi: 0.9, daily: 0.12, spike: { threshold: -4, width: 3, scale: 1.2, cap: 30 } },
  transco_z6_ny: { mean: -0.3, winter: 0.9, sd: 0.35, phi: 0.9, daily: 0.15, spike: { threshold: -1, width: 3, scale: 1.4, cap: 45 } },
  algonquin_citygates: {
    mean: 0.2,
    winter: 1.0,
    sd: 0.35,
    phi: 0.9,
    daily: 0.15,
    spike: { threshold: -1, width: 2.8, scale: 2.4, cap: 65 },
  },
  socal_citygate: { mean: 0.4, winter: 0.3, sd: 0.35, phi: 0.93, daily: 0.1, spike: { threshold: 7, width: 2, scale: 0.5, cap: 20 } },
  socal_border: { mean: 0.1, winter: 0.1, sd: 0.2, phi: 0.93, daily: 0.06 },
  pge_citygate: { mean: 0.8, winter: 0.1, sd: 0.3, phi: 0.93, daily: 0.08, spike: { threshold: 6, width: 2, scale: 0.5, cap: 30 } },
  malin: { mean: -0.2, winter: 0.3, sd: 0.3, phi: 0.93, daily: 0.08, spike: { threshold: 5, width: 2, scale: 0.4, cap: 10 } },
  opal: { mean: -0.4, winter: 0.3, sd: 0.3, phi: 0.93, daily: 0.08 },
};

// ---------------------------------------------------------------------------------------------
// Calendar

/** Epoch day of a civil date, and back. */
export function epochDay(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

function civil(epoch: number): { year: number; month: number; day: number } {
  const d = new Date(epoch * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** A trading day: Monday–Friday and not a NERC holiday. */
export function isTradingDay(epoch: number): boolean {
  const weekday = new Date(epoch * DAY_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6 && nercHolidayOf(civil(epoch)) < 0;
}

/** The trading day whose print a gas day takes: the last trading day before it. */
export function tradingDayFor(gasDay: number): number {
  let t = gasDay - 1;
  while (!isTradingDay(t)) t--;
  return t;
}

/** Epoch hour from which a trading day's print is known: 11:00 Central (17:00 UTC in winter, 16:00 in summer; 16:00 UTC used). */
export function printKnownHour(tradingDay: number): number {
  return tradingDay * 24 + 16;
}

/** The last trading day whose print is known at epoch hour `hour`. */
export function lastKnownTradingDay(hour: number): number {
  let t = Math.floor(hour / 24);
  while (!isTradingDay(t) || printKnownHour(t) > hour) t--;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Slow states (AR(1) per trading day, from a fixed origin so any day can be recomputed)

const ORIGIN_DAY = epochDay(2020, 1, 1);
const stateCache = new Map<string, Float64Array>();

/** AR(1) state of stream `stream` on every calendar day from the origin through `day` (frozen on non-trading days). */
function stateSeries(stream: number, phi: number, sd: number, day: number): Float64Array {
  const key = `${stream}`;
  let s = stateCache.get(key);
  if (!s || s.length <= day - ORIGIN_DAY) {
    const length = Math.max(day - ORIGIN_DAY + 1, epochDay(2032, 1, 1) - ORIGIN_DAY);
    s = new Float64Array(length);
    const innovation = sd * Math.sqrt(1 - phi * phi);
    let x = 0;
    for (let i = 0; i < length; i++) {
      // gaussianish has SD 1 (three uniforms rescaled); the state starts at 0 years before use.
      if (isTradingDay(ORIGIN_DAY + i)) x = phi * x + innovation * gaussianish(SEED, stream, ORIGIN_DAY + i);
      s[i] = x;
    }
    stateCache.set(key, s);
  }
  return s;
}

/** The state on trading day `day`, or its expectation given the state on `knownDay` (≤ day). */
function stateAt(stream: number, phi: number, sd: number, day: number, knownDay: number): number {
  const s = stateSeries(stream, phi, sd, day);
  if (knownDay >= day) return s[day - ORIGIN_DAY];
  let steps = 0;
  for (let t = knownDay + 1; t <= day; t++) if (isTradingDay(t)) steps++;
  return s[knownDay - ORIGIN_DAY] * phi ** steps;
}

// ---------------------------------------------------------------------------------------------
// Formation

/** Position of a day in its year (0–365.25) and the winter weight (1 mid-January, −1 mid-July). */
function season(epoch: number): { t: number; winter: number; c: ReturnType<typeof civil> } {
  const c = civil(epoch);
  const t = yearPosition(c.year, c.month, c.day);
  return { t, winter: Math.cos((2 * Math.PI * (t - 15)) / 365.25), c };
}

/** A value by year, interpolated linearly between mid-year anchors (held flat beyond the table). */
function yearly(table: Readonly<Record<number, number>>, epoch: number): number {
  const years = Object.keys(table)
    .map(Number)
    .sort((a, b) => a - b);
  const x = 1970 + epoch / 365.25 - 0.5;
  if (x <= years[0]) return table[years[0]];
  if (x >= years[years.length - 1]) return table[years[years.length - 1]];
  const y0 = Math.floor(x);
  const f = x - y0;
  return table[y0] * (1 - f) + table[y0 + 1] * f;
}

/**
 * The national temperature anomaly (°C, population-weighted over the seven ISOs) of a gas day,
 * and how much of the country needs heating (0–1) at that time of year.
 */
function nationalAnomaly(temps: Readonly<Record<IsoCode, number>>, t: number): { anomaly: number; heating: number } {
  let anomaly = 0;
  let heating = 0;
  for (const iso of ISO_CODES_BY_NUMBER) {
    const normal = climatePoptemp(iso, t);
    const mean = (normal.minC + normal.maxC) / 2;
    anomaly += NATIONAL_WEIGHTS[iso] * (temps[iso] - mean);
    heating += NATIONAL_WEIGHTS[iso] * Math.min(1, Math.max(0, (18 - mean) / 12));
  }
  return { anomaly, heating };
}

/** Mean anomaly (°C) of the producing basins' ISOs on a gas day. */
function producingAnomaly(temps: Readonly<Record<IsoCode, number>>, t: number): number {
  let sum = 0;
  for (const iso of PRODUCING_ISOS) {
    const normal = climatePoptemp(iso, t);
    sum += temps[iso] - (normal.minC + normal.maxC) / 2;
  }
  return sum / PRODUCING_ISOS.length;
}

/** National weather term of Henry Hub's log price from each ISO's daily mean poptemp (°C) on the gas day. */
function weatherTerm(temps: Readonly<Record<IsoCode, number>>, t: number): number {
  const { anomaly, heating } = nationalAnomaly(temps, t);
  const cooling = Math.max(0, 1 - heating * 1.5);
  const severe =
    SEVERE_COLD * Math.max(0, SEVERE_COLD_BELOW_C - anomaly) ** 2 +
    FREEZE_OFF * Math.max(0, FREEZE_OFF_BELOW_C - producingAnomaly(temps, t)) ** 2;
  return -HEATING_PER_C * heating * anomaly + COOLING_PER_C * cooling * anomaly + Math.min(SEVERE_COLD_CAP, severe);
}

// ---------------------------------------------------------------------------------------------
// Storage

/**
 * Storage: gas burnt for heat beyond normal (or for cooling) draws inventories below their
 * normal path, and refills only slowly, so prices stay up for weeks after a cold spell. The
 * storage deficit is the decaying sum of past days' extra weather-driven demand (°C-days of
 * the national anomaly, weighted like the weather term); its log-price effect is STORAGE_PER_CDAY
 * per °C-day of deficit.
 */
const STORAGE_DECAY = 0.985;
const STORAGE_PER_CDAY = 0.0025;
/** Days the deficit is summed from before the first day asked for (0.985^250 ≈ 2 %). */
const STORAGE_SPINUP_DAYS = 250;
/** Sampled hours (Central) of a gas day for its daily mean temperature. */
export const GAS_DAY_SAMPLE_HOURS = [3, 9, 15, 21] as const;

const demandAnomalyCache = new WeakMap<WeatherWorld, Map<number, Float64Array>>();

/** Extra weather-driven gas demand of every day of a year (°C-days, positive when colder than normal in winter), truth. */
function yearDemandAnomaly(world: WeatherWorld, year: number): Float64Array {
  let byYear = demandAnomalyCache.get(world);
  if (!byYear) demandAnomalyCache.set(world, (byYear = new Map()));
  let days = byYear.get(year);
  if (days) return days;
  const first = epochDay(year, 1, 1);
  const n = epochDay(year + 1, 1, 1) - first;
  const valid: number[] = [];
  for (let k = 0; k < n; k++) {
    const start = localDayStartHour(GAS_TIMEZONE, civil(first + k));
    for (const h of GAS_DAY_SAMPLE_HOURS) valid.push(start + h);
  }
  const temps = ISO_CODES.map((iso) => poptempOnRows(world, { valid, created: null }, null, regionsOf(iso)[0]));
  days = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const dayTemps = {} as Record<IsoCode, number>;
    ISO_CODES.forEach((iso, j) => {
      let sum = 0;
      for (let m = 0; m < GAS_DAY_SAMPLE_HOURS.length; m++) sum += temps[j][k * GAS_DAY_SAMPLE_HOURS.length + m];
      dayTemps[iso] = sum / GAS_DAY_SAMPLE_HOURS.length;
    });
    const { anomaly, heating } = nationalAnomaly(dayTemps, season(first + k).t);
    days[k] = -heating * anomaly + 0.5 * Math.max(0, 1 - heating * 1.5) * anomaly;
  }
  byYear.set(year, days);
  return days;
}

const deficitCache = new WeakMap<WeatherWorld, Map<number, number>>();

/** The storage deficit (°C-days) at the end of epoch day `day`, from the true weather (memoised per day). */
function storageDeficit(world: WeatherWorld, day: number): number {
  let memo = deficitCache.get(world);
  if (!memo) deficitCache.set(world, (memo = new Map()));
  const hit = memo.get(day);
  if (hit !== undefined) return hit;
  // Continue from the latest memoised day within the spin-up span, or start from zero.
  let from = day - STORAGE_SPINUP_DAYS;
  let deficit = 0;
  for (let d = day - 1; d > day - STORAGE_SPINUP_DAYS; d--) {
    const known = memo.get(d);
    if (known !== undefined) {
      from = d + 1;
      deficit = known;
      break;
    }
  }
  for (let d = from; d <= day; d++) {
    const { year } = civil(d);
    deficit = STORAGE_DECAY * deficit + yearDemandAnomaly(world, year)[d - epochDay(year, 1, 1)];
    memo.set(d, deficit);
  }
  return deficit;
}

const TOTAL_LOG_VAR = X_SD * X_SD + HENRY_DAILY_SD * HENRY_DAILY_SD;

/**
 * The print of `tradingDay` at a hub ($/MMBtu). `temps` is each ISO's daily mean poptemp on
 * the gas day after the trading day (truth, or a forecast). With `knownDay` (the last
 * trading day whose print the forecaster knows, < tradingDay) it is a forecast: slow states
 * carried forward, no daily shocks.
 */
export function gasPrint(
  world: WeatherWorld,
  hub: GasHub,
  tradingDay: number,
  temps: Readonly<Record<IsoCode, number>>,
  knownDay?: number,
): number {
  const known = knownDay ?? tradingDay;
  // The deficit through the day before the print; a forecaster knows it through its last known print and lets it decay.
  const storage = storageDeficit(world, known - 1) * STORAGE_DECAY ** (tradingDay - known);
  const { t, winter } = season(tradingDay + 1);
  const daily = knownDay === undefined ? 1 : 0;
  const logHenry =
    Math.log(yearly(HENRY_ANNUAL, tradingDay)) -
    TOTAL_LOG_VAR / 2 +
    HENRY_WINTER * winter +
    weatherTerm(temps, t) +
    STORAGE_PER_CDAY * storage +
    stateAt(1, X_PHI, X_SD, tradingDay, known) +
    daily * HENRY_DAILY_SD * gaussianish(SEED, 2, tradingDay);
  const henry = Math.exp(logHenry);
  const p = BASIS[hub.id];
  if (!p) throw new Error(`gas: no basis parameters for hub ${hub.id}`);
  const index = GAS_HUBS.indexOf(hub);
  const mean = typeof p.mean === 'number' ? p.mean : yearly(p.mean, tradingDay);
  let basis = mean + p.winter * winter;
  if (p.sd > 0) basis += stateAt(100 + index, p.phi, p.sd, tradingDay, known);
  basis += daily * p.daily * gaussianish(SEED, 200 + index, tradingDay);
  if (p.spike) {
    const below = p.spike.threshold - temps[hub.weatherIso];
    if (below > 0) basis += Math.min(p.spike.cap, p.spike.scale * Math.expm1(below / p.spike.width));
  }
  return henry + basis;
}
