/**
 * Plant-level quantities from the weather at the plant: wind and solar output (MW) and
 * the risk (%) that icing stops turbines or snow covers panels. Forecasts and truth go
 * through the same physics, so forecast output also stays within 0..capacity and solar
 * is exactly 0 when the sun is down.
 */
import { metricSpec, metricsOf, type MetricsOf } from '../catalog/metrics.ts';
import type { Plant, PlantType, SolarPlant, WindPlant } from '../catalog/types.ts';
import { pointClimate, type PointClimate } from './climate.ts';
import {
  createSolarScratch,
  createSolarTimeTerms,
  createSunPosition,
  solarPlantOutputMw,
  solarTimeTerms,
  sunPosition,
  type SolarTimeTerms,
  type SolarWeather,
  type SunPosition,
} from './physics/solar.ts';
import { cubeRootNearOne, windPlantConstants, windSeriesMw, type WindPlantConstants } from './physics/wind.ts';
import { hubHeightM, SCREEN_HEIGHT_M, STANDARD_LAPSE_K_PER_M } from './physics/atmosphere.ts';
import { exp, logistic } from '../util/math.ts';
import { CLOUD_LOGIT_GAIN, LOCAL_CLOUD_LOGIT_SD, LOCAL_WIND_REL_SD, RICE_MEAN, WIND_SPREAD } from './weather/fields.ts';
import { COLD_ROW_MAX_C, newWeatherSeries, type WeatherBatch, type WeatherNeeds, type WeatherSeries } from './weather/batch.ts';
import type { WeatherSkill } from './weather/skill.ts';

export const PLANT_METRICS = metricsOf('plant');
export type PlantMetric = MetricsOf<'plant'>;

/** The plant type whose plants carry each plant metric. */
export const PLANT_METRIC_TYPE = Object.fromEntries(PLANT_METRICS.map((m) => [m, metricSpec(m).plantType!])) as Readonly<
  Record<PlantMetric, PlantType>
>;

/**
 * Weather each metric needs: icing and snow losses feed into MW output too. Plants share their
 * synoptic weather per synoptic cell (WeatherNeeds.synopticCells): an ISO's hundreds of plants
 * lie in a few dozen cells.
 */
export function weatherNeedsFor(metric: PlantMetric, skill: WeatherSkill | null = null): WeatherNeeds {
  // The normal model reads no cold-row weather: icing and snow are 0 at the normal state (computeNormal).
  const coldRows = !skill?.climatology;
  return PLANT_METRIC_TYPE[metric] === 'wind'
    ? { wind: true, moisture: coldRows, synopticCells: true }
    : { cloud: true, moisture: coldRows, trailing: coldRows, synopticCells: true };
}

/** Share of output lost while icing conditions hold (blades shed power, many turbines stop). */
const ICING_OUTPUT_LOSS = 0.8;
/** Typical power-law shear exponent from 100 m to hub height. */
const SHEAR_ALPHA = 0.16;

/**
 * Probability (0-1) that rime or glaze ice is forming or lying on the blades: sub-zero
 * air at hub height with saturated air in cloud, or freezing precipitation.
 */
export function icingProbability(tempC: number, hubHeight: number, relHumidity: number, cloudCover: number, precipMmH: number): number {
  const hubTemp = tempC - STANDARD_LAPSE_K_PER_M * hubHeight;
  // logistic((0.5 − T)/0.7) · logistic((T + 15)/2) with one division, and the constant divisors as
  // products (an hour of every wind plant on every cold row of a year of skill leads).
  const cold = 1 / ((1 + exp((hubTemp - 0.5) * (1 / 0.7))) * (1 + exp((hubTemp + 15) * -0.5)));
  const inCloud = cloudCover / (1 + exp((relHumidity - 94) * (-1 / 1.5)));
  const freezingRain = Math.min(1, precipMmH * (1 / 0.3));
  return cold * Math.max(inCloud, freezingRain);
}

