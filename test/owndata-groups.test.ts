/**
 * Own data beyond regions (issue 20, point 3): plants (`--group plant`: catalog plants and the
 * source's own plant ids, described by a catalog file) and LMP nodes (`--group lmp --type`). As
 * for regions, the strongest test is the round trip: a synthetic model's runs exported through the
 * API in the long CSV layout, ingested back as source `replay`, are served value for value as the
 * synthetic answers (only `model` differs) — forecast, continuous, runs and vintages, the kinds
 * these groups have.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCatalog } from '../src/ingest/catalog.ts';
import { describeIngest, ingestFile, IngestError } from '../src/ingest/ingest.ts';
import { migrate } from '../src/store/migrations.ts';
import { runGridcast, startTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'groups-admin-token';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' };
const MODEL = 'iso';

type Json = Record<string, unknown>;

/**
 * A synthetic model's runs of one target, exported as one long CSV with created_at (what a vendor
 * file looks like); with `alsoAs`, each run's rows again under those ids (own targets the synthetic
 * catalog does not have), within the run.
 */
async function exportRuns(
  t: TestApp,
  key: string,
  base: string,
  id: string,
  runs: { created_at: string }[],
  alsoAs: string[] = [],
): Promise<string> {
  const lines = ['time_utc,time_local,id,value,created_at'];
  for (const run of runs) {
    const res = await t.get(`${base}/forecast`, {
      key,
      query: { model: MODEL, forecasted_by: run.created_at, id, format: 'csv', layout: 'long' },
    });
    assert.equal(res.status, 200, res.text);
    const [header, ...rows] = res.text.trim().split(/\r?\n/);
    assert.equal(header, 'time_utc,time_local,id,value');
    for (const target of [id, ...alsoAs]) for (const row of rows) lines.push(`${renamed(row, id, target)},${run.created_at}`);
  }
  return lines.join('\n') + '\n';
}

/** The same rows under another id (an own target the synthetic catalog does not have). */
function renamed(csv: string, from: string, to: string): string {
  return csv.split(`,${from},`).join(`,${to},`);
}

/** Text as the stream of chunks a file is read as. */
async function* streamOf(text: string): AsyncGenerator<string> {
  yield text;
}

const same = (synthetic: Json, replay: Json) => {
  assert.equal(replay.model, 'replay');
  assert.deepEqual({ ...replay, model: synthetic.model }, synthetic);
};

/** Round-trip checks of one group's target: forecast, continuous, runs, vintages. */
function roundTrip(
  ctx: () => { t: TestApp; key: string; base: string; id: string; runs: { created_at: string }[] },
  days: { start: string; end: string },
) {
  const json = async (p: string, query: Record<string, string | number>) => {
    const { t, key } = ctx();
    const res = await t.get(p, { key, query });
    assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
    return res.json();
  };
  test('forecast?forecasted_by equals the synthetic run, at a run time and between runs', async () => {
    const { base, id } = ctx();
    for (const at of [`${days.start}T12:00:00Z`, `${days.end}T03:27:00Z`]) {
      const q = { id, forecasted_by: at };
      same(await json(`${base}/forecast`, { ...q, model: MODEL }), await json(`${base}/forecast`, { ...q, model: 'replay' }));
    }
  });
  test('continuous equals the synthetic stitching for several days_ahead and latest_hour', async () => {
    const { base, id } = ctx();
    // Days whose runs were all exported (the replay holds no other runs).
    for (const [daysAhead, latestHour] of [
      [1, 10],
      [2, 7],
    ] as const) {
      const q = { id, start: days.end, end: days.end, days_ahead: daysAhead, latest_hour: latestHour };
      same(await json(`${base}/continuous`, { ...q, model: MODEL }), await json(`${base}/continuous`, { ...q, model: 'replay' }));
    }
  });
  test('runs and vintages equal the synthetic ones', async () => {
    const { base, id } = ctx();
    const q = { start: days.start, end: days.end };
    const synthetic = await json(`${base}/runs`, { ...q, model: MODEL });
    const replay = await json(`${base}/runs`, { ...q, model: 'replay' });
    assert.ok(synthetic.length >= 2);
    assert.deepEqual(
      replay.map((r: Json) => ({ ...r, model: MODEL, revisions: undefined })),
      synthetic.map((r: Json) => ({ ...r, revisions: undefined })),
    );
    const v = { id, valid_time: `${days.end}T18:00:00Z` };
    const all = await json(`${base}/vintages`, { ...v, model: MODEL });
    // The replay holds only the exported runs: the synthetic rows of the others are left out.
    const exported = new Set(ctx().runs.map((r) => r.created_at));
    const keep = all.time_utc.map((t: string, i: number) => (exported.has(t) ? i : -1)).filter((i: number) => i >= 0);
    assert.ok(keep.length >= 8);
    const pick = <V>(xs: V[]) => keep.map((i: number) => xs[i]);
    const expected = { ...all, time_utc: pick(all.time_utc), time_local: pick(all.time_local), values: all.values.map(pick) };
    same(expected, await json(`${base}/vintages`, { ...v, model: 'replay' }));
  });
}

