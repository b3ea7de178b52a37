/** Small numeric functions shared across layers. */

/** e^x is 2^(k/EXP_STEPS) · e^r, |r| ≤ ln 2 / (2·EXP_STEPS): a table of 2^(j/EXP_STEPS) and a short polynomial. */
const EXP_SHIFT = 5;
const EXP_STEPS = 1 << EXP_SHIFT;
const STEPS_PER_LN = EXP_STEPS / Math.LN2;
/** ln 2 / EXP_STEPS in two parts (Cody–Waite): k·high is exact for the k that occur, so r keeps its low bits. */
const STEP_LN_HIGH = 0.6931471803691238 / EXP_STEPS;
const STEP_LN_LOW = 1.9082149292705877e-10 / EXP_STEPS;
/** 2^(j/EXP_STEPS), j = 0 … EXP_STEPS − 1. */
const STEP_POWERS = Float64Array.from({ length: EXP_STEPS }, (_, j) => 2 ** (j / EXP_STEPS));
/** 2^m for m = −1023 … 1023, at m + 1023 (exact powers of two). */
const TWO_POWERS = Float64Array.from({ length: 2047 }, (_, i) => 2 ** (i - 1023));
/** Inside (−EXP_RANGE, EXP_RANGE) e^x is a normal double; outside, Math.exp (0, subnormal or ∞). */
const EXP_RANGE = 708;

/**
 * e^x to within 3 ulp (Math.exp: 1): arithmetic V8 compiles into the calling loop, where
 * Math.exp is a call into the runtime (~10 ns, and the loop's values spilled around it). For the
 * hot per-plant, per-hour loops (icing, cloud cover): a year of skill leads is ~7 million
 * plant-hours a model, each with up to four logistic functions.
 */
export function exp(x: number): number {
  if (!(x > -EXP_RANGE && x < EXP_RANGE)) return Math.exp(x);
  const k = Math.floor(x * STEPS_PER_LN + 0.5);
  const r = x - k * STEP_LN_HIGH - k * STEP_LN_LOW;
  // e^r, |r| ≤ 0.0109, by its Taylor polynomial to r⁶ (truncation below 1e-16).
  const r2 = r * r;
  const er = 1 + r + r2 * (0.5 + r * (1 / 6) + r2 * (1 / 24 + r * (1 / 120) + r2 * (1 / 720)));
  return er * STEP_POWERS[k & (EXP_STEPS - 1)] * TWO_POWERS[(k >> EXP_SHIFT) + 1023];
}

/** The logistic function 1 / (1 + e^(−x)): 0 → 0.5, smooth from 0 (x → −∞) to 1 (x → +∞). */
export function logistic(x: number): number {
  return 1 / (1 + exp(-x));
}
