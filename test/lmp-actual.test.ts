/**
 * Realised prices over HTTP, `/v1/lmp/{iso}/{type}/actual`: every ISO and node, the publication
 * times (day-ahead results the afternoon before, real-time 15 minutes after the hour), the window
 * rules and errors of every `actual`, formats and resampling, the ISO summary's cleared prices as
 * the same numbers, the core access level, and realised real-time prices that spike and go
 * negative where the forecasts (expectations) do not.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tableFromIPC } from 'apache-arrow';
import { okJson, startServer, startTestApp, type Response, type TestApp, type TestServer } from './helpers.ts';
import { ISO_CODES } from '../src/catalog/isos.ts';
import { fixedClock } from '../src/time/clock.ts';

let t: TestApp;
let key: string;

before(async () => {
  // Now: 2026-06-15T18:00Z = 13:00 in Chicago, 14:00 in New York, 11:00 in Los Angeles.
  t = await startTestApp();
  key = await t.key({ all: 'core' });
});
after(() => t?.close());

/** Status, exact body and content type of an error response. */
function assertError(res: Response, status: number, body: string): void {
  assert.equal(res.status, status, `status (body: ${res.text.slice(0, 300)})`);
  assert.equal(res.text, body);
  assert.equal(res.headers['content-type'], 'application/json');
}

const get = (path: string, query: Record<string, string | number> = {}, k = key) => okJson(t, path, { key: k, query });
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The last local day with cleared day-ahead prices at 2026-06-15T18:00Z: tomorrow where results are out by then. */
const LAST_CLEARED_DAY: Record<string, string> = {
  pjm: '2026-06-16', // 13:30 EDT ≤ 14:00 EDT
  miso: '2026-06-16', // 12:30 CDT (13:30 EDT) ≤ 13:00 CDT
  spp: '2026-06-15', // 14:00 CDT > 13:00 CDT
  ercot: '2026-06-15', // 13:30 CDT > 13:00 CDT
  caiso: '2026-06-15', // 13:00 PDT > 11:00 PDT
  nyiso: '2026-06-16', // 11:00 EDT ≤ 14:00 EDT
  isone: '2026-06-16', // 13:30 EDT ≤ 14:00 EDT
};

