import { test } from 'node:test';
import assert from 'node:assert/strict';

import type { SolarPlant, WindPlant } from '../src/catalog/types.ts';
import {
  cellTemperatureC,
  clearSkyGhi,
  createSolarScratch,
  createSolarTimeTerms,
  createSunPosition,
  erbsSplit,
  haurwitzGhi,
  pvwattsInverterAc,
  solarPlantOutputMw,
  solarTimeTerms,
  sunPosition,
  trackerRotationDeg,
  type SolarWeather,
} from '../src/world/physics/solar.ts';
import {
  NORMALISED_POWER_CURVE,
  WIND_AVAILABILITY,
  airDensity,
  normalisedPower,
  pressureAtElevation,
  windPlantOutputMw,
  type WindWeather,
} from '../src/world/physics/wind.ts';

const DEG = Math.PI / 180;
const epochHour = (iso: string): number => Date.parse(iso) / 3_600_000;

function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);
}

/** Deterministic PRNG (mulberry32) for the sweeps. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const common = {
  iso: 'caiso' as const,
  state: 'CA',
  operations_begin_date: '2015-01-01',
  county_fips: '06071',
};

function solarPlant(over: Partial<SolarPlant> = {}): SolarPlant {
  return {
    ...common,
    id: 1,
    name: 'Test Solar',
    plant_type: 'solar',
    capacity_mw: 100,
    latitude: 35.0,
    longitude: -117.0,
    mounting: 'single_axis',
    tilt_deg: 0,
    azimuth_deg: 180,
    max_angle_deg: 60,
    gcr: 0.35,
    dc_ac_ratio: 1.3,
    temp_coeff_per_c: -0.0035,
    ...over,
  };
}

function fixedPlant(over: Partial<SolarPlant> = {}): SolarPlant {
  return solarPlant({ mounting: 'fixed', tilt_deg: 25, max_angle_deg: 0, ...over });
}

function windPlant(over: Partial<WindPlant> = {}): WindPlant {
  return {
    ...common,
    id: 2,
    name: 'Test Wind',
    plant_type: 'wind',
    capacity_mw: 200,
    latitude: 35.0,
    longitude: -101.0,
    hub_height_m: 100,
    turbine_class: 'II',
    rated_speed_ms: 12,
    ...over,
  };
}

const clearWx = (over: Partial<SolarWeather> = {}): SolarWeather => ({
  tempC: 30,
  windMs: 3,
  cloudCover: 0,
  snowCover: 0,
  albedo: 0.25,
  ...over,
});

const stdWind = (over: Partial<WindWeather> = {}): WindWeather => ({
  speed100mMs: 8,
  tempC: 15,
  pressurePa: 101325,
  shearAlpha: 0.14,
  icingLoss: 0,
  ...over,
});

const terms = createSolarTimeTerms();
const sun = createSunPosition();
const scratch = createSolarScratch();

function place(eh: number, lat: number, lon: number): void {
  solarTimeTerms(eh, terms);
  sunPosition(terms, eh, lat, lon, sun);
}

/** Highest elevation (deg) over a UTC day, scanned minute by minute, and its UTC time (h). */
function dailyMaxElevation(dayIso: string, lat: number, lon: number): { elev: number; atHour: number } {
  const h0 = epochHour(dayIso);
  let best = -Infinity;
  let at = 0;
  for (let m = 0; m < 24 * 60; m++) {
    const eh = h0 + m / 60;
    place(eh, lat, lon);
    const e = sun.elevation / DEG;
    if (e > best) {
      best = e;
      at = m / 60;
    }
  }
  return { elev: best, atHour: at };
}

/** Energy (MWh) of a plant over one UTC day at 10-minute steps. */
function dayEnergy(plant: SolarPlant, dayIso: string, wx: SolarWeather): number {
  const h0 = epochHour(dayIso);
  let e = 0;
  for (let m = 0; m < 24 * 60; m += 10) {
    const eh = h0 + m / 60;
    place(eh, plant.latitude, plant.longitude);
    e += solarPlantOutputMw(plant, sun, terms, wx, scratch) / 6;
  }
  return e;
}

// ------------------------------------------------------------------------------------------
// Solar position
// ------------------------------------------------------------------------------------------