/**
 * Probability (0-1) that snow covers the panels: snowing now, or a cold stormy past day
 * whose snow has not yet melted or slid off.
 */
export function snowCoverProbability(w: WeatherSeries, i: number): number {
  const t = w.tempC[i];
  const snowingNow = Math.min(1, w.precipMmH[i] / 0.5) * logistic((0.5 - t) / 0.6);
  const recentSnow = logistic((w.stormTrail24[i] - 0.8) / 0.25) * logistic((0.5 - w.tempTrail24C[i]) / 1.2);
  const staysFrozen = logistic((1.5 - t) / 1.0);
  return Math.max(snowingNow, recentSnow * staysFrozen);
}

// ---------------------------------------------------------------------------------------------
// Expected output under the climatological weather (the `normal` model)
//
// Power curves and inverter clipping are not linear, so the output at the mean weather is not
// the mean output. The normal is the expectation over the distribution the world draws the
// weather from, around the climatological state of the hour:
// - wind: speed = m · X with m the climatological mean hub speed of the hour and
//   X = |(1, 0) + WIND_SPREAD·(a, b)| · (1 + LOCAL_WIND_REL_SD·g) / RICE_MEAN for independent
//   standard normal a, b, g (a Rice-distributed speed with a turbulent part). Per plant, the
//   expected output as a function of m is tabulated once (every 0.1 m/s, at the plant's annual
//   mean temperature) by quadrature over X; an hour's air density moves m along the table.
// - solar: cloud cover = logistic(μ + σ·Z), Z standard normal, μ the climatological logit of
//   the hour, σ² = CLOUD_LOGIT_GAIN² + LOCAL_CLOUD_LOGIT_SD². The plant's output is evaluated at
//   the 4 Gauss–Hermite nodes of Z (within 0.1 % in the mean and 0.5 % per hour of a 161-point
//   quadrature; clear-sky output × the mean cloud attenuation would be ~8 % high, clipping and
//   the beam/diffuse split being non-linear).
// Icing and snow losses are left out of the normal (they are rare, and 0 at the normal state).

/** Equal-weight nodes of X (see above): 64 bins of a 48 × 48 × 3 product quadrature. */
const WIND_X_NODES: Float64Array = (() => {
  const pairs: [number, number][] = [];
  const n = 48;
  const gust: [number, number][] = [
    [-Math.sqrt(3), 1 / 6],
    [0, 2 / 3],
    [Math.sqrt(3), 1 / 6],
  ];
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = -4 + (8 * (i + 0.5)) / n;
      const b = -4 + (8 * (j + 0.5)) / n;
      const w = Math.exp(-(a * a + b * b) / 2);
      const r = Math.hypot(1 + WIND_SPREAD * a, WIND_SPREAD * b) / RICE_MEAN;
      for (const [g, gw] of gust) {
        pairs.push([r * (1 + LOCAL_WIND_REL_SD * g), w * gw]);
        total += w * gw;
      }
    }
  }
  pairs.sort((p, q) => p[0] - q[0]);
  // Bin b is the mean of X over the quantiles [b/B, (b + 1)/B) of its sorted distribution.
  const bins = 64;
  const nodes = new Float64Array(bins);
  let cum = 0;
  for (const [x, w] of pairs) {
    const lo = cum;
    const hi = cum + w / total;
    cum = hi;
    for (let b = Math.floor(lo * bins); b < bins && b / bins < hi; b++) {
      const overlap = Math.min(hi, (b + 1) / bins) - Math.max(lo, b / bins);
      if (overlap > 0) nodes[b] += overlap * bins * x;
    }
  }
  return nodes;
})();

