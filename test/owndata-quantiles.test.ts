/**
 * Own data (issue 20): quantile forecasts where the file has them — a long file's `quantile`
 * column and gridstatus-style `… P10` value columns — stored with their runs and served through
 * `quantiles=` on /forecast and /continuous of the stored source, one column per target and
 * quantile labelled as the ensemble's ([id, "q0.1"]). Real HTTP, the real store (PGlite, and
 * PostgreSQL through scripts/test-postgres.mjs).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'quantiles-admin-token';
const REGION = '/v1/region/ercot/demand';
const ADMIN = { authorization: `Bearer ${TOKEN}` };

let t: TestApp;
let key: string;

function ingest(body: string, query: Record<string, string | string[]>) {
  return t.request('POST', '/admin/ingest', {
    headers: { ...ADMIN, 'content-type': 'text/csv' },
    body,
    query: { iso: 'ercot', metric: 'demand', group: 'region', ...query },
  });
}

async function ingested(body: string, query: Record<string, string | string[]>) {
  const res = await ingest(body, query);
  assert.equal(res.status, 200, res.text);
  return res.json();
}

async function json(p: string, query: Record<string, string | number>) {
  const res = await t.get(p, { key, query });
  assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
  return res.json();
}

/** Hour h (0-based) of 2026-06-02 UTC. */
const hour = (h: number) => `2026-06-02T${String(h).padStart(2, '0')}:00:00Z`;
const RUNS = ['2026-05-31T12:00:00Z', '2026-06-01T12:00:00Z'];
/** Run r's value of hour h: point, and its quantiles around it. */
const point = (r: number, h: number) => 40_000 + 100 * r + h;
const QUANTILES = { '0.1': -500, '0.9': 700 } as const;

/** The long layout with a quantile column: each run's point forecast and P10/P90 for 6 hours. */
function longCsv(): string {
  const lines = ['created_at,time_utc,id,value,quantile'];
  RUNS.forEach((run, r) => {
    for (let h = 0; h < 6; h++) {
      lines.push(`${run},${hour(h)},ercot_total,${point(r, h)},`);
      for (const [q, d] of Object.entries(QUANTILES)) lines.push(`${run},${hour(h)},ercot_total,${point(r, h) + d},${q}`);
    }
  });
  return lines.join('\n') + '\n';
}

/** The same runs as a gridstatus-style wide file, the quantiles in `Load Forecast P10` / `P90` columns. */
function wideCsv(): string {
  const lines = ['Interval Start,Interval End,Publish Time,Load Forecast,Load Forecast P10,Load Forecast P90'];
  RUNS.forEach((run, r) => {
    for (let h = 0; h < 6; h++) {
      lines.push(`${hour(h)},${hour(h + 1)},${run},${point(r, h)},${point(r, h) - 500},${point(r, h) + 700}`);
    }
  });
  return lines.join('\n') + '\n';
}

before(async () => {
  t = await startTestApp({ adminToken: TOKEN });
  key = await t.key({ ercot: 'enterprise' });
});
after(() => t?.close());

