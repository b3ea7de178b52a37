/**
 * One conformance suite over every ISO and every target group, read from the ISO profiles and
 * the metric registry, so a new ISO or metric is checked without writing a test for it:
 * - sums: zones add up to the ISO total; the plants, the H3 cells and the counties add up to it;
 * - capacities: no plant produces more than its capacity (nor less than 0);
 * - prices: every LMP lies within the bounds the ISO's profile implies: the system price between
 *   the floor and the cap, moved by at most the zones' load-pocket factors, losses (±2 %), the
 *   day-ahead premium and export congestion (at most the dearest export price × the ISO's
 *   installed wind and solar);
 * - an unknown id is a 422 in the public error format, naming the list endpoint;
 * - the registry and the profiles are consistent (units, fixed ISO numbers).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ISO_CODES, ISO_PROFILES, isoNumber, type IsoCode } from '../src/catalog/isos.ts';
import { METRICS, metricsOf, UNIT_DECIMALS, type MetricName } from '../src/catalog/metrics.ts';
import { dayAheadPremium } from '../src/world/lmp.ts';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
});

after(async () => {
  await t?.close();
});

/** One local day of continuous (day-ahead) forecasts: the same run serves every group. */
const DAY = { start: '2026-06-08', end: '2026-06-08' };
const get = (path: string, query: Record<string, string | number> = {}) => okJson(t, path, { key, query: { ...DAY, ...query } });

const column = (ts: Timeseries, id: string) => ts.values[ts.columns.findIndex((c) => c[0] === id)];

/** Σ of every column per row, with the bound of the rounding error (each value is rounded to 0.1 MW). */
function columnSums(ts: Timeseries, except?: string): number[] {
  return ts.time_utc.map((_, i) => ts.values.reduce((s, v, c) => (ts.columns[c][0] === except ? s : s + (v[i] ?? 0)), 0));
}

function assertSums(total: (number | null)[], sums: number[], parts: number, what: string): void {
  assert.equal(total.length, sums.length, what);
  let checked = 0;
  total.forEach((v, i) => {
    if (v === null) return;
    assert.ok(Math.abs(v - sums[i]) <= 0.05 * (parts + 1) + 1e-6, `${what}, row ${i}: total ${v} vs Σ parts ${sums[i]}`);
    checked++;
  });
  assert.ok(checked >= 23, `${what}: only ${checked} rows with values`);
}

async function assertUnknownId(path: string, id: string, list: string): Promise<void> {
  const res = await t.get(path, { key, query: { ...DAY, id } });
  assert.equal(res.status, 422, `${path}: ${res.text}`);
  const item = res.json().detail[0];
  assert.equal(item.type, 'value_error', path);
  assert.deepEqual(item.loc, ['query', 'id'], path);
  assert.equal(item.input, id, path);
  assert.ok(item.msg.includes(list), `${path}: '${item.msg}' should name ${list}`);
}

describe('registry and profiles', () => {
  test('every metric has a unit with decimals, and every group kind is served', () => {
    for (const [name, spec] of Object.entries(METRICS)) {
      assert.ok(spec.unit in UNIT_DECIMALS, `${name}: ${spec.unit}`);
      assert.ok(spec.groups.length > 0, name);
    }
    // The ensemble serves exactly the metrics whose models include ensembles.
    const ensembleFamily = (Object.keys(METRICS) as MetricName[]).filter((m) =>
      (METRICS[m].models as readonly string[]).includes('ensemble'),
    );
    assert.deepEqual([...metricsOf('ensemble')], ensembleFamily);
  });

  test('ISO numbers are unique, so plant ids and random streams never collide', () => {
    const numbers = ISO_CODES.map(isoNumber);
    assert.equal(new Set(numbers).size, numbers.length);
    for (const iso of ISO_CODES) assert.equal(ISO_PROFILES[iso].code, iso);
  });
});

