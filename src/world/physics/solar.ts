/**
 * Solar geometry and PV plant output (docs/realism-targets.md §5b).
 *
 * Chain per plant-hour:
 *   NOAA solar position (declination/EoT per instant, true solar time → hour angle per site)
 *   → Ineichen–Perez clear-sky GHI (Linke turbidity 3, sea level)
 *   → Larson cloud attenuation → Erbs GHI split into DNI/DHI → plane of array (fixed rack or
 *   N–S single-axis tracker with backtracking; isotropic sky + ground reflection)
 *   → SAPM cell temperature → PVWatts DC × (1 − snow) × (1 − 14 % losses)
 *   → PVWatts inverter curve → clip at AC capacity.
 *
 * Hot-path rules: nothing here allocates after module load. Per-instant terms go in a
 * caller-owned `SolarTimeTerms`, per-location sun geometry in a caller-owned `SunPosition`,
 * intermediates in a caller-owned `SolarScratch`, and per-plant constants are computed once
 * per plant object (WeakMap, identity-keyed). One call of `solarPlantOutputMw` then costs a
 * few dozen multiplications, one table lookup for the clear sky, one `Math.exp` (cell
 * temperature) and a square root for trackers; no pow, no trig.
 *
 * Equations, units and sources of every model: docs/physics.md §Solar.
 */
import type { SolarPlant } from '../../catalog/types.ts';
import { standardPressureRatio } from './atmosphere.ts';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** Per-instant solar terms shared by every location. */
export interface SolarTimeTerms {
  /** Gregorian UTC year of the instant. */
  year: number;
  /** Day of year, 1-based (1 = Jan 1). */
  dayOfYear: number;
  /** Hours since 00:00 UTC of that day, [0, 24). */
  utcHour: number;
  /** NOAA fractional year γ = 2π/days_in_year·(doy − 1 + (hour − 12)/24), radians. */
  fractionalYear: number;
  /** Solar declination δ, radians. */
  declination: number;
  sinDeclination: number;
  cosDeclination: number;
  /** Equation of time, minutes (apparent − mean solar time). */
  equationOfTimeMin: number;
  /** Extraterrestrial normal irradiance, W/m²: 1367·(1 + 0.033·cos(2π·doy/365)). */
  dniExtra: number;
}

/** Sun geometry for one location at one instant. Angles in radians. */
export interface SunPosition {
  cosZenith: number;
  sinZenith: number;
  /** Zenith angle, radians (0 = overhead, > π/2 = below the horizon). */
  zenith: number;
  /** Azimuth, radians clockwise from north, [0, 2π). */
  azimuth: number;
  sinAzimuth: number;
  cosAzimuth: number;
  /** Elevation above the horizon, radians (π/2 − zenith; no refraction). */
  elevation: number;
  /** Hour angle, radians (0 at true solar noon, positive in the afternoon). */
  hourAngle: number;
}

export interface SolarWeather {
  /** 2 m air temperature, °C. */
  tempC: number;
  /** 10 m wind speed, m/s. */
  windMs: number;
  /** Total cloud cover, 0..1. */
  cloudCover: number;
  /** Fraction of the array covered by snow, 0..1. */
  snowCover: number;
  /** Ground albedo, 0..1 (≈0.2 bare ground, 0.6–0.8 snow). */
  albedo: number;
}

/** Output of `erbsSplit`. */
export interface IrradianceSplit {
  /** Direct normal irradiance, W/m². */
  dni: number;
  /** Diffuse horizontal irradiance, W/m². */
  dhi: number;
  /** Clearness index kt used by the split. */
  kt: number;
}

/**
 * Caller-owned scratch for `solarPlantOutputMw`: after each call it holds the intermediate
 * values of the chain (for diagnostics and tests) and a reference to the last plant's constants. Create with `createSolarScratch()`; one per worker/thread of evaluation.
 */
export interface SolarScratch extends IrradianceSplit {
  /** Clear-sky GHI, W/m². */
  ghiClear: number;
  /** All-sky GHI after cloud attenuation, W/m². */
  ghi: number;
  /** Cosine of the angle of incidence on the modules (may be negative: sun behind the plane). */
  cosAoi: number;
  /** Cosine of the surface tilt used this hour (tracker: cosine of the rotation angle). */
  cosSurfaceTilt: number;
  /** Plane-of-array irradiance, W/m². */
  poa: number;
  /** Cell temperature, °C. */
  cellTempC: number;
  /** DC power after temperature, snow and system losses, MW. */
  dcMw: number;
  /** AC power, MW (the return value). */
  acMw: number;
  /** Last plant seen and its constants (fast path when consecutive calls share a plant). */
  lastPlant: SolarPlant | null;
  lastConsts: SolarPlantConstants | null;
}

