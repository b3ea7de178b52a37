// @ts-check
/**
 * The charts, drawn by Apache ECharts (the global `echarts`, loaded by the page): one option
 * builder per chart kind, all on a time axis labelled in the ISO's local time.
 */

/** @typedef {import('./stats.js').Point} Point */
/** @typedef {import('./stats.js').Bands} Bands */

import { clippedRange, localMidnights } from './stats.js';

const COLORS = { actual: '#1d1d1f', dayAhead: '#d9730d', latest: '#2563c9', fan: '#2563c9', vintage: '#7a3fc9' };
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** @param {number | null | undefined} v @param {string} units */
export function formatValue(v, units) {
  return v === null || v === undefined || Number.isNaN(v) ? '–' : `${number.format(v)} ${units}`;
}

/**
 * Formatters of instants in a time zone (ECharts knows only the browser's zone and UTC).
 * @param {string} timezone
 */
export function timeFormat(timezone) {
  const day = new Intl.DateTimeFormat('en-US', { timeZone: timezone, month: 'short', day: 'numeric' });
  const time = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short' });
  return {
    /** An axis label at local midnight: the local day. */
    tick: (/** @type {number} */ ms) => `${weekday.format(ms)}\n${day.format(ms)}`,
    /** A local time of day with its zone, e.g. `13:00 CDT`. */
    clock: (/** @type {number} */ ms) => `${time.format(ms)} ${shortZone(timezone, ms)}`,
    full: (/** @type {number} */ ms) => `${day.format(ms)}, ${time.format(ms)} ${shortZone(timezone, ms)}`,
  };
}

/** @param {string} timezone @param {number} ms */
function shortZone(timezone, ms) {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'short' })
    .formatToParts(ms)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timezone;
}

/** @param {string} s */
function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Tooltip of a time axis: the instant, then the
 * value of each series at that instant.
 * @param {(ms: number) => string} formatTime
 * @param {string} units
 */
function axisTooltip(formatTime, units) {
  return {
    trigger: 'axis',
    formatter: (/** @type {any[]} */ params) => {
      if (params.length === 0) return '';
      const lines = params
        .filter((p) => !p.seriesName.startsWith('_'))
        .map((p) => `${p.marker}${escapeHtml(p.seriesName)}: <b>${formatValue(p.value?.[1], units)}</b>`);
      return [escapeHtml(formatTime(params[0].axisValue)), ...lines].join('<br>');
    },
  };
}

/**
 * A time axis in the ISO's zone: ticks, labels and grid lines at local midnight (ECharts would put
 * them at midnight UTC or of the browser's zone), over the instants the chart shows.
 * @param {string} timezone
 * @param {string} units
 * @param {number[]} instants every x value of the chart (epoch ms)
 */
function timeAxes(timezone, units, instants) {
  const fmt = timeFormat(timezone);
  const ticks = instants.length > 0 ? localMidnights(Math.min(...instants), Math.max(...instants), timezone) : [];
  return {
    fmt,
    axes: {
      animation: false,
      grid: { left: 8, right: 24, top: 28, bottom: 30, containLabel: true },
      legend: { bottom: 0, type: 'scroll' },
      xAxis: {
        type: 'time',
        axisTick: { customValues: ticks },
        axisLabel: { customValues: ticks, formatter: (/** @type {number} */ ms) => fmt.tick(ms), hideOverlap: true, lineHeight: 14 },
        splitLine: { show: true, lineStyle: { color: '#eee' } },
      },
      yAxis: { type: 'value', name: units, scale: true, nameTextStyle: { align: 'left' } },
    },
  };
}

/** @param {Point[][]} series @returns {number[]} */
const instantsOf = (...series) => series.flatMap((points) => points.map(([ms]) => ms));

/**
 * @param {string} name
 * @param {Point[]} data
 * @param {string} color
 * @param {object} [extra]
 */
function line(name, data, color, extra = {}) {
  return {
    name,
    type: 'line',
    data,
    showSymbol: false,
    connectNulls: false,
    lineStyle: { width: 1.6, color },
    itemStyle: { color },
    ...extra,
  };
}

