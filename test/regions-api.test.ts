/**
 * Regions over HTTP: the list, and the consistency rules users rely on — a zone is the
 * sum of its plants, the ISO total the sum of its zones (for truth and every model), actuals
 * never run ahead of now, and a forecast issued before an hour never changes afterwards.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../src/time/clock.ts';
import { startServer, startTestApp, type TestApp, type TestServer } from './helpers.ts';

let t: TestApp;
let later: TestServer;
let key: string;
let coreKey: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
  coreKey = await t.key({ spp: 'core' });
  // The same store seen a week later: what was issued before must not have changed.
  later = await startServer(t.store, { clock: fixedClock(Date.parse('2026-06-22T18:00:00Z')) });
});

after(async () => {
  await later?.close();
  await t?.close();
});

const labelsOf = (body: any): string[] => body.columns.map((c: string[]) => c[0]);
const column = (body: any, id: string): (number | null)[] => body.values[labelsOf(body).indexOf(id)];

describe('region list', () => {
  test('the total first, then the zones, with the public record fields', async () => {
    const res = await t.get('/v1/region/spp/wind/list', { key: coreKey });
    assert.equal(res.status, 200);
    const list = res.json();
    assert.deepEqual(list[0], { id: 'spp_total', name: 'SPP Total', region_type: 'iso', iso: 'spp', timezone: 'America/Chicago' });
    assert.ok(list.length >= 3);
    for (const r of list.slice(1)) {
      assert.match(r.id, /^spp_[a-z0-9_]+$/);
      assert.equal(r.region_type, 'zone');
    }
  });

  test('the region group needs only the core level; backcast needs enterprise', async () => {
    assert.equal((await t.get('/v1/region/spp/wind/actual', { key: coreKey })).status, 200);
    const res = await t.get('/v1/region/spp/wind/backcast', { key: coreKey });
    assert.equal(res.status, 403);
    assert.equal(
      res.text,
      `{"detail":[{"type":"error","msg":"Your subscription for ISO 'spp' is at the 'core' level. This endpoint needs the 'enterprise' level or higher for 'spp'."}]}`,
    );
  });
});

describe('aggregates add up', () => {
  for (const kind of ['continuous', 'actual', 'forecast'] as const) {
    test(`${kind}: ERCOT zones sum to the total, and the total to the plants (within rounding)`, async () => {
      const query = kind === 'forecast' ? { forecasted_by: '2026-06-10T15:00:00Z' } : { start: '2026-06-08', end: '2026-06-09' };
      const regions = (await t.get(`/v1/region/ercot/wind/${kind}`, { key, query })).json();
      const plantKind = kind === 'actual' ? 'backcast' : kind; // plants have no actuals: compare shapes only below
      const total = column(regions, 'ercot_total');
      const zones = labelsOf(regions).filter((id) => id !== 'ercot_total');
      assert.ok(zones.length >= 5);
      let checked = 0;
      for (let i = 0; i < total.length; i++) {
        if (total[i] === null) continue;
        const sum = zones.reduce((s, z) => s + (column(regions, z)[i] ?? 0), 0);
        assert.ok(Math.abs(total[i]! - sum) <= 0.05 * zones.length + 1e-9, `hour ${i}: total ${total[i]} vs zones ${sum}`);
        checked++;
      }
      assert.ok(checked > 24);
      if (plantKind !== 'backcast') {
        const plants = (await t.get(`/v1/plant/ercot/wind/${kind}`, { key, query })).json();
        assert.deepEqual(plants.time_utc, regions.time_utc);
        for (let i = 0; i < total.length; i += 7) {
          if (total[i] === null) continue;
          const sum = plants.values.reduce((s: number, v: (number | null)[]) => s + (v[i] ?? 0), 0);
          assert.ok(Math.abs(total[i]! - sum) <= 0.05 * plants.values.length, `hour ${i}: total ${total[i]} vs plants ${sum}`);
        }
      }
    });
  }

  test('solar totals are 0 at night and within the fleet capacity', async () => {
    const body = (
      await t.get('/v1/region/caiso/solar/actual', { key, query: { id: 'caiso_total', start: '2026-06-01', end: '2026-06-02' } })
    ).json();
    const values = body.values[0] as number[];
    body.time_local.forEach((local: string, i: number) => {
      const hour = Number(local.slice(11, 13));
      if (hour <= 3 || hour >= 22) assert.equal(values[i], 0, local);
    });
    assert.ok(Math.max(...values) > 5000 && Math.max(...values) < 20_000, `peak ${Math.max(...values)} MW of ~20 GW`);
  });
});

describe('time travel', () => {
  test('actuals stop at the last published hour (15 minutes after it ends)', async () => {
    const body = (await t.get('/v1/region/ercot/wind/actual', { key, query: { id: 'ercot_total' } })).json();
    assert.equal(body.model, null);
    assert.equal(body.created_at, null);
    assert.equal(body.time_utc.at(-1), '2026-06-15T16:00:00Z'); // now is 18:00Z: 17:00–18:00 is not yet published
    // The 7 local days (June 9–15, CDT) ending at the last published hour: from June 9 00:00 CDT
    // (05:00Z) to June 15 16:00Z is 6 whole days plus 12 hours.
    assert.equal(body.time_utc[0], '2026-06-09T05:00:00Z');
    assert.equal(body.time_utc.length, 6 * 24 + 12);
  });

  test('a forecast issued before an hour never changes afterwards', async () => {
    const query = { id: 'ercot_total', forecasted_by: '2026-06-12T10:00:00Z' };
    const then = await t.get('/v1/region/ercot/wind/forecast', { key, query });
    const weekLater = await later.get('/v1/region/ercot/wind/forecast', { key, query });
    assert.equal(then.status, 200);
    assert.equal(weekLater.text, then.text);
    assert.equal(then.json().created_at, '2026-06-12T10:00:00Z');
    const latest = (await later.get('/v1/region/ercot/wind/forecast', { key, query: { id: 'ercot_total' } })).json();
    assert.equal(latest.created_at, '2026-06-22T18:00:00Z');
  });

  test('forecasted_by after now means the latest run that exists now', async () => {
    const body = (
      await t.get('/v1/region/ercot/wind/forecast', { key, query: { id: 'ercot_west', forecasted_by: '2030-01-01T00:00:00Z' } })
    ).json();
    assert.equal(body.created_at, '2026-06-15T18:00:00Z');
  });
});

describe('demand and population-weighted temperature', () => {
  test('PJM demand: zones sum to the total, units, realistic level and day-ahead error', async () => {
    const query = { start: '2026-06-01', end: '2026-06-07' };
    const forecast = (await t.get('/v1/region/pjm/demand/continuous', { key, query })).json();
    const actual = (await t.get('/v1/region/pjm/demand/actual', { key, query })).json();
    assert.equal(forecast.units, 'MW');
    assert.deepEqual(forecast.time_utc, actual.time_utc);
    const total = column(forecast, 'pjm_total') as number[];
    const zones = labelsOf(forecast).filter((id) => id !== 'pjm_total');
    assert.ok(zones.length >= 15, `${zones.length} PJM zones`);
    for (let i = 0; i < total.length; i++) {
      const sum = zones.reduce((s, z) => s + (column(forecast, z)[i] as number), 0);
      assert.ok(Math.abs(total[i] - sum) <= 0.05 * zones.length, `hour ${i}`);
    }
    const truth = column(actual, 'pjm_total') as number[];
    assert.ok(Math.min(...truth) > 45_000 && Math.max(...truth) < 170_000, `PJM load ${Math.min(...truth)}..${Math.max(...truth)} MW`);
    const mape = (100 * truth.reduce((s, x, i) => s + Math.abs(total[i] - x) / x, 0)) / truth.length;
    assert.ok(mape > 0.5 && mape < 6, `day-ahead MAPE ${mape.toFixed(2)} %`);
  });

  test('poptemp is in °C, plausible for June, and the total lies within its zones', async () => {
    const body = (await t.get('/v1/region/ercot/poptemp/actual', { key, query: { start: '2026-06-01', end: '2026-06-02' } })).json();
    assert.equal(body.units, '°C');
    const total = column(body, 'ercot_total') as number[];
    const zones = labelsOf(body).filter((id) => id !== 'ercot_total');
    total.forEach((v, i) => {
      const zoneValues = zones.map((z) => column(body, z)[i] as number);
      assert.ok(v >= Math.min(...zoneValues) - 0.01 && v <= Math.max(...zoneValues) + 0.01, `hour ${i}`);
      assert.ok(v > 10 && v < 45, `${v} °C`);
    });
  });
});

describe('daily outages', () => {
  test('one row per local day at local midnight, zones summing to the total, actuals only for complete days', async () => {
    const body = (await t.get('/v1/region/pjm/outage/actual', { key })).json();
    assert.equal(body.units, 'MW');
    assert.equal(body.model, null);
    // now is 2026-06-15T18:00Z (14:00 EDT): the last complete day is June 14; 7 days back.
    assert.deepEqual(
      body.time_local,
      ['08', '09', '10', '11', '12', '13', '14'].map((d) => `2026-06-${d}T00:00:00-04:00`),
    );
    const total = column(body, 'pjm_total') as number[];
    const zones = labelsOf(body).filter((id) => id !== 'pjm_total');
    total.forEach((v, i) => {
      const sum = zones.reduce((s, z) => s + (column(body, z)[i] as number), 0);
      assert.ok(Math.abs(v - sum) <= 0.05 * zones.length, `day ${i}: ${v} vs ${sum}`);
      assert.ok(v > 3_000 && v < 40_000, `PJM June outage ${v} MW`);
    });
  });

  test('the spring-forward day starts at its own local midnight', async () => {
    const body = (
      await t.get('/v1/region/isone/outage/continuous', { key, query: { id: 'isone_total', start: '2026-03-07', end: '2026-03-09' } })
    ).json();
    assert.deepEqual(body.time_utc, ['2026-03-07T05:00:00Z', '2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z']);
    assert.deepEqual(body.time_local, ['2026-03-07T00:00:00-05:00', '2026-03-08T00:00:00-05:00', '2026-03-09T00:00:00-04:00']);
  });

  test('a forecast run covers its own day through its horizon, and continuous day-ahead tracks the actuals', async () => {
    const fc = (await t.get('/v1/region/miso/outage/forecast', { key, query: { id: 'miso_total' } })).json();
    assert.equal(fc.created_at, '2026-06-15T18:00:00Z');
    assert.equal(fc.time_local[0], '2026-06-15T00:00:00-05:00');
    assert.equal(fc.time_utc.length, 16);
    const query = { id: 'miso_total', start: '2026-05-01', end: '2026-05-31' };
    const dayAhead = (await t.get('/v1/region/miso/outage/continuous', { key, query })).json().values[0] as number[];
    const actual = (await t.get('/v1/region/miso/outage/actual', { key, query })).json().values[0] as number[];
    const mape = (100 * actual.reduce((s, x, i) => s + Math.abs(dayAhead[i] - x) / x, 0)) / actual.length;
    assert.ok(mape > 0.1 && mape < 15, `day-ahead outage MAPE ${mape.toFixed(2)} %`);
  });
});

describe('ISO summary', () => {
  test('every region and metric, forecast and actual, split at as_of', async () => {
    const res = await t.get('/v1/region/nyiso/summary', { key: await t.key({ nyiso: 'core' }) });
    assert.equal(res.status, 200);
    const body = res.json();
    assert.equal(body.units, 'mixed');
    assert.equal(body.model, null);
    assert.equal(body.time_local[0], '2026-06-13T00:00:00-04:00');
    assert.equal(body.time_utc.length, 240);
    const regions = (await t.get('/v1/region/nyiso/demand/list', { key })).json().map((r: any) => r.id);
    // Regions × metrics × kinds, then the day-ahead LMPs of NYISO's 11 zones (it has no hubs).
    assert.equal(body.columns.length, regions.length * 5 * 2 + 11 * 2);
    assert.deepEqual(body.columns.at(-1), ['LONGIL', 'dalmp', 'actual']);
    assert.deepEqual(body.columns.slice(0, 3), [
      ['nyiso_total', 'demand', 'forecast'],
      ['nyiso_total', 'demand', 'actual'],
      ['nyiso_total', 'wind', 'forecast'],
    ]);
    const col = (region: string, metric: string, kind: string) =>
      body.values[body.columns.findIndex((c: string[]) => c.join() === [region, metric, kind].join())] as (number | null)[];
    const actual = col('nyiso_total', 'demand', 'actual');
    const forecast = col('nyiso_total', 'demand', 'forecast');
    const lastActual = body.time_utc.indexOf('2026-06-15T16:00:00Z');
    assert.ok(actual.slice(0, lastActual + 1).every((v) => v !== null) && actual.slice(lastActual + 1).every((v) => v === null));
    const firstForecast = body.time_utc.indexOf('2026-06-15T18:00:00Z');
    assert.ok(forecast.slice(0, firstForecast).every((v) => v === null) && forecast.slice(firstForecast).every((v) => v !== null));
    // The summary's actuals are the actual endpoint's values.
    const direct = (
      await t.get('/v1/region/nyiso/demand/actual', { key, query: { id: 'nyiso_total', start: '2026-06-13', end: '2026-06-15' } })
    ).json();
    assert.deepEqual(actual.slice(0, direct.values[0].length), direct.values[0]);
  });

  test('as_of travels back: the rows and the split move with it', async () => {
    const body = (await t.get('/v1/region/nyiso/summary', { key, query: { as_of: '2026-03-10T12:00:00Z' } })).json();
    assert.equal(body.time_local[0], '2026-03-08T00:00:00-05:00');
    assert.equal(body.time_utc.length, 239); // ten local days, one of them 23 hours long
  });
});

describe('continuous is the stitched forecast', () => {
  for (const metric of ['demand', 'wind', 'poptemp'] as const) {
    test(`${metric}: continuous for day D with days_ahead 2 equals D's hours of the forecast issued (D − 2) at latest_hour`, async () => {
      // D = 2026-03-08 (spring forward, 23 hours in Chicago); run picked at 2026-03-06 09:00 CST = 15:00Z.
      const continuous = (
        await t.get(`/v1/region/ercot/${metric}/continuous`, {
          key,
          query: { id: 'ercot_north', start: '2026-03-08', end: '2026-03-08', days_ahead: 2, latest_hour: 9 },
        })
      ).json();
      const forecast = (
        await t.get(`/v1/region/ercot/${metric}/forecast`, { key, query: { id: 'ercot_north', forecasted_by: '2026-03-06T15:00:00Z' } })
      ).json();
      assert.equal(forecast.created_at, '2026-03-06T15:00:00Z');
      assert.equal(continuous.time_utc.length, 23);
      const from = forecast.time_utc.indexOf(continuous.time_utc[0]);
      assert.ok(from > 0);
      assert.deepEqual(forecast.time_utc.slice(from, from + 23), continuous.time_utc);
      assert.deepEqual(forecast.values[0].slice(from, from + 23), continuous.values[0]);
    });
  }

  test('outage: the continuous day equals that day of the forecast run', async () => {
    const continuous = (
      await t.get('/v1/region/pjm/outage/continuous', {
        key,
        query: { id: 'pjm_total', start: '2026-04-10', end: '2026-04-10', days_ahead: 3 },
      })
    ).json();
    // 2026-04-07 10:00 EDT = 14:00Z
    const forecast = (
      await t.get('/v1/region/pjm/outage/forecast', { key, query: { id: 'pjm_total', forecasted_by: '2026-04-07T14:00:00Z' } })
    ).json();
    const at = forecast.time_local.indexOf('2026-04-10T00:00:00-04:00');
    assert.equal(at, 3);
    assert.deepEqual(continuous.values[0], [forecast.values[0][at]]);
  });
});
