/**
 * A Frame is what every data query returns: a time axis and labelled columns. Columns
 * are computed lazily, one at a time, so a writer can stream a response of any size
 * while holding a single column in memory. NaN in a column means "no value" (null).
 */
export interface FrameColumn {
  /** One label per level, e.g. ["60012"] or ["ercot_total", "p10"]. */
  label: readonly string[];
  /** Writes the column's values (one per row of the time axis) into `out`. */
  fill(out: Float64Array): void;
  /** Decimal places for this column when the frame mixes units (else the frame's). */
  decimals?: number;
}

export interface Frame {
  model: string | null;
  /** Creation epoch hour of the run, or null for stitched series and actuals. */
  createdAtHour: number | null;
  units: string;
  timezone: string;
  /** Period-beginning epoch hours of the rows (UTC). */
  hours: ArrayLike<number>;
  /** Decimal places the values are rounded to when written. */
  decimals: number;
  columns: FrameColumn[];
  /**
   * The same frame over rows [from, to) only, computing nothing outside them (row order and
   * values unchanged). Writers of row-major tables (CSV, Arrow and Parquet in the wide layout)
   * go through a large frame in blocks of rows this way, so they never hold all of it. Frames
   * that do not offer it are small enough to compute whole (daily series, single targets).
   */
  slice?(from: number, to: number): Frame;
  /**
   * The sum of the columns as written (addAsWritten; NaN where no column has a value) into
   * `out`, made without filling each column, where the frame offers it: the continuous frames of
   * several leads sum their targets once over the rows they share (a skill's sum over an ISO's
   * plants).
   */
  sumAsWritten?(out: Float64Array): void;
}

/**
 * Adds `values`, each rounded as the writers write it (`decimals` places), into `sum` from row
 * `at`, and marks in `present` the rows that had a value (NaN, no value, is skipped): the sum of
 * several columns as a client adding up the written values finds it.
 */
export function addAsWritten(sum: Float64Array, present: Uint8Array, values: ArrayLike<number>, decimals: number, at = 0): void {
  const f = 10 ** decimals;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    sum[at + i] += Math.round(v * f) / f;
    present[at + i] = 1;
  }
}

/** NaN on the rows of `sum` that no column added a value to (addAsWritten's `present`). */
export function withoutAbsent(sum: Float64Array, present: Uint8Array): Float64Array {
  for (let i = 0; i < sum.length; i++) if (!present[i]) sum[i] = Number.NaN;
  return sum;
}

/** `values` at `places` (indices into it): NaN, no value, where a place is −1. */
export function valuesAt(values: Float64Array, places: Int32Array): Float64Array {
  const out = new Float64Array(places.length);
  for (let i = 0; i < places.length; i++) out[i] = places[i] < 0 ? Number.NaN : values[places[i]];
  return out;
}
