/**
 * Resampling over local days, weeks and months, and tz: every bucket is checked against the hourly
 * response grouped by the local date its time_local shows (or by UTC date for tz=utc).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ ercot: 'enterprise' });
});
after(() => t.close());

const ACTUAL = '/v1/region/ercot/demand/actual';
// The spring-forward day (2026-03-08) in Chicago, and around it.
const WINDOW = { id: 'ercot_total', start: '2026-03-02', end: '2026-03-15' };

/** The hourly values grouped by a key of their time_local, in order. */
function groups(ts: Timeseries, keyOf: (local: string, utc: string) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  ts.time_local.forEach((local, i) => {
    const k = keyOf(local, ts.time_utc[i]);
    if (!out.has(k)) out.set(k, []);
    if (ts.values[0][i] !== null) out.get(k)!.push(ts.values[0][i]!);
  });
  return out;
}

const mondayOf = (date: string) => {
  const d = new Date(date + 'T00:00:00Z');
  return new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
};

describe('resample', () => {
  test('1d over local days: the spring-forward bucket holds 23 hours; sum, mean, min, max', async () => {
    const hourly = await okJson(t, ACTUAL, { key, query: WINDOW });
    const days = groups(hourly, (local) => local.slice(0, 10));
    assert.equal(days.get('2026-03-08')!.length, 23);
    for (const agg of ['sum', 'mean', 'min', 'max'] as const) {
      const daily = await okJson(t, ACTUAL, { key, query: { ...WINDOW, resample: '1d', agg } });
      assert.deepEqual(
        daily.time_local.map((l) => l.slice(0, 10)),
        [...days.keys()],
      );
      daily.time_local.forEach((l) => assert.match(l, /T00:00:00-0[56]:00$/, 'labelled by local midnight'));
      [...days.values()].forEach((v, i) => {
        const expected = {
          sum: v.reduce((a, b) => a + b, 0),
          mean: v.reduce((a, b) => a + b, 0) / v.length,
          min: Math.min(...v),
          max: Math.max(...v),
        }[agg];
        // Hourly values are rounded to 0.1 MW; the server aggregates the unrounded ones.
        const tolerance = agg === 'sum' ? 0.05 * v.length + 0.05 : agg === 'mean' ? 0.1 : 0;
        assert.ok(Math.abs(daily.values[0][i]! - expected) <= tolerance + 1e-9, `${agg} day ${i}: ${daily.values[0][i]} vs ${expected}`);
      });
    }
  });

  test('1w (Monday to Sunday) and 1mo (calendar months), local', async () => {
    const query = { id: 'ercot_total', start: '2026-02-20', end: '2026-04-10' };
    const hourly = await okJson(t, ACTUAL, { key, query });
    for (const [resample, keyOf] of [
      ['1w', (local: string) => mondayOf(local.slice(0, 10))],
      ['1mo', (local: string) => local.slice(0, 7)],
    ] as const) {
      const buckets = groups(hourly, keyOf);
      const res = await okJson(t, ACTUAL, { key, query: { ...query, resample, agg: 'max' } });
      assert.deepEqual(
        res.values[0],
        [...buckets.values()].map((v) => Math.max(...v)),
        resample,
      );
      // Labels: local midnight of the bucket's first day (a partial first bucket still starts at its Monday / 1st).
      assert.deepEqual(
        res.time_local.map((l) => keyOf(l)),
        [...buckets.keys()],
        resample,
      );
    }
  });

  test('tz=utc and another IANA zone move time_local, the timezone field and the day boundaries', async () => {
    const hourly = await okJson(t, ACTUAL, { key, query: WINDOW });
    const utc = await okJson(t, ACTUAL, { key, query: { ...WINDOW, tz: 'utc' } });
    assert.equal(utc.timezone, 'UTC');
    assert.deepEqual(utc.time_utc, hourly.time_utc);
    assert.deepEqual(utc.values, hourly.values);
    utc.time_local.forEach((l, i) => assert.equal(l, hourly.time_utc[i].replace('Z', '+00:00')));
    const daily = await okJson(t, ACTUAL, { key, query: { ...WINDOW, tz: 'UTC', resample: '1d', agg: 'min' } });
    const byUtcDay = groups(hourly, (_, u) => u.slice(0, 10));
    assert.deepEqual(
      daily.time_utc,
      [...byUtcDay.keys()].map((d) => `${d}T00:00:00Z`),
    );
    assert.deepEqual(
      daily.values[0],
      [...byUtcDay.values()].map((v) => Math.min(...v)),
    );
    const ny = await okJson(t, ACTUAL, { key, query: { ...WINDOW, tz: 'america/new_york' } });
    assert.equal(ny.timezone, 'America/New_York');
    assert.equal(ny.time_local[0], '2026-03-02T01:00:00-05:00');
  });

  test('resampling in CSV; without the parameters nothing changes', async () => {
    const csv = await t.get(ACTUAL, { key, query: { ...WINDOW, resample: '1d', format: 'csv' } });
    assert.equal(csv.text.trim().split('\r\n').length, 1 + 14);
    const plain = await t.get(ACTUAL, { key, query: WINDOW });
    const hourly = await t.get(ACTUAL, { key, query: { ...WINDOW, resample: '1h' } });
    assert.equal(hourly.text, plain.text);
  });

  test('bad values are pydantic-style 422s', async () => {
    const bad = await t.get(ACTUAL, { key, query: { ...WINDOW, resample: '2d', agg: 'median' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(
      bad.json().detail.map((d: any) => [d.type, d.loc, d.msg]),
      [
        ['enum', ['query', 'resample'], "Input should be '1h', '1d', '1w' or '1mo'"],
        ['enum', ['query', 'agg'], "Input should be 'mean', 'sum', 'min' or 'max'"],
      ],
    );
    const tz = await t.get(ACTUAL, { key, query: { ...WINDOW, tz: 'Mars/Olympus' } });
    assert.equal(tz.status, 422);
    assert.deepEqual(tz.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'tz'],
          msg: 'Value error, tz must be an IANA time zone name such as America/Chicago, or utc',
          input: 'Mars/Olympus',
        },
      ],
    });
  });
});
