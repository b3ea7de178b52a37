/**
 * Wind plant output (docs/realism-targets.md §5a).
 *
 * Chain per plant-hour: power-law shear from 100 m to hub height → hub temperature by the
 * −6.5 K/km lapse and hub pressure by the hypsometric equation → air density p/(R_d·T)
 * → density-equivalent speed v·(ρ/1.225)^(1/3) → generic normalised power curve rescaled to the
 * plant's rated speed, averaged over a ±10 % fleet speed spread → cut-out (ramped over
 * 24–26 m/s of actual hub speed across the fleet) → availability 0.97 → × (1 − icing) → the
 * ISO's transmission-limited curtailment of output near rated (catalog/isos/profile.ts
 * WindCurtailment; none in most ISOs).
 *
 * Every function returns a number and allocates nothing. Equations and sources:
 * docs/physics.md §Wind.
 */
import { isoTable } from '../../catalog/isos.ts';
import type { WindPlant } from '../../catalog/types.ts';
import {
  G0,
  hubHeightM,
  R_DRY,
  REFERENCE_WIND_HEIGHT_M,
  RHO_STD,
  SCREEN_HEIGHT_M,
  STANDARD_LAPSE_K_PER_M,
  STANDARD_PRESSURE_PA,
  standardPressureRatio,
} from './atmosphere.ts';

export interface WindWeather {
  /** Wind speed at 100 m above ground, m/s. */
  speed100mMs: number;
  /** 2 m air temperature, °C. */
  tempC: number;
  /** Surface pressure, Pa. */
  pressurePa: number;
  /** Power-law shear exponent α (v ∝ h^α). */
  shearAlpha: number;
  /** Fraction of output lost to icing, 0..1. */
  icingLoss: number;
}

/**
 * Generic fleet-average normalised power curve: P/P_rated at wind speed index (m/s, 0…25) and
 * standard density; cut-in 3 m/s, 0.999 at 14 m/s, 1 up to the cut-out at 25 m/s, 0 above.
 *
 * Units: dimensionless (fraction of rated power). Source: the averaged curve of merra2ools
 * `fWindPowerCurve`; docs/physics.md §Wind, docs/realism-targets.md §5a.
 */
export const NORMALISED_POWER_CURVE: readonly number[] = Object.freeze([
  0, 0, 0, 0.017, 0.066, 0.138, 0.235, 0.362, 0.518, 0.688, 0.84, 0.941, 0.983, 0.995, 0.999, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
]);

/** Speed (m/s) at which the tabulated generic curve reaches 0.999. */
export const GENERIC_RATED_SPEED_MS = 14;
export const CUT_IN_MS = 3;
export const CUT_OUT_MS = 25;
/** Plant availability (turbine downtime, balance-of-plant, curtailment). */
export const WIND_AVAILABILITY = 0.97;
/** Relative speed spread of the fleet-smoothing points (v·(1 ± spread)). */
const FLEET_SPREAD = 0.1;
/** Half-width (m/s) of the fleet cut-out ramp around CUT_OUT_MS. */
const CUT_OUT_HALF_WIDTH = 1;

const CURVE = Float64Array.from(NORMALISED_POWER_CURVE);
const CURTAILMENT = isoTable((p) => p.windCurtailment);
const LAST = CURVE.length - 1;

/** Air density, kg/m³, from temperature (°C) and pressure (Pa): ρ = p/(R_d·T). */
export function airDensity(tempC: number, pressurePa: number): number {
  return pressurePa / (R_DRY * (tempC + 273.15));
}

/** Standard-atmosphere surface pressure, Pa, at an elevation in metres. */
export function pressureAtElevation(elevationM: number): number {
  return STANDARD_PRESSURE_PA * standardPressureRatio(elevationM);
}

/**
 * Generic curve at a table speed u (m/s), linear between 1 m/s steps, hard cut-in at 3 m/s,
 * held at 1 beyond the table (no cut-out: handled separately).
 */
