/**
 * LMP skill (issue 21): /lmp/{iso}/{type}/skill scores a node's price forecasts against its realised
 * prices, from exactly what /continuous and /actual return, with the price MAPE rule (hours whose
 * |actual| is below 10 % of the mean |actual| are left out: prices cross zero).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../src/time/clock.ts';
import { okJson, startTestApp, type TestApp } from './helpers.ts';

const NOW = '2026-11-20T18:00:00Z';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp({ clock: fixedClock(Date.parse(NOW)) });
  key = await t.key({ ercot: 'core' });
});

after(async () => {
  await t?.close();
});

const close = (actual: number | null, expected: number, tolerance: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected}`);

/** The forecast and actual prices of one node, paired by time_utc where both are present. */
async function pairs(path: string, window: Record<string, string>, continuous: Record<string, string | number>) {
  const c = await okJson(t, `${path}/continuous`, { key, query: { ...window, ...continuous } });
  const a = await okJson(t, `${path}/actual`, { key, query: window });
  const actualAt = new Map(a.time_utc.map((u, i) => [u, a.values[0][i]]));
  const out: { f: number; a: number }[] = [];
  c.time_utc.forEach((u, i) => {
    const f = c.values[0][i];
    const y = actualAt.get(u);
    if (f !== null && y !== null && y !== undefined) out.push({ f, a: y });
  });
  return out;
}

describe('GET /v1/lmp/{iso}/{type}/skill', () => {
  const path = '/v1/lmp/ercot/rtlmp';
  // West Texas in April: wind pushes real-time prices through zero (negative in ~70 hours).
  const window = { id: 'HB_WEST', start: '2026-04-01', end: '2026-04-30' };

  test('a node with prices near zero and below: scores by hand, MAPE leaving out |actual| below 10 % of the mean', async () => {
    const p = await pairs(path, window, { model: 'optimized', days_ahead: 1 });
    const n = p.length;
    const meanAbs = p.reduce((s, r) => s + Math.abs(r.a), 0) / n;
    const kept = p.filter((r) => r.a !== 0 && Math.abs(r.a) >= 0.1 * meanAbs);
    assert.ok(p.some((r) => r.a < 0) && kept.length < n, 'the window has negative and near-zero prices');
    const res = await t.get(`${path}/skill`, { key, query: { ...window, model: 'optimized', days_ahead: '1' } });
    assert.equal(res.status, 200, res.text);
    const [record] = res.json();
    assert.equal(record.model, 'optimized');
    assert.equal(record.n, n);
    // Prices are served to the cent: unit scores to 4 decimals.
    close(record.mae, p.reduce((s, r) => s + Math.abs(r.f - r.a), 0) / n, 0.00006, 'mae');
    close(record.bias, p.reduce((s, r) => s + r.f - r.a, 0) / n, 0.00006, 'bias');
    assert.equal(record.mape_skipped, n - kept.length);
    close(record.mape, (100 * kept.reduce((s, r) => s + Math.abs(r.f - r.a) / Math.abs(r.a), 0)) / kept.length, 0.00006, 'mape');
    assert.deepEqual([record.nmae_pct_capacity, record.skill_vs_normal], [null, null]);
  });

  test('without id: the first trading hub /list gives; dalmp too; default models optimized and iso', async () => {
    const list = await okJson<{ id: string; node_type: string }[]>(t, '/v1/lmp/ercot/dalmp/list', { key });
    assert.equal(list[0].node_type, 'hub');
    for (const type of ['dalmp', 'rtlmp']) {
      const query = { start: '2026-06-01', end: '2026-06-07', days_ahead: '1,2' };
      const byDefault = await t.get(`/v1/lmp/ercot/${type}/skill`, { key, query });
      const explicit = await t.get(`/v1/lmp/ercot/${type}/skill`, { key, query: { ...query, id: list[0].id } });
      assert.equal(byDefault.status, 200, byDefault.text);
      assert.deepEqual(byDefault.json(), explicit.json());
      assert.deepEqual(
        byDefault.json().map((r: any) => [r.model, r.days_ahead]),
        [
          ['optimized', 1],
          ['optimized', 2],
          ['iso', 1],
          ['iso', 2],
        ],
      );
    }
  });

  test('an unknown node: the 422 /actual gives for it', async () => {
    const query = { id: 'NOPE', start: '2026-06-01', end: '2026-06-07' };
    const skill = await t.get(`${path}/skill`, { key, query });
    const actual = await t.get(`${path}/actual`, { key, query });
    assert.equal(skill.status, 422);
    assert.deepEqual(skill.json(), actual.json());
  });
});
