/**
 * Probabilistic skill (issue 21): P10–P90 coverage, pinball loss and CRPS by hand on small inputs,
 * and `model=euro_ens` on /region/…/skill against what a user computes from the /ensemble runs the
 * continuous rule picks (forecasted_by = D − days_ahead at latest_hour local) and /actual.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixedClock } from '../src/time/clock.ts';
import { ensembleCrps, meanCrps, quantileScores } from '../src/query/skillScores.ts';
import { okJson, startTestApp, type TestApp } from './helpers.ts';

const NOW = '2026-11-20T18:00:00Z';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp({ clock: fixedClock(Date.parse(NOW)) });
  key = await t.key({ pjm: 'core' });
});

after(async () => {
  await t?.close();
});

const close = (actual: number | null, expected: number, tolerance: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected}`);

/** CRPS in its energy form with the double sum written out: mean |x − y| − ½ mean |x − x'|. */
function crpsByDoubleSum(members: number[], y: number): number {
  const m = members.length;
  let toActual = 0;
  let pairs = 0;
  for (const x of members) {
    toActual += Math.abs(x - y);
    for (const x2 of members) pairs += Math.abs(x - x2);
  }
  return toActual / m - pairs / (2 * m * m);
}

const pinball = (q: number, p: number, y: number) => (y >= q ? p * (y - q) : (1 - p) * (q - y));

describe('probabilistic scores by hand', () => {
  const f = (xs: number[]) => Float64Array.from(xs);

  test('CRPS from the sorted members equals the double sum, for any order and with a null member', () => {
    const members = [12.5, 3, 7.25, 3, 20, -4, 9.5];
    for (const y of [-10, 0, 3, 8, 25]) close(ensembleCrps(members, y), crpsByDoubleSum(members, y), 1e-12, `y=${y}`);
    close(ensembleCrps([...members, Number.NaN], 8), crpsByDoubleSum(members, 8), 1e-12, 'NaN member left out');
    // Members 0 and 10, actual 5: mean |x − y| = 5, mean over the four pairs |x − x'| = 5, CRPS = 5 − 2.5.
    assert.equal(ensembleCrps([10, 0], 5), 2.5);
    // The mean over rows, three members per row, one row not counted (not in `rows`).
    const rows = [f([1, 4, 0]), f([2, 5, 0]), f([3, 6, 0])];
    const actual = f([2, 9, 100]);
    close(meanCrps(rows, actual, [0, 1]), (crpsByDoubleSum([1, 2, 3], 2) + crpsByDoubleSum([4, 5, 6], 9)) / 2, 1e-12, 'mean crps');
  });

  test('coverage and pinball take quantile series in any order, score only P10, P50 and P90, and need their levels', () => {
    const actual = f([95, 130, 100, 89]);
    const levels = [
      { p: 0.9, values: f([110, 110, 110, NaN]) },
      { p: 0.25, values: f([0, 0, 0, 0]) },
      { p: 0.1, values: f([90, 90, 100, 90]) },
      { p: 0.5, values: f([100, 100, 105, 100]) },
    ];
    const s = quantileScores(levels, actual, [0, 1, 2, 3]);
    // Rows 0–2 have P10 and P90: 95 and 100 (on the P10 bound) inside, 130 outside.
    close(s.coverage_p10_p90, (100 * 2) / 3, 1e-12, 'coverage');
    const rowLoss = (r: number, q: number[]) =>
      (pinball(q[0], 0.1, actual[r]) + pinball(q[1], 0.5, actual[r]) + pinball(q[2], 0.9, actual[r])) / 3;
    const expected = (rowLoss(0, [90, 100, 110]) + rowLoss(1, [90, 100, 110]) + rowLoss(2, [100, 105, 110])) / 3;
    close(s.pinball, expected, 1e-12, 'pinball');
    // Row 1 by hand: 0.1·40 + 0.5·30 + 0.9·20 = 37.
    assert.equal(rowLoss(1, [90, 100, 110]), 37 / 3);
    // Without P50: coverage still, pinball null; without quantiles: both null.
    const noMedian = quantileScores(
      levels.filter((q) => q.p !== 0.5),
      actual,
      [0, 1, 2],
    );
    assert.equal(noMedian.pinball, null);
    close(noMedian.coverage_p10_p90, (100 * 2) / 3, 1e-12, 'coverage without P50');
    assert.deepEqual(quantileScores(undefined, actual, [0]), { coverage_p10_p90: null, pinball: null });
  });
});

// ---------------------------------------------------------------------------------------------
// euro_ens over HTTP, against the /ensemble runs and /actual

const REGION = '/v1/region/pjm/demand';
/** The 25-hour fall-back day in PJM's zone (America/New_York): 2026-11-01 04:00Z … 2026-11-02 05:00Z. */
const DAY = '2026-11-01';
const DAY_HOURS = { from: Date.parse('2026-11-01T04:00:00Z'), to: Date.parse('2026-11-02T05:00:00Z') };