/** Probabilists' Gauss–Hermite nodes and weights (4 points) for a standard normal. */
const GH4_Z = [-2.3344142183389773, -0.7419637843027258, 0.7419637843027258, 2.3344142183389773] as const;
const GH4_W = [0.04587585476806849, 0.4541241452319315, 0.4541241452319315, 0.04587585476806849] as const;
const CLOUD_LOGIT_SD = Math.hypot(CLOUD_LOGIT_GAIN, LOCAL_CLOUD_LOGIT_SD);

const NORMAL_STEP_MS = 0.1;
const NORMAL_MAX_MS = 40;

interface WindNormalTable {
  /** Hub (2 m + lapse) reference temperature of the table, K. */
  refHubK: number;
  lapseDrop: number;
  /**
   * Expected output (MW) at climatological mean 100 m speed k·NORMAL_STEP_MS; NaN until an hour
   * needs step k (tabulate): a plant's hours reach a few dozen of the table's 402 steps.
   */
  mw: Float64Array;
  /** What a step's output is computed from: the plant's constants, surface pressure and annual mean temperature. */
  constants: WindPlantConstants;
  pressurePa: number;
  tempC: number;
}

const windNormalTables = new WeakMap<WindPlant, WindNormalTable>();
/** Speeds of a normal table (every table step × every node of X), and the plant's output at each. */
const NORMAL_TABLE_STEPS = Math.round(NORMAL_MAX_MS / NORMAL_STEP_MS) + 2;
const normalTableSpeeds = new Float64Array(NORMAL_TABLE_STEPS * WIND_X_NODES.length);
for (let k = 0; k < NORMAL_TABLE_STEPS; k++) {
  for (let j = 0; j < WIND_X_NODES.length; j++) normalTableSpeeds[k * WIND_X_NODES.length + j] = k * NORMAL_STEP_MS * WIND_X_NODES[j];
}
const normalTableNoIcing = new Float64Array(normalTableSpeeds.length);

function windNormalTable(plant: WindPlant, climate: PointClimate): WindNormalTable {
  let t = windNormalTables.get(plant);
  if (!t) {
    const lapseDrop = STANDARD_LAPSE_K_PER_M * (hubHeightM(plant) - SCREEN_HEIGHT_M);
    t = {
      refHubK: climate.tempMean + 273.15 - lapseDrop,
      lapseDrop,
      mw: new Float64Array(NORMAL_TABLE_STEPS).fill(Number.NaN),
      constants: windPlantConstants(plant, SHEAR_ALPHA),
      pressurePa: climate.pressurePa,
      tempC: climate.tempMean,
    };
    windNormalTables.set(plant, t);
  }
  return t;
}

/**
 * Computes the steps [wantFrom, wantTo) of a normal table that are still NaN, in one series call over
 * every (step, node) speed between the first and last missing step (a call per speed cost a cold
 * PJM wind skill request ~0.1-0.3 s; the whole table for each plant, ~70 ms more). A step's
 * value is the same whenever it is computed.
 */
function tabulate(t: WindNormalTable, wantFrom: number, wantTo: number): void {
  const mw = t.mw;
  // The first and last missing step, in one pass whose every operation runs on every call (a
  // first call, on an empty table, left a narrowing loop's step without type feedback, and the
  // next request's call threw the optimised code away).
  let from = -1;
  let to = -1;
  for (let k = wantFrom; k < wantTo; k++) {
    if (!Number.isNaN(mw[k])) continue;
    if (from < 0) from = k;
    to = k + 1;
  }
  if (from < 0) return;
  const nodes = WIND_X_NODES.length;
  const speeds = normalTableSpeeds.subarray(from * nodes, to * nodes);
  const outputs = new Float64Array(speeds.length);
  const temps = new Float64Array(speeds.length).fill(t.tempC);
  windSeriesMw(t.constants, t.pressurePa, speeds, temps, normalTableNoIcing.subarray(0, speeds.length), outputs);
  for (let k = from; k < to; k++) {
    let sum = 0;
    for (let j = 0; j < nodes; j++) sum += outputs[(k - from) * nodes + j];
    mw[k] = sum / nodes;
  }
}

