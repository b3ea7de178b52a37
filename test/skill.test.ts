/**
 * Forecast skill (issue 21): the scores by hand on small inputs, and GET …/skill over HTTP
 * against what a user computes by hand from the `continuous` and `actual` responses of the same
 * window — on a 23- and a 25-hour local day, with nulls, and for a model whose horizon stops
 * before days_ahead — plus access, errors, formats, buckets and the realism report's figures.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../src/time/clock.ts';
import { ensembleCrps, pinballLoss, scoreRows } from '../src/query/skillScores.ts';
import { GridcastClient } from '../src/client/index.ts';
import { runGridcast, startTestApp, type TestApp } from './helpers.ts';

/** Late in 2026: both DST days of the year have actuals and forecasts. */
const NOW = '2026-11-20T18:00:00Z';
const HOUR = 3_600_000;
const ADMIN_TOKEN = 'skill-admin-token';

let t: TestApp;
let key: string;
let pjmKey: string;
let coreKey: string;

before(async () => {
  t = await startTestApp({ clock: fixedClock(Date.parse(NOW)), adminToken: ADMIN_TOKEN });
  key = await t.key({ all: 'enterprise' });
  pjmKey = await t.key({ pjm: 'enterprise' });
  coreKey = await t.key({ ercot: 'core' });
});

after(async () => {
  await t?.close();
});