/**
 * Per-plant constants derived once from the plant record (trig of tilt, azimuth, tracker limit;
 * DC and AC ratings). Cached per plant object in a module-level WeakMap.
 */
export interface SolarPlantConstants {
  tracker: boolean;
  cosTilt: number;
  sinTilt: number;
  /** Sine/cosine of the panel azimuth (fixed) or the tracker axis azimuth. */
  sinAz: number;
  cosAz: number;
  /** Sine/cosine of the tracker rotation limit. */
  cosMax: number;
  sinMax: number;
  gcr: number;
  /** Array DC rating, MW = capacity_mw · dc_ac_ratio. */
  pdc0: number;
  /** Power temperature coefficient, 1/°C. */
  gamma: number;
  /** AC rating, MW = capacity_mw. */
  pac0: number;
}

export function createSolarTimeTerms(): SolarTimeTerms {
  return {
    year: 1970,
    dayOfYear: 1,
    utcHour: 0,
    fractionalYear: 0,
    declination: 0,
    sinDeclination: 0,
    cosDeclination: 1,
    equationOfTimeMin: 0,
    dniExtra: SOLAR_CONSTANT,
  };
}

export function createSunPosition(): SunPosition {
  return {
    cosZenith: 0,
    sinZenith: 1,
    zenith: HALF_PI,
    azimuth: 0,
    sinAzimuth: 0,
    cosAzimuth: 1,
    elevation: 0,
    hourAngle: 0,
  };
}

