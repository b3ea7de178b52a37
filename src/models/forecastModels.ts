/**
 * The deterministic forecast models: when their runs are made, how far ahead they
 * reach, and how good they are. Every model sees the same world through its own error.
 */
import { weatherSkill, type WeatherSkill } from '../world/weather/skill.ts';

export const FORECAST_MODEL_NAMES = ['optimized', 'iso', 'normal'] as const;
export type ForecastModelName = (typeof FORECAST_MODEL_NAMES)[number];
/** The models continuous series (and the plant forecasts) are served from; `normal` is regional and single-run only. */
export const CONTINUOUS_MODEL_NAMES = ['optimized', 'iso'] as const satisfies readonly ForecastModelName[];

export interface ForecastModel {
  name: ForecastModelName;
  /** Runs are created every `cadenceHours`, at epoch hours ≡ `phaseHours` (mod cadence), in UTC. */
  cadenceHours: number;
  phaseHours: number;
  /** A run holds valid hours [created, created + horizonHours). */
  horizonHours: number;
  skill: WeatherSkill;
}

/** Our blend: a new run every hour, 15 days ahead; errors tuned to docs/realism-targets.md §1. */
const OPTIMIZED: ForecastModel = {
  name: 'optimized',
  cadenceHours: 1,
  phaseHours: 0,
  horizonHours: 360,
  skill: weatherSkill({
    errorSeedName: 'optimized',
    errorScale: 1,
    temp: { synoptic: { e0: 0.15, tauHours: 90 }, meso: { e0: 0.3, tauHours: 36 } },
    wind: { synoptic: { e0: 0.25, tauHours: 120 }, meso: { e0: 0.4, tauHours: 30 } },
    cloud: { synoptic: { e0: 0.35, tauHours: 60 }, meso: { e0: 0.55, tauHours: 10 } },
    localMemoryHours: 3,
  }),
};

/**
 * The ISO's own published forecast: four runs a day (00, 06, 12, 18 UTC), eight days
 * ahead, with errors 25 % larger than ours (vendors beat ISO forecasts by about 20 % in
 * MAPE, docs/realism-targets.md §1a) and independent of ours.
 */
const ISO: ForecastModel = {
  name: 'iso',
  cadenceHours: 6,
  phaseHours: 0,
  horizonHours: 192,
  skill: weatherSkill({ ...OPTIMIZED.skill, errorSeedName: 'iso', errorScale: 1.25, localMemoryHours: 2 }),
};

/**
 * Climatology ("what a normal day looks like"): a run every day at 00 UTC, 15 days ahead, with
 * no weather skill at all: temperature-driven quantities (poptemp, demand) see the climatological
 * weather (every anomaly and the load noise 0), wind and solar the expected output under the
 * climatological weather distribution (plantOutput.ts). Its error is about the same at every lead
 * and the worst of all models at short leads.
 */
const NORMAL: ForecastModel = {
  name: 'normal',
  cadenceHours: 24,
  phaseHours: 0,
  horizonHours: 360,
  skill: weatherSkill({ ...OPTIMIZED.skill, errorSeedName: 'normal', climatology: true }),
};

export const FORECAST_MODELS: Record<ForecastModelName, ForecastModel> = { optimized: OPTIMIZED, iso: ISO, normal: NORMAL };

/** True when `validHour` lies beyond the horizon of the run created at `createdHour`: the run has no value there. */
export function beyondHorizon(model: ForecastModel, validHour: number, createdHour: number): boolean {
  return validHour - createdHour >= model.horizonHours;
}

/** Creation hour of the model's latest run at or before epoch hour `hour`. */
export function latestRunAtOrBefore(model: ForecastModel, hour: number): number {
  const steps = Math.floor((Math.floor(hour) - model.phaseHours) / model.cadenceHours);
  return steps * model.cadenceHours + model.phaseHours;
}
