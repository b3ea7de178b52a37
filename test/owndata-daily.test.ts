/**
 * Own data (issue 20), daily series: a region's outage (one value per local day) is ingested and
 * served with the semantics of the synthetic daily series. A synthetic model's outage runs and the
 * outage actuals, exported through the API in the long layout and ingested back as `replay`, are
 * served value for value as the synthetic ones by forecast (forecasted_by), continuous and actual;
 * actuals are known once their day has ended (as_of); a value at another hour than a local
 * midnight is a bad row with its line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'owndata-daily-token';
const OUTAGE = '/v1/region/ercot/outage';
const ID = 'ercot_total';
const MODEL = 'optimized';

describe('own data: daily (outage) series ingested and served as the synthetic ones', () => {
  let t: TestApp;
  let key: string;
  const json = async (p: string, query: Record<string, string | number>) => {
    const res = await t.get(p, { key, query });
    assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
    return res.json();
  };
  const ingest = (body: string, query: Record<string, string> = {}) =>
    t.request('POST', '/admin/ingest', {
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' },
      body,
      query: { source: 'replay', group: 'region', iso: 'ercot', metric: 'outage', ...query },
    });
  const same = (synthetic: Record<string, unknown>, replay: Record<string, unknown>) => {
    assert.equal(replay.model, 'replay');
    assert.deepEqual({ ...replay, model: synthetic.model }, synthetic);
  };

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ ercot: 'enterprise' });
    // The daily series' runs are the model's runs (the same schedule as its hourly series).
    const runs: { created_at: string }[] = await json('/v1/region/ercot/demand/runs', {
      model: MODEL,
      start: '2026-06-01',
      end: '2026-06-05',
    });
    assert.ok(runs.length >= 5);
    const lines = ['time_utc,time_local,id,value,created_at'];
    for (const run of runs) {
      const res = await t.get(`${OUTAGE}/forecast`, {
        key,
        query: { model: MODEL, forecasted_by: run.created_at, id: ID, format: 'csv', layout: 'long' },
      });
      assert.equal(res.status, 200, res.text);
      const [, ...rows] = res.text.trim().split(/\r?\n/);
      for (const row of rows) lines.push(`${row},${run.created_at}`);
    }
    const forecasts = await ingest(lines.join('\n') + '\n');
    assert.equal(forecasts.status, 200, forecasts.text);
    assert.equal(forecasts.json().runsAdded, runs.length);
    const actual = await t.get(`${OUTAGE}/actual`, {
      key,
      query: { id: ID, start: '2026-06-01', end: '2026-06-12', format: 'csv', layout: 'long' },
    });
    assert.equal(actual.status, 200, actual.text);
    const actuals = await ingest(actual.text);
    assert.equal(actuals.status, 200, actuals.text);
    assert.deepEqual([actuals.json().kind, actuals.json().actualsAdded], ['actual', 12]);
  });
  after(() => t?.close());

  test('forecast?forecasted_by equals the synthetic daily run, at run times and between them', async () => {
    for (const at of ['2026-06-02T06:00:00Z', '2026-06-03T13:27:00Z', '2026-06-05T23:59:00Z']) {
      const q = { id: ID, forecasted_by: at };
      same(await json(`${OUTAGE}/forecast`, { ...q, model: MODEL }), await json(`${OUTAGE}/forecast`, { ...q, model: 'replay' }));
    }
  });

  test('continuous equals the synthetic daily stitching for several days_ahead and latest_hour', async () => {
    for (const [daysAhead, latestHour, start, end] of [
      [1, 10, '2026-06-04', '2026-06-06'],
      [2, 0, '2026-06-05', '2026-06-07'],
      [3, 23, '2026-06-05', '2026-06-08'],
    ] as const) {
      const q = { id: ID, start, end, days_ahead: daysAhead, latest_hour: latestHour };
      const synthetic = await json(`${OUTAGE}/continuous`, { ...q, model: MODEL });
      assert.ok(synthetic.time_utc.length >= 2);
      same(synthetic, await json(`${OUTAGE}/continuous`, { ...q, model: 'replay' }));
    }
  });

  test('actual?source=replay equals the synthetic daily actuals; as_of: a day is known once it has ended', async () => {
    const q = { id: ID, start: '2026-06-02', end: '2026-06-09' };
    const synthetic = await json(`${OUTAGE}/actual`, q);
    assert.equal(synthetic.time_utc.length, 8);
    assert.deepEqual(await json(`${OUTAGE}/actual`, { ...q, source: 'replay' }), synthetic);
    // 2026-06-04 ends at 05:00 UTC on 06-05 (CDT): just before, the stored actuals end with 06-03.
    const before = await json(`${OUTAGE}/actual`, { ...q, source: 'replay', as_of: '2026-06-05T04:59:00Z' });
    assert.deepEqual(before.time_utc, synthetic.time_utc.slice(0, 2));
    assert.deepEqual(before.values, [synthetic.values[0].slice(0, 2)]);
    const atEnd = await json(`${OUTAGE}/actual`, { ...q, source: 'replay', as_of: '2026-06-05T05:00:00Z' });
    assert.deepEqual(atEnd.time_utc, synthetic.time_utc.slice(0, 3));
  });

  test('a corrected daily actual: as_of returns the value published by then', async () => {
    const res = await ingest(
      'time_utc,id,value,published_at\n2026-06-10T05:00:00Z,ercot_coast,1234.5,2026-06-11T05:00:00Z\n' +
        '2026-06-10T05:00:00Z,ercot_coast,1300,2026-06-12T12:00:00Z\n',
      { source: 'revised' },
    );
    assert.equal(res.status, 200, res.text);
    const q = { id: 'ercot_coast', start: '2026-06-10', end: '2026-06-10', source: 'revised' };
    assert.deepEqual((await json(`${OUTAGE}/actual`, { ...q, as_of: '2026-06-12T00:00:00Z' })).values, [[1234.5]]);
    assert.deepEqual((await json(`${OUTAGE}/actual`, q)).values, [[1300]]);
  });

  test('runs and vintages of the daily series are refused for a stored source as for a model', async () => {
    for (const [kind, query] of [
      ['runs', {}],
      ['vintages', { id: ID, valid_time: '2026-06-05' }],
    ] as const) {
      const synthetic = await t.get(`${OUTAGE}/${kind}`, { key, query: { ...query, model: MODEL } });
      const replay = await t.get(`${OUTAGE}/${kind}`, { key, query: { ...query, model: 'replay' } });
      assert.equal(synthetic.status, 422);
      assert.equal(replay.status, 422);
      assert.equal(replay.text, synthetic.text);
      assert.equal(
        replay.text,
        '{"detail":[{"type":"value_error","loc":["path","metric"],"msg":"Value error, runs and vintages are served for the hourly metrics; outage is daily","input":"outage"}]}',
      );
    }
  });

  test('a daily value at another hour than the local midnight is a bad row with its line; nothing stored', async () => {
    const csv =
      'time_utc,id,value,created_at\n' +
      '2026-06-10T05:00:00Z,ercot_total,5000,2026-06-09T12:00:00Z\n' +
      '2026-06-11T06:00:00Z,ercot_total,5100,2026-06-09T12:00:00Z\n';
    const res = await ingest(csv, { source: 'badhours' });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().detail, [
      {
        type: 'value_error',
        loc: ['body', 'line', 3],
        msg: 'Value error, 2026-06-11T06:00:00Z is not the start of a local day in ercot (midnight America/Chicago): outage is daily, one value per local day',
        input: null,
      },
    ]);
    const status = await json('/v1/status', {});
    assert.ok(!JSON.stringify(status).includes('badhours'));
  });
});