test('calendar: year and day of year without Date objects', () => {
  solarTimeTerms(epochHour('2024-02-29T12:00:00Z'), terms);
  assert.equal(terms.year, 2024);
  assert.equal(terms.dayOfYear, 60);
  near(terms.utcHour, 12, 1e-9, 'utc hour');
  solarTimeTerms(epochHour('2024-12-31T23:30:00Z'), terms);
  assert.equal(terms.dayOfYear, 366);
  solarTimeTerms(epochHour('2023-12-31T00:00:00Z'), terms);
  assert.equal(terms.dayOfYear, 365);
  solarTimeTerms(epochHour('2025-01-01T00:00:00Z'), terms);
  assert.equal(terms.year, 2025);
  assert.equal(terms.dayOfYear, 1);
  solarTimeTerms(epochHour('1969-12-31T18:00:00Z'), terms);
  assert.equal(terms.year, 1969);
  assert.equal(terms.dayOfYear, 365);
  near(terms.utcHour, 18, 1e-9, 'utc hour before epoch');
  solarTimeTerms(491234.25, terms);
  near(terms.utcHour, 2.25, 1e-9, 'fractional hour');
});

test('declination: ≈0 at the equinoxes, ±23.44° at the solstices (published instants)', () => {
  for (const iso of [
    '2021-03-20T09:37:00Z',
    '2023-03-20T21:24:00Z',
    '2024-03-20T03:06:00Z',
    '2024-09-22T12:44:00Z',
    '2025-03-20T09:01:00Z',
  ]) {
    solarTimeTerms(epochHour(iso), terms);
    near(terms.declination / DEG, 0, 0.05, `equinox declination ${iso}`);
  }
  solarTimeTerms(epochHour('2024-06-20T20:51:00Z'), terms);
  near(terms.declination / DEG, 23.44, 0.05, 'June solstice declination');
  solarTimeTerms(epochHour('2024-12-21T09:21:00Z'), terms);
  near(terms.declination / DEG, -23.44, 0.05, 'December solstice declination');
  near(Math.sin(terms.declination), terms.sinDeclination, 1e-12, 'sin δ');
  near(Math.cos(terms.declination), terms.cosDeclination, 1e-12, 'cos δ');
});

test('equation of time: about −14.2 min mid-February and +16.4 min early November', () => {
  solarTimeTerms(epochHour('2024-02-11T12:00:00Z'), terms);
  near(terms.equationOfTimeMin, -14.2, 0.25, 'EoT Feb 11');
  solarTimeTerms(epochHour('2024-11-03T12:00:00Z'), terms);
  near(terms.equationOfTimeMin, 16.4, 0.25, 'EoT Nov 3');
});

test('extraterrestrial irradiance peaks in early January, lowest in early July', () => {
  solarTimeTerms(epochHour('2024-01-03T12:00:00Z'), terms);
  const jan = terms.dniExtra;
  solarTimeTerms(epochHour('2024-07-04T12:00:00Z'), terms);
  const jul = terms.dniExtra;
  near(jan, 1367 * 1.033, 1, 'January I0');
  near(jul, 1367 * 0.967, 1, 'July I0');
});

test('solar noon elevation at Boulder CO on the solstices (90° − lat ± 23.44°)', () => {
  const lat = 40.015;
  const lon = -105.27;
  const june = dailyMaxElevation('2024-06-20T00:00:00Z', lat, lon);
  near(june.elev, 90 - lat + 23.44, 0.1, 'June noon elevation');
  const dec = dailyMaxElevation('2024-12-21T00:00:00Z', lat, lon);
  near(dec.elev, 90 - lat - 23.44, 0.1, 'December noon elevation');
  // Local solar noon near 12:00 + 4·105.27 min ≈ 19:01 UTC (EoT ≈ −1.6 min in late June).
  near(june.atHour, 19 + 2.7 / 60, 3 / 60, 'June solar noon (UTC h)');
});