for (const iso of ISO_CODES) {
  describe(`${iso}`, () => {
    const total = `${iso}_total`;

    for (const metric of metricsOf('region').filter((m) => METRICS[m].cadence === 'hourly')) {
      test(`region ${metric}: the zones add up to the total, in ${METRICS[metric].unit}`, async () => {
        const regions = await get(`/v1/region/${iso}/${metric}/continuous`);
        assert.equal(regions.units, METRICS[metric].unit);
        const zones = regions.columns.length - 1;
        if (metric === 'poptemp') return; // a population-weighted mean, not a sum
        assertSums(column(regions, total), columnSums(regions, total), zones, `${iso} ${metric} zones`);
      });
    }

    for (const type of metricsOf('plant').filter((m) => METRICS[m].unit === 'MW')) {
      test(`plant ${type}: 0 ≤ output ≤ capacity, and the plants add up to the region total`, async () => {
        const capacity = new Map<string, number>(
          (await okJson<{ id: number; capacity_mw: number }[]>(t, `/v1/plant/${iso}/${type}/list`, { key })).map((p) => [
            String(p.id),
            p.capacity_mw,
          ]),
        );
        const plants = await get(`/v1/plant/${iso}/${type}/continuous`);
        plants.columns.forEach(([id], c) => {
          const cap = capacity.get(id);
          for (const v of plants.values[c]) {
            if (v === null) continue;
            assert.ok(v >= 0, `${id}: ${v}`);
            if (cap !== undefined) assert.ok(v <= cap + 0.05, `${id}: ${v} MW > capacity ${cap} MW`);
          }
        });
        const region = await get(`/v1/region/${iso}/${type}/continuous`, { id: total });
        assertSums(region.values[0], columnSums(plants), plants.columns.length, `${iso} ${type} plants`);
      });
    }

    for (const metric of metricsOf('cells')) {
      test(`cells ${metric}: the H3 cells add up to the ISO total`, async () => {
        const cells = await get(`/v1/cells/${iso}/${metric}/continuous`, { resolution: 2 });
        const region = await get(`/v1/region/${iso}/${metric}/continuous`, { id: total });
        assertSums(region.values[0], columnSums(cells), cells.columns.length, `${iso} ${metric} cells`);
      });
    }

    test('counties: their demand adds up to the ISO total', async () => {
      const counties = await get(`/v1/county/${iso}/continuous`);
      const region = await get(`/v1/region/${iso}/demand/continuous`, { id: total });
      assertSums(region.values[0], columnSums(counties), counties.columns.length, `${iso} counties`);
    });

    for (const type of metricsOf('lmp')) {
      test(`lmp ${type}: every price within the bounds of the ISO's floor, cap, pockets, losses and congestion`, async () => {
        const profile = ISO_PROFILES[iso as IsoCode];
        const { floor, cap } = profile.lmp;
        const zones = Object.values(profile.lmpZones);
        const pocket = Math.max(0, ...zones.map((z) => Math.abs(z.pocket ?? 0)));
        const installedGw = (profile.fleets.wind.targetMw + profile.fleets.solar.targetMw) / 1000;
        const congestion = Math.max(4, ...zones.map((z) => z.exportPrice ?? 0)) * installedGw;
        const low = Math.min(floor * (1 + 1.5 * pocket) * 1.02, floor) - congestion;
        const high = cap * (1 + 1.5 * pocket) * 1.02 + dayAheadPremium(cap * 1.5);
        const prices = await get(`/v1/lmp/${iso}/${type}/continuous`);
        assert.equal(prices.units, METRICS[type].unit);
        let n = 0;
        for (const values of prices.values) {
          for (const v of values) {
            if (v === null) continue;
            assert.ok(v >= low && v <= high, `${type} ${v} outside [${low}, ${high}]`);
            n++;
          }
        }
        assert.ok(n >= 24 * prices.columns.length);
      });
    }

    test('an unknown id is a 422 naming the list, in every group', async () => {
      for (const metric of metricsOf('region'))
        await assertUnknownId(`/v1/region/${iso}/${metric}/continuous`, `${iso}_nowhere`, `/v1/region/${iso}/${metric}/list`);
      for (const metric of metricsOf('plant'))
        await assertUnknownId(`/v1/plant/${iso}/${metric}/continuous`, '999999', `/v1/plant/${iso}/${metric}/list`);
      for (const metric of metricsOf('cells'))
        await assertUnknownId(`/v1/cells/${iso}/${metric}/continuous`, '823b07fffffffff', `/v1/cells/${iso}/${metric}/list`);
      await assertUnknownId(`/v1/county/${iso}/continuous`, '99999', `/v1/county/${iso}/list`);
      for (const type of metricsOf('lmp'))
        await assertUnknownId(`/v1/lmp/${iso}/${type}/continuous`, 'NOWHERE', `/v1/lmp/${iso}/${type}/list`);
    });
  });
}

test('gas: an unknown hub id is a 422 naming the list', async () => {
  await assertUnknownId('/v1/gas/continuous', 'nowhere_hub', '/v1/gas/list');
});
