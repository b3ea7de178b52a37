/**
 * Daily generator outages (MW unavailable) per ISO: the `outage` metric, day-beginning at
 * local midnight (isoview-api.md §3.2). Levels follow docs/realism-targets.md §2d and its model
 * hint:
 *
 *   outage = planned + forced
 *
 * - **Planned** maintenance is a smooth seasonal curve — strong spring (Mar–May) and fall
 *   (Sep–Nov) seasons, near zero at the summer (mid-Jun–Aug) and winter (mid-Dec–Feb)
 *   peaks, where only a small floor of long-running outages remains — times a deterministic
 *   day-to-day variation with multi-day persistence (units go out for days to weeks).
 *   Schedules are known in advance, so every forecast sees them almost exactly.
 * - **Forced** outages are a base rate of 3–6 % of the ISO's thermal fleet, rising steeply
 *   when the day's population-weighted minimum falls below an ISO-specific freeze-up
 *   threshold (about −10 °C; lower in the north, higher in Texas: Elliott- and Uri-like days
 *   reach 20–30 % of the fleet) and moderately in heat (Tmax above ~33–38 °C), times a
 *   random multiplier with multi-day persistence (value noise over days plus a daily part).
 *
 * Forecasts (`optimized`, `iso`): the planned part with a tiny schedule-revision error; the
 * forced part evaluated at the forecast's own temperatures, with the random multiplier seen
 * the way weather/skill.ts sees anomalies: z_f = α·z + β·E, α = 1 − e²/2, β = √(e² − (1 − α)²), so
 * the error has variance e²(lead) and the forecast keeps the variance of the truth. E is
 * value noise over (valid day, run day), so consecutive runs differ little. `iso` errors are
 * 20 % larger. `normal` is the seasonal climatology of the total: the smooth planned curve
 * plus the forced rate expected under a climatological temperature distribution.
 *
 * Every number is a pure function of the inputs and OUTAGE_SEED (no Math.random).
 * Calibration: scripts/outage-calibration.ts.
 */
import { isoNumber, isoTable, type IsoCode } from '../catalog/isos.ts';
import type { OutageParams, PoptempClimate } from '../catalog/isos/profile.ts';
import { VALUE_NOISE1_SD, VALUE_NOISE2_SD, gaussianish, seedOf, valueNoise1, valueNoise2 } from './hash.ts';

export interface OutageDayInput {
  /** local civil date of the day (day-beginning at local midnight) */
  year: number;
  month: number;
  day: number;
  /** daily minimum and maximum population-weighted temperature of the ISO total (°C), as truth or as the forecast sees it */
  poptempMinC: number;
  poptempMaxC: number;
}

export type OutageModelName = 'optimized' | 'iso' | 'normal';

/**
 * Dispatchable thermal fleet (coal, gas, oil, nuclear; nameplate-ish, MW) that outages are
 * counted against. Rounded from EIA/ISO capacity reports (2024–2025): PJM ~180 GW installed
 * of which ~150 GW thermal; MISO ~120; ERCOT ~85; SPP ~55; CAISO ~40 (incl. imports-backed
 * gas fleet); NYISO ~30; ISO-NE ~25.
 */
export const ISO_THERMAL_FLEET_MW: Record<IsoCode, number> = isoTable((p) => p.thermalFleetMw);

/** Fixed seed of every outage random stream. */
export const OUTAGE_SEED = seedOf('gridcast/world/outage/v1');

export const OUTAGE_PARAMS: Record<IsoCode, OutageParams> = isoTable((p) => p.outage);

export const OUTAGE_POPTEMP_CLIMATE: Record<IsoCode, PoptempClimate> = isoTable((p) => p.poptempClimate);

/** Cold response: COLD_CAP·tanh(COLD_K·softplus(threshold − T)² / COLD_CAP), fraction of fleet. */
const COLD_K = 0.0045;
const COLD_CAP = 0.35;
/** Weight of Tmin in the cold day's effective temperature (the rest is Tmax). */
const COLD_MIN_WEIGHT = 0.8;
/** Heat response: HEAT_CAP·tanh(HEAT_K·softplus(Tmax − threshold)^1.5 / HEAT_CAP). */
const HEAT_K = 0.004;
const HEAT_CAP = 0.1;
/** Width (°C) of the soft onset of both responses. */
const ONSET_WIDTH_C = 1.5;

