// @ts-check
/**
 * The dashboard page: the key form, the selectors and the four panels. Each panel loads on its
 * own and shows its own errors (401/403/422 …), so one refused call does not blank the page.
 * Panels mark their state in `data-state` (loading | ready | error).
 */
import { ApiError, createApi, fetchOpenApi, parameterEnum } from './api.js';
import { createCellMap } from './cellmap.js';
import {
  clearChart,
  driftOption,
  fanOption,
  formatValue,
  overviewOption,
  renderChart,
  resizeCharts,
  skillLeadOption,
  timeFormat,
  vintagesOption,
} from './charts.js';
import {
  actualAt,
  cellMapData,
  ensembleData,
  forecastChoices,
  forecastVintages,
  latestRunTime,
  listPriceNodes,
  listRegions,
  overviewData,
  skillData,
} from './sources.js';
import { hoursOfLocalDay, isoHour, wallClock } from './stats.js';

const HOUR_MS = 3_600_000;
const KEY_ITEM = 'gridcast.apiKey';

/**
 * @template {HTMLElement} T
 * @param {string} selector
 * @returns {T}
 */
function $(selector) {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`dashboard: no element ${selector}`);
  return /** @type {T} */ (el);
}

// The key lives only in this browser: sessionStorage (this tab), or localStorage when the user
// asks to be remembered. It leaves the browser only in the X-API-Key header of /v1 calls.
const keyStore = {
  read: () => sessionStorage.getItem(KEY_ITEM) ?? localStorage.getItem(KEY_ITEM) ?? '',
  /** @param {string} key @param {boolean} remember */
  write(key, remember) {
    sessionStorage.setItem(KEY_ITEM, key);
    if (remember) localStorage.setItem(KEY_ITEM, key);
    else localStorage.removeItem(KEY_ITEM);
  },
  clear() {
    sessionStorage.removeItem(KEY_ITEM);
    localStorage.removeItem(KEY_ITEM);
  },
};

let apiKey = keyStore.read();
const api = createApi(() => apiKey);

const ui = {
  status: /** @type {HTMLElement} */ ($('#status')),
  keyForm: /** @type {HTMLFormElement} */ ($('#key-form')),
  key: /** @type {HTMLInputElement} */ ($('#key')),
  remember: /** @type {HTMLInputElement} */ ($('#remember')),
  forget: /** @type {HTMLButtonElement} */ ($('#forget')),
  iso: /** @type {HTMLSelectElement} */ ($('#iso')),
  region: /** @type {HTMLSelectElement} */ ($('#region')),
  priceType: /** @type {HTMLSelectElement} */ ($('#price-type')),
  priceNode: /** @type {HTMLSelectElement} */ ($('#price-node')),
  priceAxis: /** @type {HTMLSelectElement} */ ($('#price-axis')),
  cards: /** @type {HTMLElement[]} */ ([...document.querySelectorAll('#overview .card')]),
  ensemble: /** @type {HTMLElement} */ ($('#ensemble')),
  ensembleMetric: /** @type {HTMLSelectElement} */ ($('#ensemble-metric')),
  vintages: /** @type {HTMLElement} */ ($('#vintages')),
  vintagesMetric: /** @type {HTMLSelectElement} */ ($('#vintages-metric')),
  vintagesSource: /** @type {HTMLSelectElement} */ ($('#vintages-source')),
  vintagesDay: /** @type {HTMLInputElement} */ ($('#vintages-day')),
  vintagesHour: /** @type {HTMLSelectElement} */ ($('#vintages-hour')),
  vintagesDays: /** @type {HTMLSelectElement} */ ($('#vintages-days')),
  vintagesGo: /** @type {HTMLButtonElement} */ ($('#vintages-go')),
  skill: /** @type {HTMLElement} */ ($('#skill')),
  skillMetric: /** @type {HTMLSelectElement} */ ($('#skill-metric')),
  cells: /** @type {HTMLElement} */ ($('#cells')),
  cellsMetric: /** @type {HTMLSelectElement} */ ($('#cells-metric')),
  cellsResolution: /** @type {HTMLSelectElement} */ ($('#cells-resolution')),
  cellsHour: /** @type {HTMLInputElement} */ ($('#cells-hour')),
  cellsHourLabel: /** @type {HTMLOutputElement} */ ($('#cells-hour-label')),
};

