// @ts-check
/**
 * Where each panel's data comes from: API calls shaped into what the charts draw. Each source is
 * one function, so a panel can move to a better endpoint by changing only its source.
 */
import { ApiError, parameterChoices } from './api.js';
import { columnPoints, isoHour, memberBands, plantsPerCell, wallClock } from './stats.js';

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./api.js').Timeseries} Timeseries */
/** @typedef {import('./stats.js').Point} Point */
/** @typedef {{ kind: 'region', metric: string, id: string, model: string } | { kind: 'price', type: string, id: string, model: string }} OverviewTarget */
/** @typedef {{ value: string, label: string, stored: boolean }} ForecastChoice */

const HOUR_MS = 3_600_000;
/** How much of the latest run the overview shows. */
const LATEST_HOURS = 7 * 24;

/**
 * @param {Api} api
 * @param {string} iso
 * @returns {Promise<{ id: string, name: string, timezone: string }[]>}
 */
export function listRegions(api, iso) {
  return api.get(`/region/${iso}/demand/list`);
}

/**
 * The ISO's trading hubs (its zones where it has no hubs, as NYISO), for the price chart.
 * @param {Api} api
 * @param {string} iso
 * @param {string} type dalmp | rtlmp
 * @returns {Promise<{ id: string, name: string, node_type: string }[]>}
 */
export async function listPriceNodes(api, iso, type) {
  /** @type {{ id: string, name: string, node_type: string }[]} */
  const nodes = await api.get(`/lmp/${iso}/${type}/list`);
  const hubs = nodes.filter((n) => n.node_type === 'hub');
  return hubs.length > 0 ? hubs : nodes.filter((n) => n.node_type === 'zone');
}

/**
 * The forecasts the overview may show for an ISO, per series: the synthetic models its routes take
 * (from the OpenAPI document; none when the service runs without the synthetic world) and every
 * stored source holding the series there (from /status, which lists each source's series per ISO).
 * @param {Api} api
 * @param {any} doc the OpenAPI document
 * @param {string} iso
 */
export async function forecastChoices(api, doc, iso) {
  /** @type {{ iso: string | null, model: string, source?: string, series?: { group: string, metric: string }[] }[]} */
  const status = await api.get('/status');
  const stored = status.filter((s) => s.source === 'stored');
  const storedNames = new Set(stored.map((s) => s.model));
  // With GRIDCAST_WORLD=off /status lists the stored sources only.
  const worldServed = status.some((s) => s.source !== 'stored');
  return {
    worldServed,
    /**
     * @param {'region' | 'lmp'} group
     * @param {string} metric the region metric, or the LMP market type
     * @returns {ForecastChoice[]}
     */
    of(group, metric) {
      const path = group === 'region' ? '/region/{iso}/{metric}/continuous' : '/lmp/{iso}/{type}/continuous';
      const models = worldServed ? parameterChoices(doc, path, 'model').filter((m) => !storedNames.has(m)) : [];
      const holding = stored.filter((s) => s.iso === iso && (s.series ?? []).some((k) => k.group === group && k.metric === metric));
      return [
        ...models.map((m) => ({ value: m, label: m, stored: false })),
        ...holding.map((s) => ({ value: s.model, label: `${s.model} (stored)`, stored: true })),
      ];
    },
  };
}

/**
 * Actuals for the overview between two instants: observed values of a region, or realised
 * prices of a node (cleared day-ahead prices for dalmp — tomorrow's once published — and
 * real-time prices for rtlmp), each up to the last the API has published.
 * @param {Api} api
 * @param {string} iso
 * @param {OverviewTarget} target
 * @param {string} start
 * @param {string} end
 * @param {string} [source] a stored source whose actuals are shown instead of the ISO's
 * @returns {Promise<Point[]>}
 */
async function overviewActuals(api, iso, target, start, end, source) {
  const path = target.kind === 'region' ? `/region/${iso}/${target.metric}/actual` : `/lmp/${iso}/${target.type}/actual`;
  return columnPoints(await api.get(path, { id: target.id, start, end, source }));
}

/**
 * The overview of one metric: the latest run (next 7 days), the day-ahead continuous forecast
 * (the default window: the week ending with the last day that has a run) of the target's model or
 * stored source, and the actuals: the ISO's, or without the synthetic world the stored source's
 * own (none when it holds none).
 * @param {Api} api
 * @param {string} iso
 * @param {OverviewTarget} target
 * @param {boolean} worldServed
 */