/** Where an hour with climatological mean 100 m speed `meanSpeedMs` and 2 m temperature `tempC` lies on the table, in steps. */
function normalTablePos(t: WindNormalTable, meanSpeedMs: number, tempC: number): number {
  // The density ratio is near 1 (the hour's climatological temperature against the annual mean).
  const m = meanSpeedMs * cubeRootNearOne(t.refHubK / (tempC + 273.15 - t.lapseDrop));
  return Math.min(Math.max(m, 0), NORMAL_MAX_MS) / NORMAL_STEP_MS;
}

/** The table's value at `pos` (tabulated there), linear between steps. */
function normalTableAt(t: WindNormalTable, pos: number): number {
  const i = pos | 0;
  return t.mw[i] + (t.mw[i + 1] - t.mw[i]) * (pos - i);
}

/**
 * Expected output (MW) of a wind plant in an hour whose climatological mean 100 m speed is
 * `meanSpeedMs` and climatological 2 m temperature `tempC` (density moves the mean speed to its
 * density-equivalent on the table: v·(ρ/ρ_ref)^(1/3), ρ ∝ 1/T at the hub).
 */
export function windNormalMw(plant: WindPlant, climate: PointClimate, meanSpeedMs: number, tempC: number): number {
  const t = windNormalTable(plant, climate);
  const pos = normalTablePos(t, meanSpeedMs, tempC);
  tabulate(t, pos | 0, (pos | 0) + 2);
  return normalTableAt(t, pos);
}

/** windNormalMw of every hour of the climatological weather `w` into `out`: the table's steps they need computed at once. */
function windNormalSeries(plant: WindPlant, climate: PointClimate, w: WeatherSeries, out: Float64Array): void {
  const t = windNormalTable(plant, climate);
  let lowest = Infinity;
  let highest = -Infinity;
  for (let i = 0; i < out.length; i++) {
    const pos = normalTablePos(t, w.wind100Ms[i] * RICE_MEAN, w.tempC[i]);
    out[i] = pos;
    if (pos < lowest) lowest = pos;
    if (pos > highest) highest = pos;
  }
  if (lowest <= highest) tabulate(t, lowest | 0, (highest | 0) + 2);
  for (let i = 0; i < out.length; i++) out[i] = normalTableAt(t, out[i]);
}

/**
 * Sun positions of plants at the two instants of every row (:15 and :45), kept for several
 * computers over the same valid hours (the members of an ensemble): the sun does not depend on
 * the weather. One cache per set of valid hours.
 */
export class SunPositionCache {
  readonly byPlant = new Map<number, Float64Array>();
}

/** Fields of a SunPosition in a cache record, in this order. */
const SUN_FIELDS = 8;

function storeSun(sun: SunPosition, out: Float64Array, at: number): void {
  out[at] = sun.cosZenith;
  out[at + 1] = sun.sinZenith;
  out[at + 2] = sun.zenith;
  out[at + 3] = sun.azimuth;
  out[at + 4] = sun.sinAzimuth;
  out[at + 5] = sun.cosAzimuth;
  out[at + 6] = sun.elevation;
  out[at + 7] = sun.hourAngle;
}

function loadSun(from: Float64Array, at: number, sun: SunPosition): void {
  sun.cosZenith = from[at];
  sun.sinZenith = from[at + 1];
  sun.zenith = from[at + 2];
  sun.azimuth = from[at + 3];
  sun.sinAzimuth = from[at + 4];
  sun.cosAzimuth = from[at + 5];
  sun.elevation = from[at + 6];
  sun.hourAngle = from[at + 7];
}

/**
 * The value of hours before a plant began operating. A module constant, not `Number.NaN` in a
 * branch of the loop: code that no request has reached has no type feedback, and a first
 * request that reaches a plant's start (the warm-up's days may not) made V8 throw the
 * optimised `compute` away.
 */