/** What a user fetches for one lead: the run serving DAY at 10:00 local, cut to DAY's hours, and the actuals. */
async function byHand(forecastedBy: string) {
  const run = { id: 'pjm_total', model: 'euro_ens', forecasted_by: forecastedBy };
  const members = await okJson(t, `${REGION}/ensemble`, { key, query: run });
  const mean = await okJson(t, `${REGION}/ensemble`, { key, query: { ...run, stats: 'mean' } });
  const quantiles = await okJson(t, `${REGION}/ensemble`, { key, query: { ...run, quantiles: '0.1,0.5,0.9' } });
  const actual = await okJson(t, `${REGION}/actual`, { key, query: { id: 'pjm_total', start: DAY, end: DAY } });
  const actualAt = new Map(actual.time_utc.map((u, i) => [u, actual.values[0][i]!]));
  const rows = members.time_utc
    .map((u, i) => ({ u, i }))
    .filter(({ u }) => Date.parse(u) >= DAY_HOURS.from && Date.parse(u) < DAY_HOURS.to);
  assert.equal(rows.length, 25);
  return rows.map(({ u, i }) => ({
    actual: actualAt.get(u)!,
    mean: mean.values[0][i]!,
    q: quantiles.values.map((col) => col[i]!),
    members: members.values.map((col) => col[i]!),
  }));
}

function scoresOf(rows: Awaited<ReturnType<typeof byHand>>) {
  const n = rows.length;
  return {
    n,
    mae: rows.reduce((s, r) => s + Math.abs(r.mean - r.actual), 0) / n,
    bias: rows.reduce((s, r) => s + r.mean - r.actual, 0) / n,
    coverage: (100 * rows.filter((r) => r.actual >= r.q[0] && r.actual <= r.q[2]).length) / n,
    pinball: rows.reduce((s, r) => s + [0.1, 0.5, 0.9].reduce((l, p, k) => l + pinball(r.q[k], p, r.actual), 0) / 3, 0) / n,
    crps: rows.reduce((s, r) => s + crpsByDoubleSum(r.members, r.actual), 0) / n,
  };
}

function assertScores(record: any, hand: ReturnType<typeof scoresOf>) {
  assert.equal(record.n, hand.n);
  // Unit scores are served to 3 decimals (demand: 0.1 MW + 2), percentages to 4.
  close(record.mae, hand.mae, 0.0006, 'mae');
  close(record.bias, hand.bias, 0.0006, 'bias');
  close(record.coverage_p10_p90, hand.coverage, 0.00006, 'coverage');
  close(record.pinball, hand.pinball, 0.0006, 'pinball');
  close(record.crps, hand.crps, 0.0006, 'crps');
}

describe('model=euro_ens on /region/{iso}/{metric}/skill', () => {
  test('a 25-hour day at days_ahead 1 and 3: every score equals the hand computation from the /ensemble runs', async () => {
    const res = await t.get(`${REGION}/skill`, {
      key,
      query: { id: 'pjm_total', start: DAY, end: DAY, model: 'euro_ens', days_ahead: '1,3' },
    });
    assert.equal(res.status, 200, res.text);
    const records = res.json();
    assert.deepEqual(
      records.map((r: any) => [r.model, r.days_ahead]),
      [
        ['euro_ens', 1],
        ['euro_ens', 3],
      ],
    );
    // The cutoffs: 10:00 EDT on 2026-10-31 and 2026-10-29 (runs of 12:00 UTC those days).
    const lead1 = await byHand('2026-10-31T10:00:00-04:00');
    const lead3 = await byHand('2026-10-29T10:00:00-04:00');
    assertScores(records[0], scoresOf(lead1));
    assertScores(records[1], scoresOf(lead3));
    // The baseline is normal at the same lead: a number, as for the deterministic models.
    assert.equal(typeof records[0].skill_vs_normal, 'number');
    // by=none pools the two leads' 50 hours.
    const pooled = (
      await t.get(`${REGION}/skill`, {
        key,
        query: { id: 'pjm_total', start: DAY, end: DAY, model: 'euro_ens', days_ahead: '1,3', by: 'none' },
      })
    ).json();
    assert.equal(pooled.length, 1);
    assertScores(pooled[0], scoresOf([...lead1, ...lead3]));
  });

  test('not scored by default; the deterministic models carry no quantiles', async () => {
    const res = await t.get(`${REGION}/skill`, { key, query: { start: DAY, end: DAY, days_ahead: '1' } });
    assert.equal(res.status, 200, res.text);
    const records = res.json();
    assert.deepEqual(
      records.map((r: any) => r.model),
      ['optimized', 'iso', 'normal'],
    );
    for (const r of records) assert.deepEqual([r.coverage_p10_p90, r.pinball, r.crps], [null, null, null]);
  });

  test('wind, and a window longer than 31 days: 422 bodies naming why', async () => {
    const wind = await t.get('/v1/region/pjm/wind/skill', { key, query: { start: DAY, end: DAY, model: 'euro_ens' } });
    assert.equal(wind.status, 422);
    assert.deepEqual(wind.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'model'],
          msg: 'Value error, euro_ens is scored for demand and poptemp (a wind or solar member is a sum over every plant: too costly to stitch)',
          input: 'euro_ens',
        },
      ],
    });
    const long = await t.get(`${REGION}/skill`, { key, query: { start: '2026-09-01', end: '2026-10-15', model: 'euro_ens' } });
    assert.equal(long.status, 422);
    assert.deepEqual(long.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'end'],
          msg: 'Value error, euro_ens is scored over at most 31 local days per request (51 members each): split longer windows',
          input: '2026-10-15',
        },
      ],
    });
  });
});
