/** Small numeric functions shared across layers. */

/** The logistic function 1 / (1 + e^(−x)): 0 → 0.5, smooth from 0 (x → −∞) to 1 (x → +∞). */
export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