test('solar noon at Greenwich on 3 Nov is ~11:43.6 UTC (EoT +16.4 min) and the sun is due south', () => {
  const { atHour } = dailyMaxElevation('2024-11-03T00:00:00Z', 51.4769, 0);
  near(atHour, 11 + 43.6 / 60, 1.5 / 60, 'solar noon');
  place(epochHour('2024-11-03T00:00:00Z') + atHour, 51.4769, 0);
  near(sun.azimuth / DEG, 180, 0.5, 'azimuth at noon');
});

test('azimuth: east in the morning, west in the afternoon, north of zenith in the tropics in June', () => {
  const h0 = epochHour('2024-06-21T00:00:00Z');
  place(h0 + 15, 40, -105); // 08:00 local solar-ish
  assert.ok(sun.azimuth / DEG > 45 && sun.azimuth / DEG < 135, `morning azimuth ${sun.azimuth / DEG}`);
  place(h0 + 23, 40, -105); // 16:00
  assert.ok(sun.azimuth / DEG > 225 && sun.azimuth / DEG < 315, `afternoon azimuth ${sun.azimuth / DEG}`);
  const tropic = dailyMaxElevation('2024-06-21T00:00:00Z', 10, 0);
  place(h0 + tropic.atHour, 10, 0);
  const az = sun.azimuth / DEG;
  assert.ok(az < 2 || az > 358, `tropical June noon azimuth ${az}`);
  near(sun.sinAzimuth, Math.sin(sun.azimuth), 1e-9, 'sinAzimuth');
  near(sun.cosAzimuth, Math.cos(sun.azimuth), 1e-9, 'cosAzimuth');
  near(sun.cosZenith, Math.cos(sun.zenith), 1e-9, 'cosZenith');
  near(sun.elevation, Math.PI / 2 - sun.zenith, 1e-12, 'elevation');
});

test('sunrise azimuth at 40°N on the June solstice is acos(sin δ / cos φ) ≈ 58.7°', () => {
  const h0 = epochHour('2024-06-20T00:00:00Z');
  let prev = -1;
  let found = NaN;
  for (let m = 0; m < 24 * 60; m++) {
    place(h0 + m / 60, 40, -105);
    if (prev <= 0 && sun.cosZenith > 0 && sun.azimuth < Math.PI) {
      found = sun.azimuth / DEG;
      break;
    }
    prev = sun.cosZenith;
  }
  near(found, Math.acos(Math.sin(23.44 * DEG) / Math.cos(40 * DEG)) / DEG, 0.5, 'sunrise azimuth');
});

// ------------------------------------------------------------------------------------------
// Irradiance helpers
// ------------------------------------------------------------------------------------------

test('clear sky: Ineichen (TL 3) ≈ 1050 W/m² overhead, close to Haurwitz, tiny at the horizon', () => {
  const overhead = clearSkyGhi(1, 1367);
  assert.ok(overhead > 1000 && overhead < 1100, `overhead ${overhead}`);
  for (const cz of [0.3, 0.5, 0.7, 0.9]) {
    const a = clearSkyGhi(cz, 1367);
    const b = haurwitzGhi(cz);
    assert.ok(Math.abs(a - b) / b < 0.15, `Ineichen ${a} vs Haurwitz ${b} at cos z ${cz}`);
  }
  assert.ok(clearSkyGhi(0.01, 1367) < 5, 'near-horizon clear sky must be small');
  assert.equal(clearSkyGhi(0, 1367), 0);
  assert.equal(clearSkyGhi(-0.2, 1367), 0);
  assert.ok(clearSkyGhi(0.8, 1367, 5) < clearSkyGhi(0.8, 1367, 2), 'turbidity lowers GHI');
  assert.ok(clearSkyGhi(0.8, 1367, 3, 2000) > clearSkyGhi(0.8, 1367, 3, 0), 'altitude raises GHI');
});

test('Erbs split: closes GHI = DNI·cos z + DHI and follows the diffuse-fraction branches', () => {
  const out = { dni: 0, dhi: 0, kt: 0 };
  for (const [ghi, cz] of [
    [900, 0.9],
    [500, 0.6],
    [120, 0.5],
    [40, 0.2],
  ] as const) {
    erbsSplit(ghi, cz, 1367, out);
    near(out.dni * cz + out.dhi, ghi, 1e-6, 'closure');
    assert.ok(out.dni >= 0 && out.dhi >= 0);
  }
  erbsSplit(1200, 1, 1367, out); // kt ≈ 0.88 > 0.8
  near(out.dhi / 1200, 0.165, 1e-9, 'clear-sky diffuse fraction');
  erbsSplit(0.1 * 1367 * 0.5, 0.5, 1367, out); // kt = 0.1
  near(out.dhi / (0.1 * 1367 * 0.5), 1 - 0.009, 1e-9, 'overcast diffuse fraction');
  erbsSplit(0, 0.5, 1367, out);
  assert.equal(out.dni, 0);
  assert.equal(out.dhi, 0);
});