function curveAtTableSpeed(u: number): number {
  if (!(u >= CUT_IN_MS)) return 0;
  if (u >= LAST) return 1;
  const i = u | 0;
  return CURVE[i] + (CURVE[i + 1] - CURVE[i]) * (u - i);
}

/**
 * Map a hub speed to the speed axis of the generic curve so the curve reaches 0.999 at the
 * plant's rated speed while cut-in stays at 3 m/s: linear between (3 → 3) and (rated → 14),
 * a 1:1 shift above rated.
 */
function tableSpeed(v: number, ratedMs: number, slope: number): number {
  if (v <= CUT_IN_MS) return v;
  if (v <= ratedMs) return CUT_IN_MS + (v - CUT_IN_MS) * slope;
  return GENERIC_RATED_SPEED_MS + (v - ratedMs);
}

function sanitiseRated(ratedSpeedMs: number): number {
  return ratedSpeedMs > 5 ? (ratedSpeedMs < 20 ? ratedSpeedMs : 20) : 5;
}

/**
 * Single-turbine normalised power (0..1) at a density-equivalent hub speed, with the curve
 * rescaled to `ratedSpeedMs`; 0 below cut-in (3 m/s) and above cut-out (25 m/s).
 */
export function normalisedPower(speedMs: number, ratedSpeedMs: number = GENERIC_RATED_SPEED_MS): number {
  if (!(speedMs >= CUT_IN_MS) || speedMs > CUT_OUT_MS) return 0;
  const r = sanitiseRated(ratedSpeedMs);
  const slope = (GENERIC_RATED_SPEED_MS - CUT_IN_MS) / (r - CUT_IN_MS);
  return curveAtTableSpeed(tableSpeed(speedMs, r, slope));
}

/**
 * Plant-average normalised power (0..1) for a density-equivalent hub speed `vEq` and an actual
 * hub speed `vHub`: the rescaled curve averaged over 0.9v, v, 1.1v (weights ¼, ½, ¼), times the
 * fraction of turbines still running near cut-out (linear from 1 at 24 m/s to 0 at 26 m/s).
 */
export function fleetNormalisedPower(vEq: number, vHub: number, ratedSpeedMs: number): number {
  if (!(vEq > 0)) return 0;
  if (vHub >= CUT_OUT_MS + CUT_OUT_HALF_WIDTH) return 0;
  const r = sanitiseRated(ratedSpeedMs);
  const slope = (GENERIC_RATED_SPEED_MS - CUT_IN_MS) / (r - CUT_IN_MS);
  const p =
    0.25 * curveAtTableSpeed(tableSpeed(vEq * (1 - FLEET_SPREAD), r, slope)) +
    0.5 * curveAtTableSpeed(tableSpeed(vEq, r, slope)) +
    0.25 * curveAtTableSpeed(tableSpeed(vEq * (1 + FLEET_SPREAD), r, slope));
  if (vHub > CUT_OUT_MS - CUT_OUT_HALF_WIDTH) {
    return (p * (CUT_OUT_MS + CUT_OUT_HALF_WIDTH - vHub)) / (2 * CUT_OUT_HALF_WIDTH);
  }
  return p;
}

/**
 * Per-plant constants, computed once per plant object: the shear factor to hub height and
 * the plant's fleet curve (without cut-out) tabulated every 0.05 m/s of density-equivalent
 * speed (shared by the plants of one rated speed), so an hour costs one table interpolation
 * instead of three curve evaluations.
 */
export interface WindPlantConstants {
  alpha: number;
  shearFactor: number;
  hub: number;
  curve: Float64Array;
  /** The plant's ISO's curtailment near rated output (undefined: none). */
  curtailment: (typeof CURTAILMENT)[keyof typeof CURTAILMENT];
  /** The plant's capacity, MW (read here once, not from the plant record every hour). */
  capacityMw: number;
}

