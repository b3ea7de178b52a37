/**
 * Ensemble quantiles and stats: the summaries equal the estimator applied to the members the same
 * request returns without them, bad values are pydantic-style 422s, and over 2026 the truth falls
 * inside P10–P90 in about 80 % of hours (the coverage per metric is printed).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENSEMBLE_METRICS } from '../src/query/ensemble.ts';
import { fixedClock } from '../src/time/clock.ts';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  // A clock at the end of 2026, so that a year of runs has its actuals.
  t = await startTestApp({ clock: fixedClock(Date.parse('2026-12-31T00:00:00Z')) });
  key = await t.key({ ercot: 'core', pjm: 'core' });
});
after(() => t.close());

const ENSEMBLE = '/v1/region/ercot/demand/ensemble';
const RUN = { id: 'ercot_total', forecasted_by: '2026-05-02T12:00:00Z' };

/** Hyndman–Fan type 7, written out independently of the server's code. */
function type7(values: number[], p: number): number {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 < x.length ? x[lo] + (h - lo) * (x[lo + 1] - x[lo]) : x[lo];
}

describe('ensemble quantiles and stats', () => {
  test('columns [id, "q…"], then the stats, equal to the estimator over the members (to the rounding)', async () => {
    const members = await okJson(t, ENSEMBLE, { key, query: RUN });
    const res = await okJson(t, ENSEMBLE, { key, query: { ...RUN, quantiles: '0.1,0.5,0.9,0.5', stats: 'mean,spread' } });
    assert.deepEqual(res.columns, [
      ['ercot_total', 'q0.1'],
      ['ercot_total', 'q0.5'],
      ['ercot_total', 'q0.9'],
      ['ercot_total', 'mean'],
      ['ercot_total', 'spread'],
    ]);
    assert.deepEqual([res.time_utc, res.model, res.created_at], [members.time_utc, members.model, members.created_at]);
    // Members and summaries are each rounded to 0.1 MW: they agree within one unit of that.
    const unit = 0.1 + 1e-9;
    for (let i = 0; i < members.time_utc.length; i++) {
      const row = members.values.map((col) => col[i]!);
      const mean = row.reduce((a, b) => a + b, 0) / row.length;
      const sd = Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / (row.length - 1));
      const expected = [type7(row, 0.1), type7(row, 0.5), type7(row, 0.9), mean, sd];
      expected.forEach((e, c) => assert.ok(Math.abs(res.values[c][i]! - e) <= unit, `row ${i} column ${c}: ${res.values[c][i]} vs ${e}`));
      assert.ok(res.values[0][i]! <= res.values[1][i]! && res.values[1][i]! <= res.values[2][i]!, 'P10 ≤ P50 ≤ P90');
    }
  });

  test('quantiles 0 and 1 are the smallest and largest member', async () => {
    const members = await okJson(t, ENSEMBLE, { key, query: RUN });
    const res = await okJson(t, ENSEMBLE, { key, query: { ...RUN, quantiles: '0,1' } });
    for (let i = 0; i < members.time_utc.length; i++) {
      const row = members.values.map((col) => col[i]!);
      assert.deepEqual([res.values[0][i], res.values[1][i]], [Math.min(...row), Math.max(...row)]);
    }
  });

  test('bad quantiles and stats are pydantic-style 422s naming each parameter', async () => {
    const res = await t.get(ENSEMBLE, { key, query: { ...RUN, quantiles: '0.1,1.5', stats: 'mean,median' } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'quantiles'],
          msg: 'Value error, quantiles must be comma-separated numbers between 0 and 1 (e.g. 0.1,0.5,0.9); got "1.5"',
          input: '0.1,1.5',
        },
        {
          type: 'value_error',
          loc: ['query', 'stats'],
          msg: 'Value error, stats must be comma-separated names among mean, spread; got "median"',
          input: 'mean,median',
        },
      ],
    });
    for (const quantiles of ['', 'abc', '0.5,', '-0.1', 'NaN', '1e5']) {
      const bad = await t.get(ENSEMBLE, { key, query: { ...RUN, quantiles } });
      assert.equal(bad.status, 422, quantiles);
      assert.deepEqual(bad.json().detail[0].loc, ['query', 'quantiles']);
    }
  });

  test('quantiles in every output format', async () => {
    const res = await t.get(ENSEMBLE, { key, query: { ...RUN, quantiles: '0.1,0.9', format: 'csv' } });
    assert.equal(res.status, 200);
    assert.equal(res.text.split('\r\n')[0], 'time_utc,time_local,ercot_total|q0.1,ercot_total|q0.9');
  });
});

/** A run on the 15th of each month of 2026 (00 UTC), its first 7 days against the actuals. */
const RUN_DAYS = Array.from({ length: 11 }, (_, m) => `2026-${String(m + 1).padStart(2, '0')}-15`);
const LEAD_DAYS = 7;
/** The band the P10–P90 coverage must fall in (80 % nominal; 11 runs of correlated hours). */
const BAND = [0.7, 0.9];

test('over 2026 the truth falls inside P10–P90 in about 80 % of hours, per metric', async (ctx) => {
  const report: string[] = [];
  for (const metric of ENSEMBLE_METRICS) {
    // Wind and solar sum every plant per member: a zone keeps the test fast.
    const id = metric === 'wind' || metric === 'solar' ? 'pjm_dom' : 'pjm_total';
    let inside = 0;
    let hours = 0;
    for (const day of RUN_DAYS) {
      const q = await okJson<Timeseries>(t, `/v1/region/pjm/${metric}/ensemble`, {
        key,
        query: { id, forecasted_by: `${day}T00:00:00Z`, quantiles: '0.1,0.9' },
      });
      const truth = await okJson<Timeseries>(t, `/v1/region/pjm/${metric}/actual`, {
        key,
        query: { id, start: q.time_utc[0], end: q.time_utc[LEAD_DAYS * 24 - 1] },
      });
      const actual = new Map(truth.time_utc.map((time, i) => [time, truth.values[0][i]]));
      for (let i = 0; i < LEAD_DAYS * 24; i++) {
        const [p10, p90, v] = [q.values[0][i], q.values[1][i], actual.get(q.time_utc[i])];
        // Hours where every member agrees (solar at night: all 0) say nothing about calibration.
        if (p10 === null || p90 === null || v === null || v === undefined || p10 === p90) continue;
        hours++;
        if (v >= p10 && v <= p90) inside++;
      }
    }
    const coverage = inside / hours;
    report.push(`${metric}: ${(coverage * 100).toFixed(1)} % of ${hours} hours inside P10–P90`);
    assert.ok(hours > 500, `${metric}: ${hours} hours`);
    assert.ok(coverage >= BAND[0] && coverage <= BAND[1], `${metric}: coverage ${coverage}`);
  }
  ctx.diagnostic(report.join('; '));
});
