/**
 * Plant-level quantities from the weather at the plant: wind and solar output (MW) and
 * the risk (%) that icing stops turbines or snow covers panels. Forecasts and truth go
 * through the same physics, so forecast output also stays within 0..capacity and solar
 * is exactly 0 when the sun is down.
 */
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
} from './physics/solar.ts';
import { windPlantOutputMw, type WindWeather } from './physics/wind.ts';
import { COLD_ROW_MAX_C, newWeatherSeries, type WeatherBatch, type WeatherNeeds, type WeatherSeries } from './weather.ts';

export const PLANT_METRICS = ['wind', 'solar', 'wind_icing', 'solar_snow'] as const;
export type PlantMetric = (typeof PLANT_METRICS)[number];

export const PLANT_METRIC_TYPE: Record<PlantMetric, PlantType> = {
  wind: 'wind',
  solar: 'solar',
  wind_icing: 'wind',
  solar_snow: 'solar',
};

export const PLANT_METRIC_UNITS: Record<PlantMetric, string> = { wind: 'MW', solar: 'MW', wind_icing: '%', solar_snow: '%' };

/** Weather each metric needs: icing and snow losses feed into MW output too. */
export function weatherNeedsFor(metric: PlantMetric): WeatherNeeds {
  return PLANT_METRIC_TYPE[metric] === 'wind' ? { wind: true, moisture: true } : { cloud: true, moisture: true, trailing: true };
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Share of output lost while icing conditions hold (blades shed power, many turbines stop). */
const ICING_OUTPUT_LOSS = 0.8;
/** Typical power-law shear exponent from 100 m to hub height. */
const SHEAR_ALPHA = 0.16;
const LAPSE_K_PER_M = 0.0065;

/**
 * Probability (0-1) that rime or glaze ice is forming or lying on the blades: sub-zero
 * air at hub height with saturated air in cloud, or freezing precipitation.
 */
export function icingProbability(tempC: number, hubHeightM: number, relHumidity: number, cloudCover: number, precipMmH: number): number {
  const hubTemp = tempC - LAPSE_K_PER_M * hubHeightM;
  const cold = logistic((0.5 - hubTemp) / 0.7) * logistic((hubTemp + 15) / 2);
  const inCloud = logistic((relHumidity - 94) / 1.5) * cloudCover;
  const freezingRain = Math.min(1, precipMmH / 0.3);
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

/** Computes one metric for any number of plants over the rows of a prepared weather batch. */
export class PlantSeriesComputer {
  private readonly weather: WeatherSeries;
  private readonly sunTerms: SolarTimeTerms[] = [];
  private readonly sunHours: number[] = [];
  private readonly climates = new Map<number, PointClimate>();

  constructor(
    private readonly batch: WeatherBatch,
    readonly metric: PlantMetric,
    private readonly validHours: ArrayLike<number>,
  ) {
    this.weather = newWeatherSeries(batch.n);
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
    if (plant.plant_type === 'wind') this.computeWind(plant, climate, out);
    else this.computeSolar(plant, out);
    for (let i = 0; i < out.length; i++) if (this.validHours[i] < firstHour) out[i] = Number.NaN;
  }

  private computeWind(plant: WindPlant, climate: PointClimate, out: Float64Array): void {
    const w = this.weather;
    const wx: WindWeather = { speed100mMs: 0, tempC: 0, pressurePa: climate.pressurePa, shearAlpha: SHEAR_ALPHA, icingLoss: 0 };
    const riskOnly = this.metric === 'wind_icing';
    for (let i = 0; i < out.length; i++) {
      const icing = w.tempC[i] < COLD_ROW_MAX_C ? icingProbability(w.tempC[i], plant.hub_height_m, w.relHumidity[i], w.cloudCover[i], w.precipMmH[i]) : 0;
      if (riskOnly) {
        out[i] = 100 * icing;
        continue;
      }
      wx.speed100mMs = w.wind100Ms[i];
      wx.tempC = w.tempC[i];
      wx.icingLoss = ICING_OUTPUT_LOSS * icing;
      out[i] = windPlantOutputMw(plant, wx);
    }
  }

  private computeSolar(plant: SolarPlant, out: Float64Array): void {
    const w = this.weather;
    const sun = createSunPosition();
    const scratch = createSolarScratch();
    const wx: SolarWeather = { tempC: 0, windMs: 3, cloudCover: 0, snowCover: 0, albedo: 0.2 };
    const riskOnly = this.metric === 'solar_snow';
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
        sunPosition(terms, this.sunHours[2 * i + s], plant.latitude, plant.longitude, sun);
        sum += solarPlantOutputMw(plant, sun, terms, wx, scratch);
      }
      out[i] = sum / 2;
    }
  }
}