const NOT_YET_OPERATING = Number.NaN;

/** Computes one metric for any number of plants over the rows of a prepared weather batch. */
export class PlantSeriesComputer {
  private readonly weather: WeatherSeries;
  private readonly sunTerms: SolarTimeTerms[] = [];
  private readonly sunHours: number[] = [];
  private readonly climates = new Map<number, PointClimate>();
  /** Wind plants: each hour's share of output lost to icing (one array for every plant). */
  private icingLoss: Float64Array | null = null;
  /** The earliest of the valid hours: a plant operating since then has no hour to clear (most plants, most requests). */
  private readonly earliestHour: number;

  constructor(
    private readonly batch: WeatherBatch,
    readonly metric: PlantMetric,
    private readonly validHours: ArrayLike<number>,
    /** Optional: sun positions shared with other computers over the same valid hours. */
    private readonly sunCache?: SunPositionCache,
  ) {
    this.weather = newWeatherSeries(batch.n);
    let earliest = Infinity;
    for (let i = 0; i < validHours.length; i++) earliest = Math.min(earliest, validHours[i]);
    this.earliestHour = earliest;
    if (PLANT_METRIC_TYPE[metric] === 'solar') {
      // Two sun positions per hour (at :15 and :45) so sunrise and sunset hours get partial output.
      for (let i = 0; i < validHours.length; i++) {
        for (const offset of [0.25, 0.75]) {
          const terms = createSolarTimeTerms();
          solarTimeTerms(validHours[i] + offset, terms);
          this.sunTerms.push(terms);
          this.sunHours.push(validHours[i] + offset);
        }
      }
    }
  }

  private climateOf(plant: Plant): PointClimate {
    let c = this.climates.get(plant.id);
    if (!c) {
      c = pointClimate(plant.latitude, plant.longitude);
      this.climates.set(plant.id, c);
    }
    return c;
  }

  /**
   * Writes the plant's series into `out` (NaN where the plant did not yet exist:
   * hours before `firstHour`, the epoch hour its operations began).
   */
  compute(plant: Plant, firstHour: number, out: Float64Array): void {
    const climate = this.climateOf(plant);
    this.batch.sample(climate, plant.id, this.weather);
    if (this.batch.isClimatology) this.computeNormal(plant, climate, out);
    else if (plant.plant_type === 'wind') this.computeWind(plant, climate, out);
    else this.computeSolar(plant, out);
    if (firstHour > this.earliestHour) this.clearBefore(firstHour, out);
  }

  /** NOT_YET_OPERATING on the hours before `firstHour`. Branch-free, so the store has type feedback from every request that reaches it (see NOT_YET_OPERATING). */
  private clearBefore(firstHour: number, out: Float64Array): void {
    for (let i = 0; i < out.length; i++) out[i] = this.validHours[i] < firstHour ? NOT_YET_OPERATING : out[i];
  }

  private computeWind(plant: WindPlant, climate: PointClimate, out: Float64Array): void {
    const { tempC, wind100Ms, relHumidity, cloudCover, precipMmH } = this.weather;
    const riskOnly = this.metric === 'wind_icing';
    const hubHeight = plant.hub_height_m;
    // The icing risk (%), or the share of output it takes, on every hour; then the output.
    const icing = riskOnly ? out : (this.icingLoss ??= new Float64Array(out.length));
    const scale = riskOnly ? 100 : ICING_OUTPUT_LOSS;
    for (let i = 0; i < out.length; i++) {
      const t = tempC[i];
      icing[i] = t < COLD_ROW_MAX_C ? scale * icingProbability(t, hubHeight, relHumidity[i], cloudCover[i], precipMmH[i]) : 0;
    }
    if (!riskOnly) windSeriesMw(windPlantConstants(plant, SHEAR_ALPHA), climate.pressurePa, wind100Ms, tempC, icing, out);
  }