describe('quantile forecasts from a file', () => {
  before(async () => {
    const long = await ingested(longCsv(), { source: 'q_long' });
    assert.deepEqual([long.runsAdded, long.targets, long.values], [2, 1, 36]);
    const wide = await ingested(wideCsv(), { source: 'q_wide', value: 'Load Forecast' });
    assert.deepEqual([wide.runsAdded, wide.targets, wide.values], [2, 1, 36]);
  });

  for (const source of ['q_long', 'q_wide']) {
    test(`${source}: forecast?quantiles= serves the stored quantiles of the run, one column each; without it the point forecast`, async () => {
      const body = await json(`${REGION}/forecast`, { model: source, forecasted_by: RUNS[1], quantiles: '0.1,0.9' });
      assert.equal(body.created_at, RUNS[1]);
      assert.deepEqual(body.columns, [
        ['ercot_total', 'q0.1'],
        ['ercot_total', 'q0.9'],
      ]);
      assert.deepEqual(body.time_utc, [0, 1, 2, 3, 4, 5].map(hour));
      assert.deepEqual(body.values, [[0, 1, 2, 3, 4, 5].map((h) => point(1, h) - 500), [0, 1, 2, 3, 4, 5].map((h) => point(1, h) + 700)]);
      const plain = await json(`${REGION}/forecast`, { model: source, forecasted_by: RUNS[0] });
      assert.deepEqual(plain.columns, [['ercot_total']]);
      assert.deepEqual(plain.values, [[0, 1, 2, 3, 4, 5].map((h) => point(0, h))]);
    });
  }

  test('continuous?quantiles= stitches the quantiles as it stitches the point forecast', async () => {
    // Hours 00–04Z of 2026-06-02 are the evening of 2026-06-01 in Central time: that day's run a day ahead, by
    // 2026-05-31 10:00 local (15:00Z), is the first; 05Z is midnight of 2026-06-02, whose run is the second.
    const q = { start: '2026-06-01', end: '2026-06-02', days_ahead: 1, latest_hour: 10 };
    const body = await json(`${REGION}/continuous`, { ...q, model: 'q_long', quantiles: '0.9' });
    const plain = await json(`${REGION}/continuous`, { ...q, model: 'q_long' });
    assert.deepEqual(body.columns, [['ercot_total', 'q0.9']]);
    assert.deepEqual(body.time_utc, plain.time_utc);
    const at = (h: number) => body.time_utc.indexOf(hour(h));
    assert.ok(at(0) >= 0);
    for (let h = 0; h < 6; h++) {
      assert.equal(body.values[0][at(h)], plain.values[0][at(h)] + 700);
      assert.equal(plain.values[0][at(h)], point(h < 5 ? 0 : 1, h));
    }
  });

  test('a quantile the source does not hold, quantiles of a synthetic model, a bad probability: 422 naming what exists', async () => {
    const missing = await t.get(`${REGION}/forecast`, { key, query: { model: 'q_long', quantiles: '0.5' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.json(), {
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'quantiles'],
          msg: "Value error, source 'q_long' holds no quantile 0.5 for these targets; it holds quantiles 0.1, 0.9",
          input: '0.5',
        },
      ],
    });
    const synthetic = await t.get(`${REGION}/continuous`, { key, query: { model: 'optimized', quantiles: '0.1' } });
    assert.equal(synthetic.status, 422);
    assert.deepEqual(synthetic.json().detail, [
      {
        type: 'value_error',
        loc: ['query', 'quantiles'],
        msg:
          "Value error, quantiles are served for a stored source that holds them (model=<source>); model 'optimized' is synthetic: " +
          'its quantiles come from /region/{iso}/{metric}/ensemble',
        input: '0.1',
      },
    ]);
    const bad = await t.get(`${REGION}/forecast`, { key, query: { model: 'q_long', quantiles: 'p10' } });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.json().detail[0].msg,
      'Value error, quantiles must be comma-separated numbers between 0 and 1 (e.g. 0.1,0.5,0.9); got "p10"',
    );
  });

  test('the same file again changes nothing; a changed quantile is a conflict unless replace', async () => {
    const again = await ingested(longCsv(), { source: 'q_long' });
    assert.deepEqual([again.runsAdded, again.runsUnchanged, again.runsReplaced], [0, 2, 0]);
    const changed = longCsv().replace(
      `${RUNS[0]},${hour(3)},ercot_total,${point(0, 3) + 700},0.9`,
      `${RUNS[0]},${hour(3)},ercot_total,1,0.9`,
    );
    assert.notEqual(changed, longCsv());
    const refused = await ingest(changed, { source: 'q_long' });
    assert.equal(refused.status, 409, refused.text);
    const replaced = await ingested(changed, { source: 'q_long', replace: 'true' });
    assert.deepEqual([replaced.runsReplaced, replaced.runsUnchanged], [1, 1]);
    const body = await json(`${REGION}/forecast`, { model: 'q_long', forecasted_by: RUNS[0], quantiles: '0.9' });
    assert.equal(body.values[0][3], 1);
    await ingested(longCsv(), { source: 'q_long', replace: 'true' });
  });

  test('a run with quantiles only: its point forecast is null, its quantiles are served', async () => {
    const onlyQuantiles = longCsv()
      .split('\n')
      .filter((l) => !l.endsWith(','))
      .join('\n');
    const summary = await ingested(onlyQuantiles, { source: 'q_only' });
    assert.deepEqual([summary.runsAdded, summary.values], [2, 24]);
    const plain = await json(`${REGION}/forecast`, { model: 'q_only', forecasted_by: RUNS[0] });
    assert.deepEqual(plain.values, [[null, null, null, null, null, null]]);
    const body = await json(`${REGION}/forecast`, { model: 'q_only', forecasted_by: RUNS[0], quantiles: '0.1' });
    assert.deepEqual(body.values, [[0, 1, 2, 3, 4, 5].map((h) => point(0, h) - 500)]);
  });

  test('an export of quantiles (layout=long, their labels in label_1) ingests back and serves the same quantiles', async () => {
    const q = { model: 'q_long', forecasted_by: RUNS[1], quantiles: '0.1,0.9' };
    for (const format of ['csv', 'parquet', 'arrow', 'json'] as const) {
      const exported = await t.get(`${REGION}/forecast`, { key, query: { ...q, format, layout: 'long' } });
      assert.equal(exported.status, 200, exported.text);
      if (format === 'csv') assert.match(exported.text, /^time_utc,time_local,id,label_1,value\r?\n[^\n]*,ercot_total,q0\.1,/);
      // Parquet and Arrow carry the run's created_at in their metadata; CSV and JSON rows do not.
      const created = ['csv', 'json'].includes(format) ? { created_at: RUNS[1] } : {};
      const res = await t.request('POST', '/admin/ingest', {
        headers: { ...ADMIN, 'content-type': 'application/octet-stream' },
        body: exported.raw,
        query: { iso: 'ercot', metric: 'demand', group: 'region', source: `q_export_${format}`, ...created },
      });
      assert.equal(res.status, 200, `${format}: ${res.text}`);
      assert.deepEqual([res.json().runsAdded, res.json().values], [1, 12], format);
      const served = await json(`${REGION}/forecast`, { ...q, model: `q_export_${format}` });
      assert.deepEqual({ ...served, model: 'q_long' }, await json(`${REGION}/forecast`, q), format);
    }
    // label_1 of another export (the ensemble's members, a vintage's valid time) holds no quantile: bad rows, nothing stored.
    const members = 'time_utc,id,label_1,value\n2026-06-02T00:00:00Z,ercot_total,m00,1\n2026-06-02T00:00:00Z,ercot_total,m01,2\n';
    const res = await ingest(members, { source: 'q_members', created_at: RUNS[1] });
    assert.equal(res.status, 422, res.text);
    const wanted =
      'a quantile is a probability strictly between 0 and 1 (0.1) or a percentile (p10), at most 6 decimals; leave it empty for the point forecast';
    assert.deepEqual(
      res.json().detail.map((d: { loc: unknown[]; msg: string }) => [d.loc, d.msg]),
      [
        [['body', 'line', 2], `Value error, quantile: 'm00': ${wanted}`],
        [['body', 'line', 3], `Value error, quantile: 'm01': ${wanted}`],
      ],
    );
  });

  test('bad quantiles in a file are bad rows with their line; quantiles of actuals are refused; nothing stored', async () => {
    const lines = longCsv().trim().split('\n');
    lines[2] = lines[2].replace(/,0\.1$/, ',1.5');
    lines[5] = lines[5].replace(/,0\.1$/, ',abc');
    const bad = await ingest(lines.join('\n') + '\n', { source: 'q_bad' });
    assert.equal(bad.status, 422, bad.text);
    const wanted =
      'a quantile is a probability strictly between 0 and 1 (0.1) or a percentile (p10), at most 6 decimals; leave it empty for the point forecast';
    assert.deepEqual(
      bad.json().detail.map((d: { loc: unknown[]; msg: string }) => [d.loc, d.msg]),
      [
        [['body', 'line', 3], `Value error, quantile: '1.5': ${wanted}`],
        [['body', 'line', 6], `Value error, quantile: 'abc': ${wanted}`],
      ],
    );
    const actuals = await ingest('time_utc,id,value,quantile\n2026-06-02T00:00:00Z,ercot_total,1,0.1\n', { source: 'q_bad' });
    assert.equal(actuals.status, 422, actuals.text);
    assert.match(actuals.text, /a quantile column belongs to forecasts \(created_at\); actuals have no quantiles/);
    assert.deepEqual(await t.store.sources.names().then((n) => n.filter((s) => s === 'q_bad')), []);
  });
});