/** Relative day-to-day variation of planned outages and its persistence (days per lattice step). */
const PLANNED_VAR = 0.14;
const PLANNED_PERSIST_DAYS = 6;
/** Forecast revision error of the planned schedule at long leads (fraction of planned). */
const PLANNED_REVISION = 0.02;
/** Forced multiplier exp(σz − σ²/2): σ, the persistent share of z's variance, and its time scale. */
const FORCED_SIGMA = 0.42;
/** σ of the multiplier on the weather-driven excess of forced outages (same z). */
const FORCED_WEATHER_SIGMA = 0.2;
const FORCED_PERSIST_SHARE = 0.8;
const FORCED_PERSIST_DAYS = 4;
/** Forced-part error fraction e(L) = scale·√(e0² + (1 − e0²)(1 − exp(−L/τ))). */
const FORCED_E0 = 0.12;
const FORCED_TAU_DAYS = 9;
/** Error time scales of the forced-part error field, in valid days and run days. */
const ERROR_VALID_DAYS = 3;
const ERROR_RUN_DAYS = 4;
/** The ISO's own forecast is ~20 % worse than ours. */
const MODEL_ERROR_SCALE: Record<'optimized' | 'iso', number> = { optimized: 1, iso: 1.2 };
const MODEL_STREAM: Record<'optimized' | 'iso', number> = { optimized: 1, iso: 2 };

// Stream numbers (the second hash coordinate) of the random parts.
const S_PLANNED_SLOW = 101;
const S_PLANNED_DAILY = 102;
const S_FORCED_SLOW = 201;
const S_FORCED_DAILY = 202;
const S_FORCED_ERROR = 301;
const S_PLANNED_ERROR = 401;

const DAY_MS = 86_400_000;

/** Epoch day (days since 1970-01-01) of a civil date. */
export function epochDayOf(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / DAY_MS);
}

/** The ISO's key in the outage random streams: its fixed number, not its place in ISO_CODES. */
function isoIndex(iso: IsoCode): number {
  return isoNumber(iso);
}

/** Position in the year on a 365.25-day scale (0 = Jan 1 00:00), so leap years line up. */
export function yearPosition(year: number, month: number, day: number): number {
  const start = Date.UTC(year, 0, 1);
  const len = (Date.UTC(year + 1, 0, 1) - start) / DAY_MS;
  const doy0 = (Date.UTC(year, month - 1, day) - start) / DAY_MS;
  return ((doy0 + 0.5) * 365.25) / len;
}

function smoothstep(x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return x * x * (3 - 2 * x);
}

/** A flat-topped window: 0 before a, rising to 1 at b, 1 until c, back to 0 at d (C¹-smooth). */
function window(t: number, a: number, b: number, c: number, d: number): number {
  return smoothstep((t - a) / (b - a)) * (1 - smoothstep((t - c) / (d - c)));
}

function softplus(x: number, width: number): number {
  const z = x / width;
  return z > 30 ? x : width * Math.log1p(Math.exp(z));
}

/**
 * Smooth planned maintenance share of the fleet (no day-to-day variation) on a position of
 * the year (0–365.25). Spring: rises from Feb 10 to Mar 25, full until May 1, gone by Jun 10.
 * Fall: rises from Aug 25 to Oct 1, full until Nov 5, gone by Dec 12 (shifted per ISO).
 */
export function plannedSeasonalFraction(iso: IsoCode, t: number): number {
  const p = OUTAGE_PARAMS[iso];
  const s = p.fallShiftDays;
  const spring = window(t, 40, 83, 120, 160);
  const fall = window(t, 236 + s, 273 + s, 308 + s, 345 + Math.min(s, 15));
  return p.plannedFloor + p.plannedSpring * spring + p.plannedFall * fall;
}

/** Forced outage rate (fraction of fleet) expected at given daily min/max temperatures, before random variation. */
export function forcedRate(iso: IsoCode, poptempMinC: number, poptempMaxC: number): number {
  return OUTAGE_PARAMS[iso].forcedBase + forcedWeatherExcess(iso, poptempMinC, poptempMaxC);
}

/** The weather-driven part of the forced rate (cold freeze-ups and gas curtailment, heat derates). */
export function forcedWeatherExcess(iso: IsoCode, poptempMinC: number, poptempMaxC: number): number {
  const p = OUTAGE_PARAMS[iso];
  const tCold = COLD_MIN_WEIGHT * poptempMinC + (1 - COLD_MIN_WEIGHT) * poptempMaxC;
  const c = softplus(p.coldThresholdC - tCold, ONSET_WIDTH_C);
  const cold = COLD_CAP * Math.tanh((COLD_K * c * c) / COLD_CAP);
  const h = softplus(poptempMaxC - p.heatThresholdC, ONSET_WIDTH_C);
  const heat = HEAT_CAP * Math.tanh((HEAT_K * h * Math.sqrt(h)) / HEAT_CAP);
  return cold + heat;
}