const close = (actual: number | null, expected: number, tolerance: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected}`);

describe('scores by hand', () => {
  const f = (xs: number[]) => Float64Array.from(xs);

  test('count, MAE, RMSE, bias and MAPE leave out rows with a null on either side', () => {
    const s = scoreRows({ forecast: f([10, 20, NaN, 40]), actual: f([12, 17, 5, NaN]) }, [0, 1, 2, 3], { daylightOnly: false });
    assert.equal(s.n, 2);
    assert.equal(s.mae, (2 + 3) / 2);
    assert.equal(s.rmse, Math.sqrt((4 + 9) / 2));
    assert.equal(s.bias, (-2 + 3) / 2);
    close(s.mape, (100 * (2 / 12 + 3 / 17)) / 2, 1e-12, 'mape');
    assert.equal(s.mape_skipped, 0);
    assert.deepEqual([s.nmae_pct_capacity, s.skill_vs_normal, s.coverage_p10_p90, s.pinball, s.crps], [null, null, null, null, null]);
  });

  test('MAPE skips actuals below 1 % of the mean |actual|; nMAE per hour of capacity; skill against the baseline', () => {
    const s = scoreRows(
      {
        forecast: f([110, 90, 1, 100]),
        actual: f([100, 100, 0.5, 100]),
        capacity: f([200, 200, 200, 400]),
        baseline: f([120, 80, 3, NaN]),
      },
      [0, 1, 2, 3],
      { daylightOnly: false },
    );
    // mean |actual| = 75.125, so 0.5 (< 0.75125) is left out of MAPE only.
    assert.equal(s.n, 4);
    assert.equal(s.mape_skipped, 1);
    close(s.mape, (10 + 10 + 0) / 3, 1e-12, 'mape');
    close(s.nmae_pct_capacity, (100 * (10 / 200 + 10 / 200 + 0.5 / 200 + 0 / 400)) / 4, 1e-12, 'nmae');
    // Over the rows the baseline has (0–2): model |e| 10 + 10 + 0.5, baseline 20 + 20 + 2.5.
    close(s.skill_vs_normal, 1 - 20.5 / 42.5, 1e-12, 'skill');
  });

  test('daylightOnly leaves out rows where forecast and actual are both 0', () => {
    const s = scoreRows({ forecast: f([0, 0, 5, 10]), actual: f([0, 2, 0, 12]) }, [0, 1, 2, 3], { daylightOnly: true });
    assert.equal(s.n, 3);
    assert.equal(s.mae, (2 + 5 + 2) / 3);
  });

  test('coverage and pinball from P10/P50/P90, CRPS from members', () => {
    assert.equal(pinballLoss(90, 0.1, 105), 1.5);
    assert.equal(pinballLoss(110, 0.9, 105), (1 - 0.9) * 5);
    // Members 1, 2, 3 and actual 2: mean |x − y| = 2/3, mean over pairs |x − x'| = 8/9, CRPS = 2/3 − 4/9.
    close(ensembleCrps([3, 1, 2], 2), 2 / 9, 1e-12, 'crps');
    // One member: CRPS is the absolute error.
    assert.equal(ensembleCrps([7], 4), 3);
    const s = scoreRows(
      {
        forecast: f([100, 100]),
        actual: f([105, 130]),
        quantiles: [
          { p: 0.1, values: f([90, 90]) },
          { p: 0.5, values: f([100, 100]) },
          { p: 0.9, values: f([110, 110]) },
        ],
        members: [f([1, 1]), f([2, 2]), f([3, 3])],
      },
      [0, 1],
      { daylightOnly: false },
    );
    assert.equal(s.coverage_p10_p90, 50);
    // Row 1, actual 130 above all three: 0.1·40 + 0.5·30 + 0.9·20 = 37, mean 37/3; row 0: (1.5 + 2.5 + 0.5)/3.
    close(s.pinball, (4.5 / 3 + 37 / 3) / 2, 1e-12, 'pinball');
    close(s.crps, (ensembleCrps([1, 2, 3], 105) + ensembleCrps([1, 2, 3], 130)) / 2, 1e-12, 'crps');
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP, against the two responses a user would fetch

interface Paired {
  forecast: number[];
  actual: number[];
  hours: number[];
}

/** The continuous and actual values of one target over a window, paired by time_utc where both are non-null. */
async function fetchPairs(path: string, query: Record<string, string | number>, continuousQuery: Record<string, string | number>) {
  const c = await t.get(`${path}/continuous`, { key, query: { ...query, ...continuousQuery } });
  const a = await t.get(`${path}/actual`, { key, query });
  assert.equal(c.status, 200, c.text);
  assert.equal(a.status, 200, a.text);
  const actualAt = new Map<string, number | null>(a.json().time_utc.map((u: string, i: number) => [u, a.json().values[0][i]]));
  const out: Paired & { rows: number; forecastNulls: number } = { forecast: [], actual: [], hours: [], rows: 0, forecastNulls: 0 };
  c.json().time_utc.forEach((u: string, i: number) => {
    out.rows++;
    const fv = c.json().values[0][i] as number | null;
    const av = actualAt.get(u);
    if (fv === null) out.forecastNulls++;
    if (fv === null || av === null || av === undefined) return;
    out.forecast.push(fv);
    out.actual.push(av);
    out.hours.push(Date.parse(u) / HOUR);
  });
  return out;
}

function byHand(p: Paired) {
  const n = p.forecast.length;
  const e = p.forecast.map((fv, i) => fv - p.actual[i]);
  return {
    n,
    mae: e.reduce((s, x) => s + Math.abs(x), 0) / n,
    rmse: Math.sqrt(e.reduce((s, x) => s + x * x, 0) / n),
    bias: e.reduce((s, x) => s + x, 0) / n,
    mape: (100 * e.reduce((s, x, i) => s + Math.abs(x) / p.actual[i], 0)) / n,
  };
}

async function skill(path: string, query: Record<string, string | number | readonly string[]>, k = key) {
  return t.get(`${path}/skill`, { key: k, query });
}

function assertMatches(record: any, hand: ReturnType<typeof byHand>) {
  assert.equal(record.n, hand.n);
  close(record.mae, hand.mae, 0.0006, 'mae');
  close(record.rmse, hand.rmse, 0.0006, 'rmse');
  close(record.bias, hand.bias, 0.0006, 'bias');
  close(record.mape, hand.mape, 0.00006, 'mape');
  assert.equal(record.mape_skipped, 0);
}

describe('GET /v1/region/{iso}/{metric}/skill against continuous and actual', () => {
  const path = '/v1/region/ercot/demand';

  test('the 23-hour spring-forward day: every score equals the hand computation', async () => {
    const window = { id: 'ercot_total', start: '2026-03-08', end: '2026-03-08' };
    const pairs = await fetchPairs(path, window, { model: 'optimized', days_ahead: 1 });
    assert.equal(pairs.forecast.length, 23);
    const res = await skill(path, { ...window, model: 'optimized', days_ahead: '1' });
    assert.equal(res.status, 200, res.text);
    const records = res.json();
    assert.equal(records.length, 1);
    assert.equal(records[0].model, 'optimized');
    assert.equal(records[0].days_ahead, 1);
    assertMatches(records[0], byHand(pairs));
  });

  test('the 25-hour fall-back day, by local hour of day: the repeated 01:00 counts twice', async () => {
    const window = { id: 'ercot_total', start: '2026-11-01', end: '2026-11-01' };
    const pairs = await fetchPairs(path, window, { model: 'iso', days_ahead: 2, latest_hour: 6 });
    assert.equal(pairs.forecast.length, 25);
    const res = await skill(path, { ...window, model: 'iso', days_ahead: '2', latest_hour: 6, by: 'hour_of_day' });
    assert.equal(res.status, 200, res.text);
    const records = res.json();
    assert.deepEqual(
      records.map((r: any) => r.hour_of_day),
      Array.from({ length: 24 }, (_, h) => h),
    );
    assert.deepEqual(
      records.map((r: any) => r.n),
      Array.from({ length: 24 }, (_, h) => (h === 1 ? 2 : 1)),
    );
    // The hour-1 record by hand: the two rows whose local hour is 1 (07:00Z CDT and 07:00Z+1h CST).
    const localHour = (h: number) =>
      Number(new Date(h * HOUR).toLocaleString('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hourCycle: 'h23' }));
    const idx = pairs.hours.map((h, i) => (localHour(h) === 1 ? i : -1)).filter((i) => i >= 0);
    assertMatches(records[1], byHand({ forecast: idx.map((i) => pairs.forecast[i]), actual: idx.map((i) => pairs.actual[i]), hours: [] }));
    // The whole day (by=none with one lead) is the day's 25 rows.
    const whole = (await skill(path, { ...window, model: 'iso', days_ahead: '2', latest_hour: 6, by: 'none' })).json();
    assertMatches(whole[0], byHand(pairs));
  });

  test("iso's horizon stops inside day D at days_ahead 8 and before it at 14: only its hours count", async () => {
    const window = { id: 'ercot_total', start: '2026-05-12', end: '2026-05-12' };
    const pairs = await fetchPairs(path, window, { model: 'iso', days_ahead: 8 });
    assert.ok(pairs.forecastNulls > 0 && pairs.forecast.length > 0, `${pairs.forecast.length} values, ${pairs.forecastNulls} nulls`);
    const res = await skill(path, { ...window, model: 'iso', days_ahead: '8,14' });
    const [d8, d14] = res.json();
    assertMatches(d8, byHand(pairs));
    assert.deepEqual(d14, {
      model: 'iso',
      days_ahead: 14,
      n: 0,
      mae: null,
      rmse: null,
      bias: null,
      mape: null,
      mape_skipped: 0,
      nmae_pct_capacity: null,
      skill_vs_normal: null,
      coverage_p10_p90: null,
      pinball: null,
      crps: null,
    });
    // By default (1–7 and 14), a lead no run of a model reaches is left out.
    const leads = (await skill(path, { ...window, model: 'iso' })).json().map((r: any) => r.days_ahead);
    assert.deepEqual(leads, [1, 2, 3, 4, 5, 6, 7]);
  });

  test('actuals not yet published are nulls: only hours with both count', async () => {
    const window = { id: 'ercot_total', start: '2026-11-19', end: '2026-11-21' };
    const pairs = await fetchPairs(path, window, { model: 'optimized', days_ahead: 1 });
    assert.ok(pairs.rows > pairs.forecast.length, 'the continuous series runs past the last actual');
    const res = await skill(path, { ...window, model: 'optimized', days_ahead: '1' });
    assertMatches(res.json()[0], byHand(pairs));
  });

  test('skill_vs_normal against the normal runs as /forecast?model=normal serves them', async () => {
    const day = '2026-04-14';
    const window = { id: 'ercot_total', start: day, end: day };
    const pairs = await fetchPairs(path, window, { model: 'optimized', days_ahead: 1 });
    // The run that serves day D at days_ahead 1: the latest at or before 10:00 local (CDT) on D − 1.
    const normal = (
      await t.get(`${path}/forecast`, { key, query: { id: 'ercot_total', model: 'normal', forecasted_by: '2026-04-13T15:00:00Z' } })
    ).json();
    const normalAt = new Map<number, number>(normal.time_utc.map((u: string, i: number) => [Date.parse(u) / HOUR, normal.values[0][i]]));
    const modelAbs = pairs.forecast.reduce((s, fv, i) => s + Math.abs(fv - pairs.actual[i]), 0);
    const normalAbs = pairs.hours.reduce((s, h, i) => s + Math.abs(normalAt.get(h)! - pairs.actual[i]), 0);
    const res = (await skill(path, { ...window, model: 'optimized,normal', days_ahead: '1' })).json();
    assert.deepEqual(
      res.map((r: any) => r.model),
      ['optimized', 'normal'],
    );
    close(res[0].skill_vs_normal, 1 - modelAbs / normalAbs, 0.00006, 'skill_vs_normal');
    assert.equal(res[1].skill_vs_normal, 0);
    assertMatches(res[1], byHand({ forecast: pairs.hours.map((h) => normalAt.get(h)!), actual: pairs.actual, hours: pairs.hours }));
  });

  test('wind: nMAE per hour of the capacity of the region’s plants in operation', async () => {
    const day = '2026-07-01';
    const res = (
      await skill('/v1/region/ercot/wind', { id: 'ercot_total', start: day, end: day, model: 'optimized', days_ahead: '1' })
    ).json();
    const plants = (await t.get('/v1/plant/ercot/wind/list', { key })).json();
    const capacity = plants.filter((p: any) => p.operations_begin_date <= day).reduce((s: number, p: any) => s + p.capacity_mw, 0);
    // Capacity is constant within the day, so nMAE = MAE / capacity.
    close(res[0].nmae_pct_capacity, (100 * res[0].mae) / capacity, 0.0002, 'nmae');
  });

  test('the realism report scores demand with this code: its MAPE by lead day equals the endpoint’s', async () => {
    const { skillByLead, seriesOf } = await import('../scripts/realism/sample.ts');
    const { WeatherWorld } = await import('../src/world/weather/world.ts');
    const { addDays } = await import('../src/time/zones.ts');
    const days = Array.from({ length: 31 }, (_, i) => addDays({ year: 2026, month: 3, day: 1 }, i));
    const world = new WeatherWorld();
    const truth = seriesOf(world, 'ercot', 'demand', days, Date.parse(NOW));
    const leads = [1, 2, 3, 5, 7, 10, 14];
    const served = (await skill(path, { start: '2026-03-01', end: '2026-03-31', days_ahead: leads.join(',') })).json() as any[];
    for (const model of ['optimized', 'iso', 'normal'] as const) {
      const report = skillByLead(world, 'ercot', 'demand', model, days, leads, truth, Date.parse(NOW));
      for (const lead of leads) {
        const api = served.find((r) => r.model === model && r.days_ahead === lead);
        const mine = report.get(lead)!;
        assert.equal(api.n, mine.n, `${model} d${lead} n`);
        assert.equal(api.mape, mine.mape === null ? null : Math.round(mine.mape * 1e4) / 1e4, `${model} d${lead} mape`);
      }
    }
  });
});

describe('parameters, access and errors', () => {
  const path = '/v1/region/ercot/demand';
  const window = { start: '2026-06-01', end: '2026-06-03' };

  test('model repeated or as a comma list is the same request; records follow the order given', async () => {
    const a = await skill(path, { ...window, model: ['iso', 'optimized'], days_ahead: '1,3' });
    const b = await skill(path, { ...window, model: 'iso,optimized', days_ahead: ['1', '3'] });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.text, b.text);
    assert.deepEqual(
      a.json().map((r: any) => `${r.model}/${r.days_ahead}`),
      ['iso/1', 'iso/3', 'optimized/1', 'optimized/3'],
    );
  });

  test('by=month and day_of_week split the hours of a lead; window=2d gives one record per day', async () => {
    const lead = (await skill(path, { start: '2026-05-25', end: '2026-06-07', model: 'optimized', days_ahead: '1' })).json()[0];
    const months = (await skill(path, { start: '2026-05-25', end: '2026-06-07', model: 'optimized', days_ahead: '1', by: 'month' })).json();
    assert.deepEqual(
      months.map((r: any) => r.month),
      ['2026-05', '2026-06'],
    );
    assert.equal(
      months.reduce((s: number, r: any) => s + r.n, 0),
      lead.n,
    );
    const days = (
      await skill(path, { start: '2026-05-25', end: '2026-06-07', model: 'optimized', days_ahead: '1', by: 'day_of_week' })
    ).json();
    assert.deepEqual(
      days.map((r: any) => [r.day_of_week, r.n]),
      [1, 2, 3, 4, 5, 6, 7].map((d) => [d, 48]),
    );
    const rolling = (
      await skill(path, { start: '2026-05-25', end: '2026-05-28', model: 'optimized', days_ahead: '1', window: '2d' })
    ).json();
    assert.deepEqual(
      rolling.map((r: any) => r.date),
      ['2026-05-26', '2026-05-27', '2026-05-28'],
    );
    const twoDays = (await skill(path, { start: '2026-05-26', end: '2026-05-27', model: 'optimized', days_ahead: '1' })).json()[0];
    assert.deepEqual({ ...rolling[1], date: undefined }, { ...twoDays, date: undefined });
  });

  test('CSV and Parquet carry the same records', async () => {
    const json = (await skill(path, { ...window, model: 'optimized', days_ahead: '1' })).json();
    const csv = await skill(path, { ...window, model: 'optimized', days_ahead: '1', format: 'csv' });
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const [header, row] = csv.text.trim().split('\r\n');
    assert.equal(header, Object.keys(json[0]).join(','));
    assert.equal(row.split(',')[0], 'optimized');
    assert.equal(Number(row.split(',')[3]), json[0].mae);
    const parquet = await skill(path, { ...window, model: 'optimized', days_ahead: '1', format: 'parquet' });
    assert.equal(parquet.status, 200);
    assert.equal(parquet.raw.subarray(0, 4).toString(), 'PAR1');
  });

  test('access is the continuous route’s: a key without the ISO gets the same 403', async () => {
    const s = await skill(path, window, pjmKey);
    const c = await t.get(`${path}/continuous`, { key: pjmKey, query: window });
    assert.equal(s.status, 403);
    assert.equal(s.text, c.text);
    assert.deepEqual(s.json(), {
      detail: [
        {
          type: 'error',
          msg: "Your API key has no subscription for ISO 'ercot'. This endpoint needs the 'core' level or higher for 'ercot'.",
        },
      ],
    });
    // Plants need the advanced level, as their continuous series do.
    const plant = await skill('/v1/plant/ercot/wind', window, coreKey);
    assert.equal(plant.status, 403);
    assert.equal(plant.text, (await t.get('/v1/plant/ercot/wind/continuous', { key: coreKey, query: window })).text);
  });

  test('unknown by, model, days_ahead and window: 422 bodies', async () => {
    const by = await skill(path, { ...window, by: 'week' });
    assert.equal(by.status, 422);
    assert.deepEqual(by.json(), {
      detail: [
        {
          type: 'enum',
          loc: ['query', 'by'],
          msg: "Input should be 'lead_day', 'month', 'hour_of_day', 'day_of_week' or 'none'",
          input: 'week',
          ctx: { expected: "'lead_day', 'month', 'hour_of_day', 'day_of_week' or 'none'" },
        },
      ],
    });
    const model = await skill(path, { ...window, model: 'optimized,vendor_x' });
    assert.equal(model.status, 422);
    assert.deepEqual(model.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'model'],
          msg: 'Value error, unknown model "vendor_x": models are optimized, iso, normal, euro_ens',
          input: 'optimized,vendor_x',
        },
      ],
    });
    const days = await skill(path, { ...window, days_ahead: '1,15' });
    assert.deepEqual(days.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'days_ahead'],
          msg: 'Value error, days_ahead must be integers from 1 to 14, repeated or comma-separated (e.g. 1,2,7); got "15"',
          input: '1,15',
        },
      ],
    });
    const rolling = await skill(path, { ...window, window: '30d', by: 'month' });
    assert.deepEqual(rolling.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'window'],
          msg: 'Value error, window gives one record per day and lead day: use it with by=lead_day, not by=month',
          input: '30d',
        },
      ],
    });
  });

  test('an empty window: the 422 the continuous or actual request gives for it', async () => {
    // Actuals exist in 2025, forecasts do not: the continuous request's 422.
    const before = { start: '2025-06-01', end: '2025-06-03' };
    const s = await skill(path, { ...before, model: 'optimized', days_ahead: '1' });
    const c = await t.get(`${path}/continuous`, { key, query: { ...before, model: 'optimized', days_ahead: 1 } });
    assert.equal(s.status, 422);
    assert.equal(s.text, c.text);
    // Nothing at all in 2021: the actual request's 422.
    const old = { start: '2021-06-01', end: '2021-06-03' };
    const s2 = await skill(path, old);
    assert.equal(s2.status, 422);
    assert.equal(s2.text, (await t.get(`${path}/actual`, { key, query: old })).text);
  });
});

describe('SDK and CLI', () => {
  const query = { start: '2026-05-25', end: '2026-06-07', by: 'month' } as const;

  test('getRegionForecastSkill takes model and days_ahead as arrays and answers the records', async () => {
    const client = new GridcastClient({ apiKey: key, baseUrl: `${t.baseUrl}/v1` });
    const records = await client.getRegionForecastSkill('ercot', 'demand', { ...query, model: ['optimized', 'iso'], days_ahead: [1, 2] });
    const raw = await skill('/v1/region/ercot/demand', { ...query, model: 'optimized,iso', days_ahead: '1,2' });
    assert.deepEqual(records, raw.json());
    assert.equal(records.length, 2 * 2 * 2);
    const csv = await client.getRegionForecastSkill('ercot', 'demand', { ...query, model: 'optimized', days_ahead: 1, format: 'csv' });
    assert.equal(csv, (await skill('/v1/region/ercot/demand', { ...query, model: 'optimized', days_ahead: '1', format: 'csv' })).text);
  });

  test('gridcast get region ercot demand skill --by month --format csv writes the API’s CSV', async () => {
    const args = ['get', 'region', 'ercot', 'demand', 'skill', '--by', 'month', '--start', query.start, '--end', query.end];
    const run = await runGridcast([...args, '--model', 'optimized,normal', '--days-ahead', '1,7', '--format', 'csv', '-o', '-'], {
      ...process.env,
      GRIDCAST_API_KEY: key,
      GRIDCAST_URL: `${t.baseUrl}/v1`,
    });
    assert.equal(run.status, 0, run.stderr);
    const api = await skill('/v1/region/ercot/demand', { ...query, model: 'optimized,normal', days_ahead: '1,7', format: 'csv' });
    assert.equal(run.stdout, api.text);
    assert.match(run.stdout, /^model,month,days_ahead,n,mae,/);
  });
});

// Last: the stored source it ingests is scored by default from here on.
describe('stored sources', () => {
  test('an ingested source is scored by default, from what /continuous?model=<source> serves', async () => {
    const lines = ['time_utc,id,value,created_at'];
    for (const issued of ['2026-06-01T00:00:00Z', '2026-06-01T06:00:00Z']) {
      for (let h = 0; h < 48; h++) {
        const time = new Date(Date.parse(issued) + h * HOUR).toISOString().replace('.000Z', 'Z');
        lines.push(`${time},ercot_total,${50000 + 37 * h},${issued}`);
      }
    }
    const ingest = await t.request('POST', '/admin/ingest', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
      body: lines.join('\n') + '\n',
      query: { source: 'vendor_s', group: 'region', iso: 'ercot', metric: 'demand' },
    });
    assert.equal(ingest.status, 200, ingest.text);
    const path = '/v1/region/ercot/demand';
    const window = { id: 'ercot_total', start: '2026-06-02', end: '2026-06-02' };
    const res = await skill(path, { ...window, days_ahead: '1' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.json().map((r: any) => r.model),
      ['optimized', 'iso', 'normal', 'vendor_s'],
    );
    const pairs = await fetchPairs(path, window, { model: 'vendor_s', days_ahead: 1 });
    assert.ok(pairs.forecast.length > 0);
    assertMatches(res.json()[3], byHand(pairs));
    // Named explicitly, alone.
    const alone = await skill(path, { ...window, days_ahead: '1', model: 'vendor_s' });
    assert.deepEqual(alone.json(), [res.json()[3]]);
  });

  test('actual_source scores against a stored source’s actuals; with the world off only stored sources, and 422s naming them', async () => {
    // meter_s: actuals of 2026-06-02 (CDT: 05:00Z … 04:00Z next day), a little off the ISO's.
    const lines = ['time_utc,id,value'];
    for (let h = 0; h < 24; h++) {
      const time = new Date(Date.parse('2026-06-02T05:00:00Z') + h * HOUR).toISOString().replace('.000Z', 'Z');
      lines.push(`${time},ercot_total,${50500 + 11 * h}`);
    }
    const ingest = await t.request('POST', '/admin/ingest', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
      body: lines.join('\n') + '\n',
      query: { source: 'meter_s', group: 'region', iso: 'ercot', metric: 'demand' },
    });
    assert.equal(ingest.status, 200, ingest.text);
    const path = '/v1/region/ercot/demand';
    const window = { id: 'ercot_total', start: '2026-06-02', end: '2026-06-02' };
    const c = await t.get(`${path}/continuous`, { key, query: { ...window, model: 'vendor_s', days_ahead: 1 } });
    const a = await t.get(`${path}/actual`, { key, query: { ...window, source: 'meter_s' } });
    const actualAt = new Map(a.json().time_utc.map((u: string, i: number) => [u, a.json().values[0][i]]));
    const hand: Paired = { forecast: [], actual: [], hours: [] };
    c.json().time_utc.forEach((u: string, i: number) => {
      const fv = c.json().values[0][i];
      const av = actualAt.get(u);
      if (fv === null || av === null || av === undefined) return;
      hand.forecast.push(fv);
      hand.actual.push(av as number);
    });
    assert.ok(hand.forecast.length > 0);
    const query = { ...window, days_ahead: '1', actual_source: 'meter_s' };
    const scored = await skill(path, { ...query, model: 'vendor_s' });
    assert.equal(scored.status, 200, scored.text);
    assertMatches(scored.json()[0], byHand(hand));

    process.env.GRIDCAST_WORLD = 'off';
    try {
      const exist = 'meter_s (region ercot demand); vendor_s (region ercot demand)';
      const noActuals = await skill(path, { ...window, days_ahead: '1' });
      assert.equal(noActuals.status, 422);
      assert.deepEqual(noActuals.json(), {
        detail: [
          {
            type: 'missing',
            loc: ['query', 'actual_source'],
            msg: `Field required: the synthetic world is off (GRIDCAST_WORLD=off); actuals come from a stored source: ${exist}`,
            input: null,
          },
        ],
      });
      for (const model of ['optimized', 'euro_ens']) {
        const synthetic = await skill(path, { ...query, model });
        assert.equal(synthetic.status, 422);
        assert.deepEqual(synthetic.json(), {
          detail: [
            {
              type: 'value_error',
              loc: ['query', 'model'],
              msg: `Value error, the synthetic world is off (GRIDCAST_WORLD=off): model must name a stored source: ${exist}`,
              input: model,
            },
          ],
        });
      }
      // By default: the stored sources holding the series (meter_s has no runs: no record), no normal baseline.
      const stored = await skill(path, query);
      assert.equal(stored.status, 200, stored.text);
      assert.deepEqual(stored.json(), [{ ...scored.json()[0], skill_vs_normal: null }]);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });
});
