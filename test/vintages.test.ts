/**
 * Runs and vintages: the runs list follows each model's schedule and never shows a run from the
 * future; every vintage equals the forecast of that run (`/forecast?forecasted_by=<created_at>`)
 * for that hour (a property over random hours, runs, models and groups).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NOW_ISO, okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ ercot: 'enterprise', pjm: 'enterprise' });
});
after(() => t.close());

interface Run {
  model: string;
  created_at: string;
  first_valid_time: string;
  last_valid_time: string;
  horizon_hours: number;
}

const HOUR = 3_600_000;

describe('runs', () => {
  test("a window's runs follow the model's schedule, oldest first, none after now", async () => {
    for (const [model, cadence, horizon] of [
      ['optimized', 1, 360],
      ['iso', 6, 192],
      ['normal', 24, 360],
    ] as const) {
      const runs = await okJson<Run[]>(t, '/v1/region/ercot/demand/runs', {
        key,
        query: { model, start: '2026-06-10', end: '2026-06-20' },
      });
      const created = runs.map((r) => Date.parse(r.created_at));
      assert.ok(runs.length > 0, model);
      assert.ok(created[0] >= Date.parse('2026-06-10T05:00:00Z'), `${model}: from local midnight of the start day`);
      assert.ok(created.at(-1)! <= Date.parse(NOW_ISO) && created.at(-1)! > Date.parse(NOW_ISO) - cadence * HOUR, `${model}: up to now`);
      created.forEach((c, i) => {
        assert.equal((c / HOUR) % cadence, 0, `${model} run at its cadence`);
        if (i > 0) assert.equal(c - created[i - 1], cadence * HOUR, `${model}: no gap`);
        assert.deepEqual(runs[i], {
          model,
          created_at: new Date(c).toISOString().replace('.000Z', 'Z'),
          first_valid_time: new Date(c).toISOString().replace('.000Z', 'Z'),
          last_valid_time: new Date(c + (horizon - 1) * HOUR).toISOString().replace('.000Z', 'Z'),
          horizon_hours: horizon,
        });
      });
    }
  });

  test('the default window is the local day of now, up to now; the list works in CSV too', async () => {
    const runs = await okJson<Run[]>(t, '/v1/plant/ercot/wind/runs', { key });
    assert.equal(runs.at(-1)!.created_at, '2026-06-15T18:00:00Z');
    // From local midnight of the day of end (05:00Z in Chicago's summer) to now (18:00Z).
    assert.deepEqual([runs[0].created_at, runs.length], ['2026-06-15T05:00:00Z', 14]);
    const csv = await t.get('/v1/plant/ercot/wind/runs', { key, query: { format: 'csv' } });
    assert.equal(csv.text.split('\r\n')[0], 'model,created_at,first_valid_time,last_valid_time,horizon_hours');
  });
});

describe('vintages', () => {
  test('rows are the runs covering the hours, columns the valid hours; null outside a run', async () => {
    const v = await okJson<Timeseries>(t, '/v1/region/ercot/demand/vintages', {
      key,
      query: { id: 'ercot_total', valid_time: '2026-06-12', model: 'iso' },
    });
    // The local day 2026-06-12 in Chicago is 05:00Z … 04:00Z next day.
    assert.equal(v.columns.length, 24);
    assert.deepEqual(v.columns[0], ['ercot_total', '2026-06-12T05:00:00Z']);
    const runs = await okJson<Run[]>(t, '/v1/region/ercot/demand/runs', {
      key,
      query: { model: 'iso', start: '2026-06-04T00:00:00Z', end: '2026-06-13T04:00:00Z' },
    });
    const covering = runs.filter((r) => Date.parse(r.last_valid_time) >= Date.parse('2026-06-12T05:00:00Z')).map((r) => r.created_at);
    assert.deepEqual(v.time_utc, covering);
    v.columns.forEach(([, hour], c) =>
      v.time_utc.forEach((created, r) => {
        const lead = (Date.parse(hour) - Date.parse(created)) / HOUR;
        assert.equal(v.values[c][r] === null, lead < 0 || lead >= 192, `${created} for ${hour}`);
      }),
    );
  });

  test('property: a vintage equals /forecast?forecasted_by=<that run> for that hour', async () => {
    const cases = [
      { path: '/v1/region/ercot/demand', id: 'ercot_total', models: ['optimized', 'iso', 'normal'] },
      { path: '/v1/region/pjm/poptemp', id: 'pjm_total', models: ['optimized', 'iso'] },
      { path: '/v1/plant/ercot/wind', id: '56001', models: ['optimized', 'iso'] },
      { path: '/v1/lmp/ercot/dalmp', id: 'HB_HOUSTON', models: ['optimized'] },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.integer({ min: 0, max: 5 }),
        // Valid hours from the start of history to a week after now.
        fc.integer({ min: Date.parse('2026-01-01T06:00:00Z') / HOUR, max: Date.parse(NOW_ISO) / HOUR + 168 }),
        fc.nat(),
        async (c, m, hour, pick) => {
          const model = c.models[m % c.models.length];
          const validTime = new Date(hour * HOUR).toISOString().replace('.000Z', 'Z');
          const v = await okJson<Timeseries>(t, `${c.path}/vintages`, { key, query: { id: c.id, model, valid_time: validTime } });
          assert.deepEqual(v.columns, [[c.id, validTime]]);
          const r = pick % v.time_utc.length;
          const f = await okJson<Timeseries>(t, `${c.path}/forecast`, { key, query: { id: c.id, model, forecasted_by: v.time_utc[r] } });
          assert.equal(f.created_at, v.time_utc[r]);
          const i = f.time_utc.indexOf(validTime);
          assert.equal(v.values[0][r], i < 0 ? null : f.values[0][i], `${c.path} ${model} run ${v.time_utc[r]} at ${validTime}`);
        },
      ),
      { numRuns: 25, seed: 13 },
    );
  });

  test('errors: valid_time and id are required; no run covers a valid time far in the future; outage is daily', async () => {
    const missing = await t.get('/v1/region/ercot/demand/vintages', { key });
    assert.equal(missing.status, 422);
    assert.deepEqual(
      missing.json().detail.map((d: any) => [d.type, d.loc]),
      [
        ['missing', ['query', 'valid_time']],
        ['missing', ['query', 'id']],
      ],
    );
    const future = await t.get('/v1/region/ercot/demand/vintages', {
      key,
      query: { id: 'ercot_total', valid_time: '2027-06-01T00:00:00Z' },
    });
    assert.equal(future.status, 422);
    assert.deepEqual(future.json().detail[0].loc, ['query', 'valid_time']);
    const outage = await t.get('/v1/region/ercot/outage/runs', { key });
    assert.equal(outage.status, 422);
    assert.deepEqual(outage.json().detail[0].loc, ['path', 'metric']);
  });
});