export function createSolarScratch(): SolarScratch {
  return {
    dni: 0,
    dhi: 0,
    kt: 0,
    ghiClear: 0,
    ghi: 0,
    cosAoi: 0,
    cosSurfaceTilt: 1,
    poa: 0,
    cellTempC: 0,
    dcMw: 0,
    acMw: 0,
    lastPlant: null,
    lastConsts: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

const TWO_PI = 2 * Math.PI;
const HALF_PI = Math.PI / 2;
const DEG = Math.PI / 180;
const RAD_TO_DEG = 180 / Math.PI;

/**
 * Solar constant of the extraterrestrial irradiance: I₀ = S·(1 + 0.033·cos(2π·doy/365)).
 *
 * Units: W/m². Source: Duffie & Beckman, Solar Engineering of Thermal Processes, eq. 1.4.1a.
 * docs/physics.md §Extraterrestrial irradiance and air mass.
 */
export const SOLAR_CONSTANT = 1367;
/**
 * Linke turbidity T_L of the Ineichen–Perez clear sky (a typical continental value; 2–6 in practice).
 *
 * Units: dimensionless. Source: Ineichen & Perez (2002), Solar Energy 73. docs/physics.md §Clear sky.
 */
export const LINKE_TURBIDITY = 3;
/**
 * PVWatts default system losses: 1 − Π(1 − l_i) over soiling 2, shading 3, mismatch 2, wiring 2,
 * connections 0.5, LID 1.5, nameplate 1 and availability 3 %.
 *
 * Units: fraction of DC output. Source: Dobos, PVWatts Version 5 Manual, NREL/TP-6A20-62641 (2014);
 * pvlib pvsystem.pvwatts_losses. docs/physics.md §PVWatts DC, losses and inverter.
 */
export const SYSTEM_LOSSES = 0.14;
/**
 * PVWatts inverter efficiencies: η = (η_nom/η_ref)·(−0.0162·ζ − 0.0059/ζ + 0.9858).
 *
 * Units: dimensionless. Source: PVWatts Version 5 Manual, eq. 8–9; pvlib inverter.pvwatts.
 * docs/physics.md §PVWatts DC, losses and inverter.
 */
export const INVERTER_ETA_NOM = 0.96;
export const INVERTER_ETA_REF = 0.9637;
/**
 * SAPM cell-temperature coefficients, open-rack glass/polymer: T_m = E·exp(a + b·WS) + T_a,
 * T_c = T_m + (E/1000)·ΔT.
 *
 * Units: a dimensionless, b in s/m, ΔT in °C. Source: King, Boyson, Kratochvil, SAND2004-3535
 * (2004), table 1; pvlib temperature.sapm_cell. docs/physics.md §Cell temperature (SAPM).
 */
export const SAPM_A = -3.56;
export const SAPM_B = -0.075;
export const SAPM_DELTA_T = 3;
/**
 * Floor on cos z in the clearness index k_t = GHI / (I₀·max(cos z, 0.065)).
 *
 * Units: dimensionless. Source: pvlib irradiance.erbs (min_cos_zenith). docs/physics.md §Clouds and decomposition.
 */
const MIN_COS_ZENITH = 0.065;

// ---------------------------------------------------------------------------------------------
// Calendar (allocation-free: no Date objects)
// ---------------------------------------------------------------------------------------------

function leapCount(y: number): number {
  return Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400);
}
const LEAPS_BEFORE_1970 = leapCount(1969);

/** Days from 1970-01-01 to Jan 1 of year y. */
function daysBeforeYear(y: number): number {
  return 365 * (y - 1970) + leapCount(y - 1) - LEAPS_BEFORE_1970;
}

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

// ---------------------------------------------------------------------------------------------
// Solar position (NOAA Global Monitoring Division: general solar position / solar calculator)
// ---------------------------------------------------------------------------------------------

/**
 * Fill `out` with the terms of the instant `epochHourFloat` (hours since 1970-01-01T00:00Z,
 * fractional allowed) that do not depend on the location: calendar, NOAA fractional year,
 * declination and equation of time (NOAA solar-calculator formulation, ±0.01° / ±0.1 min over
 * 1950–2050) and the extraterrestrial normal irradiance.
 */
export function solarTimeTerms(epochHourFloat: number, out: SolarTimeTerms): void {
  const days = Math.floor(epochHourFloat / 24);
  const utcHour = epochHourFloat - days * 24;
  let y = 1970 + Math.floor(days / 365.2425);
  while (daysBeforeYear(y) > days) y--;
  while (daysBeforeYear(y + 1) <= days) y++;
  const doy = days - daysBeforeYear(y) + 1;
  const yearDays = isLeapYear(y) ? 366 : 365;

  const g = (TWO_PI / yearDays) * (doy - 1 + (utcHour - 12) / 24);

  // Declination and equation of time from the sun's apparent longitude and the obliquity
  // (NOAA solar calculator / Meeus low-precision solar coordinates). The 6-term Fourier series
  // of the NOAA "general solar position" note ignores the leap-year cycle and is off by up to
  // ~0.5° in declination near the equinoxes; this costs a few more trig calls, but only once
  // per instant (shared by every plant).
  const jc = (epochHourFloat / 24 + 2440587.5 - 2451545) / 36525;
  const l0 = (280.46646 + jc * (36000.76983 + jc * 0.0003032)) * DEG; // geometric mean longitude
  const m = (357.52911 + jc * (35999.05029 - 0.0001537 * jc)) * DEG; // mean anomaly
  const e = 0.016708634 - jc * (0.000042037 + 0.0000001267 * jc); // orbit eccentricity
  const sinM = Math.sin(m);
  const sin2M = Math.sin(2 * m);
  const centre = sinM * (1.914602 - jc * (0.004817 + 0.000014 * jc)) + sin2M * (0.019993 - 0.000101 * jc) + Math.sin(3 * m) * 0.000289; // equation of centre, degrees
  const omega = (125.04 - 1934.136 * jc) * DEG; // longitude of the moon's ascending node
  const appLong = l0 + (centre - 0.00569 - 0.00478 * Math.sin(omega)) * DEG;
  const meanObliq = 23 + (26 + (21.448 - jc * (46.815 + jc * (0.00059 - jc * 0.001813))) / 60) / 60;
  const obliq = (meanObliq + 0.00256 * Math.cos(omega)) * DEG;
  const sinDecl = Math.sin(obliq) * Math.sin(appLong);
  const decl = Math.asin(sinDecl);
  const ty = Math.tan(obliq / 2);
  const yv = ty * ty;
  const eqTime =
    4 *
    RAD_TO_DEG *
    (yv * Math.sin(2 * l0) - 2 * e * sinM + 4 * e * yv * sinM * Math.cos(2 * l0) - 0.5 * yv * yv * Math.sin(4 * l0) - 1.25 * e * e * sin2M);

  out.year = y;
  out.dayOfYear = doy;
  out.utcHour = utcHour;
  out.fractionalYear = g;
  out.declination = decl;
  out.sinDeclination = sinDecl;
  out.cosDeclination = Math.sqrt(1 - sinDecl * sinDecl);
  out.equationOfTimeMin = eqTime;
  out.dniExtra = SOLAR_CONSTANT * (1 + 0.033 * Math.cos((TWO_PI * doy) / 365));
}

/**
 * Sun geometry at (latDeg, lonDeg; east positive) for the instant `epochHourFloat`, using the
 * per-instant `terms` (which may have been computed for a nearby instant, e.g. once per hour).
 * True solar time = UTC minutes + equation of time + 4·longitude; hour angle = tst/4 − 180°.
 */
export function sunPosition(terms: SolarTimeTerms, epochHourFloat: number, latDeg: number, lonDeg: number, out: SunPosition): void {
  const utcMin = (epochHourFloat - Math.floor(epochHourFloat / 24) * 24) * 60;
  const tst = utcMin + terms.equationOfTimeMin + 4 * lonDeg;
  const ha = (tst / 4 - 180) * DEG;
  const lat = latDeg * DEG;
  const sinLat = Math.sin(lat);
  const cosLat = Math.cos(lat);
  const sinHa = Math.sin(ha);
  const cosHa = Math.cos(ha);
  const sd = terms.sinDeclination;
  const cd = terms.cosDeclination;

  let cosZ = sinLat * sd + cosLat * cd * cosHa;
  if (cosZ > 1) cosZ = 1;
  else if (cosZ < -1) cosZ = -1;
  // Horizontal components of the unit sun vector: east and north.
  const east = -cd * sinHa;
  const north = sd * cosLat - cd * sinLat * cosHa;
  const sinZ = Math.sqrt(east * east + north * north);

  let az = Math.atan2(east, north);
  if (az < 0) az += TWO_PI;
  const zen = Math.atan2(sinZ, cosZ);

  out.cosZenith = cosZ;
  out.sinZenith = sinZ;
  out.zenith = zen;
  out.azimuth = az;
  if (sinZ > 1e-12) {
    out.sinAzimuth = east / sinZ;
    out.cosAzimuth = north / sinZ;
  } else {
    out.sinAzimuth = 0;
    out.cosAzimuth = -1;
  }
  out.elevation = HALF_PI - zen;
  out.hourAngle = ha;
}

// ---------------------------------------------------------------------------------------------
// Irradiance models
// ---------------------------------------------------------------------------------------------

/** Kasten & Young (1989) relative optical air mass for a zenith angle in degrees. */
function kastenYoungAirMass(cosZenith: number, zenithDeg: number): number {
  return 1 / (cosZenith + 0.50572 * Math.pow(96.07995 - zenithDeg, -1.6364));
}

/**
 * Ineichen–Perez clear-sky GHI, W/m² (docs/physics.md §Clear sky, Kasten–Young air mass). The
 * optional Perez (2002) exp(0.01·AM^1.8) factor is deliberately left out: it grows without bound
 * near the horizon (≈ ×100 at 0.5° elevation) and would give tens of W/m² at sunrise.
 * `altitudeM` scales the air mass to absolute (p/p0 of the standard atmosphere) and sets the
 * altitude coefficients. Returns 0 with the sun at or below the horizon.
 */
export function clearSkyGhi(cosZenith: number, dniExtra: number, linkeTurbidity: number = LINKE_TURBIDITY, altitudeM: number = 0): number {
  if (!(cosZenith > 0)) return 0;
  const cz = cosZenith > 1 ? 1 : cosZenith;
  const zDeg = Math.acos(cz) * RAD_TO_DEG;
  const pRatio = standardPressureRatio(altitudeM);
  const am = kastenYoungAirMass(cz, zDeg) * pRatio;
  const fh1 = Math.exp(-altitudeM / 8000);
  const fh2 = Math.exp(-altitudeM / 1250);
  const cg1 = 5.09e-5 * altitudeM + 0.868;
  const cg2 = 3.92e-5 * altitudeM + 0.0387;
  const ghi = cg1 * dniExtra * cz * Math.exp(-cg2 * am * (fh1 + fh2 * (linkeTurbidity - 1)));
  return ghi > 0 ? ghi : 0;
}

/**
 * Haurwitz clear-sky GHI, W/m² (needs only the zenith): 1098·cos z·exp(−0.059/cos z).
 * Provided as the simpler alternative; the plant model uses Ineichen.
 */
export function haurwitzGhi(cosZenith: number): number {
  if (!(cosZenith > 0)) return 0;
  return 1098 * cosZenith * Math.exp(-0.059 / cosZenith);
}

/**
 * Table of the sea-level Ineichen clear-sky transmittance GHI/(I0·cos z) for TL = 3,
 * indexed uniformly in cos z (0..1). It is a pure function of the zenith, so the hot path
 * replaces an acos, two pow and two exp calls with one linear interpolation.
 */
const CS_STEPS = 4096;
const CS_TABLE = new Float64Array(CS_STEPS + 2);
for (let i = 0; i <= CS_STEPS; i++) {
  const cz = i / CS_STEPS;
  CS_TABLE[i] = cz > 0 ? clearSkyGhi(cz, 1, LINKE_TURBIDITY, 0) / cz : 0;
}
CS_TABLE[CS_STEPS + 1] = CS_TABLE[CS_STEPS];

/** Sea-level, TL = 3 clear-sky GHI from the precomputed table (hot path). */
function clearSkyGhiFast(cosZenith: number, dniExtra: number): number {
  const x = cosZenith * CS_STEPS;
  const i = x | 0;
  const f = x - i;
  const t = CS_TABLE[i] + (CS_TABLE[i + 1] - CS_TABLE[i]) * f;
  return t * dniExtra * cosZenith;
}

/**
 * Erbs et al. (1982) diffuse fraction from the clearness index kt = GHI/(I0·max(cos z, 0.065)),
 * kt limited to [0, 1]. Writes DNI, DHI and kt into `out`.
 */
export function erbsSplit(ghi: number, cosZenith: number, dniExtra: number, out: IrradianceSplit): void {
  if (!(ghi > 0) || !(cosZenith > 0)) {
    out.dni = 0;
    out.dhi = ghi > 0 ? ghi : 0;
    out.kt = 0;
    return;
  }
  let kt = ghi / (dniExtra * (cosZenith > MIN_COS_ZENITH ? cosZenith : MIN_COS_ZENITH));
  if (kt > 1) kt = 1;
  let df: number;
  if (kt <= 0.22) {
    df = 1 - 0.09 * kt;
  } else if (kt <= 0.8) {
    df = 0.9511 + kt * (-0.1604 + kt * (4.388 + kt * (-16.638 + kt * 12.336)));
  } else {
    df = 0.165;
  }
  const dhi = df * ghi;
  let dni = (ghi - dhi) / cosZenith;
  if (dni < 0) dni = 0;
  else if (dni > dniExtra) dni = dniExtra;
  out.dni = dni;
  out.dhi = dhi;
  out.kt = kt;
}

// ---------------------------------------------------------------------------------------------
// Single-axis tracker (horizontal axis, flat ground)
// ---------------------------------------------------------------------------------------------

/** Scratch for the tracker routine: sine/cosine of the signed rotation angle. */
const trackerSC = { sin: 0, cos: 1 };

/**
 * Rotation of a horizontal single-axis tracker as sine/cosine (no trig calls).
 * `xPerp` = sun-vector component perpendicular to the axis (positive towards axis azimuth + 90°),
 * `z` = cos zenith (> 0). True tracking θT = atan2(xPerp, z); backtracking when
 * cos θT < gcr: |θ| = |θT| − acos(cos θT / gcr); then |θ| ≤ maxAngle.
 */
function trackerSinCos(xPerp: number, z: number, gcr: number, cosMax: number, sinMax: number, out: { sin: number; cos: number }): void {
  const n = Math.sqrt(xPerp * xPerp + z * z);
  const cT = z / n;
  const sAbsT = (xPerp < 0 ? -xPerp : xPerp) / n;
  let c = cT;
  let sAbs = sAbsT;
  if (cT < gcr) {
    // Backtracking: rotate back by α = acos(cT/gcr) ≤ |θT|.
    const ca = cT / gcr;
    const sa = Math.sqrt(1 - ca * ca);
    c = cT * ca + sAbsT * sa;
    sAbs = sAbsT * ca - cT * sa;
    if (sAbs < 0) sAbs = 0;
    if (c > 1) c = 1;
  }
  if (c < cosMax) {
    c = cosMax;
    sAbs = sinMax;
  }
  out.cos = c;
  out.sin = xPerp < 0 ? -sAbs : sAbs;
}

/**
 * Rotation angle, degrees, of a horizontal single-axis tracker whose axis points to
 * `axisAzimuthDeg` (180 = N–S axis), with backtracking for ground coverage ratio `gcr`
 * and limited to ±`maxAngleDeg`. Positive = modules tilted towards axis azimuth + 90°
 * (west for a N–S axis). Returns 0 with the sun below the horizon (stow flat).
 */
export function trackerRotationDeg(sun: SunPosition, axisAzimuthDeg: number, maxAngleDeg: number, gcr: number): number {
  if (!(sun.cosZenith > 0)) return 0;
  const aa = axisAzimuthDeg * DEG;
  const xPerp = sun.sinZenith * (sun.sinAzimuth * Math.cos(aa) - sun.cosAzimuth * Math.sin(aa));
  const m = Math.min(Math.max(maxAngleDeg, 0), 90) * DEG;
  trackerSinCos(xPerp, sun.cosZenith, gcr, Math.cos(m), Math.sin(m), trackerSC);
  return Math.atan2(trackerSC.sin, trackerSC.cos) * RAD_TO_DEG;
}

// ---------------------------------------------------------------------------------------------
// Temperature, DC, inverter
// ---------------------------------------------------------------------------------------------

/**
 * SAPM cell temperature, °C: Tm = E·exp(a + b·WS) + Ta; Tc = Tm + (E/1000)·ΔT.
 * Defaults: open-rack glass/polymer (a −3.56, b −0.075, ΔT 3). `windMs` at 10 m.
 */
export function cellTemperatureC(
  poa: number,
  tempC: number,
  windMs: number,
  a: number = SAPM_A,
  b: number = SAPM_B,
  deltaT: number = SAPM_DELTA_T,
): number {
  const e = poa > 0 ? poa : 0;
  const ws = windMs > 0 ? windMs : 0;
  return tempC + e * Math.exp(a + b * ws) + e * (deltaT / 1000);
}

/**
 * PVWatts inverter: ζ = P_dc/P_dc0 with P_dc0 = P_ac0/η_nom,
 * η = (η_nom/η_ref)(−0.0162ζ − 0.0059/ζ + 0.9858), P_ac = min(η·P_dc, P_ac0), floored at 0.
 * Units are whatever `pdc` and `pac0` share (MW here).
 */
export function pvwattsInverterAc(pdc: number, pac0: number, etaNom: number = INVERTER_ETA_NOM, etaRef: number = INVERTER_ETA_REF): number {
  if (!(pdc > 0) || !(pac0 > 0)) return 0;
  const zeta = (pdc * etaNom) / pac0;
  const eta = (etaNom / etaRef) * (-0.0162 * zeta - 0.0059 / zeta + 0.9858);
  const pac = eta * pdc;
  if (!(pac > 0)) return 0;
  return pac < pac0 ? pac : pac0;
}

// ---------------------------------------------------------------------------------------------
// Plant output
// ---------------------------------------------------------------------------------------------

const plantConstants = new WeakMap<SolarPlant, SolarPlantConstants>();

/**
 * Constants of a plant, computed on first use and cached by object identity: a plant record
 * must not be mutated after it has been evaluated (build a new record instead).
 */
export function solarPlantConstants(plant: SolarPlant): SolarPlantConstants {
  let c = plantConstants.get(plant);
  if (c === undefined) {
    c = computePlantConstants(plant);
    plantConstants.set(plant, c);
  }
  return c;
}

function computePlantConstants(plant: SolarPlant): SolarPlantConstants {
  const tracker = plant.mounting === 'single_axis';
  const tilt = (tracker ? 0 : plant.tilt_deg) * DEG;
  const az = (Number.isFinite(plant.azimuth_deg) ? plant.azimuth_deg : 180) * DEG;
  const maxA = Math.min(Math.max(tracker ? plant.max_angle_deg : 0, 0), 90) * DEG;
  const pac0 = plant.capacity_mw > 0 ? plant.capacity_mw : 0;
  return {
    tracker,
    cosTilt: Math.cos(tilt),
    sinTilt: Math.sin(tilt),
    sinAz: Math.sin(az),
    cosAz: Math.cos(az),
    cosMax: Math.cos(maxA),
    sinMax: Math.sin(maxA),
    gcr: plant.gcr > 0 && plant.gcr <= 1 ? plant.gcr : 0.35,
    pdc0: pac0 * (plant.dc_ac_ratio > 0 ? plant.dc_ac_ratio : 1),
    gamma: Number.isFinite(plant.temp_coeff_per_c) ? plant.temp_coeff_per_c : -0.0037,
    pac0,
  };
}

function clamp01(x: number): number {
  return x > 0 ? (x < 1 ? x : 1) : 0;
}

/**
 * AC output of a PV plant for one instant, MW, in [0, capacity_mw]; exactly 0 when the sun is
 * at or below the horizon. `scratch` receives the intermediates. Plant constants are cached by
 * object identity (see `solarPlantConstants`): do not mutate a plant record between calls.
 */
export function solarPlantOutputMw(
  plant: SolarPlant,
  sun: SunPosition,
  terms: SolarTimeTerms,
  wx: SolarWeather,
  scratch: SolarScratch,
): number {
  const s = scratch;
  s.acMw = 0;
  const cosZ = sun.cosZenith;
  if (!(cosZ > 0)) {
    s.ghiClear = 0;
    s.ghi = 0;
    s.dni = 0;
    s.dhi = 0;
    s.kt = 0;
    s.poa = 0;
    s.dcMw = 0;
    s.cosAoi = 0;
    return 0;
  }
  let c = s.lastConsts;
  if (s.lastPlant !== plant || c === null) {
    c = solarPlantConstants(plant);
    s.lastPlant = plant;
    s.lastConsts = c;
  }

  const i0 = terms.dniExtra;
  // Clear sky → clouds (Larson) → Erbs.
  const ghiClear = clearSkyGhiFast(cosZ, i0);
  const ghi = (0.35 + 0.65 * (1 - clamp01(wx.cloudCover))) * ghiClear;
  s.ghiClear = ghiClear;
  s.ghi = ghi;
  erbsSplit(ghi, cosZ, i0, s);

  // Plane of array.
  const sinZ = sun.sinZenith;
  let cosAoi: number;
  let cosTilt: number;
  if (c.tracker) {
    // Axis azimuth Aa: perpendicular direction is Aa + 90°, sin(As − Aa) expanded.
    const xPerp = sinZ * (sun.sinAzimuth * c.cosAz - sun.cosAzimuth * c.sinAz);
    trackerSinCos(xPerp, cosZ, c.gcr, c.cosMax, c.sinMax, trackerSC);
    cosTilt = trackerSC.cos;
    cosAoi = trackerSC.sin * xPerp + trackerSC.cos * cosZ;
  } else {
    cosTilt = c.cosTilt;
    cosAoi = cosZ * cosTilt + sinZ * c.sinTilt * (sun.cosAzimuth * c.cosAz + sun.sinAzimuth * c.sinAz);
  }
  s.cosAoi = cosAoi;
  s.cosSurfaceTilt = cosTilt;
  const beam = cosAoi > 0 ? s.dni * cosAoi : 0;
  const poa = beam + s.dhi * 0.5 * (1 + cosTilt) + ghi * clamp01(wx.albedo) * 0.5 * (1 - cosTilt);
  s.poa = poa;

  // SAPM cell temperature (open rack glass/polymer).
  const tc = cellTemperatureC(poa, wx.tempC, wx.windMs);
  s.cellTempC = tc;

  // PVWatts DC, snow, system losses.
  let tempFactor = 1 + c.gamma * (tc - 25);
  if (tempFactor < 0) tempFactor = 0;
  const pdc = poa * 0.001 * c.pdc0 * tempFactor * (1 - clamp01(wx.snowCover)) * (1 - SYSTEM_LOSSES);
  s.dcMw = pdc;

  // PVWatts inverter with clipping at the AC rating.
  const pac = pvwattsInverterAc(pdc, c.pac0);
  s.acMw = pac;
  return pac;
}

/** Convenience for callers that think in degrees. */
export function elevationDeg(sun: SunPosition): number {
  return sun.elevation * RAD_TO_DEG;
}
