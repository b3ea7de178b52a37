/**
 * The dashboard (/dashboard) as a person uses it: a live server, the page in headless Chromium
 * (Debian's package, driven by playwright-core), a key typed into the form, and every chart and
 * the map checked against what the API itself answers. Screenshots go to test-output/dashboard/.
 *
 * Without Chromium the browser tests are skipped with a notice, except under CI=true, where
 * that is a failure (.ci/run installs it with scripts/ci-chromium.sh).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { latLngToCell } from 'h3-js';
import type { BrowserContext, Page } from 'playwright-core';
import { okJson, ROOT, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

const CHROMIUM = process.env.GRIDCAST_CHROMIUM || '/usr/bin/chromium';
const SCREENSHOTS = path.join(ROOT, 'test-output', 'dashboard');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The page's globals, as the callbacks of page.evaluate see them (this program has no DOM types).
declare const document: any;
declare const window: any;
declare const sessionStorage: any;
declare const localStorage: any;
declare const MouseEvent: any;

const ISO = 'ercot';
const REGION = 'ercot_total';
/** The overview cards, the ensemble, the vintages and the map. */
const PANELS = 8;

const missingChromium = fs.existsSync(CHROMIUM)
  ? null
  : `Chromium not found at ${CHROMIUM}; scripts/ci-chromium.sh installs it (Debian package chromium)`;
if (missingChromium && process.env.CI === 'true') {
  test('Chromium is installed for the dashboard tests (CI=true)', () => assert.fail(missingChromium));
} else if (missingChromium) {
  process.stdout.write(`NOTICE: skipping the dashboard browser tests: ${missingChromium}\n`);
}

