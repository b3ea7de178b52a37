/**
 * The ensemble models (`/region/{iso}/{metric}/ensemble`): 51 members each, seeing the world
 * through member-specific errors built so that the ensemble is calibrated (weather/skill.ts: a member
 * is (1 − e²)·S + e·√(1 − e²)·C + e·M_m; the truth behaves like one more member, so the
 * ensemble-mean error ≈ the spread, and a single member is √2 worse than the mean).
 *
 * - euro_ens: runs every 6 h (00, 06, 12, 18 UTC), 15 days, hourly values. Its mean is about
 *   level with our optimized forecast over the first days (coarser analysis) and 5–10 %
 *   better in RMSE from about day 4 on (docs/realism-targets.md §1e).
 * - euro_ec46: runs daily at 00 UTC, 46 days, served as 6-hourly means (rows at 00, 06, 12,
 *   18 UTC, each the mean of its six hours); a little worse than euro_ens.
 * - euro_seas5: runs at 00 UTC on the 1st of each month, 215 days (about 7 months), served as
 *   daily means over local days (day-beginning, local midnight), from the first local midnight
 *   after the run.
 * Beyond about two weeks every member's skill is close to climatology: the error fraction is
 * capped at `maxErrorFraction`, leaving 1 − cap² (2–3 %) of the anomaly's variance known — a
 * shift of a few tenths of a °C in the ensemble mean.
 */
import type { EnsembleShare } from '../world/weather/groups.ts';
import { weatherSkill, type ErrorGrowth, type WeatherSkill } from '../world/weather/skill.ts';

export const ENSEMBLE_MODEL_NAMES = ['euro_ens', 'euro_ec46', 'euro_seas5'] as const;
export type EnsembleModelName = (typeof ENSEMBLE_MODEL_NAMES)[number];

/** Every ensemble has 51 members (ECMWF: a control and 50 perturbed; here all alike), m00..m50. */
export const ENSEMBLE_MEMBERS = 51;

/** How the rows of a run are laid out: every hour, 6-hourly means (UTC), or daily means (local days). */
export type EnsembleRows = 'hourly' | 'six_hourly' | 'daily';

export interface EnsembleModel {
  name: EnsembleModelName;
  members: number;
  rows: EnsembleRows;
  /** Hourly and 6-hourly runs: valid hours [created, created + horizonHours). */
  horizonHours: number;
  /** Daily runs: this many local days from the first local midnight at or after the run. */
  horizonDays: number;
  /** Creation hour of the latest run at or before epoch hour `hour`. */
  latestRunAtOrBefore(hour: number): number;
  /** The ensemble's error growth; members add their index (memberSkill). */
  skill: WeatherSkill;
  /**
   * Wind and solar: null for Σ plants (every plant, like the deterministic models); otherwise a
   * fleet proxy with ceil(√n · proxyDensity) representative plants per zone of n; and the hours
   * sampled inside a row for daily means (every hour otherwise). See query/ensemble.ts.
   */
  proxyDensity: number | null;
  sampleStep: { wind: number; solar: number };
}

const growth = (e0: number, tauHours: number): ErrorGrowth => ({ e0, tauHours });

/** The IFS ensemble's error growth (ensemble-mean error fraction, see weather/skill.ts). */
const IFS_ENS: WeatherSkill = weatherSkill({
  errorSeedName: 'euro_ens',
  errorScale: 1,
  temp: { synoptic: growth(0.3, 300), meso: growth(0.35, 72) },
  wind: { synoptic: growth(0.3, 200), meso: growth(0.45, 40) },
  cloud: { synoptic: growth(0.4, 90), meso: growth(0.6, 14) },
  localMemoryHours: 3,
  maxErrorFraction: Math.sqrt(0.97),
});

const floorTo = (hour: number, step: number) => Math.floor(hour / step) * step;

const HOUR_MS = 3_600_000;

export const ENSEMBLE_MODELS: Record<EnsembleModelName, EnsembleModel> = {
  euro_ens: {
    name: 'euro_ens',
    members: ENSEMBLE_MEMBERS,
    rows: 'hourly',
    horizonHours: 360,
    horizonDays: 0,
    latestRunAtOrBefore: (hour) => floorTo(Math.floor(hour), 6),
    skill: IFS_ENS,
    proxyDensity: null,
    sampleStep: { wind: 1, solar: 1 },
  },
  euro_ec46: {
    name: 'euro_ec46',
    members: ENSEMBLE_MEMBERS,
    rows: 'six_hourly',
    horizonHours: 46 * 24,
    horizonDays: 0,
    latestRunAtOrBefore: (hour) => floorTo(Math.floor(hour), 24),
    skill: weatherSkill({ ...IFS_ENS, errorSeedName: 'euro_ec46', errorScale: 1.05 }),
    proxyDensity: 0.7,
    sampleStep: { wind: 1, solar: 1 },
  },
  euro_seas5: {
    name: 'euro_seas5',
    members: ENSEMBLE_MEMBERS,
    rows: 'daily',
    horizonHours: 0,
    horizonDays: 215,
    latestRunAtOrBefore: (hour) => {
      const d = new Date(Math.floor(hour) * HOUR_MS);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / HOUR_MS;
    },
    skill: weatherSkill({ ...IFS_ENS, errorSeedName: 'euro_seas5', errorScale: 1.1, maxErrorFraction: Math.sqrt(0.98) }),
    proxyDensity: 0.5,
    sampleStep: { wind: 3, solar: 2 },
  },
};

/** The weather skill of member `member` (0-based) of an ensemble; `share` lets the members of a request share work. */
export function memberSkill(model: EnsembleModel, member: number, share?: EnsembleShare): WeatherSkill {
  return weatherSkill({ ...model.skill, member, share });
}

/** Column label of a member: m00, m01, …, m50. */
export function memberLabel(member: number): string {
  return `m${String(member).padStart(2, '0')}`;
}