export async function overviewData(api, iso, target, worldServed) {
  const base = target.kind === 'region' ? `/region/${iso}/${target.metric}` : `/lmp/${iso}/${target.type}`;
  /** @type {[Timeseries, Timeseries]} */
  const [latest, dayAhead] = await Promise.all([
    api.get(`${base}/forecast`, { id: target.id, model: target.model }),
    api.get(`${base}/continuous`, { id: target.id, model: target.model }),
  ]);
  const createdAt = /** @type {string} */ (latest.created_at);
  const latestPoints = columnPoints(latest).slice(0, LATEST_HOURS);
  // Up to the run for regions; prices reach further when the day-ahead market has cleared tomorrow.
  const end = target.kind === 'price' ? isoHour(latestPoints[latestPoints.length - 1]?.[0] ?? Date.parse(createdAt)) : createdAt;
  const start = dayAhead.time_utc[0] ?? createdAt;
  /** @type {Point[]} */
  let actual = [];
  let actualNote = '';
  if (worldServed) actual = await overviewActuals(api, iso, target, start, end);
  else {
    try {
      actual = await overviewActuals(api, iso, target, start, end, target.model);
      actualNote = `Actuals: ${target.model}'s.`;
    } catch (e) {
      // A 422: the source holds no actuals of the target in the window.
      if (!(e instanceof ApiError && e.status === 422)) throw e;
      actualNote = `No actuals: ${e.message}`;
    }
  }
  return {
    units: latest.units,
    timezone: latest.timezone,
    createdAt,
    latest: latestPoints,
    dayAhead: columnPoints(dayAhead),
    actual,
    note:
      actualNote ||
      (target.kind === 'price'
        ? `Actuals: ${target.type === 'dalmp' ? 'cleared day-ahead prices' : 'real-time prices'} (/lmp/${iso}/${target.type}/actual).`
        : ''),
  };
}

/**
 * The latest euro_ens run of a region: per hour the spread of its 51 members.
 * @param {Api} api
 * @param {string} iso
 * @param {string} metric
 * @param {string} id
 */
export async function ensembleData(api, iso, metric, id) {
  /** @type {Timeseries} */
  const ts = await api.get(`/region/${iso}/${metric}/ensemble`, { id });
  return {
    units: ts.units,
    timezone: ts.timezone,
    createdAt: ts.created_at,
    members: ts.values.length,
    times: ts.time_utc.map((t) => Date.parse(t)),
    bands: memberBands(ts.values),
  };
}

/**
 * The time of the latest run of a region's metric by a model or stored source.
 * @param {Api} api
 * @param {string} iso
 * @param {string} metric
 * @param {string} id
 * @param {string} model
 */
export async function latestRunTime(api, iso, metric, id, model) {
  /** @type {Timeseries} */
  const ts = await api.get(`/region/${iso}/${metric}/forecast`, { id, model });
  return Date.parse(/** @type {string} */ (ts.created_at));
}

/**
 * What successive runs forecast for one valid hour, from one `/vintages` request (its rows are
 * the runs, oldest first; its one column is the hour): the runs made in the `days` before it.
 * @param {Api} api
 * @param {{ iso: string, metric: string, id: string, model: string, hourMs: number, days: number }} q
 * @returns {Promise<{ createdAt: number, value: number | null }[]>}
 */
export async function forecastVintages(api, { iso, metric, id, model, hourMs, days }) {
  /** @type {Timeseries} */
  const ts = await api.get(`/region/${iso}/${metric}/vintages`, { id, model, valid_time: isoHour(hourMs) });
  const since = hourMs - days * 24 * HOUR_MS;
  return ts.time_utc
    .map((t, i) => ({ createdAt: Date.parse(t), value: ts.values[0]?.[i] ?? null }))
    .filter((run) => run.createdAt >= since);
}

/**
 * The actual of a region's metric at one hour, or null while it is not published (or, from a
 * stored source, not held).
 * @param {Api} api
 * @param {string} iso
 * @param {string} metric
 * @param {string} id
 * @param {number} hourMs
 * @param {string} [source] a stored source's actuals (without: the ISO's)
 * @returns {Promise<number | null>}
 */
export async function actualAt(api, iso, metric, id, hourMs, source) {
  try {
    /** @type {Timeseries} */
    const ts = await api.get(`/region/${iso}/${metric}/actual`, { id, source, start: isoHour(hourMs), end: isoHour(hourMs) });
    return ts.values[0]?.[0] ?? null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 422) return null; // not published yet
    throw e;
  }
}