describe('skill of a stored source with quantiles (issue 21)', () => {
  const SKILL_WINDOW = { start: '2026-06-01', end: '2026-06-02', days_ahead: 1, latest_hour: 10 };
  /** Offsets of the point forecast from the actual at hours 0–5, and of P10 / P90 from the point: hours 1–3 are covered. */
  const OFFSET = [-400, -200, 0, 200, 400, 600];
  const SPREAD = 300;

  test('/skill scores P10–P90 coverage and pinball from exactly what continuous?quantiles= and actual return', async () => {
    const actual = await json(`${REGION}/actual`, { start: '2026-06-02T00:00:00Z', end: '2026-06-02T05:00:00Z' });
    const truth = new Map<string, number>(actual.time_utc.map((h: string, i: number) => [h, actual.values[0][i]]));
    // P10, P50 and P90 around a point forecast near the actual, the same in both runs (each hour's run does not matter).
    const lines = ['created_at,time_utc,id,value,quantile'];
    for (const run of RUNS) {
      for (let h = 0; h < 6; h++) {
        const p = truth.get(hour(h))! + OFFSET[h];
        lines.push(`${run},${hour(h)},ercot_total,${p},`);
        lines.push(`${run},${hour(h)},ercot_total,${p - SPREAD},0.1`, `${run},${hour(h)},ercot_total,${p + 50},0.5`);
        lines.push(`${run},${hour(h)},ercot_total,${p + SPREAD},0.9`);
      }
    }
    await ingested(lines.join('\n') + '\n', { source: 'q_three' });
    const records = await json(`${REGION}/skill`, { ...SKILL_WINDOW, model: 'q_three,q_long' });
    // By hand, from the two responses a user would fetch.
    const served = await json(`${REGION}/continuous`, { ...SKILL_WINDOW, model: 'q_three', quantiles: '0.1,0.5,0.9' });
    const rows = served.time_utc
      .map((h: string, i: number) => ({ y: truth.get(h), q: [0, 1, 2].map((k) => served.values[k][i]) }))
      .filter((r: { y?: number }) => r.y !== undefined);
    assert.equal(rows.length, 6);
    const pinball = (q: number, p: number, y: number) => (y >= q ? p * (y - q) : (1 - p) * (q - y));
    const covered = rows.filter((r: { y: number; q: number[] }) => r.q[0] <= r.y && r.y <= r.q[2]).length;
    const loss =
      rows.reduce(
        (s: number, r: { y: number; q: number[] }) =>
          s + (pinball(r.q[0], 0.1, r.y) + pinball(r.q[1], 0.5, r.y) + pinball(r.q[2], 0.9, r.y)) / 3,
        0,
      ) / rows.length;
    assert.equal(covered, 3);
    const three = records.find((r: { model: string }) => r.model === 'q_three');
    assert.equal(three.n, 6);
    assert.equal(three.coverage_p10_p90, 50);
    // Served with the values' decimals (1 for MW) + 2.
    assert.ok(Math.abs(three.pinball - loss) <= 0.005 + 1e-9, `pinball ${three.pinball} vs ${loss}`);
    // q_long holds P10 and P90 only: a coverage, no pinball (it needs P50).
    const long = records.find((r: { model: string }) => r.model === 'q_long');
    const longServed = await json(`${REGION}/continuous`, { ...SKILL_WINDOW, model: 'q_long', quantiles: '0.1,0.9' });
    let longCovered = 0;
    let longN = 0;
    longServed.time_utc.forEach((h: string, i: number) => {
      const y = truth.get(h);
      if (y === undefined) return;
      longN++;
      if (longServed.values[0][i] <= y && y <= longServed.values[1][i]) longCovered++;
    });
    assert.equal(long.n, longN);
    assert.equal(long.coverage_p10_p90, Math.round((1e4 * 100 * longCovered) / longN) / 1e4);
    assert.equal(long.pinball, null);
  });
});
