/**
 * Supply behind the prices (issue 22, round 6): the day-ahead market offers the units that are
 * back from an outage on the day it clears, and New York City's dual-fuel combined cycles burn oil
 * when Transco Z6 NY gas costs more than oil. Round 8: PJM's pumped hydro serves its peaks. Round 9:
 * MISO's unoffered capacity no longer counts the derates its outages already hold (the first test
 * keeps August 2023's worst outage day short).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';
import { hourPrice, LMP_PARAMS } from '../src/world/lmp.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'core' });
});
after(() => t?.close());

/** Highest price of each local day of a one-node series. */
function dailyMax(ts: Timeseries): Map<string, number> {
  const out = new Map<string, number>();
  ts.time_local.forEach((time, i) => {
    const day = time.slice(0, 10);
    out.set(day, Math.max(out.get(day) ?? -Infinity, ts.values[0][i] as number));
  });
  return out;
}

describe('day-ahead supply after an outage day', () => {
  test('MISO, August 2023: the worst outage day clears at scarcity, the cooler days after it do not', async () => {
    const query = { id: 'INDIANA.HUB', start: '2023-08-15', end: '2023-08-18' };
    const da = dailyMax(await okJson(t, '/v1/lmp/miso/dalmp/actual', { key, query }));
    const rt = dailyMax(await okJson(t, '/v1/lmp/miso/rtlmp/actual', { key, query }));
    // 08-15: 43 GW of outages and real time at the cap — the day-ahead market was short too.
    assert.ok(da.get('2023-08-15')! >= 1000, `DA max 2023-08-15: ${da.get('2023-08-15')}`);
    assert.ok(rt.get('2023-08-15')! >= 1000, `RT max 2023-08-15: ${rt.get('2023-08-15')}`);
    // 08-16 and 08-18 follow a day of more outages; the units back on the day offer into its
    // day-ahead market. Real time is calm on both days and so is the clearing (it reached $1,397
    // and $2,000 when it counted the day before's outages in full).
    for (const day of ['2023-08-16', '2023-08-18']) {
      assert.ok(rt.get(day)! < 200, `RT max ${day}: ${rt.get(day)}`);
      assert.ok(da.get(day)! < 500, `DA max ${day}: ${da.get(day)}`);
    }
  });
});

describe("PJM's pumped hydro (issue 22, round 8)", () => {
  test('July 2023 (142–149 GW, 13–18 GW out) no longer clears day-ahead at $1,000; the 160 GW record heat of 24 June 2025 still does', async () => {
    const get = async (type: string, start: string, end: string) =>
      dailyMax(await okJson(t, `/v1/lmp/pjm/${type}/actual`, { key, query: { id: 'WESTERN HUB', start, end } }));
    // Without its ~4.8 GW of pumped storage PJM cleared day-ahead at $1,148–1,482 on 07-10, 07-12,
    // 07-18 and 07-19, peaks PJM's summer outlooks plan for with reserves to spare.
    for (const [day, max] of await get('dalmp', '2023-07-10', '2023-07-19')) assert.ok(max < 1000, `DA max ${day}: ${max}`);
    // PJM's real 24 June 2025 took pre-emergency demand response and a maximum-generation alert.
    const day = '2025-06-24';
    assert.ok((await get('dalmp', day, day)).get(day)! >= 1000, 'DA max 2025-06-24');
    assert.ok((await get('rtlmp', day, day)).get(day)! >= 1000, 'RT max 2025-06-24');
  });
});

describe("MISO's supply beside its published outages (issue 22, round 9)", () => {
  test('July 2023 (28–44 GW out, up to 119 GW of load) and 24 July 2025 no longer clear day-ahead at $1,000', async () => {
    const get = async (start: string, end: string) =>
      dailyMax(await okJson(t, '/v1/lmp/miso/dalmp/actual', { key, query: { id: 'INDIANA.HUB', start, end } }));
    // With 13 GW of unoffered capacity on top of outages that already count derates, the day-ahead
    // market cleared at $2,000 on 2023-07-12, $1,682 on 07-18 and over $1,000 on 2025-07-24.
    for (const [day, max] of await get('2023-07-10', '2023-07-19')) assert.ok(max < 1000, `DA max ${day}: ${max}`);
    const day = '2025-07-24';
    assert.ok((await get(day, day)).get(day)! < 1000, `DA max ${day}`);
  });
});

describe('dual-fuel combined cycles', () => {
  // An off-peak hour whose need the combined cycles serve: gas above the oil parity price.
  const hour = { hour: 490_000, demandMw: 16_000, windMw: 500, solarMw: 0, outageMw: 2_000 };
  test('NYISO: above oil parity the combined cycles burn oil, so the price stops following gas', () => {
    const oil = LMP_PARAMS.nyiso.oilSwitch;
    const atParity = hourPrice('nyiso', { ...hour, gas: oil });
    const spike = hourPrice('nyiso', { ...hour, gas: 1.5 * oil });
    assert.ok(Math.abs(spike - atParity) < 0.01, `price at $${1.5 * oil} gas ${spike} vs at oil parity ${atParity}`);
    assert.ok(hourPrice('nyiso', { ...hour, gas: 0.5 * oil }) < atParity - 20, 'below parity the price follows gas');
  });

  test('ISO-NE: its combined cycles burn gas at any price (no dual-fuel rule), so a spike raises the price', () => {
    const oil = LMP_PARAMS.isone.oilSwitch;
    const isoneHour = { ...hour, demandMw: 14_000 };
    const atParity = hourPrice('isone', { ...isoneHour, gas: oil });
    const spike = hourPrice('isone', { ...isoneHour, gas: 1.5 * oil });
    assert.ok(spike > atParity + 40, `price at $${1.5 * oil} gas ${spike} vs at oil parity ${atParity}`);
  });
});
