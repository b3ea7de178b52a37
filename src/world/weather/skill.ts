/**
 * How a forecast run sees the weather: its skill, as error fractions growing with lead time.
 *
 * A forecast made at `created` for hour `valid` sees each anomaly S as
 *   α·S + β·E,  α = 1 − e²/2,  β = √(1 − α²),
 * where E is an independent error field of the same scale and e = e(lead) the model's
 * error fraction, growing from e0 towards 1 with lead time. The error then has variance
 * exactly e² (of the climatological anomaly variance), and the forecast keeps the full
 * variance of the weather: forecast wind and cloud go through non-linear physics
 * (power curves, clipping), and a damped forecast would bias output low. At the longest
 * leads the error equals that of climatology. Error fields vary smoothly with the run
 * time, so consecutive runs differ little.
 *
 * Two more kinds of skill (WeatherSkill.climatology, WeatherSkill.member):
 * - Climatology (the `normal` model): every anomaly and every point-local part is 0, so the
 *   weather is the seasonal and diurnal normal of the point (no skill beyond it).
 * - Ensemble member m: with e = e(lead) the ensemble's error fraction (capped at
 *   maxErrorFraction), member m sees
 *     (1 − e²)·S + e·√(1 − e²)·C + e·M_m,
 *   where C is an error field shared by the members ("what the ensemble as a whole got
 *   wrong") and M_m the member's own, independent of the other members'. Every member keeps
 *   the full variance; the truth is, given C, distributed like one more member, so the
 *   ensemble is calibrated: the ensemble mean's error variance is e² (like a deterministic
 *   forecast with the same e) and the spread of the members about their mean is e as well
 *   (spread/skill ≈ 1), while a single member's error variance is 2e². Point-local parts and
 *   the load noise (demand.ts) follow the same rule with 1 − e² = what the run still knows of
 *   them.
 */
import type { EnsembleShare } from './groups.ts';

/** Error fraction of a forecast: e(L) = √(e0² + (1 − e0²)(1 − exp(−L/τ))), capped at 1. */
export interface ErrorGrowth {
  e0: number;
  tauHours: number;
}

export interface WeatherSkill {
  /** Names the model's error fields: two models never share errors. */
  errorSeedName: string;
  /** Multiplies every error fraction (the ISO's own forecast is worse than ours). */
  errorScale: number;
  temp: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  wind: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  cloud: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  /** e-folding time (hours) of the forecast's knowledge of point-local weather. */
  localMemoryHours: number;
  /**
   * The climatological weather (the `normal` model): all anomalies and point-local parts
   * are 0 and nothing above is used. Non-linear consumers (plant output) take expectations
   * over the climatological distribution instead (plantOutput.ts).
   */
  climatology?: boolean;
  /** An ensemble member (0-based): see the header. Members of one ensemble share errorSeedName. */
  member?: number;
  /** Ensemble members only: cap on e (1 − cap² is the skill left at the longest leads). */
  maxErrorFraction?: number;
  /**
   * Ensemble members only: work the members of one request share (their truth and shared-error
   * parts are identical). Optional; it changes no number, only the cost.
   */
  share?: EnsembleShare;
}

/**
 * A skill with every field of WeatherSkill written, in one order: every model's and member's skill
 * then has one shape in V8. Skills made by spreading another (each model's, each member's) each
 * had a shape of their own, so the code that reads them (the weather batch, the extremes, demand)
 * was optimised for the models a process had seen first and thrown away at the first request of
 * another (the skill endpoint's, after plant requests: "wrong map" in --trace-deopt).
 */
export function weatherSkill(s: WeatherSkill): WeatherSkill {
  return {
    errorSeedName: s.errorSeedName,
    errorScale: s.errorScale,
    temp: s.temp,
    wind: s.wind,
    cloud: s.cloud,
    localMemoryHours: s.localMemoryHours,
    climatology: s.climatology ?? false,
    member: s.member,
    maxErrorFraction: s.maxErrorFraction,
    share: s.share,
  };
}

/** Fraction of a predictable quantity a member knows (1 − e²), and the weights of the shared and own perturbations. */
export interface MemberWeights {
  known: number;
  shared: number;
  own: number;
}

/** Weights of truth, shared and member perturbation for a member whose run knows `known` (0..1) of a quantity. */
export function memberWeights(known: number): MemberWeights {
  const k = Math.min(1, Math.max(0, known));
  return { known: k, shared: Math.sqrt(k * (1 - k)), own: Math.sqrt(1 - k) };
}

/** Name of the error fields of ensemble member `member` (the shared ones are named errorSeedName). */
export function memberSeedName(errorSeedName: string, member: number): string {
  return `${errorSeedName}:m${member}`;
}

/** e(lead) of a growth, times the skill's scale, capped at 1. */
export function errorFraction(g: ErrorGrowth, scale: number, leadHours: number): number {
  const lead = Math.max(0, leadHours);
  const e2 = g.e0 * g.e0 + (1 - g.e0 * g.e0) * (1 - Math.exp(-lead / g.tauHours));
  return Math.min(1, Math.sqrt(e2) * scale);
}
