// @ts-check
/** Pure helpers of the dashboard: series from API responses, percentiles, colours, run times. */

const HOUR_MS = 3_600_000;

/** @typedef {[number, number | null]} Point  [epoch ms, value] */

/**
 * One column of a time series response as chart points.
 * @param {{ time_utc: string[], values: (number | null)[][] }} ts
 * @param {number} [column]
 * @returns {Point[]}
 */
export function columnPoints(ts, column = 0) {
  const values = ts.values[column] ?? [];
  return ts.time_utc.map((t, i) => [Date.parse(t), values[i] ?? null]);
}

/**
 * Percentile p (0–1) of ascending values, interpolating linearly between ranks.
 * @param {number[]} sorted
 * @param {number} p
 */
export function quantile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = (sorted.length - 1) * p;
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** @typedef {{ min: (number | null)[], p10: (number | null)[], median: (number | null)[], p90: (number | null)[], max: (number | null)[] }} Bands */

/**
 * Per hour, the spread of the members: min, P10, median, P90, max (null where no member has a value).
 * @param {(number | null)[][]} members one array of values per member
 * @returns {Bands}
 */
export function memberBands(members) {
  const hours = members[0]?.length ?? 0;
  /** @type {Bands} */
  const bands = { min: [], p10: [], median: [], p90: [], max: [] };
  for (let h = 0; h < hours; h++) {
    const sorted = /** @type {number[]} */ (members.map((m) => m[h]).filter((v) => v !== null && v !== undefined)).sort((a, b) => a - b);
    bands.min.push(quantile(sorted, 0));
    bands.p10.push(quantile(sorted, 0.1));
    bands.median.push(quantile(sorted, 0.5));
    bands.p90.push(quantile(sorted, 0.9));
    bands.max.push(quantile(sorted, 1));
  }
  return bands;
}

/**
 * The run times to ask about for one valid hour: every `stepHours` from `days` before it up to
 * the hour itself or `latestRun`, whichever is earlier (a run made later does not forecast it).
 * @param {number} hourMs the valid hour
 * @param {number} latestRunMs
 * @param {number} days
 * @param {number} stepHours
 * @returns {number[]} ascending epoch ms
 */
export function runTimesFor(hourMs, latestRunMs, days, stepHours) {
  const last = Math.min(hourMs, latestRunMs);
  const step = stepHours * HOUR_MS;
  const first = Math.ceil((hourMs - days * 24 * HOUR_MS) / step) * step;
  const out = [];
  for (let t = first; t <= last; t += step) out.push(t);
  if (out.length === 0 || out[out.length - 1] !== last) out.push(last);
  return out;
}

/**
 * @param {number} ms
 * @returns {string} `2026-06-15T18:00:00Z`
 */
export function isoHour(ms) {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00Z');
}

/** Colour stops of a perceptually even sequential scale (viridis), light values bright. */
const SCALE = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/**
 * The colour of t in [0, 1] on the sequential scale, as `rgb(r, g, b)`.
 * @param {number} t
 */
export function scaleColor(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (SCALE.length - 1);
  const i = Math.min(SCALE.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [SCALE[i], SCALE[i + 1]];
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * f)).join(', ')})`;
}

/** CSS gradient of the scale, for the map's legend. */
export function scaleGradient() {
  return `linear-gradient(to right, ${SCALE.map((c, i) => `rgb(${c.join(', ')}) ${(i / (SCALE.length - 1)) * 100}%`).join(', ')})`;
}

/**
 * Runs `fn` over `items` with at most `limit` calls at once, keeping the order of results.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<R>} fn
 * @returns {Promise<R[]>}
 */
export async function mapLimit(items, limit, fn) {
  /** @type {R[]} */
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