/**
 * The ISO's H3 cells at a resolution (with their GeoJSON), the latest forecast for each, and for
 * wind and solar the plants in each cell (the forecast has a series for every cell, 0 MW where
 * there is no plant: the plant list tells the two apart).
 * @param {Api} api
 * @param {string} iso
 * @param {string} metric
 * @param {number} resolution
 */
export async function cellMapData(api, iso, metric, resolution) {
  /** @type {[import('./cellmap.js').CellRecord[], Timeseries, { latitude: number, longitude: number, capacity_mw: number }[] | null]} */
  const [cells, ts, plants] = await Promise.all([
    api.get(`/cells/${iso}/${metric}/list`, { resolution }),
    api.get(`/cells/${iso}/${metric}/forecast`, { resolution }),
    metric === 'wind' || metric === 'solar' ? api.get(`/plant/${iso}/${metric}/list`) : Promise.resolve(null),
  ]);
  /** @type {Map<string, (number | null)[]>} */
  const byCell = new Map(ts.columns.map((c, i) => [c[0], ts.values[i]]));
  return {
    cells,
    byCell,
    plants: plants && plantsPerCell(cells, plants),
    times: ts.time_utc.map((t) => Date.parse(t)),
    units: ts.units,
    timezone: ts.timezone,
    createdAt: ts.created_at,
  };
}

/**
 * The score a skill record is read by for a metric, and its label: MAPE for demand, MAE as % of
 * capacity for wind and solar, MAE in the unit otherwise.
 * @param {string} metric
 * @returns {{ field: 'mape' | 'nmae_pct_capacity' | 'mae', label: string }}
 */
export function skillMeasure(metric) {
  if (metric === 'demand') return { field: 'mape', label: 'MAPE %' };
  if (metric === 'wind' || metric === 'solar') return { field: 'nmae_pct_capacity', label: 'MAE % of capacity' };
  return { field: 'mae', label: metric === 'poptemp' ? 'MAE °C' : 'MAE' };
}

/**
 * The Skill panel's requests: every model by lead day over the last 30 days (the default
 * window), and the day-ahead optimized forecast's rolling 30-day score over the year before the
 * last published actual (from /status: the service's clock, not the browser's), leaving out the
 * days whose window holds less than 90 % of the hours of the fullest (before forecasts began).
 * @param {Api} api
 * @param {string} iso
 * @param {string} metric
 * @param {string} id
 * @param {string} timezone the ISO's zone (the drift window starts on a local day)
 */
export async function skillData(api, iso, metric, id, timezone) {
  const path = `/region/${iso}/${metric}/skill`;
  /** @type {{ iso: string, model: string, last_actual_hour: string | null, source?: string, series?: { group: string, metric: string }[] }[]} */
  const status = await api.get('/status');
  if (!status.some((s) => s.source !== 'stored')) {
    // Without the synthetic world the truth is a stored source's: the first holding this series with actuals
    // published. Without one, /skill's own 422 names the sources that exist. No drift: it follows a synthetic model.
    const truth = status.find(
      (s) => s.iso === iso && s.last_actual_hour && (s.series ?? []).some((k) => k.group === 'region' && k.metric === metric),
    )?.model;
    return { measure: skillMeasure(metric), byLead: await api.get(path, { id, actual_source: truth }), drift: [], truth };
  }
  const last = status.find((s) => s.iso === iso && s.model === 'optimized')?.last_actual_hour;
  if (!last) throw new Error(`/status has no published actual for ${iso}`);
  const yearAgo = wallClock(Date.parse(last) - 364 * 24 * HOUR_MS, timezone).date;
  const [byLead, drift] = await Promise.all([
    api.get(path, { id }),
    api.get(path, { id, model: 'optimized', days_ahead: 1, window: '30d', start: yearAgo }),
  ]);
  // A rolling window that reaches back before the forecasts begin (or over a gap) scores fewer days:
  // only windows with at least 90 % of the fullest one's hours are drawn.
  const fullest = Math.max(0, ...drift.map((/** @type {any} */ r) => r.n));
  return {
    measure: skillMeasure(metric),
    byLead,
    drift: drift.filter((/** @type {any} */ r) => r.n >= 0.9 * fullest),
    truth: /** @type {string | undefined} */ (undefined),
  };
}
