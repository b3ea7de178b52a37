/**
 * Forecast skill scores: pure functions of a forecast series, the actual series over the same
 * hours and a set of rows to score (one bucket: a lead day, a month, a rolling 30 days, …).
 * Nothing here knows where the series come from; query/skill.ts feeds it exactly what the
 * `continuous` and `actual` requests return, and the realism report calls the same code.
 *
 * Rules, applied per row:
 * - a row counts (`n`) when both the forecast and the actual have a value (NaN = null); beyond a
 *   run's horizon a forecast is null, so those rows simply do not count;
 * - `daylightOnly` (solar) also leaves out rows where both are 0 (night: every model is exactly
 *   right there, and counting those hours would flatter every score alike);
 * - MAPE leaves out rows whose |actual| is below 1 % of the mean |actual| of the counted rows
 *   (or is 0): a percentage of a near-zero actual says nothing; `mape_skipped` reports how many;
 * - nMAE divides each row's absolute error by the capacity in operation at that hour (rows
 *   without capacity are left out of it), in % of capacity;
 * - skill against the baseline (`normal`) compares MAEs over the rows where the baseline has a
 *   value too: 1 − MAE / MAE_baseline (1 is perfect, 0 no better than climatology);
 * - quantile scores (P10/P50/P90) and CRPS (ensemble members) are computed where those exist.
 */

/** Share of the mean |actual| below which an hour is left out of MAPE. */
export const MAPE_SKIP_FRACTION = 0.01;

/** The quantiles a probabilistic forecast is scored at (coverage uses the outer two). */
export const SCORED_QUANTILES = [0.1, 0.5, 0.9] as const;

/** One forecast and the series it is scored against, aligned row by row (NaN = null). */
export interface PairedSeries {
  forecast: Float64Array;
  actual: Float64Array;
  /** Capacity in operation per row (MW), for nMAE; absent for metrics without a capacity. */
  capacity?: Float64Array;
  /** The baseline's forecast per row (`normal`), for the skill score. */
  baseline?: Float64Array;
  /** P10, P50, P90 per row, when the forecast has quantiles. */
  quantiles?: readonly [Float64Array, Float64Array, Float64Array];
  /** Ensemble members per row (each array one member), for CRPS. */
  members?: readonly Float64Array[];
}

export interface ScoreRules {
  /** Leave out rows where forecast and actual are both 0 (solar at night). */
  daylightOnly: boolean;
}

export interface Scores {
  n: number;
  mae: number | null;
  rmse: number | null;
  /** Mean of forecast − actual. */
  bias: number | null;
  /** Mean absolute percentage error, %, over the rows not skipped. */
  mape: number | null;
  /** Rows left out of MAPE: |actual| below 1 % of the mean |actual|. */
  mape_skipped: number;
  /** MAE per hour in % of the capacity in operation; null without capacity. */
  nmae_pct_capacity: number | null;
  /** 1 − MAE / MAE of the baseline over the rows both have; null without a baseline. */
  skill_vs_normal: number | null;
  /** Share of rows (%) whose actual lies within [P10, P90]; null without quantiles. */
  coverage_p10_p90: number | null;
  /** Mean pinball loss over P10, P50 and P90, in the unit; null without quantiles. */
  pinball: number | null;
  /** Mean continuous ranked probability score of the members, in the unit; null without members. */
  crps: number | null;
}

const orNull = (x: number) => (Number.isFinite(x) ? x : null);

/** The pinball (quantile) loss of predicting `q` at probability `p` when `actual` happened. */
export function pinballLoss(q: number, p: number, actual: number): number {
  return actual >= q ? p * (actual - q) : (1 - p) * (q - actual);
}

/**
 * CRPS of an ensemble (members as an empirical distribution) for one actual:
 * mean |x_i − y| − ½ · mean over pairs |x_i − x_j|; NaN members are left out.
 */
