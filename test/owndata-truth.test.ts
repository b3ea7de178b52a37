/**
 * Own data (issue 20): an ingested source made the truth of an ISO's actuals by configuration
 * (GRIDCAST_ACTUAL_SOURCE). `/actual` without `source`, `/skill` without `actual_source` and the
 * ISO summary's "actual" columns all follow it; other ISOs and metrics keep the world's truth; a
 * configured source not stored is a 422 saying where the name came from; a malformed setting stops
 * `gridcast serve` with the entry at fault.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseActualSources } from '../src/api/actualTruth.ts';
import { runGridcast, startTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'owndata-truth-token';
const HOUR_MS = 3_600_000;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const DAY = Date.parse('2026-06-14T00:00:00Z');

/** ERCOT total demand for the 24 hours of 2026-06-14 UTC, each published once its hour has ended. */
function truthCsv(): string {
  const lines = ['time_utc,id,value'];
  for (let h = 0; h < 24; h++) lines.push(`${utc(DAY + h * HOUR_MS)},ercot_total,${40000 + h}`);
  return lines.join('\n') + '\n';
}

describe('own data: GRIDCAST_ACTUAL_SOURCE makes a stored source the truth of an ISO', () => {
  let t: TestApp;
  let key: string;
  const get = (p: string, query: Record<string, string | number> = {}) => t.get(p, { key, query });
  const ok = async (p: string, query: Record<string, string | number> = {}) => {
    const res = await get(p, query);
    assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
    return res;
  };
  const window = { id: 'ercot_total', start: '2026-06-14T00:00:00Z', end: '2026-06-14T23:00:00Z' };

  before(async () => {
    // Set before the app starts: its compute workers read the same environment.
    process.env.GRIDCAST_ACTUAL_SOURCE = 'ercot/demand=truth, pjm=not_ingested';
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ all: 'enterprise' });
    const res = await t.request('POST', '/admin/ingest', {
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' },
      body: truthCsv(),
      query: { source: 'truth', group: 'region', iso: 'ercot', metric: 'demand' },
    });
    assert.equal(res.status, 200, res.text);
  });
  after(async () => {
    delete process.env.GRIDCAST_ACTUAL_SOURCE;
    await t?.close();
  });

  test('/actual without source serves the configured source, fresh; source= still chooses', async () => {
    const configured = await ok('/v1/region/ercot/demand/actual', window);
    const named = await ok('/v1/region/ercot/demand/actual', { ...window, source: 'truth' });
    assert.equal(configured.text, named.text);
    assert.deepEqual(
      configured.json().values[0],
      Array.from({ length: 24 }, (_, h) => 40000 + h),
    );
    assert.equal(configured.headers['cache-control'], 'private, no-cache');
    assert.equal(configured.headers.etag, undefined);
  });

  test('other metrics of the ISO keep the synthetic truth', async () => {
    const wind = await ok('/v1/region/ercot/wind/actual', window);
    assert.ok(wind.headers.etag !== undefined);
    assert.equal(wind.json().time_utc.length, 24);
  });

  test("a plant's skill keeps its own truth under an ISO-wide entry", async () => {
    const [plant] = (await ok('/v1/plant/pjm/wind/list')).json();
    const skill = await get('/v1/plant/pjm/wind/skill', { id: plant.id, start: '2026-06-10', end: '2026-06-12', model: 'optimized' });
    assert.equal(skill.status, 200, skill.text);
  });

  test('a configured source that is not stored is a 422 naming the setting and what exists', async () => {
    const res = await get('/v1/region/pjm/demand/actual', { start: '2026-06-14', end: '2026-06-14' });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      '{"detail":[{"type":"value_error","loc":["query","source"],"msg":"Value error, GRIDCAST_ACTUAL_SOURCE makes \'not_ingested\' ' +
        'the source of pjm\'s actuals, and no source \'not_ingested\' is stored: truth (region ercot demand)","input":null}]}',
    );
  });

  test('/skill without actual_source scores against the configured truth', async () => {
    const q = { id: 'ercot_total', days_ahead: 1, latest_hour: 10, model: 'optimized' };
    const configured = (await ok('/v1/region/ercot/demand/skill', q)).json();
    const named = (await ok('/v1/region/ercot/demand/skill', { ...q, actual_source: 'truth' })).json();
    assert.deepEqual(configured, named);
    assert.equal(configured[0].n, 24);
  });

  test("the summary's actual columns of the configured metric are the source's, as published at as_of", async () => {
    const summary = (await ok('/v1/region/ercot/summary')).json();
    const column = (label: string[]) => {
      const i = summary.columns.findIndex((c: string[]) => c.join() === label.join());
      assert.ok(i >= 0, label.join());
      return new Map(summary.time_utc.map((time: string, r: number) => [time, summary.values[i][r]]));
    };
    const total = column(['ercot_total', 'demand', 'actual']);
    for (const [time, value] of total) {
      const h = (Date.parse(time as string) - DAY) / HOUR_MS;
      assert.equal(value, h >= 0 && h < 24 ? 40000 + h : null, time as string);
    }
    // A region the source does not hold: no actuals (never the world's beside the source's).
    assert.ok([...column(['ercot_coast', 'demand', 'actual']).values()].every((v) => v === null));
    // Wind keeps the world's truth.
    assert.ok([...column(['ercot_total', 'wind', 'actual']).values()].some((v) => typeof v === 'number'));
    // As of 03:30 on 06-14 only the hours 00–02 had been published.
    const early = (await ok('/v1/region/ercot/summary', { as_of: '2026-06-14T03:30:00Z' })).json();
    const i = early.columns.findIndex((c: string[]) => c.join() === 'ercot_total,demand,actual');
    const published = early.time_utc.flatMap((time: string, r: number) =>
      early.values[i][r] === null ? [] : [[time, early.values[i][r]]],
    );
    assert.deepEqual(published, [
      ['2026-06-14T00:00:00Z', 40000],
      ['2026-06-14T01:00:00Z', 40001],
      ['2026-06-14T02:00:00Z', 40002],
    ]);
  });

  test('a malformed setting stops gridcast serve with the entry at fault', async () => {
    const run = await runGridcast(['serve', '--port', '0', '--data', '/nonexistent/never-opened'], {
      ...process.env,
      GRIDCAST_ACTUAL_SOURCE: 'ercot=truth,texas=vendor',
    });
    assert.equal(run.status, 1);
    assert.equal(
      run.stderr,
      "gridcast: GRIDCAST_ACTUAL_SOURCE: bad entry 'texas=vendor': unknown ISO 'texas' (expected ISO=SOURCE or ISO/METRIC=SOURCE, " +
        'comma-separated, e.g. ercot=eia930,pjm/demand=ops; ISO one of pjm, miso, spp, ercot, caiso, nyiso, isone; METRIC one of ' +
        'demand, wind, solar, outage, poptemp, dalmp, rtlmp)\n',
    );
    for (const [setting, why] of [
      ['ercot', "bad entry 'ercot': no ="],
      ['ercot/load=truth', "bad entry 'ercot/load=truth': unknown metric 'load'"],
      ['ercot=Truth', "bad entry 'ercot=Truth': the source must be lower-case letters"],
      ['ercot=optimized', "bad entry 'ercot=optimized': 'optimized' is a synthetic model, not a stored source"],
      ['ercot=a,ercot=b', "bad entry 'ercot=b': ercot is named twice"],
    ]) {
      assert.throws(
        () => parseActualSources(setting),
        (e: Error) => e.message.startsWith(`GRIDCAST_ACTUAL_SOURCE: ${why}`),
        setting,
      );
    }
    assert.deepEqual(
      [...parseActualSources(' ercot=eia930 , pjm/dalmp=prices ')],
      [
        ['ercot', 'eia930'],
        ['pjm/dalmp', 'prices'],
      ],
    );
  });
});
