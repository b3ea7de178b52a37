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

/**
 * A value axis that keeps the bulk of the values readable when a few spike far above it (prices):
 * from the 1st to the 99th percentile of every value shown, widened by 10 % of that span on each
 * side, or null (the full scale) when nothing lies outside it.
 * @param {Point[][]} series
 * @returns {{ min: number, max: number } | null}
 */
export function clippedRange(...series) {
  const values = series.flatMap((points) => points.map(([, v]) => v)).filter((v) => v !== null);
  const sorted = /** @type {number[]} */ (values).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const lo = /** @type {number} */ (quantile(sorted, 0.01));
  const hi = /** @type {number} */ (quantile(sorted, 0.99));
  const pad = 0.1 * Math.max(hi - lo, 1);
  const range = { min: Math.floor(lo - pad), max: Math.ceil(hi + pad) };
  return sorted[0] < range.min || sorted[sorted.length - 1] > range.max ? range : null;
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

/** @type {Map<string, Intl.DateTimeFormat>} */
const wallFormats = new Map();

/**
 * The wall clock of an instant in a time zone: its local date (`YYYY-MM-DD`), hour (0–23) and minute.
 * @param {number} ms
 * @param {string} timezone IANA name
 */
export function wallClock(ms, timezone) {
  let format = wallFormats.get(timezone);
  if (!format) {
    const fields = /** @type {const} */ ({ year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', ...fields });
    wallFormats.set(timezone, format);
  }
  const p = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute) };
}

/**
 * The instants (epoch ms) of every hour of a local day, in order: 24, or 23 and 25 on the days
 * the clocks change.
 * @param {string} date `YYYY-MM-DD`
 * @param {string} timezone
 */
export function hoursOfLocalDay(date, timezone) {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  /** @type {number[]} */
  const out = [];
  // Every UTC offset lies within ±14 h, so the local day is inside this two-day span.
  for (let ms = utcMidnight - 14 * HOUR_MS; ms < utcMidnight + 38 * HOUR_MS; ms += HOUR_MS) {
    if (wallClock(ms, timezone).date === date) out.push(ms);
  }
  return out;
}

/**
 * Axis ticks at local midnight between two instants, every `step` days so that there are at most
 * `maxTicks` of them (ECharts itself places time ticks only in UTC or the browser's zone).
 * @param {number} startMs
 * @param {number} endMs
 * @param {string} timezone
 * @param {number} [maxTicks]
 */
export function localMidnights(startMs, endMs, timezone, maxTicks = 8) {
  /** @type {number[]} */
  const midnights = [];
  for (let ms = Math.ceil(startMs / HOUR_MS) * HOUR_MS; ms <= endMs; ms += HOUR_MS) {
    const wall = wallClock(ms, timezone);
    if (wall.hour === 0 && wall.minute === 0) midnights.push(ms);
  }
  const step = Math.max(1, Math.ceil(midnights.length / maxTicks));
  return midnights.filter((_, i) => i % step === 0);
}

/**
 * @param {number} ms
 * @returns {string} `2026-06-15T18:00:00Z`
 */
export function isoHour(ms) {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00Z');
}

/**
 * The polygons of a GeoJSON Polygon or MultiPolygon.
 * @param {any} geometry
 * @returns {number[][][][]}
 */
export const polygonsOf = (geometry) =>
  geometry?.type === 'Polygon' ? [geometry.coordinates] : geometry?.type === 'MultiPolygon' ? geometry.coordinates : [];

/**
 * Whether [lon, lat] lies in a polygon (outer ring minus holes), by ray casting.
 * @param {number[][][]} rings
 * @param {number} x
 * @param {number} y
 */
export function inPolygon(rings, x, y) {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/**
 * The plants in each cell (by point in polygon: the cells are clipped to the ISO, so a plant
 * lies in one of them): how many and their capacity. A cell without plants is not in the map.
 * @param {{ id: string, geojson: any }[]} cells
 * @param {{ latitude: number, longitude: number, capacity_mw: number }[]} plants
 * @returns {Map<string, { count: number, capacityMw: number }>}
 */
export function plantsPerCell(cells, plants) {
  const shapes = cells.map((cell) => {
    const polygons = polygonsOf(cell.geojson);
    const points = polygons.flat(2);
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return { id: cell.id, polygons, bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] };
  });
  /** @type {Map<string, { count: number, capacityMw: number }>} */
  const out = new Map();
  for (const plant of plants) {
    const [x, y] = [plant.longitude, plant.latitude];
    const cell = shapes.find(
      (c) => x >= c.bbox[0] && x <= c.bbox[2] && y >= c.bbox[1] && y <= c.bbox[3] && c.polygons.some((p) => inPolygon(p, x, y)),
    );
    if (!cell) continue;
    const sum = out.get(cell.id) ?? { count: 0, capacityMw: 0 };
    sum.count += 1;
    sum.capacityMw += plant.capacity_mw;
    out.set(cell.id, sum);
  }
  return out;
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