/**
 * Latest forecast vs actuals: actuals, the day-ahead continuous forecast and the latest run.
 * `axis` 'clipped' (prices): the value axis spans the 1st–99th percentile of what is shown, and
 * the few spikes beyond it run off the chart (the tooltip still gives their value); 'full' shows
 * everything.
 * @param {{ units: string, timezone: string, createdAt: string, actual: Point[] | null, dayAhead: Point[], latest: Point[] }} d
 * @param {'full' | 'clipped'} [axis]
 */
export function overviewOption(d, axis = 'full') {
  const { fmt, axes } = timeAxes(d.timezone, d.units, instantsOf(d.actual ?? [], d.dayAhead, d.latest));
  const range = axis === 'clipped' ? clippedRange(d.actual ?? [], d.dayAhead, d.latest) : null;
  const yAxis = range ? { ...axes.yAxis, ...range, name: `${d.units} (clipped: 1st–99th percentile)` } : axes.yAxis;
  const series = [];
  if (d.actual) series.push(line('Actual', d.actual, COLORS.actual, { lineStyle: { width: 2, color: COLORS.actual } }));
  series.push(
    line('Day-ahead forecast', d.dayAhead, COLORS.dayAhead, { lineStyle: { width: 1.6, color: COLORS.dayAhead, type: 'dashed' } }),
  );
  series.push(
    line('Latest run', d.latest, COLORS.latest, {
      markLine: {
        silent: true,
        symbol: 'none',
        label: { formatter: 'run', position: 'insideEndTop' },
        lineStyle: { color: '#888', type: 'dotted' },
        data: [{ xAxis: Date.parse(d.createdAt) }],
      },
    }),
  );
  return { ...axes, yAxis, tooltip: axisTooltip(fmt.full, d.units), series };
}

/**
 * The ensemble fan: min–max and P10–P90 as stacked areas (a transparent base series plus the
 * band's width), and the median.
 * @param {{ units: string, timezone: string, times: number[], bands: Bands }} d
 */
export function fanOption(d) {
  const { fmt, axes } = timeAxes(d.timezone, d.units, d.times);
  const { min, p10, median, p90, max } = d.bands;
  /** @param {(number | null)[]} ys @returns {Point[]} */
  const at = (ys) => d.times.map((t, i) => [t, ys[i]]);
  /** @param {(number | null)[]} hi @param {(number | null)[]} lo @returns {Point[]} */
  const width = (hi, lo) =>
    d.times.map((t, i) => [t, hi[i] === null || lo[i] === null ? null : /** @type {number} */ (hi[i]) - /** @type {number} */ (lo[i])]);
  const base = { type: 'line', showSymbol: false, lineStyle: { opacity: 0 }, silent: true };
  return {
    ...axes,
    legend: { ...axes.legend, data: [{ name: 'Members min–max', icon: 'rect' }, { name: 'P10–P90', icon: 'rect' }, 'Median'] },
    // The band series hold widths, not values: the tooltip reads the bands themselves.
    tooltip: {
      trigger: 'axis',
      formatter: (/** @type {any[]} */ params) => {
        if (params.length === 0) return '';
        const i = params[0].dataIndex;
        return [
          escapeHtml(fmt.full(params[0].axisValue)),
          `max ${formatValue(max[i], d.units)}`,
          `P90 ${formatValue(p90[i], d.units)}`,
          `<b>median ${formatValue(median[i], d.units)}</b>`,
          `P10 ${formatValue(p10[i], d.units)}`,
          `min ${formatValue(min[i], d.units)}`,
        ].join('<br>');
      },
    },
    series: [
      { ...base, name: '_min', stack: 'range', data: at(min) },
      {
        ...base,
        name: 'Members min–max',
        stack: 'range',
        data: width(max, min),
        areaStyle: { color: COLORS.fan, opacity: 0.15 },
        itemStyle: { color: COLORS.fan, opacity: 0.3 },
      },
      { ...base, name: '_p10', stack: 'band', data: at(p10) },
      {
        ...base,
        name: 'P10–P90',
        stack: 'band',
        data: width(p90, p10),
        areaStyle: { color: COLORS.fan, opacity: 0.35 },
        itemStyle: { color: COLORS.fan, opacity: 0.6 },
      },
      line('Median', at(median), COLORS.fan, { lineStyle: { width: 2, color: COLORS.fan } }),
    ],
  };
}

