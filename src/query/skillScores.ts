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
 * - MAPE leaves out rows whose |actual| is below a share of the mean |actual| of the counted
 *   rows (or is 0): a percentage of a near-zero actual says nothing; `mape_skipped` reports how
 *   many. The share is 1 % (MAPE_SKIP_FRACTION), 10 % for electricity prices
 *   (PRICE_MAPE_SKIP_FRACTION): prices cross zero, and a $1 price with a $30 forecast would add
 *   2,900 % to the mean. Negative actuals count with |actual| as the denominator;
 * - nMAE divides each row's absolute error by the capacity in operation at that hour (rows
 *   without capacity are left out of it), in % of capacity;
 * - skill against the baseline (`normal`) compares MAEs over the rows where the baseline has a
 *   value too: 1 − MAE / MAE_baseline (1 is perfect, 0 no better than climatology);
 * - quantile scores, where the forecast has quantile series (any source: each a probability
 *   level and its values per row): coverage_p10_p90 is the share of rows whose actual lies in
 *   [P10, P90] (both ends included), over the rows where both are present; pinball is the mean,
 *   over those rows, of the mean pinball loss at P10, P50 and P90 (SCORED_QUANTILES; null unless
 *   the forecast has all three). Other levels a forecast carries are not scored, so that pinball
 *   figures of different sources compare;
 * - CRPS, where the forecast has members: each row's members as an empirical distribution,
 *   E|X − y| − ½ E|X − X'|, computed exactly from the sorted members; the mean over the rows.
 */

/** Share of the mean |actual| below which an hour is left out of MAPE. */
export const MAPE_SKIP_FRACTION = 0.01;
/** The same for electricity prices (LMPs), which go through zero: ~$3–5/MWh at usual price levels. */
export const PRICE_MAPE_SKIP_FRACTION = 0.1;

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
  /** The forecast's quantile series, when it has them (any levels; SCORED_QUANTILES are scored). */
  quantiles?: readonly QuantileSeries[];
  /** Ensemble members per row (each array one member), for CRPS. */
  members?: readonly Float64Array[];
}

/** One quantile of a probabilistic forecast: its probability level and its value per row (NaN = null). */
export interface QuantileSeries {
  p: number;
  values: Float64Array;
}

export interface ScoreRules {
  /** Leave out rows where forecast and actual are both 0 (solar at night). */
  daylightOnly: boolean;
  /** Share of the mean |actual| below which a row is left out of MAPE (default MAPE_SKIP_FRACTION). */
  mapeSkipFraction?: number;
}

export interface Scores {
  n: number;
  mae: number | null;
  rmse: number | null;
  /** Mean of forecast − actual. */
  bias: number | null;
  /** Mean absolute percentage error, %, over the rows not skipped. */
  mape: number | null;
  /** Rows left out of MAPE: |actual| below 1 % (prices: 10 %) of the mean |actual|. */
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
  const list = Array.isArray(rows) ? (rows as readonly number[]) : [...rows];
  const { forecast, actual } = s;
  for (let k = 0; k < list.length; k++) {
    const r = list[k];
    const f = forecast[r];
    const a = actual[r];
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
  // The arrays read once, outside the loops over a year of rows (a skill request scores ~24 series).
  const { forecast, actual, capacity, baseline } = s;
  let abs = 0;
  let sq = 0;
  let signed = 0;
  let absActual = 0;
  for (let k = 0; k < n; k++) {
    const r = counted[k];
    const e = forecast[r] - actual[r];
    abs += Math.abs(e);
    sq += e * e;
    signed += e;
    absActual += Math.abs(actual[r]);
  }
  const threshold = ((rules.mapeSkipFraction ?? MAPE_SKIP_FRACTION) * absActual) / n;
  let pct = 0;
  let pctN = 0;
  let capPct = 0;
  let capN = 0;
  let modelAbs = 0;
  let baseAbs = 0;
  for (let k = 0; k < n; k++) {
    const r = counted[k];
    const a = actual[r];
    const absErr = Math.abs(forecast[r] - a);
    if (a !== 0 && Math.abs(a) >= threshold) {
      pct += absErr / Math.abs(a);
      pctN++;
    }
    if (capacity) {
      const cap = capacity[r];
      if (cap > 0) {
        capPct += absErr / cap;
        capN++;
      }
    }
    if (baseline) {
      const b = baseline[r];
      if (Number.isFinite(b)) {
        modelAbs += absErr;
        baseAbs += Math.abs(b - a);
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
    ...quantileScores(s.quantiles, s.actual, counted),
    crps: s.members ? meanCrps(s.members, s.actual, counted) : null,
  };
}

/** The series of level `p` among `quantiles`, if the forecast has it. */
const levelOf = (quantiles: readonly QuantileSeries[], p: number) => quantiles.find((q) => q.p === p)?.values;

/**
 * Coverage of [P10, P90] (%) and the mean pinball loss over SCORED_QUANTILES, over `rows` (those
 * that count), each over the rows where its quantiles are present; null where the forecast lacks
 * a level either needs. A function of the quantile series and the actuals alone, for any source.
 */
export function quantileScores(
  quantiles: readonly QuantileSeries[] | undefined,
  actual: Float64Array,
  rows: readonly number[],
): Pick<Scores, 'coverage_p10_p90' | 'pinball'> {
  if (!quantiles) return { coverage_p10_p90: null, pinball: null };
  const p10 = levelOf(quantiles, 0.1);
  const p90 = levelOf(quantiles, 0.9);
  const scored = SCORED_QUANTILES.map((p) => levelOf(quantiles, p));
  const hasAll = scored.length > 0 && scored.every((q) => q !== undefined);
  let covered = 0;
  let coverageN = 0;
  let pinball = 0;
  let pinballN = 0;
  for (const r of rows) {
    const a = actual[r];
    if (p10 && p90 && Number.isFinite(p10[r]) && Number.isFinite(p90[r])) {
      coverageN++;
      if (a >= p10[r] && a <= p90[r]) covered++;
    }
    if (hasAll && scored.every((q) => Number.isFinite(q![r]))) {
      let loss = 0;
      scored.forEach((q, i) => (loss += pinballLoss(q![r], SCORED_QUANTILES[i], a)));
      pinball += loss / scored.length;
      pinballN++;
    }
  }
  return {
    coverage_p10_p90: p10 && p90 ? orNull((100 * covered) / coverageN) : null,
    pinball: hasAll ? orNull(pinball / pinballN) : null,
  };
}

/** The mean CRPS of the members over `rows` (those with at least one member present); null without any. */
export function meanCrps(members: readonly Float64Array[], actual: Float64Array, rows: readonly number[]): number | null {
  const values = new Array<number>(members.length);
  let sum = 0;
  let n = 0;
  for (const r of rows) {
    for (let m = 0; m < members.length; m++) values[m] = members[m][r];
    const c = ensembleCrps(values, actual[r]);
    if (!Number.isFinite(c)) continue;
    sum += c;
    n++;
  }
  return orNull(sum / n);
}