  /**
   * The `normal` model: expected output under the climatological weather (see above). The
   * batch gives the climatological state of each hour: temperature, the wind speed at zero
   * anomaly (mean / RICE_MEAN) and the cloud cover at zero anomaly (logistic of the mean logit).
   * Icing and snow risks are 0 at the normal state.
   */
  private computeNormal(plant: Plant, climate: PointClimate, out: Float64Array): void {
    const w = this.weather;
    if (this.metric === 'wind_icing' || this.metric === 'solar_snow') {
      out.fill(0);
      return;
    }
    if (plant.plant_type === 'wind') {
      windNormalSeries(plant, climate, w, out);
      return;
    }
    const sun = createSunPosition();
    const scratch = createSolarScratch();
    const wx: SolarWeather = { tempC: 0, windMs: 3, cloudCover: 0, snowCover: 0, albedo: 0.2 };
    for (let i = 0; i < out.length; i++) {
      const cc = Math.min(1 - 1e-12, Math.max(1e-12, w.cloudCover[i]));
      const mu = Math.log(cc / (1 - cc));
      wx.tempC = w.tempC[i];
      let sum = 0;
      for (let s = 0; s < 2; s++) {
        const terms = this.sunTerms[2 * i + s];
        sunPosition(terms, this.sunHours[2 * i + s], plant.latitude, plant.longitude, sun);
        if (!(sun.cosZenith > 0)) continue;
        for (let k = 0; k < GH4_Z.length; k++) {
          wx.cloudCover = logistic(mu + CLOUD_LOGIT_SD * GH4_Z[k]);
          sum += GH4_W[k] * solarPlantOutputMw(plant, sun, terms, wx, scratch);
        }
      }
      out[i] = sum / 2;
    }
  }

  /** The plant's cached sun positions (computed and stored on first use), or undefined without a cache. */
  private sunOf(plant: SolarPlant, sun: SunPosition): Float64Array | undefined {
    if (!this.sunCache) return undefined;
    let record = this.sunCache.byPlant.get(plant.id);
    if (!record) {
      record = new Float64Array(this.sunTerms.length * SUN_FIELDS);
      for (let k = 0; k < this.sunTerms.length; k++) {
        sunPosition(this.sunTerms[k], this.sunHours[k], plant.latitude, plant.longitude, sun);
        storeSun(sun, record, k * SUN_FIELDS);
      }
      this.sunCache.byPlant.set(plant.id, record);
    }
    return record;
  }

  private computeSolar(plant: SolarPlant, out: Float64Array): void {
    const w = this.weather;
    const sun = createSunPosition();
    const scratch = createSolarScratch();
    const wx: SolarWeather = { tempC: 0, windMs: 3, cloudCover: 0, snowCover: 0, albedo: 0.2 };
    const riskOnly = this.metric === 'solar_snow';
    const cached = riskOnly ? undefined : this.sunOf(plant, sun);
    for (let i = 0; i < out.length; i++) {
      const snow = w.tempC[i] < COLD_ROW_MAX_C ? snowCoverProbability(w, i) : 0;
      if (riskOnly) {
        out[i] = 100 * snow;
        continue;
      }
      wx.tempC = w.tempC[i];
      wx.cloudCover = w.cloudCover[i];
      wx.snowCover = snow;
      // Fresh snow on the ground brightens the ground-reflected light.
      wx.albedo = 0.2 + 0.5 * snow;
      let sum = 0;
      for (let s = 0; s < 2; s++) {
        const terms = this.sunTerms[2 * i + s];
        if (cached) loadSun(cached, (2 * i + s) * SUN_FIELDS, sun);
        else sunPosition(terms, this.sunHours[2 * i + s], plant.latitude, plant.longitude, sun);
        sum += solarPlantOutputMw(plant, sun, terms, wx, scratch);
      }
      out[i] = sum / 2;
    }
  }
}