/**
 * One valid hour across runs: each run's forecast for it, and the actual once published. The x
 * axis is the time each run was made, in the ISO's local time like the hour itself.
 * @param {{ units: string, timezone: string, hourMs: number, runs: { createdAt: number, value: number | null }[], actual: number | null }} d
 */
export function vintagesOption(d) {
  /** @type {Point[]} */
  const data = d.runs.map((r) => [r.createdAt, r.value]);
  const { fmt, axes } = timeAxes(d.timezone, d.units, [...instantsOf(data), d.hourMs]);
  const name = `Forecast for ${fmt.full(d.hourMs)}`;
  const markLine =
    d.actual === null
      ? undefined
      : {
          silent: true,
          symbol: 'none',
          lineStyle: { color: COLORS.actual, type: 'dashed' },
          label: { formatter: `actual ${formatValue(d.actual, d.units)}`, position: 'insideStartTop' },
          data: [{ yAxis: d.actual }],
        };
  return {
    ...axes,
    grid: { ...axes.grid, bottom: 56 },
    xAxis: {
      ...axes.xAxis,
      name: `Run made at (${d.timezone}, local time)`,
      nameLocation: 'middle',
      nameGap: 38,
      // The hour itself ends the axis: the runs lead up to it.
      max: d.hourMs,
    },
    tooltip: axisTooltip((ms) => `run of ${fmt.full(ms)}`, d.units),
    series: [line(name, data, COLORS.vintage, { showSymbol: true, symbolSize: 4, markLine })],
  };
}

/** Line colours of the models and sources in the Skill panel, in order. */
const MODEL_COLORS = ['#2563c9', '#d9730d', '#6b7280', '#7a3fc9', '#15803d', '#b91c1c'];

/**
 * Skill by lead day: one line per model or source, the score at each days_ahead.
 * @param {{ measure: { field: string, label: string }, byLead: any[] }} d
 */
export function skillLeadOption(d) {
  const models = [...new Set(d.byLead.map((r) => r.model))];
  const leads = [...new Set(d.byLead.map((r) => r.days_ahead))].sort((a, b) => a - b);
  return {
    animation: false,
    grid: { left: 8, right: 24, top: 28, bottom: 56, containLabel: true },
    legend: { bottom: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (/** @type {number} */ v) => (v === null ? '–' : number.format(v)) },
    xAxis: { type: 'category', name: 'days ahead', nameLocation: 'middle', nameGap: 26, data: leads.map(String) },
    yAxis: { type: 'value', name: d.measure.label, nameTextStyle: { align: 'left' } },
    series: models.map((model, i) => {
      const color = MODEL_COLORS[i % MODEL_COLORS.length];
      const at = new Map(d.byLead.filter((r) => r.model === model).map((r) => [r.days_ahead, r[d.measure.field]]));
      return line(
        model,
        leads.map((l) => at.get(l) ?? null),
        color,
        { showSymbol: true, symbolSize: 5 },
      );
    }),
  };
}

/**
 * Drift: the rolling 30-day score of the day-ahead forecast, one point per local day (at its
 * local midnight, the x axis in the ISO's zone).
 * @param {{ timezone: string, measure: { field: string, label: string }, days: { ms: number, value: number | null }[] }} d
 */
export function driftOption(d) {
  /** @type {Point[]} */
  const data = d.days.map((p) => [p.ms, p.value]);
  const { fmt, axes } = timeAxes(d.timezone, d.measure.label, instantsOf(data));
  return {
    ...axes,
    tooltip: axisTooltip((ms) => `30 days to ${fmt.tick(ms).replace('\n', ' ')}`, ''),
    series: [line('optimized, day ahead (rolling 30 days)', data, COLORS.dayAhead)],
  };
}

/**
 * Draws an option into an element (one ECharts instance per element, reused).
 * @param {HTMLElement} el
 * @param {Record<string, any>} option
 */
export function renderChart(el, option) {
  const chart = echarts.getInstanceByDom(el) ?? echarts.init(el);
  chart.setOption(option, { notMerge: true });
  return chart;
}

/** @param {HTMLElement} el */
export function clearChart(el) {
  echarts.getInstanceByDom(el)?.clear();
}

/** Fits every chart under `root` to its element again (after a resize of the window). */
export function resizeCharts(root = document) {
  for (const el of root.querySelectorAll('.chart')) echarts.getInstanceByDom(/** @type {HTMLElement} */ (el))?.resize();
}
