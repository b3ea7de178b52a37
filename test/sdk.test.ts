/**
 * The TypeScript SDK (packages/client) against a live server: its generated types match the
 * document the server serves, it has a method for every public operation named like the
 * Python client's, it returns what a raw GET returns, splits long windows and joins them,
 * retries 429/503 after Retry-After, aborts, and throws typed errors.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import {
  GridcastClient,
  GridcastError,
  GridcastNetworkError,
  OPERATIONS,
  planWindows,
  type OperationName,
  TimeseriesResponse,
  type Chunk,
  type ClientOptions,
  type LongRow,
  type Plant,
  type RetryEvent,
} from '../src/client/index.ts';
import { publicOpenApi, SDK_TYPES_FILE, sdkTypesSource } from '../scripts/generate-sdk-types.ts';
import { closedPort, startFaultServer } from './network-faults.ts';
import { okJson, ROOT, startServer, startTestApp, type TestApp, type TestServer, type Timeseries } from './helpers.ts';

let t: TestApp;
let limited: TestServer;
let key: string;
let client: GridcastClient;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
  client = new GridcastClient({ apiKey: key, baseUrl: `${t.baseUrl}/v1` });
  // One request per 2-second window for core keys: the third of three quick calls is refused.
  limited = await startServer(t.store, { rateLimits: { core: [{ limit: 1, windowSecs: 2 }], advanced: [], enterprise: [] } });
});

after(async () => {
  await limited?.close();
  await t?.close();
});

/** The official Python client's method name for an operation (reference isoview-api.md §6). */
function pythonMethodNames(document: any): Map<string, string> {
  const ops = Object.entries<any>(document.paths).map(([p, item]) => ({ path: p, summary: String(item.get.summary) }));
  const base = (summary: string) => summary.trim().toLowerCase().replace(/\s+/g, '_');
  const counts = new Map<string, number>();
  for (const op of ops) counts.set(base(op.summary), (counts.get(base(op.summary)) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const op of ops) {
    let name = base(op.summary);
    const segment = op.path.replace(/^\/+|\/+$/g, '').split('/')[0];
    if (counts.get(name)! > 1 && !name.includes(segment)) {
      const [first, ...rest] = name.split('_');
      name = [first, segment, ...rest].join('_');
    }
    names.set(name.replace(/-/g, '_'), op.path);
  }
  return names;
}

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A local HTTP server answering with `answer(requestNumber, req, res)`; records the requests. */
async function fakeServer(answer: (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    answer(requests.length, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const BUSY = {
  detail: [{ type: 'error', msg: 'The server is busy with 4 large requests; retry in a few seconds, or ask for one id at a time.' }],
};

describe('typed from the OpenAPI document', () => {
  test('the committed generated types are those of the document the server serves (else: npm run sdk:generate)', async () => {
    const document = await okJson<any>(t, '/v1/openapi.json');
    assert.equal(
      fs.readFileSync(SDK_TYPES_FILE, 'utf8'),
      await sdkTypesSource(document),
      'src/client/openapi.generated.ts is out of date: run npm run sdk:generate',
    );
  });

  test("the package README's method table lists every method, with the Python client's name and the path", async () => {
    const python = pythonMethodNames(publicOpenApi(await okJson<any>(t, '/v1/openapi.json')));
    const readme = fs.readFileSync(path.join(ROOT, 'packages/client/README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `(\w+)` \| `(\w+)\(.*\)` \| `([^`]+)` \|$/gm)].map((m) => [m[2], [m[1], m[3]]] as const);
    assert.deepEqual(new Map(rows), new Map([...python].map(([name, p]) => [camel(name), [name, p]])));
    assert.equal(rows.length, Object.keys(OPERATIONS).length, 'each method once');
  });

  test("a method named like the Python client's (camelCase) for every public operation, and none for /admin", async () => {
    const served = await okJson<any>(t, '/v1/openapi.json');
    const document = publicOpenApi(served);
    // The generator leaves the admin API out even from a document that carries it.
    const admin = await okJson<any>(t, '/admin/openapi.json');
    assert.ok(Object.keys(admin.paths).length > 0);
    const both = {
      ...served,
      paths: { ...served.paths, ...admin.paths },
      components: { ...served.components, schemas: { ...served.components.schemas, ...admin.components.schemas } },
    };
    assert.deepEqual(publicOpenApi(both), document);
    assert.equal(await sdkTypesSource(both), await sdkTypesSource(served));
    const expected = new Map([...pythonMethodNames(document)].map(([name, p]) => [camel(name), p]));
    assert.ok(expected.has('getCellsDayAheadBackcast') && expected.has('getRegionalForecast') && expected.has('getContinuousGasForecast'));
    assert.deepEqual(new Map(Object.entries(OPERATIONS)), expected);
    for (const name of expected.keys()) assert.equal(typeof (client as any)[name], 'function', name);
  });
});

describe('results equal a raw GET', () => {
  test('getRegionalForecast: the same body; a Date parameter is sent as an instant', async () => {
    const ts = await client.getRegionalForecast('ercot', 'demand', { id: 'ercot_total', forecasted_by: new Date('2026-06-10T15:00:00Z') });
    const raw = await okJson(t, '/v1/region/ercot/demand/forecast', {
      key,
      query: { id: 'ercot_total', forecasted_by: '2026-06-10T15:00:00Z' },
    });
    assert.ok(ts instanceof TimeseriesResponse);
    assert.deepEqual(ts.toJSON(), raw);
    assert.equal(ts.createdAt()?.toISOString(), new Date(raw.created_at!).toISOString());
    assert.equal(ts.length, 360);
  });

  test('getPlantContinuousForecast: the same values; rows, columns and Dates', async () => {
    const plants = await client.listPlants('ercot', 'wind');
    assert.deepEqual(plants, await okJson(t, '/v1/plant/ercot/wind/list', { key }));
    const ids = plants.slice(0, 2).map((p) => String(p.id));
    const query = { start: '2026-06-01', end: '2026-06-07', model: 'iso', latest_hour: 8 } as const;
    const all = await client.getPlantContinuousForecast('ercot', 'wind', query);
    const raw = await okJson(t, '/v1/plant/ercot/wind/continuous', { key, query });
    assert.deepEqual(all.toJSON(), raw);
    const one = await client.getPlantContinuousForecast('ercot', 'wind', { ...query, id: ids[1] });
    assert.deepEqual(one.column(ids[1]), raw.values[raw.columns.findIndex((c) => c[0] === ids[1])]);
    assert.deepEqual(one.column([ids[1]]), one.values[0]);
    const rows = all.toRows();
    assert.equal(rows.length, 7 * 24);
    assert.ok(rows[5].time_utc instanceof Date);
    assert.equal(rows[5].time_utc.getTime(), Date.parse(raw.time_utc[5]));
    assert.equal(rows[5].time_local, raw.time_local[5]);
    assert.equal(rows[5][ids[0]], raw.values[0][5]);
    assert.equal(Object.keys(rows[0]).length, 2 + raw.columns.length);
    assert.deepEqual(
      all.timesUtc().map((d) => d.getTime()),
      raw.time_utc.map((s) => Date.parse(s)),
    );
    assert.throws(() => all.column('no-such-plant'), RangeError);
  });

  test('multi-level labels (the ISO summary) become unambiguous row fields', async () => {
    const summary = await client.getIsoSummary('nyiso', { as_of: '2026-06-15T12:00:00Z' });
    const raw = await okJson(t, '/v1/region/nyiso/summary', { key, query: { as_of: '2026-06-15T12:00:00Z' } });
    assert.deepEqual(summary.toJSON(), raw);
    const c = raw.columns.findIndex((l) => l.join('/') === 'nyiso_total/demand/forecast');
    assert.ok(c >= 0);
    assert.deepEqual(summary.column('nyiso_total|demand|forecast'), raw.values[c]);
    assert.deepEqual(summary.column(['nyiso_total', 'demand', 'forecast']), raw.values[c]);
    const row = summary.toRows()[30];
    assert.equal(row['nyiso_total|demand|forecast'], raw.values[c][30]);
    // LMP node ids carry dots and spaces: still one field each.
    const lmp = await client.getLmpForecast('nyiso', 'dalmp', { id: 'N.Y.C.' });
    assert.deepEqual(lmp.toJSON(), await okJson(t, '/v1/lmp/nyiso/dalmp/forecast', { key, query: { id: 'N.Y.C.' } }));
    assert.deepEqual(Object.keys(lmp.toRows()[0]), ['time_utc', 'time_local', 'N.Y.C.']);
  });
});

describe('formats and layouts', () => {
  /** Every format a method's options type allows (all of them), and the layouts where it has `layout`. */
  const FORMATS = ['json', 'csv', 'parquet', 'arrow'] as const;
  const LAYOUTS = ['wide', 'long'] as const;

  /** Path arguments and options for every method; ids from the lists (a plant's as the number listPlants gives). */
  async function callsOfEveryMethod(): Promise<Record<OperationName, [unknown[], Record<string, unknown>]>> {
    const plant = (await client.listPlants('ercot', 'wind'))[0].id;
    const county = (await client.listCounties('ercot'))[0].id;
    const cell = (await client.listCells('ercot', 'wind', { resolution: 3 }))[0].id;
    const node = (await client.listLmpNodes('ercot', 'dalmp'))[0].id;
    const week = { start: '2026-06-01', end: '2026-06-07' };
    const vintage = { valid_time: '2026-06-14T18:00:00Z' };
    return {
      listRegions: [['ercot', 'demand'], {}],
      getRegionalForecast: [['ercot', 'demand'], { id: 'ercot_total' }],
      getRegionContinuousForecast: [['ercot', 'demand'], { id: 'ercot_total', ...week }],
      getHistoricalActuals: [['ercot', 'demand'], { id: 'ercot_total', ...week }],
      getRegionDayAheadBackcast: [['ercot', 'demand'], { id: 'ercot_total', ...week }],
      getEnsembleForecast: [['ercot', 'demand'], { id: 'ercot_total', quantiles: '0.1,0.9' }],
      getIsoSummary: [['nyiso'], {}],
      listPlants: [['ercot', 'wind'], {}],
      getPlantForecast: [['ercot', 'wind'], { id: plant }],
      getPlantContinuousForecast: [['ercot', 'wind'], { id: plant, ...week }],
      getPlantDayAheadBackcast: [['ercot', 'wind'], { id: plant, ...week }],
      listCounties: [['ercot'], {}],
      getCountyForecast: [['ercot'], { id: county }],
      getCountyContinuousForecast: [['ercot'], { id: county, ...week }],
      listGasHubs: [[], {}],
      getGasPriceForecast: [[], { id: 'henry_hub' }],
      getContinuousGasForecast: [[], { id: 'henry_hub', ...week }],
      getGasDayAheadBackcast: [[], { id: 'henry_hub', ...week }],
      listLmpNodes: [['ercot', 'dalmp'], {}],
      getLmpForecast: [['ercot', 'dalmp'], { id: node }],
      getLmpContinuousForecast: [['ercot', 'dalmp'], { id: node, ...week }],
      getLmpActuals: [['ercot', 'rtlmp'], { id: node, ...week }],
      listCells: [['ercot', 'wind'], { resolution: 3 }],
      getCellsForecast: [['ercot', 'wind'], { id: cell, resolution: 3 }],
      getCellsContinuousForecast: [['ercot', 'wind'], { id: cell, resolution: 3, ...week }],
      getCellsDayAheadBackcast: [['ercot', 'wind'], { id: cell, resolution: 3, ...week }],
      listRegionForecastRuns: [['ercot', 'demand'], {}],
      getRegionForecastVintages: [['ercot', 'demand'], { id: 'ercot_total', ...vintage }],
      listPlantForecastRuns: [['ercot', 'wind'], {}],
      getPlantForecastVintages: [['ercot', 'wind'], { id: plant, ...vintage }],
      listCellsForecastRuns: [['ercot', 'wind'], { resolution: 3 }],
      getCellsForecastVintages: [['ercot', 'wind'], { id: cell, resolution: 3, ...vintage }],
      listCountyForecastRuns: [['ercot'], {}],
      getCountyForecastVintages: [['ercot'], { id: county, ...vintage }],
      listLmpForecastRuns: [['ercot', 'dalmp'], {}],
      getLmpForecastVintages: [['ercot', 'dalmp'], { id: node, ...vintage }],
      getDataStatus: [[], {}],
      getRegionForecastSkill: [['ercot', 'demand'], { ...week, model: 'optimized,iso', days_ahead: '1,2' }],
      getPlantForecastSkill: [['ercot', 'wind'], { id: plant, ...week, model: 'optimized', days_ahead: '1' }],
      getGasForecastSkill: [[], { id: 'henry_hub', ...week, model: 'optimized', days_ahead: '1' }],
      getCellsForecastSkill: [['ercot', 'wind'], { id: cell, resolution: 3, ...week, model: 'optimized', days_ahead: '1' }],
      getLmpForecastSkill: [['ercot', 'rtlmp'], { id: node, ...week, model: 'optimized', days_ahead: '1' }],
    };
  }

  /**
   * One method of each kind (a list, the runs, the status, forecasts with and without path
   * parameters, a window) with every format and layout; every other method (answers cost up to a second
   * each) with one pair, taken in turn, so that each pair is met many times over.
   */
  const EVERY_PAIR: ReadonlySet<string> = new Set([
    'listPlants',
    'listRegionForecastRuns',
    'getDataStatus',
    'getGasPriceForecast',
    'getRegionalForecast',
    'getPlantContinuousForecast',
  ]);

  test('every method answers every format (and layout) its options allow exactly as a raw GET does: text, bytes, rows', async () => {
    const calls = await callsOfEveryMethod();
    assert.deepEqual(Object.keys(calls).sort(), Object.keys(OPERATIONS).sort(), 'a call for every method');
    const dynamic = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    let turn = 0;
    for (const [method, [pathArgs, options]] of Object.entries(calls)) {
      const template: string = OPERATIONS[method as OperationName];
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const path = `/v1${names.reduce((p, name, i) => p.replace(`{${name}}`, String(pathArgs[i])), template)}`;
      const layouts =
        template.endsWith('/list') || template.endsWith('/runs') || template === '/status' || template.endsWith('/skill')
          ? [undefined]
          : LAYOUTS;
      const pairs = FORMATS.flatMap((format) => layouts.map((layout) => [format, layout] as const));
      for (const [format, layout] of EVERY_PAIR.has(method) ? pairs : [pairs[turn++ % pairs.length]]) {
        {
          const what = `${method} format=${format} layout=${layout ?? '-'}`;
          const query = { ...options, format, ...(layout ? { layout } : {}) } as Record<string, string | number>;
          const raw = await t.get(path, { key, query });
          assert.equal(raw.status, 200, `${what}: ${raw.text.slice(0, 200)}`);
          const got = await dynamic[method](...pathArgs, { ...options, format, ...(layout ? { layout } : {}) });
          if (format === 'csv') assert.equal(got, raw.text, what);
          else if (format === 'parquet' || format === 'arrow') {
            assert.ok(got instanceof Uint8Array, `${what}: bytes`);
            assert.ok(Buffer.from(got).equals(raw.raw), `${what}: the same bytes`);
          } else if (got instanceof TimeseriesResponse) {
            assert.equal(layout, 'wide', `${what}: a TimeseriesResponse only for the wide layout`);
            assert.deepEqual(got.toJSON(), raw.json(), what);
          } else {
            assert.ok(layout !== 'wide', `${what}: rows or records`);
            assert.deepEqual(got, raw.json(), what);
          }
        }
      }
    }
  });

  test("a plant's numeric id from listPlants() goes straight into `id` and column()", async () => {
    const [plant] = await client.listPlants('ercot', 'wind');
    assert.equal(typeof plant.id, 'number');
    const ts = await client.getPlantForecast('ercot', 'wind', { id: plant.id });
    assert.deepEqual(ts.columns, [[String(plant.id)]]);
    assert.deepEqual(ts.column(plant.id), ts.values[0]);
  });

  test('layout long over 365 days: the chunks joined, series after series, each hour once', async () => {
    const window = { id: 'ercot_total', start: '2025-01-01T00:00:00Z', end: '2026-03-01T00:00:00Z' } as const;
    const wide = await client.getHistoricalActuals('ercot', 'demand', window);
    const long = await client.getHistoricalActuals('ercot', 'demand', { ...window, layout: 'long' });
    assert.equal(long.length, wide.length);
    assert.deepEqual(
      long.map((r) => [r.time_utc, r.id, r.value]),
      wide.time_utc.map((time, i) => [time, 'ercot_total', wide.values[0][i]]),
    );
    const chunks = [];
    for await (const c of client.iterateChunks('getHistoricalActuals', 'ercot', 'demand', { ...window, layout: 'long' })) chunks.push(c);
    assert.equal(chunks.length, 2);
    assert.deepEqual(
      chunks.flatMap((c) => c.data ?? []),
      long,
    );
  });

  test('a file format over a window of several requests is refused before any request, naming the ways out', async () => {
    const server = await fakeServer((_, __, res) => res.writeHead(500).end());
    try {
      const c = new GridcastClient({ apiKey: 'k', baseUrl: server.baseUrl });
      await assert.rejects(c.getHistoricalActuals('ercot', 'demand', { start: '2023-01-01', end: '2025-12-31', format: 'parquet' }), {
        name: 'RangeError',
        message:
          "format 'parquet' answers one file per request, and 2023-01-01 … 2025-12-31 needs 3 requests of at most 365 days: ask for " +
          "format 'json' (joined here), call once per window of planWindows(start, end), or use `gridcast get`, which writes them as one file",
      });
      assert.equal(server.requests.length, 0);
    } finally {
      server.close();
    }
  });
});

describe('windows over 365 days', () => {
  const path = '/v1/region/ercot/demand/actual';

  test('instants: two chunks sharing the boundary hour, joined without the duplicate row, equal two raw requests', async () => {
    const start = '2024-01-01T00:00:00Z';
    const end = '2025-06-30T23:00:00Z';
    const chunks: Chunk[] = [];
    for await (const c of client.iterateChunks('getHistoricalActuals', 'ercot', 'demand', { id: 'ercot_total', start, end }))
      chunks.push(c);
    assert.deepEqual(
      chunks.map((c) => [c.index, c.count, c.start, c.end]),
      [
        [0, 2, start, '2024-12-31T00:00:00Z'],
        [1, 2, '2024-12-31T00:00:00Z', end],
      ],
    );
    const first = await okJson(t, path, { key, query: { id: 'ercot_total', start, end: '2024-12-31T00:00:00Z' } });
    const second = await okJson(t, path, { key, query: { id: 'ercot_total', start: '2024-12-31T00:00:00Z', end } });
    assert.equal(first.time_utc.at(-1), second.time_utc[0]);
    const joined = await client.getHistoricalActuals('ercot', 'demand', { id: 'ercot_total', start, end });
    assert.deepEqual(joined.time_utc, [...first.time_utc, ...second.time_utc.slice(1)]);
    assert.deepEqual(joined.values, [[...first.values[0], ...second.values[0].slice(1)]]);
    assert.equal(joined.length, 547 * 24);
    assert.deepEqual(chunks[1].data!.time_utc, second.time_utc.slice(1));
  });

  test('bare dates: whole local days, [D, D+365] then [D+366, end], equal two raw requests; a calendar year is one request', async () => {
    const joined = await client.getHistoricalActuals('ercot', 'wind', { start: '2024-01-01', end: '2025-02-28' });
    const first = await okJson(t, '/v1/region/ercot/wind/actual', { key, query: { start: '2024-01-01', end: '2024-12-31' } });
    const second = await okJson(t, '/v1/region/ercot/wind/actual', { key, query: { start: '2025-01-01', end: '2025-02-28' } });
    assert.deepEqual(joined.toJSON(), {
      ...first,
      time_utc: [...first.time_utc, ...second.time_utc],
      time_local: [...first.time_local, ...second.time_local],
      values: first.values.map((v, i) => [...v, ...second.values[i]]),
    });
    assert.equal(joined.time_local[0], '2024-01-01T00:00:00-06:00');
    assert.equal(joined.time_local.at(-1), '2025-02-28T23:00:00-06:00');
    // The server refuses the whole window at once, and accepts 365 days between two dates.
    assert.equal((await t.get('/v1/region/ercot/wind/actual', { key, query: { start: '2024-01-01', end: '2025-02-28' } })).status, 422);
    assert.deepEqual(planWindows('2024-01-01', '2024-12-31'), [{ start: '2024-01-01', end: '2024-12-31' }]);
    assert.deepEqual(planWindows('2024-01-02', '2025-01-01'), [{ start: '2024-01-02', end: '2025-01-01' }]);
    assert.equal(
      (await t.get('/v1/region/ercot/wind/actual', { key, query: { start: '2024-01-02', end: '2025-01-01', id: 'ercot_total' } })).status,
      200,
    );
    assert.deepEqual(planWindows('2024-01-02', '2025-01-02'), [
      { start: '2024-01-02', end: '2025-01-01' },
      { start: '2025-01-02', end: '2025-01-02' },
    ]);
  });

  test('a bare date meeting an instant: the server accepts every chunk, and every hour comes once, in order', async () => {
    const cases = [
      { start: '2024-01-01', end: '2025-01-10T12:00:00Z', first: '2024-01-01T00:00:00-06:00', last: '2025-01-10T06:00:00-06:00' },
      { start: '2024-01-01T06:00:00Z', end: '2025-01-10', first: '2024-01-01T00:00:00-06:00', last: '2025-01-10T23:00:00-06:00' },
      // Just over 365 days: no chunk runs past the instant end.
      { start: '2024-01-01', end: '2024-12-31T01:00:00Z', first: '2024-01-01T00:00:00-06:00', last: '2024-12-30T19:00:00-06:00' },
    ];
    for (const { start, end, first, last } of cases) {
      const chunks: Chunk[] = [];
      for await (const c of client.iterateChunks('getHistoricalActuals', 'ercot', 'demand', { id: 'ercot_total', start, end }))
        chunks.push(c);
      assert.equal(chunks.length, 2);
      assert.ok(chunks.every((c) => c.data !== null && c.data.length > 0));
      const joined = await client.getHistoricalActuals('ercot', 'demand', { id: 'ercot_total', start, end });
      const times = joined.timesUtc().map((d) => d.getTime());
      for (let i = 1; i < times.length; i++) assert.equal(times[i] - times[i - 1], 3_600_000, joined.time_utc[i]);
      assert.deepEqual([joined.time_local[0], joined.time_local.at(-1)], [first, last]);
    }
    // A bound the client cannot read (a Unix time) goes to the server as given, in one request.
    assert.equal(planWindows('1704067200', '2025-06-01'), undefined);
  });

  test('a chunk the server has no data for (422) is skipped; if none has data, its error is thrown', async () => {
    const chunks: Chunk[] = [];
    for await (const c of client.iterateChunks('getHistoricalActuals', 'ercot', 'demand', {
      id: 'ercot_total',
      start: '2021-12-01',
      end: '2023-01-31',
    }))
      chunks.push(c);
    assert.deepEqual(
      chunks.map((c) => [c.start, c.end, c.data === null, c.error?.status]),
      [
        ['2021-12-01', '2022-12-01', true, 422],
        ['2022-12-02', '2023-01-31', false, undefined],
      ],
    );
    const joined = await client.getHistoricalActuals('ercot', 'demand', { id: 'ercot_total', start: '2021-12-01', end: '2023-01-31' });
    assert.deepEqual(joined.toJSON(), await okJson(t, path, { key, query: { id: 'ercot_total', start: '2022-12-02', end: '2023-01-31' } }));
    await assert.rejects(
      client.getHistoricalActuals('ercot', 'demand', { start: '2020-01-01', end: '2021-06-30' }),
      (e: unknown) => e instanceof GridcastError && e.status === 422,
    );
  });
});

describe('retries', () => {
  test('429: waits the Retry-After the server sent, then succeeds; a Retry-After beyond maxDelayMs is thrown at once', async () => {
    const coreKey = await t.key({ spp: 'core' });
    const events: RetryEvent[] = [];
    const sdk = new GridcastClient({ apiKey: coreKey, baseUrl: `${limited.baseUrl}/v1`, onRetry: (e) => events.push(e) });
    const started = Date.now();
    for (let i = 0; i < 3; i++) assert.equal((await sdk.listRegions('spp', 'demand'))[0].id, 'spp_total');
    assert.ok(events.length >= 1, 'three calls in one 2-second window: at least one was refused');
    for (const e of events) {
      assert.equal(e.status, 429);
      assert.ok(e.retryAfterSeconds! >= 1 && e.retryAfterSeconds! <= 2, String(e.retryAfterSeconds));
      assert.ok(e.delayMs >= e.retryAfterSeconds! * 1000, `${e.delayMs} ms`);
    }
    assert.ok(Date.now() - started >= events[0].retryAfterSeconds! * 1000);

    const impatient = new GridcastClient({
      apiKey: coreKey,
      baseUrl: `${limited.baseUrl}/v1`,
      retry: { maxDelayMs: 500 },
      onRetry: () => assert.fail('no retry expected'),
    });
    // Three quick calls span at most two windows of 2 s, so one of them is refused.
    let refused: unknown;
    for (let i = 0; i < 3 && refused === undefined; i++) await impatient.listRegions('spp', 'demand').catch((e: unknown) => (refused = e));
    assert.ok(refused instanceof GridcastError);
    assert.equal(refused.status, 429);
    assert.ok(refused.retryAfterSeconds! >= 1);
    assert.match(refused.messages[0], /^Rate limit exceeded: keys at the 'core' level may make 1 requests per 2 s\. Retry in \d s\.$/);
  });

  test('503 with Retry-After (seconds, then an HTTP date), then 200; the key goes in X-API-Key', async () => {
    const fake = await fakeServer((n, _req, res) => {
      if (n === 1) json(res, 503, BUSY, { 'retry-after': '1' });
      else if (n === 2) json(res, 503, BUSY, { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
      else json(res, 200, [{ id: 'henry_hub' }]);
    });
    try {
      const events: RetryEvent[] = [];
      const sdk = new GridcastClient({ apiKey: 'gc_secret', baseUrl: fake.baseUrl, onRetry: (e) => events.push(e) });
      const started = Date.now();
      assert.deepEqual(await sdk.listGasHubs(), [{ id: 'henry_hub' }]);
      assert.equal(fake.requests.length, 3);
      assert.deepEqual(new Set(fake.requests.map((r) => `${r.url} ${r.headers['x-api-key']}`)), new Set(['/v1/gas/list gc_secret']));
      assert.deepEqual(
        events.map((e) => [e.status, e.attempt]),
        [
          [503, 1],
          [503, 2],
        ],
      );
      assert.equal(events[0].retryAfterSeconds, 1);
      // The HTTP date has whole seconds: 1 to 2 s ahead when it arrives.
      assert.ok(events[1].retryAfterSeconds! >= 1 && events[1].retryAfterSeconds! <= 2, String(events[1].retryAfterSeconds));
      assert.ok(Date.now() - started >= 1000 + events[1].retryAfterSeconds! * 1000);
    } finally {
      await fake.close();
    }
  });

  test('503 without Retry-After: exponential backoff with jitter, and the error after maxAttempts', async () => {
    const fake = await fakeServer((_n, _req, res) => json(res, 503, BUSY));
    try {
      const events: RetryEvent[] = [];
      const sdk = new GridcastClient({
        apiKey: 'k',
        baseUrl: fake.baseUrl,
        retry: { maxAttempts: 4, baseDelayMs: 40 },
        onRetry: (e) => events.push(e),
      });
      await assert.rejects(sdk.getGasPriceForecast({ id: 'waha' }), (e: unknown) => {
        assert.ok(e instanceof GridcastError);
        assert.equal(e.status, 503);
        assert.deepEqual(e.detail, BUSY.detail);
        assert.equal(e.url, `${fake.baseUrl}/gas/forecast?id=waha`);
        return true;
      });
      assert.equal(fake.requests.length, 4);
      assert.deepEqual(
        events.map((e) => e.attempt),
        [1, 2, 3],
      );
      events.forEach((e, i) => {
        const ceiling = 40 * 2 ** i;
        assert.ok(e.delayMs >= ceiling / 2 && e.delayMs <= ceiling, `retry ${i + 1}: ${e.delayMs} ms`);
      });
    } finally {
      await fake.close();
    }
  });
});

describe('AbortSignal', () => {
  test('abort cancels the request in flight', async () => {
    const fake = await fakeServer(() => undefined); // never answers
    try {
      const sdk = new GridcastClient({ apiKey: 'k', baseUrl: fake.baseUrl });
      const controller = new AbortController();
      const call = sdk.listRegions('ercot', 'demand', { signal: controller.signal });
      while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
      const closed = new Promise((resolve) => fake.requests[0].socket.once('close', resolve));
      controller.abort();
      await assert.rejects(call, { name: 'AbortError' });
      await closed; // the connection was torn down, not left hanging
    } finally {
      await fake.close();
    }
  });

  test('abort cancels the wait before a retry; an aborted signal sends nothing', async () => {
    const fake = await fakeServer((_n, _req, res) => json(res, 503, BUSY, { 'retry-after': '30' }));
    try {
      const sdk = new GridcastClient({ apiKey: 'k', baseUrl: fake.baseUrl });
      const started = Date.now();
      await assert.rejects(sdk.getRegionContinuousForecast('pjm', 'demand', { signal: AbortSignal.timeout(300) }), {
        name: 'TimeoutError',
      });
      assert.ok(Date.now() - started < 5000);
      assert.equal(fake.requests.length, 1);
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(sdk.listGasHubs({ signal: controller.signal }), { name: 'AbortError' });
      assert.equal(fake.requests.length, 1);
    } finally {
      await fake.close();
    }
  });
});

describe('errors', () => {
  test('no complete answer: GridcastNetworkError names the URL and the cause (refused, DNS, TLS, time-out, cut mid-answer)', async () => {
    const port = await closedPort();
    const hang = await startFaultServer('hang');
    const die = await startFaultServer('die');
    try {
      const cases: [ClientOptions, string, RegExp][] = [
        [
          { apiKey: 'k', baseUrl: `http://127.0.0.1:${port}/v1` },
          'ECONNREFUSED',
          new RegExp(
            `^GET http://127\\.0\\.0\\.1:${port}/v1/gas/list: connection refused: nothing listens at 127\\.0\\.0\\.1:${port} \\(is the service running\\?\\) \\(ECONNREFUSED\\)$`,
          ),
        ],
        [
          { apiKey: 'k', baseUrl: 'http://no-such-host.invalid/v1' },
          'ENOTFOUND',
          /^GET http:\/\/no-such-host\.invalid\/v1\/gas\/list: DNS: no such host 'no-such-host\.invalid' \(ENOTFOUND\)$/,
        ],
        [
          { apiKey: 'k', baseUrl: `https://127.0.0.1:${hang.port}/v1` },
          'ERR_SSL_WRONG_VERSION_NUMBER',
          /: TLS failed: .*wrong version number.* \(ERR_SSL_WRONG_VERSION_NUMBER\)$/,
        ],
        [
          { apiKey: 'k', baseUrl: hang.baseUrl, timeoutMs: 300 },
          'TIMEOUT',
          /\/v1\/gas\/list: no complete answer within 0\.3 s \(time-out\)$/,
        ],
        [
          { apiKey: 'k', baseUrl: die.baseUrl },
          'UND_ERR_SOCKET',
          /\/v1\/gas\/list: the connection closed before the whole answer arrived \(terminated: other side closed\) \(UND_ERR_SOCKET\)$/,
        ],
      ];
      for (const [options, code, message] of cases) {
        await assert.rejects(new GridcastClient(options).listGasHubs(), (e: unknown) => {
          assert.ok(e instanceof GridcastNetworkError, String(e));
          assert.equal(e.code, code);
          assert.equal(e.url, `${options.baseUrl}/gas/list`);
          assert.match(e.message, message);
          return true;
        });
      }
      // The caller's own abort stays the caller's: not a network error.
      await assert.rejects(
        new GridcastClient({ apiKey: 'k', baseUrl: hang.baseUrl, timeoutMs: 5000 }).listGasHubs({ signal: AbortSignal.timeout(100) }),
        {
          name: 'TimeoutError',
        },
      );
    } finally {
      await hang.close();
      await die.close();
    }
  });

  test("401, 403 and 422 as GridcastError with the status and the server's detail", async () => {
    const wrong = new GridcastClient({ apiKey: 'gc_not_a_key', baseUrl: `${t.baseUrl}/v1` });
    await assert.rejects(wrong.listRegions('ercot', 'demand'), (e: unknown) => {
      assert.ok(e instanceof GridcastError);
      assert.equal(e.status, 401);
      assert.deepEqual(e.detail, [{ type: 'error', msg: 'Invalid API key.' }]);
      assert.match(e.message, /^401: Invalid API key\./);
      return true;
    });
    const core = new GridcastClient({ apiKey: await t.key({ spp: 'core' }), baseUrl: `${t.baseUrl}/v1` });
    await assert.rejects(core.getRegionDayAheadBackcast('spp', 'wind'), (e: unknown) => {
      assert.ok(e instanceof GridcastError);
      assert.equal(e.status, 403);
      assert.deepEqual(e.messages, [
        "Your subscription for ISO 'spp' is at the 'core' level. This endpoint needs the 'enterprise' level or higher for 'spp'.",
      ]);
      return true;
    });
    const raw = await t.get('/v1/plant/ercot/wind/continuous', { key, query: { start: '2026-06-01', end: '2026-06-02', latest_hour: 30 } });
    assert.equal(raw.status, 422);
    await assert.rejects(
      client.getPlantContinuousForecast('ercot', 'wind', { start: '2026-06-01', end: '2026-06-02', latest_hour: 30 }),
      (e: unknown) => {
        assert.ok(e instanceof GridcastError);
        assert.equal(e.status, 422);
        assert.deepEqual(e.detail, raw.json().detail);
        assert.deepEqual((e.detail as any)[0].loc, ['query', 'latest_hour']);
        return true;
      },
    );
  });
});

describe('the package', () => {
  test('builds with tsc (npm run sdk:build) and its dist works in plain Node', async () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-sdk-'));
    try {
      const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
      await promisify(execFile)(process.execPath, [tsc, '-p', path.join(ROOT, 'packages/client/tsconfig.json'), '--outDir', outDir]);
      assert.ok(fs.existsSync(path.join(outDir, 'index.d.ts')));
      // Stack traces and debuggers lead to src/client/*.ts, which the package does not ship:
      // every source map carries the sources it names.
      const maps = fs.readdirSync(outDir).filter((f) => f.endsWith('.js.map'));
      assert.equal(maps.length, fs.readdirSync(outDir).filter((f) => f.endsWith('.js')).length, 'a map for every .js');
      for (const file of maps) {
        const map = JSON.parse(fs.readFileSync(path.join(outDir, file), 'utf8'));
        assert.equal(map.sources.length, 1, file);
        assert.equal(
          map.sourcesContent?.[0],
          fs.readFileSync(path.resolve(outDir, map.sourceRoot ?? '', map.sources[0]), 'utf8'),
          `${file} carries its source`,
        );
      }
      const script = `
        const { GridcastClient } = await import(${JSON.stringify(path.join(outDir, 'index.js'))});
        const client = new GridcastClient({ apiKey: ${JSON.stringify(key)}, baseUrl: ${JSON.stringify(`${t.baseUrl}/v1`)} });
        const ts = await client.getRegionalForecast('spp', 'wind', { id: 'spp_total' });
        console.log(JSON.stringify({ n: ts.length, first: ts.toRows()[0].spp_total }));`;
      // Plain node: no tsx loader, as a user of the published package runs it. (Asynchronously:
      // the server answering it runs in this process.)
      const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
      const raw = await okJson<Timeseries>(t, '/v1/region/spp/wind/forecast', { key, query: { id: 'spp_total' } });
      assert.deepEqual(JSON.parse(run.stdout), { n: raw.time_utc.length, first: raw.values[0][0] });
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});

/**
 * Compile-time checks, run by `npm run typecheck` (never called): path and query parameters
 * take only what the document allows, and only windowed operations can be iterated in chunks.
 */
export async function parametersAreTypedFromTheDocument(c: GridcastClient): Promise<void> {
  // A model is one of the document's or any other name: a stored source (the service checks it, issue 20).
  await c.getPlantContinuousForecast('ercot', 'wind', { model: 'vendor_a' });
  await c.getRegionalForecast('ercot', 'wind', { model: 'normal' });
  // @ts-expect-error not an ISO
  await c.listRegions('texas', 'wind');
  // @ts-expect-error a plant metric, not a region metric
  await c.listRegions('ercot', 'wind_icing');
  // @ts-expect-error the ensemble needs an id
  await c.getEnsembleForecast('ercot', 'demand');
  // @ts-expect-error a forecast has no window
  await c.getRegionalForecast('ercot', 'demand', { start: '2026-01-01' });
  // @ts-expect-error only windowed operations come in chunks
  c.iterateChunks('getRegionalForecast', 'ercot', 'demand');
  // @ts-expect-error LMP types are dalmp | rtlmp
  c.iterateChunks('getLmpContinuousForecast', 'pjm', 'demand');
  c.iterateChunks('getLmpContinuousForecast', 'pjm', 'dalmp', { id: 'WESTERN HUB', start: new Date(), end: '2026-06-01', days_ahead: 2 });
}

/** Compile-time checks (never called): the answer's type follows `format` and `layout`. */
export async function answersAreTypedByFormatAndLayout(c: GridcastClient, f: 'csv' | 'arrow'): Promise<void> {
  const wide: TimeseriesResponse = await c.getPlantForecast('ercot', 'wind', {});
  const csv: string = await c.getPlantForecast('ercot', 'wind', { format: 'csv' });
  const parquet: Uint8Array = await c.getRegionContinuousForecast('ercot', 'demand', { format: 'parquet', layout: 'long' });
  const long: LongRow[] = await c.getGasPriceForecast({ layout: 'long' });
  const either: string | Uint8Array = await c.getCellsForecast('ercot', 'wind', { format: f });
  const plants: Plant[] = await c.listPlants('ercot', 'wind', { format: 'json' });
  const runsCsv: string = await c.listRegionForecastRuns('ercot', 'demand', { format: 'csv' });
  // @ts-expect-error CSV is text, not a TimeseriesResponse
  const wrong: TimeseriesResponse = await c.getPlantForecast('ercot', 'wind', { format: 'csv' });
  // @ts-expect-error lists have no layout
  await c.listPlants('ercot', 'wind', { layout: 'long' });
  // @ts-expect-error iterateChunks reads JSON
  c.iterateChunks('getHistoricalActuals', 'ercot', 'demand', { format: 'csv' });
  // A plant's numeric id is an id.
  await c.getPlantForecast('ercot', 'wind', { id: plants[0].id });
  void [wide, csv, parquet, long, either, runsCsv, wrong];
}