/** The ISO's time zone (from its region list): every time on the page is shown in it. */
let timezone = 'UTC';
/** The service's OpenAPI document (read once, no key needed). */
let openApi = /** @type {any} */ (null);
/** The forecasts each overview card may show for the ISO (models and stored sources), or null before a key. */
let choices = /** @type {Awaited<ReturnType<typeof forecastChoices>> | null} */ (null);
const cellMap = createCellMap($('#map'));
/** @type {Awaited<ReturnType<typeof cellMapData>> | null} */
let cellData = null;

/**
 * @param {HTMLElement} el
 * @param {string} message
 * @param {'' | 'info' | 'error'} kind
 */
function setStatus(el, message, kind) {
  el.textContent = message;
  el.className = el.className.replace(/\b(info|error)\b/g, '').trim();
  if (kind) el.classList.add(kind);
}

/** @param {unknown} e */
function describeError(e) {
  if (e instanceof ApiError) return e.message;
  return `Error: ${e instanceof Error ? e.message : String(e)}`;
}

/** @param {Element} panel */
function markLoading(panel) {
  /** @type {HTMLElement} */ (panel).dataset.state = 'loading';
  setStatus(/** @type {HTMLElement} */ (panel.querySelector('.panel-status')), 'Loading…', 'info');
}

/** Every panel of the page (each has a .panel-status). */
const allPanels = () => [...ui.cards, ui.ensemble, ui.vintages, ui.skill, ui.cells];

/** Load counter per panel: only the latest load of a panel may draw or report. */
const generations = new WeakMap();

/**
 * Loads one panel: shows "Loading…", then the panel's note, or the error the API gave.
 * @param {HTMLElement} panel
 * @param {(isCurrent: () => boolean) => Promise<string>} load returns a note to show
 * @param {() => void} clear empties the panel's chart or map after an error
 */
async function loadPanel(panel, load, clear) {
  const status = /** @type {HTMLElement} */ (panel.querySelector('.panel-status'));
  const generation = (generations.get(panel) ?? 0) + 1;
  generations.set(panel, generation);
  const isCurrent = () => generations.get(panel) === generation;
  markLoading(panel);
  try {
    const note = await load(isCurrent);
    if (!isCurrent()) return;
    setStatus(status, note, note ? 'info' : '');
    panel.dataset.state = 'ready';
  } catch (e) {
    if (!isCurrent()) return;
    clear();
    setStatus(status, describeError(e), 'error');
    panel.dataset.state = 'error';
    if (e instanceof ApiError && e.status === 401) setStatus(ui.status, `The service refused the key (${e.message})`, 'error');
  }
}

/**
 * @param {HTMLSelectElement} select
 * @param {{ value: string, label: string }[]} options
 * @param {string} [preferred] kept when still offered
 */
function fillSelect(select, options, preferred = select.value) {
  select.replaceChildren(...options.map((o) => new Option(o.label, o.value)));
  if (options.some((o) => o.value === preferred)) select.value = preferred;
}

/** @param {string[]} values */
const plainOptions = (values) => values.map((v) => ({ value: v, label: v }));

/** @param {HTMLElement} panel */
const chartOf = (panel) => /** @type {HTMLElement} */ (panel.querySelector('.chart'));

/** @param {HTMLElement} card */
const sourceSelectOf = (card) => /** @type {HTMLSelectElement} */ (card.querySelector('.forecast-source'));

/**
 * Offers on a card the models and the stored sources holding its series in the ISO (the model kept
 * when still offered, else optimized, else the first).
 * @param {HTMLElement} card
 */
function fillForecastChoices(card) {
  if (!choices) return;
  const metric = /** @type {string} */ (card.dataset.metric);
  const offered = metric === 'price' ? choices.of('lmp', ui.priceType.value) : choices.of('region', metric);
  const select = sourceSelectOf(card);
  const keep = offered.some((o) => o.value === select.value) ? select.value : 'optimized';
  fillSelect(select, offered, keep);
}

/** Offers on the vintages panel the models and stored sources holding its metric (the one kept when still offered, else optimized). */
function fillVintageChoices() {
  if (!choices) return;
  const offered = choices.of('region', ui.vintagesMetric.value);
  const keep = offered.some((o) => o.value === ui.vintagesSource.value) ? ui.vintagesSource.value : 'optimized';
  fillSelect(ui.vintagesSource, offered, keep);
}

