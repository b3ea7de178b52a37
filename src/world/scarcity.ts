/**
 * Reserve-shortage pricing (USD/MWh): what an ISO adds to the energy price when its operating
 * reserves run short. Reserves are the capacity that could still serve (available thermal units,
 * batteries, imports and demand response) minus the net load being served.
 *
 * - ERCOT prices reserves with its operating reserve demand curve (ORDC): adder =
 *   (VOLL − system lambda) · LOLP, LOLP = P(reserve shortfall ≥ reserves − minimum contingency
 *   level), the shortfall normal (μ = 0, σ = `sdMw`), so LOLP is ½ just above that level. At or
 *   below it LOLP = 1 and the price is VOLL = the high cap (HCAP) of $5,000/MWh.
 * - The other ISOs price shortages with stepped demand curves: a penalty factor for each reserve
 *   requirement that is not met. The steps are smoothed with the same normal uncertainty, since
 *   an hour averages twelve 5-minute intervals that are short or not.
 *
 * The curves and their public sources are in the ISO profiles (catalog/isos/*.ts `lmp.shortage`)
 * and docs/realism-targets.md §3.
 */
import type { ShortageCurve } from '../catalog/isos/profile.ts';

/** Standard normal CDF (Abramowitz–Stegun 26.2.17, |error| < 7.5e-8). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

/** The shortage adder ($/MWh) at `reservesMw` of operating reserves, with the energy price `lambda`. */
export function shortageAdder(curve: ShortageCurve, reservesMw: number, lambda: number): number {
  if (curve.kind === 'ordc') {
    const above = reservesMw - curve.minContingencyMw;
    const lolp = above <= 0 ? 1 : 1 - normalCdf(above / curve.sdMw);
    return Math.max(0, curve.voll - lambda) * lolp;
  }
  let adder = 0;
  for (const [requirementMw, penalty] of curve.steps) adder += penalty * normalCdf((requirementMw - reservesMw) / curve.sdMw);
  return adder;
}

/**
 * How tight the system is, 0…1: the probability that reserves fall below the curve's first
 * requirement if they were as uncertain as three times the curve's spread (a day-ahead view).
 * 0.5 at the requirement, ~0.16 at three spreads above it. Drives real-time volatility.
 */
export function tightness(curve: ShortageCurve, reservesMw: number): number {
  const requirement = curve.kind === 'ordc' ? curve.minContingencyMw : Math.max(...curve.steps.map(([r]) => r));
  return normalCdf((requirement - reservesMw) / (3 * curve.sdMw));
}