const CURVE_STEP_MS = 0.05;
const CURVE_MAX_MS = 40;
const windConstants = new WeakMap<WindPlant, WindPlantConstants>();
/** The fleet curve depends on the rated speed alone (a tenth of a m/s in the catalog): one table per speed, shared by its plants (~30 tables, not one per plant). */
const curvesByRatedSpeed = new Map<number, Float64Array>();

function fleetCurve(ratedSpeedMs: number): Float64Array {
  let curve = curvesByRatedSpeed.get(ratedSpeedMs);
  if (!curve) {
    curve = new Float64Array(Math.round(CURVE_MAX_MS / CURVE_STEP_MS) + 2);
    // vHub = 0 turns the cut-out ramp off: it depends on the actual speed, applied per hour.
    for (let i = 0; i < curve.length; i++) curve[i] = fleetNormalisedPower(i * CURVE_STEP_MS, 0, ratedSpeedMs);
    curvesByRatedSpeed.set(ratedSpeedMs, curve);
  }
  return curve;
}

/** The plant's constants for shear exponent `alpha` (kept per plant: look them up once per series, not per hour). */
export function windPlantConstants(plant: WindPlant, alpha: number): WindPlantConstants {
  let k = windConstants.get(plant);
  if (!k || k.alpha !== alpha) {
    const hub = hubHeightM(plant);
    k = {
      alpha,
      shearFactor: hub === REFERENCE_WIND_HEIGHT_M ? 1 : Math.pow(hub / REFERENCE_WIND_HEIGHT_M, alpha),
      hub,
      curve: fleetCurve(plant.rated_speed_ms),
      curtailment: CURTAILMENT[plant.iso],
      capacityMw: plant.capacity_mw,
    };
    windConstants.set(plant, k);
  }
  return k;
}

/** One hour's weather as windSeriesMw reads it (windPlantOutputMw's). */
const hourSpeed = new Float64Array(1);
const hourTemp = new Float64Array(1);
const hourIcing = new Float64Array(1);
const hourOut = new Float64Array(1);

/** AC output of a wind plant for one hour, MW, in [0, capacity_mw]. */
export function windPlantOutputMw(plant: WindPlant, wx: WindWeather): number {
  const alpha = Number.isFinite(wx.shearAlpha) ? wx.shearAlpha : 1 / 7;
  hourSpeed[0] = wx.speed100mMs;
  hourTemp[0] = wx.tempC;
  hourIcing[0] = wx.icingLoss;
  windSeriesMw(windPlantConstants(plant, alpha), wx.pressurePa, hourSpeed, hourTemp, hourIcing, hourOut);
  return hourOut[0];
}

/** windSeriesMw's per-hour density factors (grown as needed, one array per thread). */
let densityFactor = new Float64Array(0);

/** Largest |r − 1| cubeRootNearOne's two Newton steps serve (density ratios lie within ±0.27). */
const NEAR_ONE = 0.3;

/**
 * ∛r for r near 1 (the density ratio ρ/ρ₀), to ~1e-11 relative within ±NEAR_ONE of 1, without a
 * call into the runtime (Math.cbrt, ~10 ns an hour of every plant, and the loop lost its
 * registers around the call): y ≈ r^(−1/3) from its Taylor cubic at 1, two Newton steps
 * y ← y·(4 − r·y³)/3 (no division), then ∛r = r·y². Math.cbrt outside that range.
 */
export function cubeRootNearOne(r: number): number {
  const d = r - 1;
  if (!(d > -NEAR_ONE && d < NEAR_ONE)) return r > 0 ? Math.cbrt(r) : 1;
  let y = 1 + d * (-1 / 3 + d * (2 / 9 - d * (14 / 81)));
  y = y * (4 - r * y * y * y) * (1 / 3);
  y = y * (4 - r * y * y * y) * (1 / 3);
  return r * y * y;
}

/** 1 / the fleet curve's table step (a product per hour, not a division). */
const PER_CURVE_STEP = 1 / CURVE_STEP_MS;