test('tracker: flat at noon, east in the morning, limited, and backtracks at low sun', () => {
  const h0 = epochHour('2024-06-21T00:00:00Z');
  const noon = dailyMaxElevation('2024-06-21T00:00:00Z', 35, -117).atHour;
  place(h0 + noon, 35, -117);
  near(trackerRotationDeg(sun, 180, 60, 0.35), 0, 1, 'noon rotation');
  place(h0 + noon - 3, 35, -117);
  const morning = trackerRotationDeg(sun, 180, 60, 0.35);
  assert.ok(morning < -20 && morning >= -60, `morning rotation ${morning}`);
  place(h0 + noon + 3, 35, -117);
  near(trackerRotationDeg(sun, 180, 60, 0.35), -morning, 2, 'symmetric afternoon');
  // Mid-morning: true tracking would exceed the limit, no backtracking yet → clamped at −45.
  place(h0 + noon - 4.5, 35, -117);
  assert.equal(Math.round(trackerRotationDeg(sun, 180, 45, 0.2) * 1e9) / 1e9, -45);
  // Just after sunrise: backtracking brings the rows back towards flat and keeps the
  // no-shading condition cos(θT − θ)·gcr = cos θT.
  for (let m = 0; m < 120; m++) {
    place(h0 + noon - 7.5 + m / 60, 35, -117);
    if (sun.elevation > 4 * DEG) break;
  }
  const gcr = 0.4;
  const theta = trackerRotationDeg(sun, 180, 90, gcr) * DEG;
  const xPerp = sun.sinZenith * Math.sin(sun.azimuth - Math.PI);
  const thetaT = Math.atan2(xPerp, sun.cosZenith);
  assert.ok(Math.abs(theta) < 20 * DEG, `backtracked rotation ${theta / DEG}`);
  near(Math.cos(thetaT - theta) * gcr, Math.cos(thetaT), 1e-9, 'no-shading condition');
  place(h0 + noon + 12, 35, -117);
  assert.equal(trackerRotationDeg(sun, 180, 60, 0.35), 0, 'stowed at night');
});

test('SAPM cell temperature and PVWatts inverter', () => {
  near(cellTemperatureC(1000, 25, 1), 25 + 1000 * Math.exp(-3.56 - 0.075) + 3, 1e-9, 'SAPM');
  near(cellTemperatureC(1000, 25, 1), 54.4, 0.1, 'SAPM value');
  assert.equal(cellTemperatureC(0, 12, 5), 12);
  assert.ok(cellTemperatureC(800, 20, 8) < cellTemperatureC(800, 20, 1), 'wind cools');
  const pac0 = 100;
  near(pvwattsInverterAc(pac0 / 0.96, pac0), pac0, 0.1, 'nominal point');
  for (const zeta of [0.2, 0.5, 0.8]) {
    const pdc = (zeta * pac0) / 0.96;
    const eta = pvwattsInverterAc(pdc, pac0) / pdc;
    assert.ok(eta > 0.94 && eta < 0.97, `efficiency ${eta} at ζ ${zeta}`);
  }
  assert.ok(pvwattsInverterAc(2, 100) / 2 < pvwattsInverterAc(50, 100) / 50, 'low-load efficiency drops');
  assert.equal(pvwattsInverterAc(500, pac0), pac0, 'clipping');
  assert.equal(pvwattsInverterAc(0, pac0), 0);
  assert.equal(pvwattsInverterAc(-5, pac0), 0);
  assert.equal(pvwattsInverterAc(0.001, pac0), 0, 'negative efficiency floored to 0');
});

// ------------------------------------------------------------------------------------------
// Solar plant output
// ------------------------------------------------------------------------------------------