describe('own data: plants', () => {
  const BASE = '/v1/plant/ercot/wind';
  const DAYS = { start: '2026-06-01', end: '2026-06-03' };
  let t: TestApp;
  let key: string;
  let plantId: string;
  let plantRecord: Json;
  let runs: { created_at: string }[];
  let forecastCsv: string;
  let withOwnCsv: string;
  const ingest = (body: string, query: Record<string, string>) =>
    t.request('POST', '/admin/ingest', { headers: ADMIN, body, query: { group: 'plant', iso: 'ercot', metric: 'wind', ...query } });

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ ercot: 'enterprise' });
    const plants = (await t.get(`${BASE}/list`, { key })).json();
    plantRecord = plants[0];
    plantId = String(plantRecord.id);
    runs = (await t.get(`${BASE}/runs`, { key, query: { model: MODEL, ...DAYS } })).json();
    forecastCsv = await exportRuns(t, key, BASE, plantId, runs);
    withOwnCsv = await exportRuns(t, key, BASE, plantId, runs, ['MY_FARM']);
  });
  after(() => t?.close());

  test('a catalog plant and an own plant (with a catalog file) are ingested in one transaction', async () => {
    const catalog = 'id,name,capacity_mw,latitude,longitude,owner\nMY_FARM,My Farm,150.5,32.1,-100.2,us\nEMPTY,,,,,\n';
    const described = await t.request('POST', '/admin/catalog', {
      headers: ADMIN,
      body: catalog,
      query: { source: 'replay', group: 'plant', iso: 'ercot' },
    });
    assert.equal(described.status, 200, described.text);
    assert.deepEqual(described.json(), { source: 'replay', catalogEntries: 2 });
    const res = await ingest(withOwnCsv, { source: 'replay', filename: 'plants.csv' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().targets, 2);
    assert.equal(res.json().runsUnchanged, 0);
  });

  roundTrip(() => ({ t, key, base: BASE, id: plantId, runs }), DAYS);

  test('an own plant is served under its own id, with the values ingested for it', async () => {
    const q = { forecasted_by: `${DAYS.end}T03:00:00Z` };
    const own = (await t.get(`${BASE}/forecast`, { key, query: { ...q, model: 'replay', id: 'MY_FARM' } })).json();
    const synthetic = (await t.get(`${BASE}/forecast`, { key, query: { ...q, model: MODEL, id: plantId } })).json();
    assert.deepEqual(own.columns, [['MY_FARM']]);
    assert.deepEqual(own.values, synthetic.values);
    assert.equal(own.units, 'MW');
    const all = (await t.get(`${BASE}/forecast`, { key, query: { ...q, model: 'replay' } })).json();
    assert.deepEqual(all.columns, [[plantId], ['MY_FARM']]);
  });

  test('list?source= lists the plants the source holds: the catalog record, and the own plant from its catalog file', async () => {
    const res = await t.get(`${BASE}/list`, { key, query: { source: 'replay' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['cache-control'], 'private, no-cache');
    assert.deepEqual(res.json(), [
      { ...plantRecord, source: 'replay' },
      {
        id: 'MY_FARM',
        name: 'My Farm',
        plant_type: 'wind',
        capacity_mw: 150.5,
        iso: 'ercot',
        state: null,
        latitude: 32.1,
        longitude: -100.2,
        operations_begin_date: null,
        status: 'operating',
        summary: null,
        county_fips: null,
        source: 'replay',
      },
    ]);
    const plain = (await t.get(`${BASE}/list`, { key })).json();
    assert.ok(plain.every((p: Json) => p.source === undefined && typeof p.id === 'number'));
    const none = await t.get('/v1/plant/ercot/solar/list', { key, query: { source: 'replay' } });
    assert.equal(none.status, 422);
    assert.equal(none.json().detail[0].msg, "Value error, source 'replay' holds no plant ercot solar series; it holds: plant ercot wind");
  });

  test('an id the source does not hold is a 422 naming the ids it holds; an id that is no plant id is a bad row', async () => {
    const res = await t.get(`${BASE}/forecast`, { key, query: { model: 'replay', id: 'OTHER' } });
    assert.equal(res.status, 422);
    assert.equal(
      res.json().detail[0].msg,
      `Value error, source 'replay' has no plant ercot wind series for id 'OTHER'; it holds: ${plantId}, MY_FARM`,
    );
    const bad = await ingest(`time_utc,id,value,created_at\n2026-06-01T00:00:00Z,${'x'.repeat(101)},1,2026-06-01T00:00:00Z\n`, {
      source: 'other',
    });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.text,
      '{"detail":[{"type":"value_error","loc":["body","line",2],"msg":"Value error, id: \'' +
        'x'.repeat(60) +
        '\' is not a plant id (1 to 100 characters, no comma, quote or control character)","input":null}]}',
    );
  });

  test('plants are forecasts only: a file of actuals is refused, nothing stored', async () => {
    const res = await ingest('time_utc,id,value\n2026-06-01T00:00:00Z,MY_FARM,1\n', { source: 'metered' });
    assert.equal(res.status, 422);
    assert.equal(
      res.json().detail[0].msg,
      'Value error, upload: the file holds actuals (no created_at column), and --group plant serves forecasts only (no /actual endpoint)',
    );
    assert.deepEqual(await t.store.sources.names(), ['replay']);
  });

  test('a bad catalog file lists its bad lines and stores nothing', async () => {
    const res = await t.request('POST', '/admin/catalog', {
      headers: ADMIN,
      body: 'id,name,capacity_mw,latitude,longitude\nA,,-5,,\nB,,,95,\nA2,,,,\nA2,,,,\n',
      query: { source: 'cat_only', group: 'plant', iso: 'ercot' },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.json().detail.map((d: Json) => [(d.loc as unknown[])[2], d.msg]),
      [
        [2, 'Value error, capacity_mw: -5 is not in (0, 100000]'],
        [3, 'Value error, latitude: 95 is not in [-90, 90]'],
        [5, "Value error, id: 'A2' is listed twice"],
      ],
    );
    const region = await t.request('POST', '/admin/catalog', {
      headers: ADMIN,
      body: 'id,name\nercot_total,Texas\n',
      query: { source: 'cat_only', group: 'region', iso: 'ercot' },
    });
    assert.equal(region.status, 422);
    assert.equal(
      region.json().detail[0].msg,
      "Value error, catalog describes own plants or price nodes; --group region has only the catalog's targets",
    );
    assert.deepEqual(await t.store.sources.names(), ['replay']);
  });

  test('a key without the ISO gets 403, for the series and the list', async () => {
    const pjmOnly = await t.key({ pjm: 'enterprise' });
    assert.equal((await t.get(`${BASE}/forecast`, { key: pjmOnly, query: { model: 'replay' } })).status, 403);
    assert.equal((await t.get(`${BASE}/list`, { key: pjmOnly, query: { source: 'replay' } })).status, 403);
  });

  test('the source is counted in /v1/status and the sources list; deleting it deletes its catalog entries', async () => {
    const status = (await t.get('/v1/status', { key })).json().filter((s: Json) => s.source === 'stored');
    assert.deepEqual(
      status.map((s: Json) => [s.model, s.iso, s.runs]),
      // A run per target: the catalog plant's and the own plant's.
      [['replay', 'ercot', 2 * (await runCount())]],
    );
    const list = (await t.request('GET', '/admin/sources', { headers: ADMIN })).json();
    assert.deepEqual(list[0].series, [{ group: 'plant', iso: 'ercot', metric: 'wind', targets: 2 }]);
    assert.equal((await t.request('DELETE', '/admin/sources/replay', { headers: ADMIN })).status, 200);
    assert.deepEqual(await t.store.sources.catalog('replay', 'plant', 'ercot'), []);
    // Ingested again without a catalog, the own plant is known by its id alone.
    const again = await ingest(renamed(forecastCsv, plantId, 'MY_FARM'), { source: 'replay' });
    assert.equal(again.status, 200, again.text);
    const listed = (await t.get(`${BASE}/list`, { key, query: { source: 'replay' } })).json();
    assert.deepEqual(
      listed.map((p: Json) => [p.id, p.name, p.capacity_mw, p.latitude]),
      [['MY_FARM', 'MY_FARM', null, null]],
    );
  });

  test("directly into the store, the catalog is written in the file's transaction: a bad row stores neither", async () => {
    const catalog = await readCatalog(streamOf('id,name,capacity_mw\nFARM_D,Farm D,42\n'), 'farms.csv', () => null);
    const o = { source: 'direct', group: 'plant', iso: 'ercot', metric: 'wind', replace: false, origin: 'd.csv', catalog };
    const badRow = renamed(forecastCsv, plantId, 'FARM_D') + '2026-06-09T00:00:00Z,FARM_D,NaN,2026-06-09T00:00:00Z\n';
    await assert.rejects(ingestFile(t.store.sources, streamOf(badRow), o), IngestError);
    assert.deepEqual(await t.store.sources.catalog('direct', 'plant', 'ercot'), []);
    const summary = await ingestFile(t.store.sources, streamOf(renamed(forecastCsv, plantId, 'FARM_D')), o);
    assert.equal(summary.catalogEntries, 1);
    assert.match(describeIngest(summary), /; catalog: 1 entries added or changed; [\d.]+ s$/);
    const again = await ingestFile(t.store.sources, streamOf(renamed(forecastCsv, plantId, 'FARM_D')), o);
    assert.match(describeIngest(again), /^direct: nothing changed \(already stored\); .*; catalog: 0 entries added or changed;/);
    const listed = (await t.get(`${BASE}/list`, { key, query: { source: 'direct' } })).json();
    assert.deepEqual(
      listed.map((p: Json) => [p.id, p.name, p.capacity_mw]),
      [['FARM_D', 'Farm D', 42]],
    );
    assert.equal((await t.request('DELETE', '/admin/sources/direct', { headers: ADMIN })).status, 200);
  });

  async function runCount(): Promise<number> {
    return (await t.get(`${BASE}/runs`, { key, query: { model: MODEL, ...DAYS } })).json().length;
  }

  test('with the world off, stored plants are served and a synthetic request is a 422 naming the sources', async () => {
    process.env.GRIDCAST_WORLD = 'off';
    try {
      const stored = await t.get(`${BASE}/forecast`, {
        key,
        query: { model: 'replay', id: 'MY_FARM', forecasted_by: '2026-06-03T00:00:00Z' },
      });
      assert.equal(stored.status, 200, stored.text);
      const synthetic = await t.get(`${BASE}/continuous`, { key });
      assert.equal(synthetic.status, 422);
      assert.equal(
        synthetic.text,
        '{"detail":[{"type":"value_error","loc":["query","model"],"msg":"Value error, the synthetic world is off (GRIDCAST_WORLD=off): ' +
          'model must name a stored source: replay (plant ercot wind)","input":"optimized"}]}',
      );
      assert.equal((await t.get(`${BASE}/list`, { key, query: { source: 'replay' } })).status, 200);
      assert.equal((await t.get(`${BASE}/backcast`, { key })).status, 404);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });

  test('gridcast ingest --catalog FILE --server URL sends the catalog and the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-groups-'));
    try {
      const data = path.join(dir, 'farm.csv');
      fs.writeFileSync(data, renamed(forecastCsv, plantId, 'FARM_B'));
      const catalog = path.join(dir, 'plants.csv');
      fs.writeFileSync(catalog, 'id,name,capacity_mw,latitude,longitude\nFARM_B,Farm B,99,31,-99\n');
      const out = await runGridcast([
        ...['ingest', data, '--source', 'vendor_p', '--group', 'plant', '--iso', 'ercot'],
        ...['--metric', 'wind', '--catalog', catalog, '--server', t.baseUrl, '--token', TOKEN],
      ]);
      assert.equal(out.status, 0, out.stderr);
      assert.match(out.stdout, /^vendor_p: runs: \d+ added, 0 replaced, 0 unchanged; 1 target\(s\)/);
      const listed = (await t.get(`${BASE}/list`, { key, query: { source: 'vendor_p' } })).json();
      assert.deepEqual(
        listed.map((p: Json) => [p.id, p.name, p.capacity_mw, p.latitude, p.longitude]),
        [['FARM_B', 'Farm B', 99, 31, -99]],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('own data: LMP nodes', () => {
  const BASE = '/v1/lmp/ercot/dalmp';
  const DAYS = { start: '2026-06-01', end: '2026-06-03' };
  let t: TestApp;
  let key: string;
  let node: Json;
  let runs: { created_at: string }[];
  let forecastCsv: string;
  const ingest = (body: string, query: Record<string, string>) =>
    t.request('POST', '/admin/ingest', { headers: ADMIN, body, query: { group: 'lmp', iso: 'ercot', type: 'dalmp', ...query } });

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ ercot: 'core' });
    node = (await t.get(`${BASE}/list`, { key })).json()[0];
    runs = (await t.get(`${BASE}/runs`, { key, query: { model: MODEL, ...DAYS } })).json();
    forecastCsv = await exportRuns(t, key, BASE, node.id as string, runs);
    const res = await ingest(await exportRuns(t, key, BASE, node.id as string, runs, ['MY_NODE']), { source: 'replay' });
    assert.equal(res.status, 200, res.text);
  });
  after(() => t?.close());

  roundTrip(() => ({ t, key, base: BASE, id: node.id as string, runs }), DAYS);

  test('list?source= lists the catalog node and the own node (known by its id)', async () => {
    const listed = (await t.get(`${BASE}/list`, { key, query: { source: 'replay' } })).json();
    assert.deepEqual(listed, [
      { ...node, source: 'replay' },
      { id: 'MY_NODE', name: 'MY_NODE', iso: 'ercot', timezone: 'America/Chicago', node_type: 'node', source: 'replay' },
    ]);
    const rt = await t.get('/v1/lmp/ercot/rtlmp/forecast', { key, query: { model: 'replay' } });
    assert.equal(rt.status, 422);
    assert.equal(rt.json().detail[0].msg, "Value error, source 'replay' holds no lmp ercot rtlmp series; it holds: lmp ercot dalmp");
  });

  test('prices are in USD/MWh: a file declared in MW is refused, $/MWh is the same unit', async () => {
    const mw = await ingest(forecastCsv, { source: 'replay', unit: 'MW' });
    assert.equal(mw.status, 422);
    assert.equal(
      mw.text,
      '{"detail":[{"type":"value_error","loc":["query","unit"],"msg":"Value error, unit MW cannot be dalmp, which is in USD/MWh (USD/MWh, $/MWh can)","input":null}]}',
    );
    const dollars = await ingest(forecastCsv, { source: 'replay', unit: '$/MWh' });
    assert.equal(dollars.status, 200, dollars.text);
    assert.deepEqual([dollars.json().runsAdded, dollars.json().runsReplaced], [0, 0]);
  });

  test('the type is checked as the path is: an unknown type names the types', async () => {
    const res = await ingest(forecastCsv, { source: 'replay', type: 'lmp' });
    assert.equal(res.status, 422);
    assert.equal(res.json().detail[0].msg, "Value error, type must be one of dalmp, rtlmp for --group lmp (got 'lmp')");
  });

  test('with the world off, stored prices are served and nothing else of the group', async () => {
    process.env.GRIDCAST_WORLD = 'off';
    try {
      const q = { model: 'replay', id: 'MY_NODE', forecasted_by: '2026-06-03T00:00:00Z' };
      assert.equal((await t.get(`${BASE}/forecast`, { key, query: q })).status, 200);
      const synthetic = await t.get(`${BASE}/forecast`, { key, query: { model: 'iso' } });
      assert.equal(synthetic.status, 422);
      assert.match(synthetic.json().detail[0].msg, /model must name a stored source: replay \(lmp ercot dalmp\)$/);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });

  test('a key without the ISO gets 403', async () => {
    const pjmOnly = await t.key({ pjm: 'enterprise' });
    assert.equal((await t.get(`${BASE}/continuous`, { key: pjmOnly, query: { model: 'replay' } })).status, 403);
  });
});

describe('own data: gas hubs (daily, not tied to an ISO)', () => {
  const BASE = '/v1/gas';
  let t: TestApp;
  let key: string;
  let hub: Json;
  let forecastCsv: string;
  let ingestedValues: number;
  const ingest = (body: string, query: Record<string, string>) =>
    t.request('POST', '/admin/ingest', { headers: ADMIN, body, query: { group: 'gas', ...query } });
  const json = async (p: string, query: Record<string, string | number>) => {
    const res = await t.get(p, { key, query });
    assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
    return res.json();
  };

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ ercot: 'core' });
    hub = (await t.get(`${BASE}/list`, { key })).json()[0];
    // Gas has no /runs: the runs are found by asking for the forecast every 6 hours, each exported once.
    const lines = ['time_utc,id,value,created_at'];
    const seen = new Set<string>();
    for (let ms = Date.parse('2026-05-31T00:00:00Z'); ms <= Date.parse('2026-06-03T00:00:00Z'); ms += 6 * 3_600_000) {
      const run = await json(`${BASE}/forecast`, { model: MODEL, id: hub.id as string, forecasted_by: new Date(ms).toISOString() });
      if (seen.has(run.created_at)) continue;
      seen.add(run.created_at);
      for (const target of [hub.id, 'MY_HUB']) {
        run.time_utc.forEach((time: string, i: number) => lines.push(`${time},${target},${run.values[0][i] ?? ''},${run.created_at}`));
      }
    }
    assert.ok(seen.size >= 8);
    forecastCsv = lines.join('\n') + '\n';
    const described = await t.request('POST', '/admin/catalog', {
      headers: ADMIN,
      body: 'id,name,latitude,longitude\nMY_HUB,My Hub,29.7,-95.4\n',
      query: { source: 'replay', group: 'gas' },
    });
    assert.equal(described.status, 200, described.text);
    const res = await ingest(forecastCsv, { source: 'replay', unit: 'USD/MMBtu' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().targets, 2);
    ingestedValues = res.json().values;
  });
  after(() => t?.close());

  test('forecast?forecasted_by and continuous equal the synthetic daily series', async () => {
    for (const at of ['2026-06-01T12:00:00Z', '2026-06-02T20:27:00Z']) {
      const q = { id: hub.id as string, forecasted_by: at };
      same(await json(`${BASE}/forecast`, { ...q, model: MODEL }), await json(`${BASE}/forecast`, { ...q, model: 'replay' }));
    }
    for (const [daysAhead, latestHour] of [
      [1, 10],
      [2, 7],
    ] as const) {
      const q = { id: hub.id as string, start: '2026-06-03', end: '2026-06-03', days_ahead: daysAhead, latest_hour: latestHour };
      same(await json(`${BASE}/continuous`, { ...q, model: MODEL }), await json(`${BASE}/continuous`, { ...q, model: 'replay' }));
    }
    const own = await json(`${BASE}/forecast`, { model: 'replay', forecasted_by: '2026-06-02T20:27:00Z' });
    assert.deepEqual(own.columns, [[hub.id], ['MY_HUB']]);
    assert.deepEqual(own.values[1], own.values[0]);
    assert.equal(own.units, '$/MMBtu');
  });

  test('list?source= lists the catalog hub and the own hub with its point', async () => {
    assert.deepEqual(await json(`${BASE}/list`, { source: 'replay' }), [
      { ...hub, source: 'replay' },
      { id: 'MY_HUB', name: 'My Hub', timezone: 'America/Chicago', point: { type: 'Point', coordinates: [-95.4, 29.7] }, source: 'replay' },
    ]);
  });

  test('a value not at the start of a gas day, an --iso, a price in MW and a file of actuals are refused', async () => {
    const notMidnight = await ingest('time_utc,id,value,created_at\n2026-06-02T06:00:00Z,MY_HUB,3,2026-06-01T12:00:00Z\n', {
      source: 'replay',
    });
    assert.equal(notMidnight.status, 422);
    assert.equal(
      notMidnight.json().detail[0].msg,
      'Value error, 2026-06-02T06:00:00Z is not the start of a gas day (midnight America/Chicago): gas prices are daily, one per gas day',
    );
    const iso = await ingest(forecastCsv, { source: 'replay', iso: 'ercot' });
    assert.equal(iso.json().detail[0].msg, "Value error, group gas takes no --iso: gas hubs are not tied to an ISO (got 'ercot')");
    const mw = await ingest(forecastCsv, { source: 'replay', unit: 'MW' });
    assert.equal(mw.json().detail[0].msg, 'Value error, unit MW cannot be gas_price, which is in $/MMBtu ($/MMBtu, USD/MMBtu can)');
    const actual = await ingest('time_utc,id,value\n2026-06-02T05:00:00Z,MY_HUB,3\n', { source: 'replay' });
    assert.equal(actual.status, 422);
  });

  test('runs stored before migration 7 get their values counted by it, as an ingest counts them', async () => {
    const counts = () =>
      t.store.sql
        .query<{ n: number }>('SELECT n_values AS n FROM source_runs ORDER BY series_id, issued_at')
        .then((r) => r.map((x) => x.n));
    const written = await counts();
    // Gas runs keep a value a day in hourly slots: most of their slots are empty.
    assert.ok(written.length >= 16 && written.every((n) => n > 0 && n < 24), JSON.stringify(written));
    await t.store.sql.exec('ALTER TABLE source_runs DROP COLUMN n_values; DELETE FROM schema_migrations WHERE version = 7');
    assert.deepEqual(await migrate(t.store.sql), [7]);
    assert.deepEqual(await counts(), written);
  });

  test('/v1/status and the sources list show the gas series without an ISO; with the world off only they are served', async () => {
    const status = (await t.get('/v1/status', { key })).json().filter((s: Json) => s.source === 'stored');
    assert.deepEqual(
      status.map((s: Json) => [s.model, s.iso, s.series]),
      [['replay', null, [{ group: 'gas', metric: 'gas_price' }]]],
    );
    const list = (await t.request('GET', '/admin/sources', { headers: ADMIN })).json();
    assert.deepEqual(list[0].series, [{ group: 'gas', iso: null, metric: 'gas_price', targets: 2 }]);
    // The values ingested (one a gas day), not the hourly slots a stored gas run keeps them in.
    assert.ok(ingestedValues > 0);
    assert.deepEqual([status[0].forecast_values, list[0].forecast_values], [ingestedValues, ingestedValues]);
    process.env.GRIDCAST_WORLD = 'off';
    try {
      assert.equal(
        (await t.get(`${BASE}/continuous`, { key, query: { model: 'replay', start: '2026-06-03', end: '2026-06-03' } })).status,
        200,
      );
      const synthetic = await t.get(`${BASE}/forecast`, { key });
      assert.equal(synthetic.status, 422);
      assert.match(synthetic.json().detail[0].msg, /model must name a stored source: replay \(gas gas_price\)$/);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });
});
