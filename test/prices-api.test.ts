/**
 * Gas and electricity prices over HTTP: the hub and node lists, the request kinds (forecast
 * with forecasted_by, continuous stitched by day, gas backcast), access, and the behaviour
 * traders rely on — prices follow net load and fuel, windy low-load nights are cheaper than
 * calm hot evenings, negative prices where wind and solar swamp demand, import pockets dearer
 * than upstate, and the region summary carrying the day-ahead LMPs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;
let coreKey: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
  coreKey = await t.key({ spp: 'core' });
});

after(async () => {
  await t?.close();
});

const get = (path: string, query: Record<string, string | number> = {}, k = key) => okJson(t, path, { key: k, query });

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

function correlation(a: readonly number[], b: readonly number[]): number {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

const column = (ts: Timeseries, id: string) => ts.values[ts.columns.findIndex((c) => c[0] === id)] as number[];
const localHour = (local: string) => Number(local.slice(11, 13));

describe('gas', () => {
  test('list: the major hubs with id, name, timezone and a GeoJSON point', async () => {
    const res = await t.get('/v1/gas/list', { key: coreKey });
    assert.equal(res.status, 200);
    const hubs = res.json();
    for (const h of hubs) {
      assert.deepEqual(Object.keys(h), ['id', 'name', 'timezone', 'point']);
      assert.equal(h.timezone, 'America/Chicago');
      assert.equal(h.point.type, 'Point');
    }
    const names = hubs.map((h: any) => h.name).join('|');
    for (const name of [
      'Henry Hub',
      'Waha',
      'Katy',
      'Houston Ship Channel',
      'Chicago Citygate',
      'Dominion South',
      'Algonquin Citygates',
      'Transco Zone 6 NY',
      'SoCal Citygate',
      'PG&E Citygate',
    ]) {
      assert.ok(names.includes(name), name);
    }
    assert.deepEqual(hubs.find((h: any) => h.id === 'henry_hub').point.coordinates, [-92.04, 29.96]);
  });

  test("forecast: daily $/MMBtu at midnight Central; weekend and Monday gas days share Friday's print", async () => {
    const fc = await get('/v1/gas/forecast', { forecasted_by: '2026-05-04T15:00:00Z' }); // a Monday
    assert.equal(fc.units, '$/MMBtu');
    assert.equal(fc.timezone, 'America/Chicago');
    assert.equal(fc.created_at, '2026-05-04T15:00:00Z');
    assert.ok(fc.time_local.every((l) => /T00:00:00-0[56]:00$/.test(l)));
    assert.equal(fc.time_local[0].slice(0, 10), '2026-05-04');
    const henry = column(fc, 'henry_hub');
    assert.ok(
      henry.every((v) => v > 1 && v < 15),
      String(henry),
    );
    const day = (d: string) => fc.time_local.findIndex((l) => l.startsWith(d));
    // Sat 9, Sun 10 and Mon 11 May take Friday 8 May's print; Friday takes Thursday's.
    for (const hub of ['henry_hub', 'algonquin_citygates', 'waha']) {
      const v = column(fc, hub);
      assert.equal(v[day('2026-05-09')], v[day('2026-05-10')], hub);
      assert.equal(v[day('2026-05-10')], v[day('2026-05-11')], hub);
    }
  });

  test('forecasted_by: the run as it stood; before 2026 there is none', async () => {
    const then = await get('/v1/gas/forecast', { forecasted_by: '2026-02-10T08:30:00Z', id: 'waha' });
    assert.equal(then.created_at, '2026-02-10T08:00:00Z');
    assert.deepEqual(then.columns, [['waha']]);
    const res = await t.get('/v1/gas/forecast', { key, query: { forecasted_by: '2025-06-01T00:00:00Z' } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().detail[0].loc, ['query', 'forecasted_by']);
  });

  test('continuous: each gas day D is the day-D value of the run made at 10:00 Central on D − 1', async () => {
    const cont = await get('/v1/gas/continuous', { start: '2026-03-02', end: '2026-03-06', id: 'transco_z6_ny' });
    assert.equal(cont.created_at, null);
    assert.equal(cont.time_utc.length, 5);
    for (let i = 0; i < 5; i++) {
      const d = new Date(Date.UTC(2026, 2, 2 + i));
      const prev = new Date(d.getTime() - 86_400_000).toISOString().slice(0, 10);
      const run = await get('/v1/gas/forecast', { forecasted_by: `${prev}T10:00:00-06:00`, id: 'transco_z6_ny' });
      const at = run.time_utc.indexOf(cont.time_utc[i]);
      assert.ok(at >= 0);
      assert.equal(cont.values[0][i], run.values[0][at], cont.time_local[i]);
    }
  });

  test('New England winter: Algonquin follows the cold, Henry Hub barely', async () => {
    const cont = await get('/v1/gas/backcast', { start: '2025-12-01', end: '2026-02-28' });
    const algonquin = column(cont, 'algonquin_citygates');
    const henry = column(cont, 'henry_hub');
    const temps = await get('/v1/region/isone/poptemp/actual', { id: 'isone_total', start: '2025-12-01', end: '2026-02-28' });
    // Daily mean poptemp of the gas day after each value's day is what its print saw; use the same day (prints repeat on weekends).
    const daily: number[] = [];
    for (let i = 0; i < temps.values[0].length; i += 24) daily.push(mean(temps.values[0].slice(i, i + 24) as number[]));
    const n = Math.min(daily.length, algonquin.length);
    assert.ok(correlation(algonquin.slice(0, n), daily.slice(0, n)) < -0.4, 'colder → dearer at Algonquin');
    assert.ok(
      Math.max(...algonquin) > 2 * Math.max(...henry),
      `Algonquin spikes (${Math.max(...algonquin)}) far above Henry (${Math.max(...henry)})`,
    );
  });

  test('access: any core subscription reads gas; backcast needs enterprise', async () => {
    assert.equal((await t.get('/v1/gas/forecast', { key: coreKey })).status, 200);
    const res = await t.get('/v1/gas/backcast', { key: coreKey });
    assert.equal(res.status, 403);
    assert.equal(
      res.text,
      `{"detail":[{"type":"error","msg":"This endpoint needs a subscription at the 'enterprise' level or higher for at least one ISO."}]}`,
    );
    const unknown = await t.get('/v1/gas/forecast', { key, query: { id: 'nowhere' } });
    assert.equal(unknown.status, 422);
    assert.equal(
      unknown.text,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown gas hub id 'nowhere'; GET /v1/gas/list lists them","input":"nowhere"}]}`,
    );
  });
});

describe('LMP', () => {
  test('list: real hub and zone names, the same for both market types', async () => {
    const ercot = (await t.get('/v1/lmp/ercot/dalmp/list', { key })).json();
    const ids = ercot.map((n: any) => n.id);
    for (const id of ['HB_NORTH', 'HB_HOUSTON', 'HB_WEST', 'HB_SOUTH', 'HB_PAN', 'HB_BUSAVG', 'LZ_HOUSTON', 'LZ_WEST'])
      assert.ok(ids.includes(id), id);
    assert.ok(ids.some((id: string) => id.startsWith('GEN_')) && ids.some((id: string) => id.endsWith('_LOAD')));
    for (const n of ercot) {
      assert.deepEqual(Object.keys(n), ['id', 'name', 'iso', 'timezone', 'node_type']);
      assert.equal(n.iso, 'ercot');
      assert.equal(n.timezone, 'America/Chicago');
    }
    assert.deepEqual((await t.get('/v1/lmp/ercot/rtlmp/list', { key })).json(), ercot);
    const names = async (iso: string) => (await t.get(`/v1/lmp/${iso}/dalmp/list`, { key })).json().map((n: any) => n.id);
    assert.ok((await names('pjm')).includes('WESTERN HUB'));
    assert.ok((await names('nyiso')).includes('N.Y.C.'));
    assert.ok((await names('isone')).includes('.H.INTERNAL_HUB'));
    assert.ok((await names('caiso')).includes('TH_SP15_GEN-APND'));
    assert.ok((await names('miso')).includes('INDIANA.HUB'));
  });

  test('forecast: USD/MWh for one node by its published name; dalmp = rtlmp + a small premium (more in curtailment hours)', async () => {
    const q = { forecasted_by: '2026-06-10T16:00:00Z', id: 'WESTERN HUB' };
    const da = await get('/v1/lmp/pjm/dalmp/forecast', q);
    const rt = await get('/v1/lmp/pjm/rtlmp/forecast', q);
    assert.equal(da.units, 'USD/MWh');
    assert.equal(da.created_at, '2026-06-10T16:00:00Z');
    assert.deepEqual(da.columns, [['WESTERN HUB']]);
    assert.equal(da.time_utc.length, 360);
    // The day-ahead market prices curtailment more gently (world/lmp.ts), so in surplus hours its
    // premium is larger; everywhere else it is the small premium. It also runs on the outages of
    // the day before it clears (query/lmp.ts, issue 22), which move a day's prices a little
    // either way where the outages change from one day to the next.
    let small = 0;
    let positive = 0;
    da.values[0].forEach((v, i) => {
      const r = rt.values[0][i] as number;
      const premium = (v as number) - r;
      if (premium > 0.25) positive++;
      if (Math.abs(premium - 0.3 - 0.01 * Math.abs(r)) < 0.05 + 0.005 * Math.abs(r)) small++;
    });
    const n = da.values[0].length;
    assert.ok(positive >= 0.85 * n, `${positive} of ${n} hours with DA above RT`);
    assert.ok(small >= 0.6 * n, `${small} of ${n} hours with the small premium`);
    const res = await t.get('/v1/lmp/pjm/dalmp/forecast', { key, query: { id: 'HB_NORTH' } });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown price node id 'HB_NORTH' in pjm; GET /v1/lmp/pjm/dalmp/list lists them","input":"HB_NORTH"}]}`,
    );
  });

  test('a windy night with low demand is cheaper than a calm hot evening (ERCOT North)', async () => {
    const window = { start: '2026-05-15', end: '2026-06-14' };
    const price = column(await get('/v1/lmp/ercot/rtlmp/continuous', { ...window, id: 'HB_NORTH' }), 'HB_NORTH');
    const demandTs = await get('/v1/region/ercot/demand/continuous', { ...window, id: 'ercot_total' });
    const wind = (await get('/v1/region/ercot/wind/continuous', { ...window, id: 'ercot_total' })).values[0] as number[];
    const demand = demandTs.values[0] as number[];
    const hours = demandTs.time_local.map(localHour);
    const idx = [...demand.keys()];
    const windyNights = idx.filter((i) => (hours[i] <= 5 || hours[i] >= 23) && wind[i] / demand[i] > 0.45);
    const hotEvenings = idx.filter((i) => hours[i] >= 16 && hours[i] <= 20 && wind[i] / demand[i] < 0.2 && demand[i] > 60_000);
    assert.ok(windyNights.length > 5 && hotEvenings.length > 5, `${windyNights.length} windy nights, ${hotEvenings.length} hot evenings`);
    const night = mean(windyNights.map((i) => price[i]));
    const evening = mean(hotEvenings.map((i) => price[i]));
    assert.ok(night < evening, `windy night $${night.toFixed(2)} vs hot evening $${evening.toFixed(2)}`);
  });

  test('hub prices track net load; negative prices come with wind (SPP); NYC dearer than upstate', async () => {
    const window = { start: '2026-04-01', end: '2026-04-30' };
    const price = column(await get('/v1/lmp/ercot/dalmp/continuous', { ...window, id: 'HB_HOUSTON' }), 'HB_HOUSTON');
    const series = async (metric: string) =>
      (await get(`/v1/region/ercot/${metric}/continuous`, { ...window, id: 'ercot_total' })).values[0] as number[];
    const [demand, wind, solar] = [await series('demand'), await series('wind'), await series('solar')];
    const net = demand.map((d, i) => d - wind[i] - solar[i]);
    // Rank correlation: a few shortage hours would dominate a linear one.
    const ranks = (xs: number[]) => {
      const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
      const r = new Array<number>(xs.length);
      order.forEach(([, i], k) => (r[i] = k));
      return r;
    };
    const rho = correlation(ranks(price), ranks(net));
    assert.ok(rho > 0.5, `rank corr ${rho}`);

    const spp = column(await get('/v1/lmp/spp/rtlmp/continuous', { ...window, id: 'SPPNORTH_HUB' }), 'SPPNORTH_HUB');
    const sppWind = (await get('/v1/region/spp/wind/continuous', { ...window, id: 'spp_total' })).values[0] as number[];
    const negative = spp.map((p, i) => i).filter((i) => spp[i] < 0);
    assert.ok(negative.length > 10, `${negative.length} negative SPP hours in April`);
    assert.ok(mean(negative.map((i) => sppWind[i])) > 1.3 * mean(sppWind), 'negative hours are windy hours');

    const ny = await get('/v1/lmp/nyiso/dalmp/continuous', { start: '2026-06-01', end: '2026-06-10' });
    const ratio = mean(column(ny, 'N.Y.C.')) / mean(column(ny, 'WEST'));
    assert.ok(ratio > 1.2 && ratio < 2.2, `N.Y.C. / WEST = ${ratio}`);
  });

  test('the region summary carries the day-ahead LMPs of the hubs, forecast and cleared', async () => {
    const s = await get('/v1/region/ercot/summary', { as_of: '2026-06-15T12:00:00-05:00' });
    const at = (label: string[]) => s.columns.findIndex((c) => c.join('|') === label.join('|'));
    for (const hub of ['HB_NORTH', 'HB_WEST']) {
      const fc = s.values[at([hub, 'dalmp', 'forecast'])];
      const ac = s.values[at([hub, 'dalmp', 'actual'])];
      assert.ok(fc && ac, hub);
      const day = (d: string) => s.time_local.map((l, i) => (l.startsWith(d) ? i : -1)).filter((i) => i >= 0);
      // At noon: the days up to today have cleared (each at 13:30 the day before); tomorrow clears at 13:30 today.
      assert.ok(day('2026-06-14').every((i) => ac[i] !== null));
      assert.ok(day('2026-06-15').every((i) => ac[i] !== null));
      assert.ok(
        day('2026-06-16').every((i) => ac[i] === null),
        'tomorrow clears at 13:30 today',
      );
      assert.ok(day('2026-06-17').every((i) => fc[i] !== null));
    }
    assert.equal(s.units, 'mixed');
  });
});