function plannedVariation(iso: IsoCode, epochDay: number): number {
  const k = isoIndex(iso) * 16;
  const slow = valueNoise1(OUTAGE_SEED, S_PLANNED_SLOW + k, epochDay / PLANNED_PERSIST_DAYS) / VALUE_NOISE1_SD;
  const daily = gaussianish(OUTAGE_SEED, S_PLANNED_DAILY + k, epochDay);
  return Math.max(0.3, 1 + PLANNED_VAR * (0.85 * slow + 0.53 * daily));
}

function forcedZ(iso: IsoCode, epochDay: number): number {
  const k = isoIndex(iso) * 16;
  const slow = valueNoise1(OUTAGE_SEED, S_FORCED_SLOW + k, epochDay / FORCED_PERSIST_DAYS) / VALUE_NOISE1_SD;
  const daily = gaussianish(OUTAGE_SEED, S_FORCED_DAILY + k, epochDay);
  return Math.sqrt(FORCED_PERSIST_SHARE) * slow + Math.sqrt(1 - FORCED_PERSIST_SHARE) * daily;
}

/** Lognormal multiplier with mean 1 for a unit-normal z. */
function multiplier(sigma: number, z: number): number {
  return Math.exp(sigma * z - (sigma * sigma) / 2);
}

/**
 * Forced MW at given temperatures and random state z: the base rate varies with z fully,
 * the weather-driven excess (cold, heat) less, since the temperature already explains most of it.
 */
function forcedMw(iso: IsoCode, d: OutageDayInput, z: number): number {
  const base = OUTAGE_PARAMS[iso].forcedBase;
  const excess = forcedWeatherExcess(iso, d.poptempMinC, d.poptempMaxC);
  return ISO_THERMAL_FLEET_MW[iso] * (base * multiplier(FORCED_SIGMA, z) + excess * multiplier(FORCED_WEATHER_SIGMA, z));
}

/** Error fraction of the forced part's random multiplier at a lead (days), capped so α ≥ 0. */
export function forcedErrorFraction(leadDays: number, scale = 1): number {
  const lead = Math.max(0, leadDays);
  const e2 = FORCED_E0 * FORCED_E0 + (1 - FORCED_E0 * FORCED_E0) * (1 - Math.exp(-lead / FORCED_TAU_DAYS));
  return Math.min(Math.SQRT2, Math.sqrt(e2) * scale);
}

function checkInput(d: OutageDayInput): void {
  if (![d.year, d.month, d.day].every(Number.isInteger)) throw new RangeError('outage day needs an integer year, month and day');
}

export interface OutageParts {
  plannedMw: number;
  forcedMw: number;
  totalMw: number;
}

function parts(iso: IsoCode, planned: number, forced: number): OutageParts {
  const fleet = ISO_THERMAL_FLEET_MW[iso];
  // Never the whole fleet: forced outages fill at most what planned maintenance leaves.
  const f = Math.min(forced, 0.95 * fleet - planned);
  return { plannedMw: planned, forcedMw: Math.max(0, f), totalMw: planned + Math.max(0, f) };
}

/** Truth, split into its planned and forced parts (MW). */
export function outageTruthParts(iso: IsoCode, d: OutageDayInput): OutageParts {
  checkInput(d);
  const fleet = ISO_THERMAL_FLEET_MW[iso];
  const day = epochDayOf(d.year, d.month, d.day);
  const planned = fleet * plannedSeasonalFraction(iso, yearPosition(d.year, d.month, d.day)) * plannedVariation(iso, day);
  const forced = forcedMw(iso, d, forcedZ(iso, day));
  return parts(iso, planned, forced);
}

/** truth: planned + forced MW out for the ISO on that day */
export function outageTruthMw(iso: IsoCode, d: OutageDayInput): number {
  return outageTruthParts(iso, d).totalMw;
}

/** Gauss–Hermite nodes and weights for E[f(Z)], Z ~ N(0, 1) (probabilists', 9 points). */
const GH_NODES = [
  -4.512745863399783, -3.20542900285647, -2.07684797867783, -1.02325566378913, 0, 1.02325566378913, 2.07684797867783, 3.20542900285647,
  4.512745863399783,
];
const GH_WEIGHTS = [
  2.234584400774658e-5, 2.789141321231769e-3, 4.991640676521788e-2, 0.2440975028949394, 0.4063492063492063, 0.2440975028949394,
  4.991640676521788e-2, 2.789141321231769e-3, 2.234584400774658e-5,
];