test('solar output is exactly 0 whenever the sun is at or below the horizon', () => {
  const plants = [solarPlant(), fixedPlant()];
  const h0 = epochHour('2024-06-21T00:00:00Z');
  let nights = 0;
  for (let m = 0; m < 48 * 60; m += 7) {
    const eh = h0 + m / 60;
    place(eh, 35, -117);
    for (const p of plants) {
      const out = solarPlantOutputMw(p, sun, terms, clearWx(), scratch);
      if (sun.cosZenith <= 0) {
        nights++;
        assert.equal(out, 0);
        assert.ok(Object.is(out, 0), 'not −0');
      }
    }
  }
  assert.ok(nights > 100);
});

test('solar output is positive on a clear noon and clips a high-DC/AC desert plant in June', () => {
  const h0 = epochHour('2024-06-21T00:00:00Z');
  const noon = dailyMaxElevation('2024-06-21T00:00:00Z', 35, -117).atHour;
  place(h0 + noon, 35, -117);
  const normal = solarPlant({ dc_ac_ratio: 1.2 });
  const p = solarPlantOutputMw(normal, sun, terms, clearWx(), scratch);
  assert.ok(p > 0.7 * normal.capacity_mw && p < normal.capacity_mw, `noon output ${p}`);
  assert.ok(scratch.poa > 900 && scratch.poa < 1150, `poa ${scratch.poa}`);
  assert.ok(scratch.cellTempC > 50 && scratch.cellTempC < 70, `cell temp ${scratch.cellTempC}`);

  const big = solarPlant({ dc_ac_ratio: 1.5, capacity_mw: 80 });
  assert.equal(solarPlantOutputMw(big, sun, terms, clearWx(), scratch), 80, 'clipped at AC capacity');
  assert.ok(scratch.dcMw > 80, 'DC above AC while clipping');
  const bigFixed = fixedPlant({ dc_ac_ratio: 1.5, capacity_mw: 80 });
  assert.equal(solarPlantOutputMw(bigFixed, sun, terms, clearWx(), scratch), 80);
});

test('a tracker beats a fixed rack over a clear summer day by a realistic margin', () => {
  const wx = clearWx();
  const tracker = dayEnergy(solarPlant(), '2024-06-21T00:00:00Z', wx);
  const fixed = dayEnergy(fixedPlant(), '2024-06-21T00:00:00Z', wx);
  const gain = tracker / fixed - 1;
  assert.ok(gain > 0.1 && gain < 0.5, `tracker gain ${gain}`);
  // Capacity factor of a clear June desert day: roughly 35–50 % for a tracker.
  const cf = tracker / (24 * 100);
  assert.ok(cf > 0.3 && cf < 0.55, `tracker clear-day CF ${cf}`);
});

test('cloud cover, snow and heat reduce output; albedo helps a tilted array', () => {
  const h0 = epochHour('2024-04-15T00:00:00Z');
  place(h0 + 19.5, 40, -105);
  const fixed = fixedPlant({ tilt_deg: 35, dc_ac_ratio: 1.1 });
  const out = (wx: SolarWeather) => solarPlantOutputMw(fixed, sun, terms, wx, scratch);
  const clear = out(clearWx({ tempC: 15 }));
  const partly = out(clearWx({ tempC: 15, cloudCover: 0.5 }));
  const overcast = out(clearWx({ tempC: 15, cloudCover: 1 }));
  assert.ok(clear > partly && partly > overcast && overcast > 0, `${clear} ${partly} ${overcast}`);
  assert.ok(overcast < 0.45 * clear, 'overcast well below clear');
  const snowy = out(clearWx({ tempC: 15, snowCover: 0.5 }));
  assert.ok(snowy < 0.6 * clear && snowy > 0.4 * clear, `half snow ${snowy} vs ${clear}`);
  assert.equal(out(clearWx({ tempC: 15, snowCover: 1 })), 0);
  assert.ok(out(clearWx({ tempC: 40 })) < clear, 'heat lowers output');
  assert.ok(out(clearWx({ tempC: 15, albedo: 0.8 })) > clear, 'snowy ground reflects more');
});

