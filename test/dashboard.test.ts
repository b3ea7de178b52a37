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

const ISO = 'ercot';
const REGION = 'ercot_total';
/** The overview cards, the ensemble, the vintages and the map. */
const PANELS = 7;

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
    assert.equal(canvases.length, 6);
    assert.ok(
      canvases.every((h) => h >= 200),
      `canvas heights ${canvases}`,
    );
    const price = await chartSeries(page, '.card[data-metric="price"]');
    assert.deepEqual(
      price.map((s) => s.name),
      ['Actual', 'Day-ahead forecast', 'Latest run'],
    );
    const hub = await page.inputValue('#price-node');
    const hubForecast = await okJson(t, `/v1/lmp/${ISO}/dalmp/forecast`, { key: enterpriseKey, query: { id: hub } });
    assert.deepEqual(price[2].data, at(hubForecast).slice(0, 168));
    assert.ok(nonNull(price[0].data) >= 24, 'cleared day-ahead prices shown as actuals');

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

    // One hour across runs: each point is what that run forecast for the hour.
    const vintages = (await chartSeries(page, '#vintages'))[0];
    assert.ok(vintages.data.length >= 16, `runs shown: ${vintages.data.length}`);
    const hourValue = await page.inputValue('#vintages-hour');
    const hour = new Date(`${hourValue}:00Z`).toISOString().replace('.000Z', 'Z');
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
    const cells = await okJson<unknown[]>(t, `/v1/cells/${ISO}/wind/list`, { key: enterpriseKey, query: { resolution: 4 } });
    const polygons = page.locator('#map path.leaflet-interactive');
    assert.equal(await polygons.count(), cells.length);
    const fills = async () => new Set(await polygons.evaluateAll((els) => els.map((e) => e.getAttribute('fill'))));
    const before = await fills();
    assert.ok(before.size > 10, `distinct colours: ${before.size}`);
    assert.match((await page.textContent('.map-legend')) ?? '', /wind, MW/);
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
    const pastHour = new Date(latestRun - 30 * 3_600_000).toISOString().slice(0, 16);
    await page.fill('#vintages-hour', pastHour);
    await page.click('#vintages-go');
    await waitForPanels(page);
    const past = (await chartSeries(page, '#vintages'))[0];
    const actual = await okJson(t, `/v1/region/${ISO}/demand/actual`, {
      key: enterpriseKey,
      query: { id: REGION, start: `${pastHour}:00Z`, end: `${pastHour}:00Z` },
    });
    assert.equal(past.markLine?.data[0].yAxis, actual.values[0][0]);
    assert.ok(
      past.data.every(([run]) => run <= Date.parse(`${pastHour}:00Z`)),
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

    // Real-time prices: forecasts only (the API publishes no real-time actuals), and the page says so.
    await page.selectOption('#price-type', 'rtlmp');
    await waitForPanels(page);
    assert.deepEqual(
      (await chartSeries(page, '.card[data-metric="price"]')).map((s) => s.name),
      ['Day-ahead forecast', 'Latest run'],
    );
    assert.match((await page.textContent('.card[data-metric="price"] .panel-status'))!, /Real-time prices have no published actuals/);

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

    await page.fill('#vintages-hour', '2025-06-01T12:00');
    await page.click('#vintages-go');
    await waitForPanels(page);
    assert.match(
      (await page.textContent('#vintages .panel-status'))!,
      /^422: query\.forecasted_by: Value error, no forecast run at or before forecasted_by/,
    );
    await page.locator('#vintages').screenshot({ path: path.join(SCREENSHOTS, 'vintages-422.png') });
    await closeChecked(page);
  });
});