/** Climatological daily min/max poptemp on a position of the year, and its anomaly SD. */
export function climatePoptemp(iso: IsoCode, t: number): { minC: number; maxC: number; sdC: number } {
  const c = OUTAGE_POPTEMP_CLIMATE[iso];
  const phase = Math.cos((2 * Math.PI * (t - c.coldestDoy)) / 365.25);
  const mean = c.meanC - c.ampC * phase;
  const winter = (1 + phase) / 2;
  const sd = c.sdSummerC + (c.sdWinterC - c.sdSummerC) * winter;
  return { minC: mean - c.rangeC / 2, maxC: mean + c.rangeC / 2, sdC: sd };
}

/** Forced rate expected under the climatological temperature distribution of that time of year. */
export function climatologicalForcedRate(iso: IsoCode, t: number): number {
  const { minC, maxC, sdC } = climatePoptemp(iso, t);
  let sum = 0;
  for (let i = 0; i < GH_NODES.length; i++) {
    const a = GH_NODES[i] * sdC;
    sum += GH_WEIGHTS[i] * forcedRate(iso, minC + a, maxC + a);
  }
  return sum;
}

/** The `normal` model: seasonal climatology of the total (MW). */
export function outageNormalMw(iso: IsoCode, year: number, month: number, day: number): number {
  return outageForecastParts(iso, { year, month, day, poptempMinC: Number.NaN, poptempMaxC: Number.NaN }, 0, 'normal', 0).totalMw;
}

/** A forecast, split into planned and forced parts (MW). See outageForecastMw. */
export function outageForecastParts(
  iso: IsoCode,
  d: OutageDayInput,
  leadDays: number,
  model: OutageModelName,
  runDay: number,
): OutageParts {
  checkInput(d);
  if (model === 'normal') {
    const fleet = ISO_THERMAL_FLEET_MW[iso];
    const t = yearPosition(d.year, d.month, d.day);
    return parts(iso, fleet * plannedSeasonalFraction(iso, t), fleet * climatologicalForcedRate(iso, t));
  }
  const scale = MODEL_ERROR_SCALE[model];
  if (scale === undefined) throw new RangeError(`unknown outage model: ${String(model)}`);
  const fleet = ISO_THERMAL_FLEET_MW[iso];
  const day = epochDayOf(d.year, d.month, d.day);
  const lead = Math.max(0, leadDays);
  const k = isoIndex(iso) * 16 + MODEL_STREAM[model] * 4;
  const run = Math.floor(runDay);

  // Planned: the published schedule, with small late revisions at long leads.
  const revision = valueNoise2(OUTAGE_SEED, S_PLANNED_ERROR + k, day / 5, run / 5) / VALUE_NOISE2_SD;
  const plannedTruth = fleet * plannedSeasonalFraction(iso, yearPosition(d.year, d.month, d.day)) * plannedVariation(iso, day);
  const planned = Math.max(0, plannedTruth * (1 + PLANNED_REVISION * scale * Math.min(1, lead / 7) * revision));

  // Forced: expected rate at the forecast's temperatures × the random multiplier as the run sees it.
  const e = forcedErrorFraction(lead, scale);
  const alpha = 1 - (e * e) / 2;
  const beta = Math.sqrt(Math.max(0, e * e - (1 - alpha) * (1 - alpha)));
  const err = valueNoise2(OUTAGE_SEED, S_FORCED_ERROR + k, day / ERROR_VALID_DAYS, run / ERROR_RUN_DAYS) / VALUE_NOISE2_SD;
  const z = alpha * forcedZ(iso, day) + beta * err;
  return parts(iso, planned, forcedMw(iso, d, z));
}

/** the forecast of that day's outage made `leadDays` days ahead (0 = same day) by model `model` ('optimized' | 'iso' | 'normal') given the forecast's own temperature inputs */
export function outageForecastMw(
  iso: IsoCode,
  d: OutageDayInput,
  leadDays: number,
  model: OutageModelName,
  runDay: number /* epoch day of the run, for its error noise */,
): number {
  return outageForecastParts(iso, d, leadDays, model, runDay).totalMw;
}

/** zone share of the ISO's outages (by the zone's share of thermal capacity; take a caller-given share) */
export function zoneOutageMw(isoOutageMw: number, zoneShare: number): number {
  return isoOutageMw * Math.min(1, Math.max(0, zoneShare));
}