test('solar bounds: 0 ≤ P ≤ capacity and finite over a random sweep', () => {
  const r = rng(12345);
  const span = (lo: number, hi: number) => lo + (hi - lo) * r();
  for (let i = 0; i < 20000; i++) {
    const tracker = r() < 0.5;
    const plant = solarPlant({
      capacity_mw: span(1, 500),
      mounting: tracker ? 'single_axis' : 'fixed',
      tilt_deg: tracker ? 0 : span(0, 90),
      azimuth_deg: tracker ? 180 : span(0, 360),
      max_angle_deg: tracker ? span(0, 90) : 0,
      gcr: span(0.1, 0.9),
      dc_ac_ratio: span(1, 2),
      temp_coeff_per_c: span(-0.006, -0.001),
      latitude: span(-60, 70),
      longitude: span(-180, 180),
    });
    const eh = span(0, 1_100_000);
    place(eh, plant.latitude, plant.longitude);
    const wx: SolarWeather = {
      tempC: span(-45, 55),
      windMs: span(-1, 40),
      cloudCover: span(-0.2, 1.2),
      snowCover: span(-0.2, 1.2),
      albedo: span(-0.1, 1.1),
    };
    const p = solarPlantOutputMw(plant, sun, terms, wx, scratch);
    assert.ok(Number.isFinite(p), `finite ${p}`);
    assert.ok(p >= 0 && p <= plant.capacity_mw, `bounds ${p} / ${plant.capacity_mw}`);
    if (sun.cosZenith <= 0) assert.equal(p, 0);
  }
});

// ------------------------------------------------------------------------------------------
// Wind
// ------------------------------------------------------------------------------------------

test('wind helpers: air density, standard-atmosphere pressure, the generic curve', () => {
  near(airDensity(15, 101325), 1.225, 0.001, 'standard density');
  near(airDensity(-20, 103000), 1.417, 0.005, 'cold dense air');
  near(pressureAtElevation(0), 101325, 1e-6, 'sea level');
  near(pressureAtElevation(1000), 89875, 30, '1000 m');
  near(pressureAtElevation(1600), 83500, 200, '1600 m (Denver)');
  assert.equal(NORMALISED_POWER_CURVE.length, 26);
  assert.equal(NORMALISED_POWER_CURVE[3], 0.017);
  assert.equal(NORMALISED_POWER_CURVE[14], 0.999);
  assert.equal(NORMALISED_POWER_CURVE[25], 1);
  assert.equal(normalisedPower(2.9, 14), 0, 'below cut-in');
  assert.equal(normalisedPower(25.5, 14), 0, 'above cut-out');
  near(normalisedPower(14, 14), 0.999, 1e-12, 'generic rated');
  near(normalisedPower(11, 11), 0.999, 1e-12, 'rescaled rated');
  near(normalisedPower(8, 14), 0.518, 1e-12, 'generic 8 m/s');
  near(normalisedPower(7.5, 14), (0.362 + 0.518) / 2, 1e-12, 'linear between steps');
  near(normalisedPower(3, 11), 0.017, 1e-12, 'cut-in kept at 3 m/s');
});

test('wind: 0 below cut-in, ≈ capacity × availability at 15 m/s, 0 above 26 m/s', () => {
  const plant = windPlant();
  for (const v of [0, 1, 2, 2.5]) assert.equal(windPlantOutputMw(plant, stdWind({ speed100mMs: v })), 0);
  near(windPlantOutputMw(plant, stdWind({ speed100mMs: 15 })), plant.capacity_mw * WIND_AVAILABILITY, 0.005 * plant.capacity_mw, '15 m/s');
  for (const v of [26.01, 27, 30, 45]) assert.equal(windPlantOutputMw(plant, stdWind({ speed100mMs: v })), 0);
  const at24 = windPlantOutputMw(plant, stdWind({ speed100mMs: 24 }));
  const at25 = windPlantOutputMw(plant, stdWind({ speed100mMs: 25 }));
  assert.ok(at25 > 0 && at25 < at24, 'fleet cut-out is a ramp, not a hard step');
});