/**
 * AC output, MW, in [0, capacity_mw], of a plant (its constants: windPlantConstants, for a
 * finite shear exponent) for each hour of `out`, from the hours' 100 m speed, 2 m temperature
 * and icing loss (0..1). The arithmetic is written out in one loop, not called per hour: a call
 * that V8 does not inline passes and returns each hour's numbers as heap objects (~3 per hour,
 * most of a cold request's garbage). Divisions by constants are products by their reciprocals,
 * computed once (V8 keeps a division as written): an hour of every plant of a year of skill
 * leads is ~7 million hours a model.
 */
export function windSeriesMw(
  k: WindPlantConstants,
  pressurePa: number,
  speed100mMs: Float64Array,
  tempC: Float64Array,
  icingLoss: Float64Array,
  out: Float64Array,
): void {
  const cap = k.capacityMw;
  const shear = k.shearFactor;
  const curve = k.curve;
  const curtailment = k.curtailment;
  // Hub temperature by the standard lapse rate; hub pressure hypsometrically from the surface.
  const dz = k.hub - SCREEN_HEIGHT_M;
  const lapse = STANDARD_LAPSE_K_PER_M * dz;
  const gDzOverR = (G0 * dz) / R_DRY;
  // ρ/ρ₀ = p_hub / (R_d·T_hub·ρ₀) = pressurePa / (R_d·ρ₀) · (p_hub/p) / T_hub.
  const pressureOverRRho = pressurePa / (R_DRY * RHO_STD);
  // The density-equivalent speed factor (ρ/ρ₀)^(1/3) of every hour first, in loops of their own:
  // each hour's chain of divisions and products is long, and loops without branches overlap
  // the hours' chains in the processor.
  const n = out.length;
  if (densityFactor.length < n) densityFactor = new Float64Array(n);
  const factor = densityFactor;
  for (let i = 0; i < n; i++) {
    const tHubK = tempC[i] + 273.15 - lapse;
    // Hypsometric p_hub = p·exp(−x), x = g·Δz/(R_d·T̄) ≈ 0.01 for a 100 m hub, T̄ the layer's mean
    // temperature: the second-order expansion is exact to ~1e-7 and saves an exp per hour.
    // One division: 1/T̄ = 1/(T_hub + c) = (1/T_hub)·(1 − q + q²), q = c/T_hub ≈ 0.001 (to ~1e-9).
    const perT = 1 / tHubK;
    const q = 0.5 * lapse * perT;
    const x = gDzOverR * perT * (1 - q + q * q);
    factor[i] = pressureOverRRho * (1 - x + 0.5 * x * x) * perT;
  }
  for (let i = 0; i < n; i++) factor[i] = cubeRootNearOne(factor[i]);
  for (let i = 0; i < n; i++) {
    const v100 = speed100mMs[i];
    const vHub = v100 * shear;
    if (!(cap > 0) || !(v100 > 0) || vHub >= CUT_OUT_MS + CUT_OUT_HALF_WIDTH) {
      out[i] = 0;
      continue;
    }
    const vEq = vHub * factor[i];

    const pos = (vEq < CURVE_MAX_MS ? vEq : CURVE_MAX_MS) * PER_CURVE_STEP;
    const j = pos | 0;
    let frac = curve[j] + (curve[j + 1] - curve[j]) * (pos - j);
    if (vHub > CUT_OUT_MS - CUT_OUT_HALF_WIDTH) frac *= (CUT_OUT_MS + CUT_OUT_HALF_WIDTH - vHub) * (0.5 / CUT_OUT_HALF_WIDTH);
    frac *= WIND_AVAILABILITY;
    const ice = icingLoss[i];
    if (ice > 0) frac *= ice < 1 ? 1 - ice : 0;
    if (!(frac > 0)) {
      out[i] = 0;
      continue;
    }
    if (curtailment && frac > curtailment.fromShare) {
      frac = curtailment.fromShare + (frac - curtailment.fromShare) * (1 - curtailment.curtailedShare);
    }
    const p = frac * cap;
    out[i] = p < cap ? p : cap;
  }
}
