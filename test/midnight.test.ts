/**
 * No steps at local midnight (issue 22): weekends, holidays and the day's temperature reach the
 * load through the night, in the actuals and in every model's forecasts (and the ensemble). Each
 * series is checked over HTTP: no change into 00:00 local is a step beyond the night's own
 * movement (the larger of the changes into 23:00 and 01:00) by more than a quarter of the
 * series' typical morning pickup, and 00:00 never holds the largest change of a day.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { okJson, startServer, startTestApp, type TestApp, type TestServer, type Timeseries } from './helpers.ts';
import { fixedClock } from '../src/time/clock.ts';

let t: TestApp;
/** Now: 2026-11-24 18:00Z, two days before Thanksgiving. */
let november: TestServer;
let key: string;

before(async () => {
  t = await startTestApp();
  november = await startServer(t.store, { clock: fixedClock(Date.parse('2026-11-24T18:00:00Z')) });
  key = await t.key({ all: 'enterprise' });
});
after(async () => {
  await november?.close();
  await t?.close();
});

const localHour = (local: string) => Number(local.slice(11, 13));

/** The problems of one series: midnight steps beyond the night's movement, and days whose largest change is at 00:00. */
function midnightSteps(ts: Pick<Timeseries, 'time_local'>, values: (number | null)[], what: string): string[] {
  const change = values.map((v, i) => (i > 0 && v !== null && values[i - 1] !== null ? v - values[i - 1]! : Number.NaN));
  const pickups: number[] = [];
  for (let i = 0; i < change.length; i++) {
    if (localHour(ts.time_local[i]) === 7 && Number.isFinite(change[i])) {
      pickups.push(Math.max(...change.slice(i - 2, i + 4).filter(Number.isFinite)));
    }
  }
  pickups.sort((a, b) => a - b);
  const pickup = pickups[Math.floor((pickups.length - 1) / 2)];
  assert.ok(pickup > 0, `${what}: a morning pickup`);
  const problems: string[] = [];
  for (let i = 1; i + 1 < change.length; i++) {
    if (localHour(ts.time_local[i]) !== 0 || ![change[i - 1], change[i], change[i + 1]].every(Number.isFinite)) continue;
    const step = Math.abs(change[i]) - Math.max(Math.abs(change[i - 1]), Math.abs(change[i + 1]));
    if (step > 0.25 * pickup) problems.push(`${what} ${ts.time_local[i]}: step ${step.toFixed(0)} MW (pickup ${pickup.toFixed(0)})`);
    const day = change
      .slice(i, i + 24)
      .filter(Number.isFinite)
      .map(Math.abs);
    if (Math.abs(change[i]) >= Math.max(...day)) problems.push(`${what} ${ts.time_local[i]}: the day's largest change`);
  }
  return problems;
}

describe('no demand steps at local midnight', () => {
  test('actuals: Martin Luther King Day, weekends and a January week in PJM; Thanksgiving in ERCOT', async () => {
    const problems: string[] = [];
    for (const [iso, start, end] of [
      ['pjm', '2025-01-11', '2025-01-26'],
      ['ercot', '2025-11-20', '2025-12-02'],
    ]) {
      const ts = await okJson(t, `/v1/region/${iso}/demand/actual`, { key, query: { id: `${iso}_total`, start, end } });
      problems.push(...midnightSteps(ts, ts.values[0], `${iso} actual`));
    }
    assert.deepEqual(problems, []);
  });

  test('forecasts over Thanksgiving 2026: optimized, iso, normal, and every member of the ensemble', async () => {
    const problems: string[] = [];
    for (const model of ['optimized', 'iso', 'normal']) {
      const ts = await okJson(november, '/v1/region/pjm/demand/forecast', { key, query: { id: 'pjm_total', model } });
      assert.ok(
        ts.time_local.some((l) => l.startsWith('2026-11-26T00')),
        `${model} covers Thanksgiving`,
      );
      problems.push(...midnightSteps(ts, ts.values[0], `pjm ${model}`));
    }
    const ens = await okJson(november, '/v1/region/pjm/demand/ensemble', { key, query: { id: 'pjm_total' } });
    ens.values.forEach((member, m) => problems.push(...midnightSteps(ens, member, `pjm euro_ens member ${m}`)));
    assert.deepEqual(problems, []);
  });
});