describe('dashboard: files and headers (no browser)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  test('the page and its libraries need no key; the page forbids other origins', async () => {
    const page = await t.get('/dashboard');
    assert.equal(page.status, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.text, /<script src="\/dashboard\/assets\/echarts\.min\.js">/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /connect-src 'self'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    for (const [name, type] of [
      ['echarts.min.js', 'text/javascript; charset=utf-8'],
      ['leaflet.js', 'text/javascript; charset=utf-8'],
      ['leaflet.css', 'text/css; charset=utf-8'],
      ['main.js', 'text/javascript; charset=utf-8'],
      ['dashboard.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await t.get(`/dashboard/assets/${name}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers['content-type'], type, name);
      assert.ok(res.raw.length > 100, name);
    }
    const redirect = await t.get('/dashboard/');
    assert.equal(redirect.status, 308);
    assert.equal(redirect.headers.location, '/dashboard');
  });

  test('/ links a browser to the dashboard and the docs; API clients keep the JSON index', async () => {
    const index = {
      service: 'gridcast',
      version: '0.1.0',
      docs: '/docs',
      openapi: '/v1/openapi.json',
      admin_openapi: '/admin/openapi.json',
    };
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0, application/json']) {
      const res = await t.get('/', { headers: accept ? { accept } : {} });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/json', String(accept));
      assert.deepEqual(res.json(), index);
    }
    // What Chromium sends for a page it navigates to.
    const browser = await t.get('/', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' },
    });
    assert.equal(browser.status, 200);
    assert.equal(browser.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(browser.headers.vary, 'Accept');
    const hrefs = [...browser.text.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(hrefs, ['/dashboard', '/docs', '/v1/openapi.json', '/admin/openapi.json']);
    for (const href of hrefs) assert.equal((await t.get(href)).status, 200, href);
  });

  test('/favicon.ico is an icon (a 32×32 ICO we draw), /favicon.svg the same drawing', async () => {
    const ico = await t.get('/favicon.ico');
    assert.equal(ico.status, 200);
    assert.equal(ico.headers['content-type'], 'image/x-icon');
    // ICONDIR: reserved 0, type 1 (icon), one image of 32×32 at 32 bits, its BMP header after the directory.
    assert.deepEqual([ico.raw.readUInt16LE(0), ico.raw.readUInt16LE(2), ico.raw.readUInt16LE(4)], [0, 1, 1]);
    assert.deepEqual([ico.raw[6], ico.raw[7], ico.raw.readUInt16LE(12)], [32, 32, 32]);
    assert.equal(ico.raw.readUInt32LE(14) + 22, ico.raw.length);
    assert.equal(ico.raw.readUInt32LE(22), 40, 'BITMAPINFOHEADER');
    const svg = await t.get('/favicon.svg');
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
    assert.match(svg.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const page = await t.get('/dashboard');
    assert.match(page.text, /<link rel="icon" href="\/favicon\.svg"/);
  });

  test('only allow-listed files are served', async () => {
    for (const p of [
      '/dashboard/assets/globals.d.ts',
      '/dashboard/assets/..%2F..%2Fpackage.json',
      '/dashboard/assets/%2E%2E',
      '/dashboard/assets/index.html',
      '/dashboard/nope',
    ]) {
      const res = await t.get(p);
      assert.equal(res.status, 404, p);
      assert.deepEqual(res.json(), { detail: 'Not Found' }, p);
    }
  });
});

describe('dashboard: local time helpers (no browser)', () => {
  test('axis ticks fall on local midnight across a DST change; a local day has 23, 24 or 25 hours', async () => {
    // The page's own module (plain JavaScript, checked by tsconfig.web.json).
    const stats = '../web/dashboard/stats.js';
    const { hoursOfLocalDay, localMidnights, wallClock } = (await import(stats)) as {
      hoursOfLocalDay(date: string, timezone: string): number[];
      localMidnights(startMs: number, endMs: number, timezone: string): number[];
      wallClock(ms: number, timezone: string): { date: string; hour: number; minute: number };
    };
    const z = 'America/Chicago';
    // 2026-03-06 .. 2026-03-10 (spring forward on the 8th): midnight CST is 06:00Z, CDT 05:00Z.
    assert.deepEqual(
      localMidnights(Date.parse('2026-03-06T00:00:00Z'), Date.parse('2026-03-10T12:00:00Z'), z).map((ms) => new Date(ms).toISOString()),
      [
        '2026-03-06T06:00:00.000Z',
        '2026-03-07T06:00:00.000Z',
        '2026-03-08T06:00:00.000Z',
        '2026-03-09T05:00:00.000Z',
        '2026-03-10T05:00:00.000Z',
      ],
    );
    // At most 8 ticks: every other midnight over two weeks.
    assert.equal(localMidnights(Date.parse('2026-06-01T00:00:00Z'), Date.parse('2026-06-15T00:00:00Z'), z).length, 7);
    assert.equal(hoursOfLocalDay('2026-03-08', z).length, 23);
    assert.equal(hoursOfLocalDay('2026-06-15', z).length, 24);
    const fallBack = hoursOfLocalDay('2026-11-01', z);
    assert.equal(fallBack.length, 25);
    assert.equal(new Date(fallBack[0]).toISOString(), '2026-11-01T05:00:00.000Z');
    assert.deepEqual(wallClock(fallBack[24], z), { date: '2026-11-01', hour: 23, minute: 0 });
  });
});

describe('dashboard in headless Chromium', { skip: missingChromium ?? false }, () => {
  let t: TestApp;
  let context: BrowserContext;
  let userDataDir: string;
  let enterpriseKey: string;
  let coreKey: string;

  before(async () => {
    const { chromium } = await import('playwright-core');
    t = await startTestApp();
    enterpriseKey = await t.key({ all: 'enterprise' }, 'dashboard');
    coreKey = await t.key({ [ISO]: 'core' }, 'dashboard-core');
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    // A new, empty profile each run; --user-data-dir is what launchPersistentContext sets.
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
  });

  after(async () => {
    await context?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  interface Seen {
    url: string;
    headers: Promise<Record<string, string>>;
  }
  /** Every request the page made. */
  const requestsOf = new WeakMap<Page, Seen[]>();
  /** Uncaught errors in the page (with their stacks). */
  const pageErrorsOf = new WeakMap<Page, string[]>();

  /** Closes the page; it must not have thrown anything meanwhile. */
  async function closeChecked(page: Page): Promise<void> {
    await page.close();
    assert.deepEqual(pageErrorsOf.get(page), [], 'errors in the page');
  }

  /** A new tab on the dashboard, recording its requests and errors. */
  async function openPage(): Promise<Page> {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    pageErrorsOf.set(page, pageErrors);
    page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
    const seen: Seen[] = [];
    requestsOf.set(page, seen);
    page.on('request', (r) => seen.push({ url: r.url(), headers: r.allHeaders() }));
    await page.goto(`${t.baseUrl}/dashboard`);
    return page;
  }

  /** Opens the page and submits the key form with `key`. */
  async function openWithKey(key: string): Promise<Page> {
    const page = await openPage();
    await page.waitForFunction(() => document.querySelector('#iso').options.length > 0);
    await page.fill('#key', key);
    await page.click('#key-form button[type="submit"]');
    return page;
  }

  async function waitForPanels(page: Page): Promise<Record<string, string>> {
    await page.waitForFunction(
      (n) => {
        const panels = [...document.querySelectorAll('[data-state]')];
        return panels.length === n && panels.every((p: any) => p.dataset.state !== 'loading');
      },
      PANELS,
      { timeout: 60_000 },
    );
    return page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('[data-state]')].map((p: any) => [p.dataset.metric ?? p.id, p.dataset.state])),
    );
  }

  /** The series of the ECharts chart inside `selector`: name and data, as the chart holds them. */
  function chartSeries(
    page: Page,
    selector: string,
  ): Promise<{ name: string; data: [number, number | null][]; markLine?: { data: { yAxis?: number }[] } }[]> {
    return page.evaluate((sel) => {
      const el = document.querySelector(`${sel} .chart`);
      const chart = window.echarts.getInstanceByDom(el);
      if (!chart) return [];
      return (chart.getOption() as any).series.map((s: any) => ({ name: s.name, data: s.data, markLine: s.markLine }));
    }, selector);
  }

  const nonNull = (data: [number, number | null][]) => data.filter(([, v]) => v !== null).length;
  const at = (ts: Timeseries, column = 0) =>
    ts.time_utc.map((time, i): [number, number | null] => [Date.parse(time), ts.values[column][i]]);

  /** The x axis's tick instants (epoch ms) of the chart inside `selector`. */
  function axisTicks(page: Page, selector: string): Promise<number[]> {
    return page.evaluate((sel) => {
      const chart = window.echarts.getInstanceByDom(document.querySelector(`${sel} .chart`));
      return (chart.getOption() as any).xAxis[0].axisLabel.customValues;
    }, selector);
  }

  /** The value axis of the chart inside `selector`: its name and bounds (null where ECharts chooses them). */
  function valueAxis(page: Page, selector: string): Promise<{ name: string; min: number | null; max: number | null }> {
    return page.evaluate((sel) => {
      const chart = window.echarts.getInstanceByDom(document.querySelector(`${sel} .chart`));
      const y = (chart.getOption() as any).yAxis[0];
      return { name: y.name, min: y.min ?? null, max: y.max ?? null };
    }, selector);
  }

  function axisName(page: Page, selector: string): Promise<string> {
    return page.evaluate((sel) => {
      const chart = window.echarts.getInstanceByDom(document.querySelector(`${sel} .chart`));
      return (chart.getOption() as any).xAxis[0].name;
    }, selector);
  }

  /** `YYYY-MM-DD HH:MM` in Chicago (ERCOT's zone). */
  const chicago = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Chicago', dateStyle: 'short', timeStyle: 'short' });
  const chicagoWall = (ms: number) => chicago.format(ms);

  interface CellRecord {
    id: string;
    latitude: number;
    longitude: number;
  }
  const NO_PLANTS_FILL = '#cfcfcf';

  /** The fill of every cell polygon, by cell id (the polygons are drawn in the order of the list). */
  async function cellFillsById(page: Page, cells: CellRecord[]): Promise<Record<string, string>> {
    const fills = await page.locator('#map path.leaflet-interactive').evaluateAll((els) => els.map((e) => e.getAttribute('fill')));
    assert.equal(fills.length, cells.length);
    return Object.fromEntries(cells.map((c, i) => [c.id, fills[i]!]));
  }

  const nearestCell = (cells: CellRecord[], lat: number, lon: number) =>
    cells.reduce((best, c) =>
      (c.latitude - lat) ** 2 + (c.longitude - lon) ** 2 < (best.latitude - lat) ** 2 + (best.longitude - lon) ** 2 ? c : best,
    );

  /** Picks a valid hour (UTC ISO) in the vintages controls: its local day, then the hour. */
  async function chooseVintageHour(page: Page, hourUtc: string): Promise<void> {
    await page.fill('#vintages-day', chicagoWall(Date.parse(hourUtc)).slice(0, 10));
    await page.locator('#vintages-day').dispatchEvent('change');
    await page.selectOption('#vintages-hour', hourUtc);
  }

  /** The text of the tooltip a pointer over the cell's polygon opens. */
  async function hoverCell(page: Page, cells: CellRecord[], id: string, screenshot?: string): Promise<string> {
    const index = cells.findIndex((c) => c.id === id);
    await page
      .locator('#map path.leaflet-interactive')
      .nth(index)
      .evaluate((el: any) => {
        const box = el.getBoundingClientRect();
        const at = { bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 };
        el.dispatchEvent(new MouseEvent('mouseover', at));
        el.dispatchEvent(new MouseEvent('mousemove', at));
      });
    const text = (await page.locator('.leaflet-tooltip').last().textContent()) ?? '';
    if (screenshot) await page.locator('#cells').screenshot({ path: path.join(SCREENSHOTS, screenshot) });
    await page
      .locator('#map path.leaflet-interactive')
      .nth(index)
      .evaluate((el: any) => el.dispatchEvent(new MouseEvent('mouseout', { bubbles: true })));
    return text;
  }

  test('with a key, every chart and the map draw the data the API serves', async () => {
    const page = await openWithKey(enterpriseKey);
    const requests = requestsOf.get(page)!;
    const states = await waitForPanels(page);
    assert.deepEqual(states, {
      demand: 'ready',
      wind: 'ready',
      solar: 'ready',
      price: 'ready',
      ensemble: 'ready',
      vintages: 'ready',
      skill: 'ready',
      cells: 'ready',
    });

    // Forecast vs actuals: the charts hold exactly the API's series.
    for (const metric of ['demand', 'wind', 'solar']) {
      const series = await chartSeries(page, `.card[data-metric="${metric}"]`);
      assert.deepEqual(
        series.map((s) => s.name),
        ['Actual', 'Day-ahead forecast', 'Latest run'],
        metric,
      );
      const latest = await okJson(t, `/v1/region/${ISO}/${metric}/forecast`, { key: enterpriseKey, query: { id: REGION } });
      const dayAhead = await okJson(t, `/v1/region/${ISO}/${metric}/continuous`, { key: enterpriseKey, query: { id: REGION } });
      const actual = await okJson(t, `/v1/region/${ISO}/${metric}/actual`, {
        key: enterpriseKey,
        query: { id: REGION, start: dayAhead.time_utc[0], end: latest.created_at! },
      });
      assert.deepEqual(series[0].data, at(actual), `${metric} actual`);
      assert.deepEqual(series[1].data, at(dayAhead), `${metric} day-ahead`);
      assert.deepEqual(series[2].data, at(latest).slice(0, 168), `${metric} latest run`);
      assert.ok(nonNull(series[0].data) > 24 && nonNull(series[2].data) === 168, metric);
    }
    // Drawn, not just configured: every chart has its canvas, at the size of its box.
    const canvases = await page
      .locator('.chart')
      .evaluateAll((els) => els.map((e: any) => e.querySelector('canvas')?.getBoundingClientRect().height ?? 0));
    assert.equal(canvases.length, 8);
    assert.ok(
      canvases.every((h) => h >= 200),
      `canvas heights ${canvases}`,
    );
    // Skill: a line per model by lead day (demand MAPE), and the day-ahead forecast's rolling 30-day MAPE (drift).
    const skillLead = await chartSeries(page, '#skill-lead');
    const byLead = await okJson<any[]>(t, `/v1/region/${ISO}/demand/skill`, { key: enterpriseKey, query: { id: REGION } });
    assert.deepEqual(
      skillLead.map((s) => s.name),
      ['optimized', 'iso', 'normal'],
    );
    for (const s of skillLead) {
      const records = byLead.filter((r) => r.model === s.name);
      assert.deepEqual(
        s.data.slice(0, records.length),
        records.map((r) => r.mape),
        s.name,
      );
    }
    const drift = (await chartSeries(page, '#skill-drift'))[0];
    const lastActual = (await okJson<any[]>(t, '/v1/status', { key: enterpriseKey })).find((r) => r.iso === ISO && r.model === 'optimized');
    const yearAgo = new Date(Date.parse(lastActual.last_actual_hour) - 364 * 86_400_000).toLocaleDateString('en-CA', {
      timeZone: 'America/Chicago',
    });
    const rolling = await okJson<any[]>(t, `/v1/region/${ISO}/demand/skill`, {
      key: enterpriseKey,
      query: { id: REGION, model: 'optimized', days_ahead: 1, window: '30d', start: yearAgo },
    });
    // Drawn: the days whose 30-day window holds at least 90 % of the fullest one's hours.
    const fullest = Math.max(...rolling.map((r) => r.n));
    const drawn = rolling.filter((r) => r.n >= 0.9 * fullest);
    assert.ok(drawn.length > 100 && drawn.length < rolling.length, `${drawn.length} of ${rolling.length} days of drift`);
    assert.deepEqual(
      drift.data.map(([, v]) => v),
      drawn.map((r) => r.mape),
    );
    await page.locator('#skill').screenshot({ path: path.join(SCREENSHOTS, 'skill.png') });

    const price = await chartSeries(page, '.card[data-metric="price"]');
    assert.deepEqual(
      price.map((s) => s.name),
      ['Actual', 'Day-ahead forecast', 'Latest run'],
    );
    const hub = await page.inputValue('#price-node');
    const priceSeries = async (type: string) => {
      const forecast = await okJson(t, `/v1/lmp/${ISO}/${type}/forecast`, { key: enterpriseKey, query: { id: hub } });
      const dayAhead = await okJson(t, `/v1/lmp/${ISO}/${type}/continuous`, { key: enterpriseKey, query: { id: hub } });
      const shown = at(forecast).slice(0, 168);
      const end = new Date(shown[shown.length - 1][0]).toISOString();
      const actual = await okJson(t, `/v1/lmp/${ISO}/${type}/actual`, {
        key: enterpriseKey,
        query: { id: hub, start: dayAhead.time_utc[0], end },
      });
      return { latest: shown, dayAhead: at(dayAhead), actual: at(actual) };
    };
    const dalmp = await priceSeries('dalmp');
    assert.deepEqual(price[2].data, dalmp.latest);
    assert.deepEqual(price[1].data, dalmp.dayAhead);
    // The realised series over the whole window: cleared day-ahead prices from the window's start (six days before
    // tomorrow) through today — at 13:00 Central ERCOT has not yet published tomorrow's (13:30).
    assert.deepEqual(price[0].data, dalmp.actual, 'cleared day-ahead prices');
    assert.equal(nonNull(price[0].data), 6 * 24, 'cleared hours shown');

    // The ensemble fan: bands and median are those of the 51 members.
    const fan = await chartSeries(page, '#ensemble');
    const byName = Object.fromEntries(fan.map((s) => [s.name, s.data]));
    const ens = await okJson(t, `/v1/region/${ISO}/demand/ensemble`, { key: enterpriseKey, query: { id: REGION } });
    assert.equal(ens.values.length, 51);
    assert.equal(byName.Median.length, ens.time_utc.length);
    for (let h = 0; h < ens.time_utc.length; h += 37) {
      const members = ens.values.map((m) => m[h]!).sort((a, b) => a - b);
      assert.ok(Math.abs(byName.Median[h][1]! - members[25]) < 1e-9, `median at hour ${h}`);
      assert.ok(Math.abs(byName._min[h][1]! - members[0]) < 1e-9, `min at hour ${h}`);
      const max = byName._min[h][1]! + byName['Members min–max'][h][1]!;
      assert.ok(Math.abs(max - members[50]) < 1e-6, `max at hour ${h}`);
      const p10 = byName._p10[h][1]!;
      const p90 = p10 + byName['P10–P90'][h][1]!;
      assert.ok(
        members[0] <= p10 && p10 <= byName.Median[h][1]! && byName.Median[h][1]! <= p90 && p90 <= members[50],
        `bands ordered at hour ${h}`,
      );
    }

    // Time axes tick at local midnight of the ISO (America/Chicago), not at midnight UTC.
    for (const selector of ['.card[data-metric="demand"]', '#ensemble', '#vintages']) {
      const ticks = await axisTicks(page, selector);
      assert.ok(ticks.length >= 2, `${selector}: ${ticks.length} ticks`);
      for (const tick of ticks) assert.equal(chicagoWall(tick).slice(11), '00:00', `${selector}: tick ${new Date(tick).toISOString()}`);
    }

    // One hour across runs: one /vintages request, in local time; each point is what that run forecast for the hour.
    const vintagesCalls = requests.filter((r) => new URL(r.url).pathname.endsWith('/vintages'));
    assert.equal(vintagesCalls.length, 1, 'one /vintages request');
    assert.ok(!requests.some((r) => r.url.includes('forecasted_by')), 'no request per run');
    const vintages = (await chartSeries(page, '#vintages'))[0];
    const hour = await page.inputValue('#vintages-hour');
    const hourOptions = await page.locator('#vintages-hour option').evaluateAll((els) => els.map((e: any) => [e.value, e.textContent]));
    assert.equal(hourOptions.length, 24, 'the hours of a local day');
    for (const [value, label] of hourOptions) assert.equal(label, `${chicagoWall(Date.parse(value)).slice(11)} CDT`);
    assert.equal(await page.inputValue('#vintages-day'), chicagoWall(Date.parse(hour)).slice(0, 10));
    const expectedRuns = await okJson(t, `/v1/region/${ISO}/demand/vintages`, {
      key: enterpriseKey,
      query: { id: REGION, valid_time: hour },
    });
    const fiveDays = at(expectedRuns).filter(([run]) => run >= Date.parse(hour) - 5 * 24 * 3_600_000);
    assert.deepEqual(vintages.data, fiveDays);
    // Hourly runs from 5 days before the hour up to now (a day before it).
    assert.equal(vintages.data.length, 4 * 24 + 1, 'hourly runs');
    assert.match(vintages.name, /^Forecast for [A-Z][a-z]{2} \d+, \d\d:00 CD?T$/);
    assert.equal(await axisName(page, '#vintages'), 'Run made at (America/Chicago, local time)');
    for (const [runMs, value] of [vintages.data[0], vintages.data.at(-1)!]) {
      const run = await okJson(t, `/v1/region/${ISO}/demand/forecast`, {
        key: enterpriseKey,
        query: { id: REGION, forecasted_by: new Date(runMs).toISOString() },
      });
      assert.equal(Date.parse(run.created_at!), runMs);
      assert.equal(value, run.values[0][run.time_utc.indexOf(hour)]);
    }
    assert.equal(vintages.markLine?.data?.length ?? 0, 0, 'no actual yet for a future hour');

    // The map: one polygon per cell, coloured by value.
    const cells = await okJson<CellRecord[]>(t, `/v1/cells/${ISO}/wind/list`, { key: enterpriseKey, query: { resolution: 4 } });
    const polygons = page.locator('#map path.leaflet-interactive');
    assert.equal(await polygons.count(), cells.length);
    const fills = async () => new Set(await polygons.evaluateAll((els) => els.map((e) => e.getAttribute('fill'))));
    const before = await fills();
    assert.ok(before.size > 10, `distinct colours: ${before.size}`);
    assert.match((await page.textContent('.map-legend')) ?? '', /wind, MW/);
    // State lines over the cells (drawn, not interactive).
    assert.ok((await page.locator('#map path:not(.leaflet-interactive)').count()) > 0, 'state lines drawn');
    // Cells without wind plants are told apart from 0 MW: grey, and said so.
    const windCells = await okJson(t, `/v1/cells/${ISO}/wind/forecast`, { key: enterpriseKey, query: { resolution: 4 } });
    const windPlants = await okJson<{ latitude: number; longitude: number }[]>(t, `/v1/plant/${ISO}/wind/list`, { key: enterpriseKey });
    // Which cells hold plants, by H3 itself (the page finds them by point in polygon).
    const withPlants = new Set(windPlants.map((p) => latLngToCell(p.latitude, p.longitude, 4)));
    const cellFills = await cellFillsById(page, cells);
    const noPlants = Object.entries(cellFills).filter(([id]) => !withPlants.has(id));
    assert.ok(noPlants.length > 0, 'ERCOT has cells without wind plants');
    assert.ok(
      noPlants.every(([, fill]) => fill === NO_PLANTS_FILL),
      'cells without plants are grey',
    );
    assert.ok(
      Object.entries(cellFills)
        .filter(([id]) => withPlants.has(id))
        .every(([, fill]) => fill !== NO_PLANTS_FILL),
      'cells with plants are on the scale, 0 MW included',
    );
    assert.match((await page.textContent('.map-legend')) ?? '', /no wind plants in this cell/);
    // The tooltip names the county the cell is in (Austin's cell is in central Texas, with no wind plants).
    const austin = nearestCell(cells, 30.27, -97.74);
    assert.ok(!withPlants.has(austin.id), 'no wind plants around Austin');
    assert.match(
      await hoverCell(page, cells, austin.id),
      new RegExp(`^(Travis|Williamson|Hays|Bastrop) County, Texas${austin.id}: no wind plants in this cell$`),
    );
    const windCell = [...withPlants][0];
    assert.match(
      await hoverCell(page, cells, windCell, 'cells-tooltip.png'),
      new RegExp(`^[A-Z][\\w .'-]+ County, [A-Z][a-z]+( [A-Z][a-z]+)?${windCell}: [\\d,.]+ MW \\(\\d+ plants?, [\\d,]+ MW\\)$`),
    );
    // The colour scale ends at this hour's largest cell.
    const hourMax = Math.max(...windCells.values.map((v) => v[0] ?? 0));
    assert.equal(
      (await page.locator('.map-legend-ends span').last().textContent()) ?? '',
      `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(hourMax)} MW`,
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'desktop.png'), fullPage: true });
    for (const panel of ['overview', 'ensemble', 'vintages', 'cells'])
      await page.locator(`#${panel}`).screenshot({ path: path.join(SCREENSHOTS, `${panel}.png`) });

    // The hour slider recolours the map without asking the API again.
    const callsBefore = requests.length;
    await page.locator('#cells-hour').evaluate((el: any) => {
      el.value = '12';
      el.dispatchEvent(new Event('input'));
    });
    assert.notDeepEqual(await fills(), before);
    assert.equal(requests.length, callsBefore);

    // A past hour: the runs before it, and its actual as a line.
    const latestRun = Date.parse(
      (await okJson(t, `/v1/region/${ISO}/demand/forecast`, { key: enterpriseKey, query: { id: REGION } })).created_at!,
    );
    const pastHour = new Date(latestRun - 30 * 3_600_000).toISOString().replace('.000Z', 'Z');
    await chooseVintageHour(page, pastHour);
    await page.click('#vintages-go');
    await waitForPanels(page);
    const past = (await chartSeries(page, '#vintages'))[0];
    const actual = await okJson(t, `/v1/region/${ISO}/demand/actual`, {
      key: enterpriseKey,
      query: { id: REGION, start: pastHour, end: pastHour },
    });
    assert.equal(past.markLine?.data[0].yAxis, actual.values[0][0]);
    assert.ok(
      past.data.every(([run]) => run <= Date.parse(pastHour)),
      'only runs made before the hour',
    );
    await page.locator('#vintages').screenshot({ path: path.join(SCREENSHOTS, 'vintages-past-hour.png') });

    // The key stayed in this browser: same-origin calls only, in the X-API-Key header, never in a URL.
    assert.ok(requests.length > 0);
    for (const r of requests) {
      const url = new URL(r.url);
      assert.equal(url.origin, t.baseUrl, r.url);
      assert.ok(!r.url.includes(enterpriseKey), `key in a URL: ${r.url}`);
      if (url.pathname.startsWith('/v1/') && url.pathname !== '/v1/openapi.json')
        assert.equal((await r.headers)['x-api-key'], enterpriseKey, r.url);
    }
    assert.equal(await page.evaluate(() => sessionStorage.getItem('gridcast.apiKey')), enterpriseKey);
    assert.equal(await page.evaluate(() => localStorage.getItem('gridcast.apiKey')), null, 'not remembered unless asked');

    // Real-time prices: the realised series too, on a clipped axis by default (spikes run off it), or full scale.
    await page.selectOption('#price-type', 'rtlmp');
    await waitForPanels(page);
    const rt = await chartSeries(page, '.card[data-metric="price"]');
    assert.deepEqual(
      rt.map((s) => s.name),
      ['Actual', 'Day-ahead forecast', 'Latest run'],
    );
    const rtlmp = await priceSeries('rtlmp');
    assert.deepEqual(rt[0].data, rtlmp.actual, 'real-time prices');
    assert.match((await page.textContent('.card[data-metric="price"] .panel-status'))!, /Actuals: real-time prices/);
    const shownValues = [...rtlmp.actual, ...rtlmp.dayAhead, ...rtlmp.latest].map(([, v]) => v).filter((v) => v !== null) as number[];
    const clipped = await valueAxis(page, '.card[data-metric="price"]');
    assert.equal(clipped.name, 'USD/MWh (clipped: 1st–99th percentile)');
    assert.ok(clipped.max! < Math.max(...shownValues), `axis max ${clipped.max} below the highest price ${Math.max(...shownValues)}`);
    await page.selectOption('#price-axis', 'full');
    await waitForPanels(page);
    assert.deepEqual(await valueAxis(page, '.card[data-metric="price"]'), { name: 'USD/MWh', min: null, max: null });
    await page.selectOption('#price-axis', 'clipped');
    await waitForPanels(page);

    // Another ISO: NYISO has no trading hubs, so its zones are the price nodes; the map shows its cells.
    await page.selectOption('#iso', 'nyiso');
    await waitForPanels(page);
    assert.equal(await page.inputValue('#region'), 'nyiso_total');
    const zones = (await okJson<{ id: string; node_type: string }[]>(t, '/v1/lmp/nyiso/rtlmp/list', { key: enterpriseKey })).filter(
      (n) => n.node_type === 'zone',
    );
    assert.deepEqual(
      await page.locator('#price-node option').evaluateAll((els) => els.map((e: any) => e.value)),
      zones.map((z) => z.id),
    );
    const nyDemand = await okJson(t, '/v1/region/nyiso/demand/forecast', { key: enterpriseKey, query: { id: 'nyiso_total' } });
    assert.deepEqual((await chartSeries(page, '.card[data-metric="demand"]'))[2].data, at(nyDemand).slice(0, 168));
    const nyCells = await okJson<unknown[]>(t, '/v1/cells/nyiso/wind/list', { key: enterpriseKey, query: { resolution: 4 } });
    assert.equal(await polygons.count(), nyCells.length);

    // Narrow screens: the page reflows to one column with no sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mobile.png'), fullPage: true });
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
    assert.ok(widths.page <= widths.window, `no horizontal overflow at 390 px: ${JSON.stringify(widths)}`);

    // Forgetting the key removes it and empties the page.
    await page.click('#forget');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('gridcast.apiKey')), null);
    assert.equal(await polygons.count(), 0);
    await closeChecked(page);
  });

  test('"remember on this device" keeps the key across a reload; Forget key removes it', async () => {
    const page = await openPage();
    await page.fill('#key', coreKey);
    await page.check('#remember');
    await page.click('#key-form button[type="submit"]');
    await waitForPanels(page);
    assert.equal(await page.evaluate(() => localStorage.getItem('gridcast.apiKey')), coreKey);
    // A new tab of the same browser (no sessionStorage): the page loads with the remembered key.
    const again = await openPage();
    const states = await waitForPanels(again);
    assert.equal(states.demand, 'ready');
    assert.equal(await again.inputValue('#key'), coreKey);
    assert.equal(await again.isChecked('#remember'), true);
    await again.click('#forget');
    assert.equal(await again.evaluate(() => localStorage.getItem('gridcast.apiKey')), null);
    assert.match((await again.textContent('#status'))!, /Key forgotten/);
    await closeChecked(again);
    await closeChecked(page);
  });

  test('a wrong key: the 401 is shown, nothing is drawn', async () => {
    const page = await openWithKey('gc_not_a_key');
    await page.waitForFunction(() => document.querySelector('#status')!.classList.contains('error'));
    assert.match((await page.textContent('#status'))!, /401: Invalid API key\./);
    assert.equal(await page.locator('.chart canvas').count(), 0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'wrong-key.png') });
    await closeChecked(page);
  });

  test('a core key: the map shows the 403, the other panels draw; a bad hour shows the 422', async () => {
    const page = await openWithKey(coreKey);
    const states = await waitForPanels(page);
    assert.deepEqual(states, {
      demand: 'ready',
      wind: 'ready',
      solar: 'ready',
      price: 'ready',
      ensemble: 'ready',
      vintages: 'ready',
      skill: 'ready',
      cells: 'error',
    });
    const cellsStatus = page.locator('#cells .panel-status');
    assert.match(
      (await cellsStatus.textContent())!,
      /^403: Your subscription for ISO 'ercot' is at the 'core' level\. This endpoint needs the 'advanced' level/,
    );
    assert.equal(await cellsStatus.getAttribute('class'), 'panel-status error');
    assert.equal(await page.locator('#map path.leaflet-interactive').count(), 0);
    await page.locator('#cells').screenshot({ path: path.join(SCREENSHOTS, 'core-key-map-403.png') });

    await chooseVintageHour(page, '2025-06-01T17:00:00Z');
    await page.click('#vintages-go');
    await waitForPanels(page);
    assert.match((await page.textContent('#vintages .panel-status'))!, /^422: query\.valid_time: Value error, no run covers valid_time/);
    await page.locator('#vintages').screenshot({ path: path.join(SCREENSHOTS, 'vintages-422.png') });
    await closeChecked(page);
  });
});