test('wind: an ERCOT plant is curtailed above 75 % of capacity (export limits), a CAISO plant is not', () => {
  const caiso = windPlant();
  const ercot = windPlant({ iso: 'ercot', state: 'TX' });
  const at15 = windPlantOutputMw(caiso, stdWind({ speed100mMs: 15 }));
  // Half the output above 0.75 of capacity is curtailed: 0.97 → 0.86 of capacity at full wind.
  near(
    windPlantOutputMw(ercot, stdWind({ speed100mMs: 15 })),
    0.75 * ercot.capacity_mw + 0.5 * (at15 - 0.75 * caiso.capacity_mw),
    1e-9,
    '15 m/s',
  );
  // Below 75 % of capacity both plants run alike.
  const at7 = windPlantOutputMw(caiso, stdWind({ speed100mMs: 7 }));
  assert.ok(at7 < 0.75 * caiso.capacity_mw);
  assert.equal(windPlantOutputMw(ercot, stdWind({ speed100mMs: 7 })), at7);
});

test('wind: power rises monotonically from cut-in to rated and smooths the cut-in step', () => {
  const plant = windPlant({ rated_speed_ms: 11 });
  let prev = 0;
  for (let v = 0; v <= 24; v += 0.1) {
    const p = windPlantOutputMw(plant, stdWind({ speed100mMs: v }));
    assert.ok(p >= prev - 1e-9, `non-decreasing at ${v}`);
    assert.ok(p - prev < 0.06 * plant.capacity_mw, `no hard step at ${v}`);
    prev = p;
  }
  // A low-wind (class III) machine produces more at 8 m/s than a class I machine.
  const classIII = windPlantOutputMw(windPlant({ rated_speed_ms: 10.5 }), stdWind());
  const classI = windPlantOutputMw(windPlant({ rated_speed_ms: 14 }), stdWind());
  assert.ok(classIII > classI * 1.1, `class III ${classIII} vs class I ${classI}`);
});

test('wind: cold dense air beats hot thin air at 8 m/s; shear and icing act as expected', () => {
  const plant = windPlant();
  const cold = windPlantOutputMw(plant, stdWind({ tempC: -20, pressurePa: 102500 }));
  const hot = windPlantOutputMw(plant, stdWind({ tempC: 38, pressurePa: 99000 }));
  assert.ok(cold > hot * 1.08, `cold ${cold} vs hot ${hot}`);
  const highSite = windPlantOutputMw(plant, stdWind({ pressurePa: pressureAtElevation(1500) }));
  assert.ok(highSite < windPlantOutputMw(plant, stdWind()), 'high elevation lowers output');

  const tall = windPlant({ hub_height_m: 120 });
  const short = windPlant({ hub_height_m: 80 });
  assert.ok(
    windPlantOutputMw(tall, stdWind({ shearAlpha: 0.25 })) > windPlantOutputMw(short, stdWind({ shearAlpha: 0.25 })),
    'taller hub sees more wind with positive shear',
  );

  assert.equal(windPlantOutputMw(plant, stdWind({ icingLoss: 1 })), 0);
  const clean = windPlantOutputMw(plant, stdWind());
  near(windPlantOutputMw(plant, stdWind({ icingLoss: 0.25 })), 0.75 * clean, 1e-9, 'partial icing');
});

test('wind bounds: 0 ≤ P ≤ capacity and finite over a random sweep', () => {
  const r = rng(987);
  const span = (lo: number, hi: number) => lo + (hi - lo) * r();
  for (let i = 0; i < 50000; i++) {
    const plant = windPlant({
      capacity_mw: span(1, 1000),
      hub_height_m: span(50, 160),
      rated_speed_ms: span(9, 16),
    });
    const wx: WindWeather = {
      speed100mMs: span(-2, 40),
      tempC: span(-45, 50),
      pressurePa: span(70000, 105000),
      shearAlpha: span(-0.1, 0.6),
      icingLoss: span(-0.2, 1.2),
    };
    const p = windPlantOutputMw(plant, wx);
    assert.ok(Number.isFinite(p), `finite ${p}`);
    assert.ok(p >= 0 && p <= plant.capacity_mw, `bounds ${p} / ${plant.capacity_mw}`);
  }
  assert.equal(windPlantOutputMw(windPlant(), stdWind({ speed100mMs: Number.NaN })), 0);
});