/** @param {HTMLElement} card */
function loadOverviewCard(card) {
  const metric = /** @type {string} */ (card.dataset.metric);
  return loadPanel(
    card,
    async (isCurrent) => {
      const model = sourceSelectOf(card).value;
      const series = metric === 'price' ? `${ui.priceType.value} prices` : metric;
      if (!model) {
        clearChart(chartOf(card));
        return `No forecasts of ${series} for ${ui.iso.value.toUpperCase()}: the synthetic world is off and no stored source holds them.`;
      }
      const target =
        metric === 'price'
          ? /** @type {const} */ ({ kind: 'price', type: ui.priceType.value, id: ui.priceNode.value, model })
          : /** @type {const} */ ({ kind: 'region', metric, id: ui.region.value, model });
      const data = await overviewData(api, ui.iso.value, target, /** @type {NonNullable<typeof choices>} */ (choices).worldServed);
      if (!isCurrent()) return '';
      // Prices spike far above their usual range: the axis is clipped unless asked otherwise.
      const axis = metric === 'price' && ui.priceAxis.value === 'clipped' ? 'clipped' : 'full';
      renderChart(chartOf(card), overviewOption(data, axis));
      return [`${target.id}, ${model}'s run of ${timeFormat(data.timezone).full(Date.parse(data.createdAt))}.`, data.note]
        .filter(Boolean)
        .join(' ');
    },
    () => clearChart(chartOf(card)),
  );
}

function loadEnsemble() {
  return loadPanel(
    ui.ensemble,
    async (isCurrent) => {
      const data = await ensembleData(api, ui.iso.value, ui.ensembleMetric.value, ui.region.value);
      if (!isCurrent()) return '';
      renderChart(chartOf(ui.ensemble), fanOption(data));
      return `${ui.region.value}: ${data.members} members, run of ${timeFormat(data.timezone).full(Date.parse(/** @type {string} */ (data.createdAt)))}.`;
    },
    () => clearChart(chartOf(ui.ensemble)),
  );
}

/**
 * Fills the hour menu with the hours of the chosen local day (23 or 25 when the clocks change),
 * labelled in the ISO's local time; the values are the UTC hours the API takes.
 * @param {number} [preferredMs] the hour to select
 */
function fillVintageHours(preferredMs) {
  const hours = ui.vintagesDay.value ? hoursOfLocalDay(ui.vintagesDay.value, timezone) : [];
  const fmt = timeFormat(timezone);
  const previous = ui.vintagesHour.selectedIndex;
  fillSelect(
    ui.vintagesHour,
    hours.map((ms) => ({ value: isoHour(ms), label: fmt.clock(ms) })),
    preferredMs === undefined ? undefined : isoHour(preferredMs),
  );
  // Another day: keep the position in the day (13:00 stays 13:00) unless an hour was asked for.
  if (preferredMs === undefined && previous >= 0 && previous < hours.length) ui.vintagesHour.selectedIndex = previous;
}