describe('/lmp/{iso}/{type}/actual', () => {
  test('every ISO, both types: every node of /list, the default window ending with the last published hour', async () => {
    for (const iso of ISO_CODES) {
      const nodes = (await get(`/v1/lmp/${iso}/dalmp/list`)) as unknown as { id: string }[];
      for (const type of ['dalmp', 'rtlmp']) {
        const ts = await get(`/v1/lmp/${iso}/${type}/actual`);
        assert.deepEqual(
          ts.columns.map((c) => c[0]),
          nodes.map((n) => n.id),
          `${iso} ${type} columns`,
        );
        assert.equal(ts.units, 'USD/MWh');
        assert.equal(ts.model, null);
        assert.equal(ts.created_at, null);
        const last = ts.time_local.at(-1)!;
        if (type === 'dalmp') assert.equal(last.slice(0, 13), `${LAST_CLEARED_DAY[iso]}T23`, `${iso} last cleared hour`);
        // Hour 16:00Z ended at 17:00Z and was published at 17:15Z; hour 17:00Z is published at 18:15Z.
        else assert.equal(ts.time_utc.at(-1), '2026-06-15T16:00:00Z', `${iso} last real-time hour`);
        for (const column of ts.values)
          assert.ok(
            column.every((v) => typeof v === 'number' && Number.isFinite(v)),
            `${iso} ${type}`,
          );
      }
    }
  });

  test("tomorrow's day-ahead prices appear when the ISO publishes them (ERCOT 13:30 Central)", async () => {
    const servers: TestServer[] = [];
    const at = async (iso: string) => {
      const server = await startServer(t.store, { clock: fixedClock(Date.parse(iso)) });
      servers.push(server);
      return server;
    };
    try {
      const beforePublication = await at('2026-06-15T18:29:00Z');
      const afterPublication = await at('2026-06-15T18:30:00Z');
      const query = { id: 'HB_NORTH', start: '2026-06-16', end: '2026-06-16' };
      const res = await beforePublication.get('/v1/lmp/ercot/dalmp/actual', { key, query });
      assertError(
        res,
        422,
        '{"detail":[{"type":"value_error","loc":["query","start"],"msg":"Value error, no actuals in the requested window: ' +
          "cleared day-ahead prices exist from 2023-01-01 up to the last published (each day's published at 13:30 local time " +
          'the day before)","input":"2026-06-16"}]}',
      );
      const ts = await okJson(afterPublication, '/v1/lmp/ercot/dalmp/actual', { key, query });
      assert.equal(ts.time_local.length, 24);
      assert.equal(ts.time_local[0], '2026-06-16T00:00:00-05:00');
    } finally {
      for (const server of servers) await server.close();
    }
  });

  test('window rules of every actual: before 2023 and beyond the published are 422s', async () => {
    assertError(
      await t.get('/v1/lmp/pjm/rtlmp/actual', { key, query: { end: '2022-12-31' } }),
      422,
      '{"detail":[{"type":"value_error","loc":["query","end"],"msg":"Value error, no actuals in the requested window: ' +
        "real-time prices exist from 2023-01-01 up to the last published (each hour's published 15 minutes after it ends)" +
        '","input":"2022-12-31"}]}',
    );
    const first = await get('/v1/lmp/pjm/rtlmp/actual', { id: 'WESTERN HUB', start: '2022-12-30', end: '2023-01-01' });
    assert.equal(first.time_local[0], '2023-01-01T00:00:00-05:00');
    assert.equal(first.time_local.length, 24);
  });

  test("the ISO summary's cleared prices are the same numbers as dalmp/actual", async () => {
    for (const iso of ['ercot', 'nyiso', 'caiso'] as const) {
      const s = await get(`/v1/region/${iso}/summary`);
      const lmp = await get(`/v1/lmp/${iso}/dalmp/actual`, { start: s.time_local[0].slice(0, 10) });
      const hubs = s.columns.filter((c) => c[1] === 'dalmp' && c[2] === 'actual').map((c) => c[0]);
      assert.ok(hubs.length >= 2, iso);
      for (const hub of hubs) {
        const summary = s.values[s.columns.findIndex((c) => c[0] === hub && c[1] === 'dalmp' && c[2] === 'actual')];
        const actual = lmp.values[lmp.columns.findIndex((c) => c[0] === hub)];
        const cleared = summary.filter((v) => v !== null);
        assert.equal(cleared.length, lmp.time_utc.length, `${iso} ${hub}: the summary clears the days the endpoint serves`);
        assert.deepEqual(summary.slice(0, cleared.length), actual, `${iso} ${hub}`);
      }
    }
  });

  test('formats: CSV long and Arrow hold the JSON values; resample to days in another zone', async () => {
    const query = { start: '2026-06-01', end: '2026-06-02' };
    const json = await get('/v1/lmp/spp/rtlmp/actual', query);
    const csv = await t.get('/v1/lmp/spp/rtlmp/actual', { key, query: { ...query, format: 'csv', layout: 'long' } });
    assert.equal(csv.status, 200);
    const lines = csv.text.trim().split('\r\n');
    assert.equal(lines[0], 'time_utc,time_local,id,value');
    assert.equal(lines.length - 1, json.time_utc.length * json.columns.length);
    assert.equal(lines[1], `${json.time_utc[0]},${json.time_local[0]},${json.columns[0][0]},${json.values[0][0]}`);
    const arrow = await t.get('/v1/lmp/spp/rtlmp/actual', { key, query: { ...query, format: 'arrow' } });
    assert.equal(arrow.status, 200);
    const table = tableFromIPC(arrow.raw);
    assert.equal(table.numRows, json.time_utc.length);
    for (const [c, label] of json.columns.entries()) {
      assert.deepEqual(Array.from(table.getChild(label[0])!.toArray() as Float64Array), json.values[c], label[0]);
    }
    const parquet = await t.get('/v1/lmp/spp/rtlmp/actual', { key, query: { ...query, format: 'parquet' } });
    assert.equal(parquet.status, 200);
    assert.equal(parquet.raw.subarray(0, 4).toString(), 'PAR1');

    const daily = await get('/v1/lmp/spp/rtlmp/actual', { ...query, id: 'SPPNORTH_HUB', resample: '1d', agg: 'max', tz: 'UTC' });
    const hourly = await get('/v1/lmp/spp/rtlmp/actual', { ...query, id: 'SPPNORTH_HUB', tz: 'UTC' });
    const day1 = hourly.values[0].filter((_, i) => hourly.time_utc[i].startsWith('2026-06-01')) as number[];
    assert.equal(daily.time_utc[0], '2026-06-01T00:00:00Z');
    assert.equal(daily.values[0][0], Math.max(...day1));
  });

  test('an hour has the same realised price in any window (SPP: spikes in ramps use the hour before)', async () => {
    const long = await get('/v1/lmp/spp/rtlmp/actual', { start: '2026-04-01', end: '2026-04-10' });
    const short = await get('/v1/lmp/spp/rtlmp/actual', { start: '2026-04-06', end: '2026-04-10' });
    const offset = long.time_utc.indexOf(short.time_utc[0]);
    assert.ok(offset > 0);
    for (let c = 0; c < long.columns.length; c++) assert.deepEqual(long.values[c].slice(offset), short.values[c], long.columns[c][0]);
  });

  test('core level: a core key for one ISO reads it, not another ISO', async () => {
    const sppCore = await t.key({ spp: 'core' });
    assert.equal((await get('/v1/lmp/spp/dalmp/actual', { id: 'SPPNORTH_HUB' }, sppCore)).columns.length, 1);
    assertError(
      await t.get('/v1/lmp/ercot/rtlmp/actual', { key: sppCore }),
      403,
      `{"detail":[{"type":"error","msg":"Your API key has no subscription for ISO 'ercot'. ` +
        `This endpoint needs the 'core' level or higher for 'ercot'."}]}`,
    );
  });

  test('realised real-time prices spike in spring (SPP, ERCOT) and go negative in SPP North; forecasts are smoother', async () => {
    const spring = { start: '2026-03-01', end: '2026-05-31' };
    for (const [iso, hub] of [
      ['spp', 'SPPNORTH_HUB'],
      ['ercot', 'HB_NORTH'],
    ]) {
      const actual = (await get(`/v1/lmp/${iso}/rtlmp/actual`, { ...spring, id: hub })).values[0] as number[];
      const forecast = (await get(`/v1/lmp/${iso}/rtlmp/continuous`, { ...spring, id: hub })).values[0] as number[];
      const m = mean(actual);
      assert.ok(Math.max(...actual) > 4 * m, `${iso} spring max ${Math.max(...actual)} vs mean ${m}`);
      // Hour-to-hour moves: the realised series is rougher than the expectation.
      const roughness = (xs: number[]) => mean(xs.slice(1).map((x, i) => Math.abs(x - xs[i])));
      assert.ok(roughness(actual) > 1.2 * roughness(forecast), `${iso} roughness ${roughness(actual)} vs ${roughness(forecast)}`);
      if (iso === 'spp') assert.ok(actual.filter((p) => p < 0).length > 100, 'SPP North negative hours in spring');
    }
  });
});
