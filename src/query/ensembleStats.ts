/**
 * Summaries of an ensemble run in place of its members: quantiles and the mean and spread
 * across the members, per row. Each summary column is computed from all members, so the members
 * are computed once (on the first column asked for) and kept for the others.
 *
 * Quantile estimator: Hyndman & Fan (1996) definition 7, the default of R, NumPy and Excel's
 * PERCENTILE.INC: with the n member values sorted x[0] ≤ … ≤ x[n-1] and h = (n − 1)·p, the
 * p-quantile is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). For 51 members P10 is x[5] and P90 is
 * x[45]. Spread is the sample standard deviation (divisor n − 1).
 */
import type { Frame } from './frame.ts';

export type EnsembleStat = 'mean' | 'spread';
export const ENSEMBLE_STATS: readonly EnsembleStat[] = ['mean', 'spread'];

export interface EnsembleSummary {
  /** Probabilities in [0, 1], in the order of the columns. */
  quantiles: readonly number[];
  stats: readonly EnsembleStat[];
}

/** The p-quantile of ascending `sorted` (Hyndman–Fan type 7). */
export function quantileType7(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

function sampleStdDev(values: ArrayLike<number>): number {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += (values[i] - m) ** 2;
  return Math.sqrt(sq / (values.length - 1));
}

/** The label of the p-quantile column: `q` and p as a number (q0.1, q0.5, q0.95). */
export const quantileLabel = (p: number) => `q${p}`;

/**
 * The member frame summarised: one column per quantile, then the stats, each labelled
 * [region_id, "q0.1" | "mean" | "spread"]. A row whose members are all missing is missing.
 */
export function summarizeEnsemble(members: Frame, summary: EnsembleSummary): Frame {
  const rows = members.hours.length;
  const id = members.columns[0]?.label[0] ?? '';
  let sortedRows: Float64Array[] | undefined;
  /** Each row's member values, present ones only, ascending. */
  const sorted = (): Float64Array[] => {
    if (sortedRows) return sortedRows;
    const matrix = members.columns.map((c) => {
      const out = new Float64Array(rows).fill(Number.NaN);
      c.fill(out);
      return out;
    });
    sortedRows = Array.from({ length: rows }, (_, r) =>
      Float64Array.from(matrix.map((col) => col[r]).filter((v) => Number.isFinite(v))).sort(),
    );
    return sortedRows;
  };
  const column = (label: string, of: (values: Float64Array) => number) => ({
    label: [id, label],
    fill(out: Float64Array) {
      const values = sorted();
      for (let r = 0; r < rows; r++) out[r] = values[r].length > 0 ? of(values[r]) : Number.NaN;
    },
  });
  return {
    ...members,
    columns: [
      ...summary.quantiles.map((p) => column(quantileLabel(p), (v) => quantileType7(v, p))),
      ...summary.stats.map((s) => column(s, s === 'mean' ? mean : sampleStdDev)),
    ],
  };
}
