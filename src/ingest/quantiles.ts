/**
 * Quantile forecasts in a file: which quantile a value is.
 *
 * - Long layout: an optional `quantile` column, a probability strictly between 0 and 1 (`0.1`),
 *   or a percentile written `p10` / `P90`; an empty cell is the point forecast.
 * - Wide (gridstatus-style) layout: a value column whose name ends with a quantile marker —
 *   `Load Forecast P10`, `ercot_coast_q0.9`, `Coast p90 (GW)` — holds that quantile of the series
 *   its name without the marker places; a column that is only a marker (`p10`, `q0.5`) holds the
 *   ISO total's (or the --value column's series').
 *
 * Quantiles are kept as the probability (0.1), labelled as the ensemble's are (`q0.1`).
 */
import type { Cell } from './observations.ts';

/** A probability as a quantile: strictly between 0 and 1, at most 6 decimals (q0.123456). */
function asQuantile(p: number): number | undefined {
  return p > 0 && p < 1 && Math.round(p * 1e6) === p * 1e6 ? p : undefined;
}

/** `0.1`, `.9`, `p10`, `P2.5` (a percentile), as a probability; undefined when it is none. */
export function quantileOfText(text: string): number | undefined {
  const t = text.trim();
  const percentile = /^[pP](\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (percentile) return asQuantile(Math.round(Number(percentile[1]) * 1e4) / 1e6);
  const prob = /^[qQ]?(0?\.\d+)$/.exec(t);
  return prob ? asQuantile(Number(prob[1])) : undefined;
}

const QUANTILE_WANTED =
  'a quantile is a probability strictly between 0 and 1 (0.1) or a percentile (p10), at most 6 decimals; leave it empty for the point forecast';

/** The quantile of a long file's `quantile` cell: NaN for the point forecast (empty), or why it is none. */
export function quantileOfCell(cell: Cell): number | string {
  if (cell === null) return Number.NaN;
  if (typeof cell === 'number') return asQuantile(cell) ?? `${cell}: ${QUANTILE_WANTED}`;
  if (typeof cell !== 'string') return `${String(cell)}: ${QUANTILE_WANTED}`;
  if (cell.trim() === '') return Number.NaN;
  return quantileOfText(cell) ?? `'${cell.trim().slice(0, 40)}': ${QUANTILE_WANTED}`;
}

/** A wide file's value column name split into the series' name and the quantile marker it ends with, if any. */
export function quantileColumn(name: string): { base: string; quantile: number } | undefined {
  const m = /^(.*?)(?:[\s_-]+|^)([pP]\d{1,2}(?:\.\d+)?|[qQ]0?\.\d+)$/.exec(name.trim());
  if (!m) return undefined;
  const quantile = quantileOfText(m[2]);
  return quantile === undefined ? undefined : { base: m[1].trim(), quantile };
}