/** The chosen hour (epoch ms), or null before a day is chosen. */
function chosenHour() {
  const ms = Date.parse(ui.vintagesHour.value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Shows one hour in the day and hour controls.
 * @param {number} ms
 */
function showVintageHour(ms) {
  ui.vintagesDay.value = wallClock(ms, timezone).date;
  fillVintageHours(ms);
}

function loadVintages() {
  return loadPanel(
    ui.vintages,
    async (isCurrent) => {
      const iso = ui.iso.value;
      const metric = ui.vintagesMetric.value;
      const id = ui.region.value;
      const model = ui.vintagesSource.value;
      if (!model) {
        clearChart(chartOf(ui.vintages));
        return `No forecasts of ${metric} for ${iso.toUpperCase()}: the synthetic world is off and no stored source holds them.`;
      }
      // By default: the same hour tomorrow, seen by the runs of the days before.
      if (chosenHour() === null) showVintageHour((await latestRunTime(api, iso, metric, id, model)) + 24 * HOUR_MS);
      const hourMs = /** @type {number} */ (chosenHour());
      const days = Number(ui.vintagesDays.value);
      const [runs, actual] = await Promise.all([
        forecastVintages(api, { iso, metric, id, model, hourMs, days }),
        // null (a 422 from the API) until the hour's actual is published. Without the synthetic
        // world, the stored source's own actuals (as on the cards).
        actualAt(api, iso, metric, id, hourMs, choices?.worldServed === false ? model : undefined),
      ]);
      if (!isCurrent()) return '';
      const units = metric === 'poptemp' ? '°C' : 'MW';
      renderChart(chartOf(ui.vintages), vintagesOption({ units, timezone, hourMs, runs, actual }));
      return `${id}, ${model}: ${runs.length} runs. ${actual === null ? 'No actual published for this hour yet.' : `Actual: ${formatValue(actual, units)}.`}`;
    },
    () => clearChart(chartOf(ui.vintages)),
  );
}

function loadSkill() {
  const lead = /** @type {HTMLElement} */ ($('#skill-lead .chart'));
  const drift = /** @type {HTMLElement} */ ($('#skill-drift .chart'));
  return loadPanel(
    ui.skill,
    async (isCurrent) => {
      const id = ui.region.value;
      const data = await skillData(api, ui.iso.value, ui.skillMetric.value, id, timezone);
      if (!isCurrent()) return '';
      renderChart(lead, skillLeadOption(data));
      const days = data.drift.map((/** @type {any} */ r) => ({ ms: hoursOfLocalDay(r.date, timezone)[0], value: r[data.measure.field] }));
      renderChart(drift, driftOption({ timezone, measure: data.measure, days }));
      const hours = Math.max(0, ...data.byLead.map((/** @type {any} */ r) => r.n));
      const against = data.truth ? ` against ${data.truth}'s actuals` : '';
      return `${id}: ${data.measure.label} by lead day over ${hours} hours${against}; drift over ${days.length} days.`;
    },
    () => {
      clearChart(lead);
      clearChart(drift);
    },
  );
}

/**
 * Colours the map for the hour on the slider (no request: the whole run is loaded). The scale
 * runs to the largest cell of that hour, so each hour uses every colour (solar at night would
 * otherwise be one colour, and a calm hour's wind too); the legend shows that hour's maximum.
 */
function colourCells() {
  if (!cellData) return;
  const data = cellData;
  const h = Number(ui.cellsHour.value);
  let max = 0;
  for (const values of data.byCell.values()) if ((values[h] ?? 0) > max) max = /** @type {number} */ (values[h]);
  const metric = ui.cellsMetric.value;
  const plants = data.plants;
  const mw = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  cellMap.colour((id) => (plants && !plants.has(id) ? undefined : data.byCell.get(id)?.[h]), {
    max,
    units: data.units,
    label: `${metric}, ${data.units} (square-root scale, this hour)`,
    absent: `no ${metric} plants in this cell`,
    noteOf: (id) => {
      const inCell = plants?.get(id);
      return inCell ? ` (${inCell.count} plant${inCell.count === 1 ? '' : 's'}, ${mw.format(inCell.capacityMw)} MW)` : '';
    },
  });
  ui.cellsHourLabel.value = data.times[h] === undefined ? '' : timeFormat(data.timezone).full(data.times[h]);
}

function loadCells() {
  return loadPanel(
    ui.cells,
    async (isCurrent) => {
      const data = await cellMapData(api, ui.iso.value, ui.cellsMetric.value, Number(ui.cellsResolution.value));
      if (!isCurrent()) return '';
      cellData = data;
      await cellMap.setCells(data.cells);
      if (!isCurrent()) return '';
      ui.cellsHour.max = String(Math.max(0, data.times.length - 1));
      if (Number(ui.cellsHour.value) > data.times.length - 1) ui.cellsHour.value = '0';
      colourCells();
      return `${data.cells.length} cells at resolution ${ui.cellsResolution.value}, run of ${timeFormat(data.timezone).full(Date.parse(/** @type {string} */ (data.createdAt)))}.`;
    },
    () => {
      cellData = null;
      cellMap.clear();
    },
  );
}

function loadRegionPanels() {
  return Promise.all([...ui.cards.map(loadOverviewCard), loadEnsemble(), loadVintages(), loadSkill()]);
}

async function loadPriceNodes() {
  const nodes = await listPriceNodes(api, ui.iso.value, ui.priceType.value);
  fillSelect(
    ui.priceNode,
    nodes.map((n) => ({ value: n.id, label: n.name })),
  );
}

/** Everything for the chosen ISO: its regions and price nodes, then every panel. */
async function loadIso() {
  if (!apiKey) return;
  setStatus(ui.status, `Loading ${ui.iso.value.toUpperCase()}…`, 'info');
  // Every panel is about to show this ISO: none may pass for loaded meanwhile.
  allPanels().forEach(markLoading);
  try {
    const regions = await listRegions(api, ui.iso.value);
    timezone = regions[0]?.timezone ?? 'UTC';
    fillSelect(
      ui.region,
      regions.map((r) => ({ value: r.id, label: r.name })),
      `${ui.iso.value}_total`,
    );
    await loadPriceNodes();
    choices = await forecastChoices(api, openApi, ui.iso.value);
    ui.cards.forEach(fillForecastChoices);
    fillVintageChoices();
  } catch (e) {
    clearAll();
    setStatus(ui.status, describeError(e), 'error');
    return;
  }
  setStatus(ui.status, `${ui.iso.value.toUpperCase()}: times in ${timezone}.`, '');
  $('#vintages-hour-label').textContent = `Hour (${timezone})`;
  await Promise.all([loadRegionPanels(), loadCells()]);
}

function clearAll() {
  for (const el of document.querySelectorAll('.chart')) clearChart(/** @type {HTMLElement} */ (el));
  cellData = null;
  cellMap.clear();
  for (const panel of allPanels()) {
    delete panel.dataset.state;
    setStatus(/** @type {HTMLElement} */ (panel.querySelector('.panel-status')), '', '');
  }
}

async function start() {
  // The choices come from the service's own OpenAPI document (no key needed).
  const doc = await fetchOpenApi();
  openApi = doc;
  fillSelect(
    ui.iso,
    parameterEnum(doc, '/region/{iso}/{metric}/list', 'iso').map((v) => ({ value: v, label: v.toUpperCase() })),
    'ercot',
  );
  // The hourly region metrics are exactly those with ensembles (outage is daily).
  const hourly = parameterEnum(doc, '/region/{iso}/{metric}/ensemble', 'metric');
  fillSelect(ui.ensembleMetric, plainOptions(hourly), 'demand');
  fillSelect(ui.vintagesMetric, plainOptions(hourly), 'demand');
  fillSelect(ui.skillMetric, plainOptions(parameterEnum(doc, '/region/{iso}/{metric}/skill', 'metric')), 'demand');
  fillSelect(ui.cellsMetric, plainOptions(parameterEnum(doc, '/cells/{iso}/{metric}/forecast', 'metric')), 'wind');

  ui.keyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    apiKey = ui.key.value.trim();
    keyStore.write(apiKey, ui.remember.checked);
    void loadIso();
  });
  ui.forget.addEventListener('click', () => {
    keyStore.clear();
    apiKey = '';
    ui.key.value = '';
    clearAll();
    setStatus(ui.status, 'Key forgotten: it is no longer stored in this browser.', 'info');
  });
  ui.iso.addEventListener('change', () => {
    ui.vintagesDay.value = '';
    fillVintageHours();
    void loadIso();
  });
  ui.region.addEventListener('change', () => void loadRegionPanels());
  ui.priceType.addEventListener('change', async () => {
    const card = /** @type {HTMLElement} */ (ui.cards.find((c) => c.dataset.metric === 'price'));
    await loadPanel(
      card,
      async () => {
        await loadPriceNodes();
        fillForecastChoices(card);
        return '';
      },
      () => {},
    );
    if (card.dataset.state === 'ready') void loadOverviewCard(card);
  });
  for (const card of ui.cards) sourceSelectOf(card).addEventListener('change', () => void loadOverviewCard(card));
  for (const select of [ui.priceNode, ui.priceAxis]) {
    select.addEventListener(
      'change',
      () => void loadOverviewCard(/** @type {HTMLElement} */ (ui.cards.find((c) => c.dataset.metric === 'price'))),
    );
  }
  ui.ensembleMetric.addEventListener('change', () => void loadEnsemble());
  ui.vintagesMetric.addEventListener('change', () => {
    fillVintageChoices();
    void loadVintages();
  });
  // Another source's runs may lie elsewhere in time: back to the hour after its latest run.
  ui.vintagesSource.addEventListener('change', () => {
    ui.vintagesDay.value = '';
    fillVintageHours();
    void loadVintages();
  });
  ui.skillMetric.addEventListener('change', () => void loadSkill());
  ui.vintagesDay.addEventListener('change', () => fillVintageHours());
  ui.vintagesGo.addEventListener('click', () => void loadVintages());
  ui.cellsMetric.addEventListener('change', () => void loadCells());
  ui.cellsResolution.addEventListener('change', () => void loadCells());
  ui.cellsHour.addEventListener('input', colourCells);
  window.addEventListener('resize', () => {
    resizeCharts();
    cellMap.resize();
  });

  if (apiKey) {
    ui.key.value = apiKey;
    ui.remember.checked = localStorage.getItem(KEY_ITEM) !== null;
    await loadIso();
  }
}

start().catch((e) => setStatus(ui.status, describeError(e), 'error'));