describe('dashboard: a forecast selector per card with the stored sources (headless Chromium)', { skip: missingChromium ?? false }, () => {
  const TOKEN = 'dashboard-sources-token';
  let t: TestApp;
  let context: BrowserContext;
  let userDataDir: string;
  let key: string;
  const HOUR = 3_600_000;
  const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

  /** vendor_a: runs of ERCOT's total demand every 6 hours over the days before now (2026-06-15T18:00Z), 96 hours each; its actuals too. */
  function vendorFiles(): { runs: string; actuals: string } {
    const runs = ['time_utc,id,value,created_at'];
    for (let issued = Date.parse('2026-06-08T00:00:00Z'); issued <= Date.parse('2026-06-15T18:00:00Z'); issued += 6 * HOUR) {
      for (let h = 0; h < 96; h++)
        runs.push(`${utc(issued + h * HOUR)},ercot_total,${40000 + ((issued / HOUR + h) % 24) * 500},${utc(issued)}`);
    }
    const actuals = ['time_utc,id,value'];
    for (let hour = Date.parse('2026-06-08T00:00:00Z'); hour < Date.parse('2026-06-15T17:00:00Z'); hour += HOUR) {
      actuals.push(`${utc(hour)},ercot_total,${41000 + ((hour / HOUR) % 24) * 450}`);
    }
    return { runs: runs.join('\n') + '\n', actuals: actuals.join('\n') + '\n' };
  }

  before(async () => {
    const { chromium } = await import('playwright-core');
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ all: 'enterprise' }, 'dashboard-sources');
    const files = vendorFiles();
    for (const body of [files.runs, files.actuals]) {
      const res = await t.request('POST', '/admin/ingest', {
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' },
        body,
        query: { source: 'vendor_a', group: 'region', iso: ISO, metric: 'demand' },
      });
      assert.equal(res.status, 200, res.text);
    }
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
  });
  after(async () => {
    delete process.env.GRIDCAST_WORLD;
    await context?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.stack ?? e.message));
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.waitForFunction(() => document.querySelector('#iso').options.length > 0);
    await page.fill('#key', key);
    await page.click('#key-form button[type="submit"]');
    return { page, errors };
  }

  /** Waits until no overview card is loading; their states by metric. */
  async function cardStates(page: Page): Promise<Record<string, string>> {
    await page.waitForFunction(
      () => {
        const cards = [...document.querySelectorAll('#overview .card')];
        return cards.every((c: any) => c.dataset.state && c.dataset.state !== 'loading');
      },
      undefined,
      { timeout: 60_000 },
    );
    return page.evaluate(() =>
      Object.fromEntries([...document.querySelectorAll('#overview .card')].map((c: any) => [c.dataset.metric, c.dataset.state])),
    );
  }

  const choicesOf = (page: Page, metric: string) =>
    page.evaluate(
      (m) => [...document.querySelectorAll(`.card[data-metric="${m}"] .forecast-source option`)].map((o: any) => [o.value, o.textContent]),
      metric,
    );

  async function demandSeries(page: Page): Promise<{ name: string; data: [number, number | null][] }[]> {
    return page.evaluate(() => {
      const chart = window.echarts.getInstanceByDom(document.querySelector('.card[data-metric="demand"] .chart'));
      return (chart.getOption() as any).series.map((s: any) => ({ name: s.name, data: s.data }));
    });
  }
  const at = (ts: Timeseries) => ts.time_utc.map((time, i): [number, number | null] => [Date.parse(time), ts.values[0][i]]);

  test('each card offers the models and the stored sources holding its series; choosing one draws its forecasts', async () => {
    const { page, errors } = await open();
    await cardStates(page);
    assert.deepEqual(await choicesOf(page, 'demand'), [
      ['optimized', 'optimized'],
      ['iso', 'iso'],
      ['vendor_a', 'vendor_a (stored)'],
    ]);
    // vendor_a holds no wind and no prices.
    assert.deepEqual(await choicesOf(page, 'wind'), [
      ['optimized', 'optimized'],
      ['iso', 'iso'],
    ]);
    assert.deepEqual(await choicesOf(page, 'price'), [
      ['optimized', 'optimized'],
      ['iso', 'iso'],
    ]);
    await page.selectOption('.card[data-metric="demand"] .forecast-source', 'vendor_a');
    await page.waitForFunction(() => document.querySelector('.card[data-metric="demand"] .panel-status').textContent.includes('vendor_a'));
    assert.equal((await cardStates(page)).demand, 'ready');
    const q = { id: REGION, model: 'vendor_a' };
    const latest = await okJson(t, `/v1/region/${ISO}/demand/forecast`, { key, query: q });
    const dayAhead = await okJson(t, `/v1/region/${ISO}/demand/continuous`, { key, query: q });
    // With the synthetic world served, the actuals are the ISO's.
    const actual = await okJson(t, `/v1/region/${ISO}/demand/actual`, {
      key,
      query: { id: REGION, start: dayAhead.time_utc[0], end: latest.created_at! },
    });
    const series = await demandSeries(page);
    assert.deepEqual(
      series.map((s) => s.name),
      ['Actual', 'Day-ahead forecast', 'Latest run'],
    );
    assert.deepEqual(series[1].data, at(dayAhead));
    assert.deepEqual(series[2].data, at(latest).slice(0, 168));
    assert.deepEqual(series[0].data, at(actual));
    assert.equal(latest.created_at, '2026-06-15T18:00:00Z');
    assert.match((await page.textContent('.card[data-metric="demand"] .panel-status'))!, /^ercot_total, vendor_a's run of /);
    await page.locator('.card[data-metric="demand"]').screenshot({ path: path.join(SCREENSHOTS, 'stored-source-demand.png') });
    await page.close();
    assert.deepEqual(errors, []);
  });

  /** The #vintages panel's drawn runs, once its status names `model`. */
  async function vintagesOf(page: Page, model: string): Promise<{ status: string; hour: string; data: [number, number | null][] }> {
    await page.waitForFunction((m) => document.querySelector('#vintages .panel-status').textContent.includes(`, ${m}: `), model, {
      timeout: 60_000,
    });
    const data = await page.evaluate(
      () => (window.echarts.getInstanceByDom(document.querySelector('#vintages .chart')).getOption() as any).series[0].data,
    );
    return { status: (await page.textContent('#vintages .panel-status'))!, hour: await page.inputValue('#vintages-hour'), data };
  }

  test('one hour across runs offers the stored sources too; choosing one draws its runs for the hour a day after its latest', async () => {
    const { page, errors } = await open();
    await cardStates(page);
    await vintagesOf(page, 'optimized');
    const options = await page.evaluate(() =>
      [...document.querySelectorAll('#vintages-source option')].map((o: any) => [o.value, o.textContent]),
    );
    assert.deepEqual(options, [
      ['optimized', 'optimized'],
      ['iso', 'iso'],
      ['vendor_a', 'vendor_a (stored)'],
    ]);
    await page.selectOption('#vintages-source', 'vendor_a');
    const drawn = await vintagesOf(page, 'vendor_a');
    // vendor_a's latest run was issued 2026-06-15T18:00Z: the hour a day later, seen by its runs of the 5 days before.
    assert.equal(drawn.hour, '2026-06-16T18:00:00Z');
    const expected = await okJson(t, `/v1/region/${ISO}/demand/vintages`, {
      key,
      query: { id: REGION, model: 'vendor_a', valid_time: drawn.hour },
    });
    assert.deepEqual(
      drawn.data,
      at(expected).filter(([run]) => run >= Date.parse(drawn.hour) - 5 * 24 * HOUR),
    );
    // Runs every 6 hours, 96 hours long: the 12 issued after 2026-06-12T18:00Z cover the hour.
    assert.equal(drawn.data.filter(([, v]) => v !== null).length, 12);
    assert.match(drawn.status, /^ercot_total, vendor_a: \d+ runs\. No actual published for this hour yet\.$/);
    await page.close();
    assert.deepEqual(errors, []);
  });

  test('with GRIDCAST_WORLD=off only the stored sources are offered, with their own actuals; other cards say none holds them', async () => {
    process.env.GRIDCAST_WORLD = 'off';
    try {
      const { page, errors } = await open();
      const states = await cardStates(page);
      assert.deepEqual(states, { demand: 'ready', wind: 'ready', solar: 'ready', price: 'ready' });
      assert.deepEqual(await choicesOf(page, 'demand'), [['vendor_a', 'vendor_a (stored)']]);
      assert.deepEqual(await choicesOf(page, 'wind'), []);
      assert.equal(
        await page.textContent('.card[data-metric="wind"] .panel-status'),
        'No forecasts of wind for ERCOT: the synthetic world is off and no stored source holds them.',
      );
      assert.equal(
        await page.textContent('.card[data-metric="price"] .panel-status'),
        'No forecasts of dalmp prices for ERCOT: the synthetic world is off and no stored source holds them.',
      );
      const latest = await okJson(t, `/v1/region/${ISO}/demand/forecast`, { key, query: { id: REGION, model: 'vendor_a' } });
      const dayAhead = await okJson(t, `/v1/region/${ISO}/demand/continuous`, { key, query: { id: REGION, model: 'vendor_a' } });
      const actual = await okJson(t, `/v1/region/${ISO}/demand/actual`, {
        key,
        query: { id: REGION, source: 'vendor_a', start: dayAhead.time_utc[0], end: latest.created_at! },
      });
      const series = await demandSeries(page);
      assert.deepEqual(series[0].data, at(actual));
      assert.ok(series[0].data.filter(([, v]) => v !== null).length > 24);
      assert.match((await page.textContent('.card[data-metric="demand"] .panel-status'))!, / Actuals: vendor_a's\.$/);
      // Skill: the stored sources scored against a stored source's actuals (vendor_a's own).
      await page.waitForFunction(() => ['ready', 'error'].includes(document.querySelector('#skill').dataset.state));
      assert.equal(await page.evaluate(() => document.querySelector('#skill').dataset.state), 'ready');
      const byLead = await okJson<any[]>(t, `/v1/region/${ISO}/demand/skill`, { key, query: { id: REGION, actual_source: 'vendor_a' } });
      assert.ok(byLead.length >= 3 && byLead.every((r) => r.model === 'vendor_a' && r.n > 0), JSON.stringify(byLead));
      const lines = await page.evaluate(() =>
        (window.echarts.getInstanceByDom(document.querySelector('#skill-lead .chart')).getOption() as any).series.map((x: any) => ({
          name: x.name,
          data: x.data,
        })),
      );
      assert.deepEqual(
        lines.map((l: { name: string }) => l.name),
        ['vendor_a'],
      );
      assert.deepEqual(
        lines[0].data.slice(0, byLead.length),
        byLead.map((r) => r.mape),
      );
      assert.match(
        (await page.textContent('#skill .panel-status'))!,
        / by lead day over \d+ hours against vendor_a's actuals; drift over 0 days\.$/,
      );
      // One hour across runs: vendor_a's, the only forecast there is.
      const vintages = await vintagesOf(page, 'vendor_a');
      assert.ok(vintages.data.some(([, v]) => v !== null));
      // Panels no stored source serves show the API's own answer naming what exists.
      await page.waitForFunction(() => document.querySelector('#ensemble').dataset.state === 'error');
      assert.match((await page.textContent('#ensemble .panel-status'))!, /^404: The synthetic world is off \(GRIDCAST_WORLD=off\)/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'world-off.png'), fullPage: true });
      await page.close();
      assert.deepEqual(errors, []);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });
});