export function ensembleCrps(members: readonly number[], actual: number): number {
  const x = members.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const m = x.length;
  if (m === 0) return Number.NaN;
  let toActual = 0;
  // Σ_i Σ_j |x_i − x_j| over sorted values = 2 Σ_i (2i − m + 1) x_i (i from 0).
  let pairs = 0;
  for (let i = 0; i < m; i++) {
    toActual += Math.abs(x[i] - actual);
    pairs += (2 * i - m + 1) * x[i];
  }
  return toActual / m - pairs / (m * m);
}

/** The rows of `rows` that count: forecast and actual present (and not both 0 when daylightOnly). */
export function countedRows(s: PairedSeries, rows: Iterable<number>, rules: ScoreRules): number[] {
  const out: number[] = [];
  for (const r of rows) {
    const f = s.forecast[r];
    const a = s.actual[r];
    if (!Number.isFinite(f) || !Number.isFinite(a)) continue;
    if (rules.daylightOnly && f === 0 && a === 0) continue;
    out.push(r);
  }
  return out;
}

/** Every score of `s` over `rows` (indices into its arrays). */
export function scoreRows(s: PairedSeries, rows: Iterable<number>, rules: ScoreRules): Scores {
  const counted = countedRows(s, rows, rules);
  const n = counted.length;
  let abs = 0;
  let sq = 0;
  let signed = 0;
  let absActual = 0;
  for (const r of counted) {
    const e = s.forecast[r] - s.actual[r];
    abs += Math.abs(e);
    sq += e * e;
    signed += e;
    absActual += Math.abs(s.actual[r]);
  }
  const threshold = (MAPE_SKIP_FRACTION * absActual) / n;
  let pct = 0;
  let pctN = 0;
  let capPct = 0;
  let capN = 0;
  let modelAbs = 0;
  let baseAbs = 0;
  let covered = 0;
  let quantileN = 0;
  let pinball = 0;
  let crps = 0;
  let crpsN = 0;
  for (const r of counted) {
    const a = s.actual[r];
    const absErr = Math.abs(s.forecast[r] - a);
    if (a !== 0 && Math.abs(a) >= threshold) {
      pct += absErr / Math.abs(a);
      pctN++;
    }
    const cap = s.capacity?.[r] ?? Number.NaN;
    if (cap > 0) {
      capPct += absErr / cap;
      capN++;
    }
    const b = s.baseline?.[r] ?? Number.NaN;
    if (Number.isFinite(b)) {
      modelAbs += absErr;
      baseAbs += Math.abs(b - a);
    }
    if (s.quantiles) {
      const qs = s.quantiles.map((q) => q[r]);
      if (qs.every(Number.isFinite)) {
        quantileN++;
        if (a >= qs[0] && a <= qs[2]) covered++;
        pinball += qs.reduce((sum, q, i) => sum + pinballLoss(q, SCORED_QUANTILES[i], a), 0) / qs.length;
      }
    }
    if (s.members) {
      const c = ensembleCrps(
        s.members.map((m) => m[r]),
        a,
      );
      if (Number.isFinite(c)) {
        crps += c;
        crpsN++;
      }
    }
  }
  return {
    n,
    mae: orNull(abs / n),
    rmse: orNull(Math.sqrt(sq / n)),
    bias: orNull(signed / n),
    mape: orNull((100 * pct) / pctN),
    mape_skipped: n - pctN,
    nmae_pct_capacity: s.capacity ? orNull((100 * capPct) / capN) : null,
    // A baseline without error (modelAbs = baseAbs = 0) gives no ratio: null, never 1 − 0/0.
    skill_vs_normal: s.baseline && baseAbs > 0 ? 1 - modelAbs / baseAbs : null,
    coverage_p10_p90: s.quantiles ? orNull((100 * covered) / quantileN) : null,
    pinball: s.quantiles ? orNull(pinball / quantileN) : null,
    crps: s.members ? orNull(crps / crpsN) : null,
  };
}
