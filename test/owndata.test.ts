/**
 * Own data (issue 20): a stored source is served through the same endpoints and semantics as
 * a synthetic model. The central test is the round trip: a synthetic model's runs and actuals
 * exported through the API in the long CSV layout, ingested back as source `replay`, are served
 * value for value as the synthetic ones (only `model` differs).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ingestFile, IngestError, type IngestOptions } from '../src/ingest/ingest.ts';
import { IngestConflictError } from '../src/store/sources.ts';
import { rawRequest, runGridcast, startTestApp, startServer, type TestApp, type TestServer } from './helpers.ts';
import { vendorCsv, VENDOR_A_STATUS } from './owndata-vendor.ts';

const REGION = '/v1/region/ercot/demand';
const ID = 'ercot_total';
/** The synthetic model exported, and the local days of its runs that are exported: a month, with the 23-hour day of 2026-03-08. */
const MODEL = 'iso';
const RUN_DAYS = { start: '2026-03-01', end: '2026-03-31' };

const options = (o: Partial<IngestOptions> = {}): IngestOptions => ({
  source: 'replay',
  group: 'region',
  iso: 'ercot',
  metric: 'demand',
  replace: false,
  origin: 'test.csv',
  ...o,
});

async function* chunks(text: string, size = 4096): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('own data: round trip of a synthetic model through ingest', () => {
  let t: TestApp;
  let key: string;
  let runs: { created_at: string }[];
  let forecastCsv: string;
  let actualCsv: string;

  const json = async (path: string, query: Record<string, string | number>) => {
    const res = await t.get(path, { key, query });
    assert.equal(res.status, 200, `${path} ${JSON.stringify(query)}: ${res.text}`);
    return JSON.parse(res.text);
  };

  before(async () => {
    t = await startTestApp();
    key = await t.key({ ercot: 'enterprise' });
    runs = await json(`${REGION}/runs`, { model: MODEL, ...RUN_DAYS });
    // Every exported run's long CSV, with the run's created_at added to each row.
    const lines = ['time_utc,time_local,id,value,created_at'];
    for (const run of runs) {
      const res = await t.get(`${REGION}/forecast`, {
        key,
        query: { model: MODEL, forecasted_by: run.created_at, id: ID, format: 'csv', layout: 'long' },
      });
      assert.equal(res.status, 200);
      const [, ...rows] = res.text.trim().split(/\r?\n/);
      for (const row of rows) lines.push(`${row},${run.created_at}`);
    }
    forecastCsv = lines.join('\n') + '\n';
    const actual = await t.get(`${REGION}/actual`, {
      key,
      query: { id: ID, start: '2026-03-01', end: '2026-04-09', format: 'csv', layout: 'long' },
    });
    actualCsv = actual.text;
  });
  after(() => t?.close());

  test('ingesting the export stores every run; a second time changes nothing', async () => {
    const first = await ingestFile(t.store.sources, chunks(forecastCsv), options());
    assert.equal(first.runsAdded, runs.length);
    assert.equal(first.kind, 'forecast');
    const again = await ingestFile(t.store.sources, chunks(forecastCsv, 777), options());
    assert.deepEqual([again.runsAdded, again.runsReplaced, again.runsUnchanged], [0, 0, runs.length]);
    const actuals = await ingestFile(t.store.sources, chunks(actualCsv), options());
    assert.equal(actuals.kind, 'actual');
    assert.ok(actuals.actualsAdded >= 240);
  });

  const same = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    assert.equal(b.model, 'replay');
    assert.deepEqual({ ...b, model: a.model }, a);
  };

  test('forecast?forecasted_by equals the synthetic run, at run times and between them', async () => {
    for (const at of ['2026-03-02T06:00:00Z', '2026-03-08T08:27:00Z', '2026-03-17T13:27:00Z', '2026-03-31T23:59:00Z']) {
      const q = { id: ID, forecasted_by: at };
      same(await json(`${REGION}/forecast`, { ...q, model: MODEL }), await json(`${REGION}/forecast`, { ...q, model: 'replay' }));
    }
  });

  test('continuous equals the synthetic stitching for several days_ahead and latest_hour', async () => {
    for (const [daysAhead, latestHour, start, end] of [
      [1, 10, '2026-03-04', '2026-04-01'],
      [2, 0, '2026-03-05', '2026-04-02'],
      [3, 23, '2026-03-05', '2026-04-03'],
      [1, 6, '2026-03-02', '2026-03-12'],
    ] as const) {
      const q = { id: ID, start, end, days_ahead: daysAhead, latest_hour: latestHour };
      same(await json(`${REGION}/continuous`, { ...q, model: MODEL }), await json(`${REGION}/continuous`, { ...q, model: 'replay' }));
    }
  });

  test('runs list the same runs (stored runs also say how often they were replaced)', async () => {
    const q = { start: '2026-03-02', end: '2026-03-28T12:00:00Z' };
    const synthetic = await json(`${REGION}/runs`, { ...q, model: MODEL });
    const replay = await json(`${REGION}/runs`, { ...q, model: 'replay' });
    assert.ok(synthetic.length > 4);
    assert.deepEqual(
      replay.map((r: Record<string, unknown>) => ({ ...r, model: MODEL, revisions: undefined })),
      synthetic.map((r: Record<string, unknown>) => ({ ...r, revisions: undefined })),
    );
    assert.ok(replay.every((r: { revisions: number }) => r.revisions === 0));
  });

  test('vintages equal the synthetic vintages of the exported runs, for an hour and a local day', async () => {
    const exported = new Set(runs.map((r) => r.created_at));
    for (const validTime of ['2026-03-08T18:00:00Z', '2026-03-08', '2026-03-20']) {
      const q = { id: ID, valid_time: validTime };
      const synthetic = await json(`${REGION}/vintages`, { ...q, model: MODEL });
      // The replay holds only the exported runs: the synthetic rows of the others are left out.
      const keep = synthetic.time_utc.map((t: string, i: number) => (exported.has(t) ? i : -1)).filter((i: number) => i >= 0);
      assert.ok(keep.length >= 10);
      const pick = <V>(xs: V[]) => keep.map((i: number) => xs[i]);
      const expected = {
        ...synthetic,
        time_utc: pick(synthetic.time_utc),
        time_local: pick(synthetic.time_local),
        values: synthetic.values.map(pick),
      };
      same(expected, await json(`${REGION}/vintages`, { ...q, model: 'replay' }));
    }
  });

  test('actual?source=replay equals the synthetic actuals', async () => {
    const q = { id: ID, start: '2026-03-02', end: '2026-04-08' };
    const synthetic = await json(`${REGION}/actual`, q);
    assert.equal(synthetic.time_utc.length, 38 * 24 - 1, 'the 23-hour day of 2026-03-08 is in the window');
    assert.deepEqual(await json(`${REGION}/actual`, { ...q, source: 'replay' }), synthetic);
  });

  test('a run stored with other values is refused (nothing stored) unless replace, which /runs then counts', async () => {
    const [header, firstRow, ...rest] = forecastCsv.trim().split('\n');
    const cells = firstRow.split(',');
    cells[3] = String(Number(cells[3]) + 1);
    const changed = [header, cells.join(','), ...rest].join('\n');
    // The value served for that run and hour: read before the replace (decoded runs are cached between requests), and after.
    const [valid, , , original, issued] = firstRow.split(',');
    const served = async () => {
      const res = await t.get(`${REGION}/forecast`, {
        key,
        query: { model: 'replay', forecasted_by: issued, id: ID, format: 'csv', layout: 'long' },
      });
      assert.equal(res.status, 200, res.text);
      return Number(
        res.text
          .split('\n')
          .find((l) => l.startsWith(`${valid},`))!
          .split(',')[3],
      );
    };
    assert.equal(await served(), Number(original));
    await assert.rejects(ingestFile(t.store.sources, chunks(changed), options()), (e: unknown) => {
      assert.ok(e instanceof IngestConflictError);
      assert.equal(e.conflicts.length, 1);
      assert.match(e.conflicts[0], /^run of ercot_total issued 2026-03-\d\dT\d\d:00:00Z is stored with other values \(use --replace\)$/);
      return true;
    });
    const replaced = await ingestFile(t.store.sources, chunks(changed), options({ replace: true }));
    assert.equal(replaced.runsReplaced, 1);
    const listed = await json(`${REGION}/runs`, { model: 'replay', ...RUN_DAYS });
    assert.equal(listed.filter((r: { revisions: number }) => r.revisions === 1).length, 1);
    assert.ok(Math.abs((await served()) - (Number(original) + 1)) < 1e-6, 'the replaced value is served, not the cached one');
    // Put the original back for the other tests.
    await ingestFile(t.store.sources, chunks(forecastCsv), options({ replace: true }));
    assert.equal(await served(), Number(original));
  });

  test('a bad row anywhere stores nothing and is listed with its line and reason', async () => {
    const bad =
      forecastCsv.replace(/\n$/, '') +
      '\n2026-06-09T00:00:00Z,x,ercot_total,NaN,2026-06-09T00:00:00Z\n2026-06-09T01:00:00Z,x,nowhere,1,2026-06-09T00:00:00Z\n';
    const lines = bad.trim().split('\n').length;
    await assert.rejects(ingestFile(t.store.sources, chunks(bad), options({ source: 'broken' })), (e: unknown) => {
      assert.ok(e instanceof IngestError);
      assert.deepEqual(e.problems, [
        { line: lines - 1, reason: "value: 'NaN' is not a finite number (leave it empty for no value)" },
        {
          line: lines,
          reason:
            "id: unknown region 'nowhere' in ercot (ercot_total, ercot_coast, ercot_east, ercot_far_west, ercot_north, ercot_north_central, ercot_south_central, ercot_southern, ercot_west)",
        },
      ]);
      return true;
    });
    assert.deepEqual(await t.store.sources.names(), ['replay']);
  });

  test('model names a stored source in validation errors; an unknown one is a 422 listing what exists', async () => {
    const res = await t.get(`${REGION}/continuous`, { key, query: { model: 'nosuch' } });
    assert.equal(res.status, 422);
    assert.match(res.text, /"msg":"Input should be 'optimized', 'iso' or 'replay'"/);
    const other = await t.get('/v1/region/ercot/wind/forecast', { key, query: { model: 'replay' } });
    assert.equal(other.status, 422);
    assert.equal(
      JSON.parse(other.text).detail[0].msg,
      "Value error, source 'replay' holds no region ercot wind series; it holds: region ercot demand",
    );
  });

  test('a key without the ISO gets 403 for a stored source as for synthetic data', async () => {
    const pjmOnly = await t.key({ pjm: 'enterprise' });
    const res = await t.get(`${REGION}/forecast`, { key: pjmOnly, query: { model: 'replay' } });
    assert.equal(res.status, 403);
  });

  test('compute workers read stored sources through the HTTP thread', async () => {
    let pooled: TestServer | undefined;
    try {
      pooled = await startServer(t.store, { workers: 1 });
      const q = { id: ID, start: '2026-03-07', end: '2026-03-09', days_ahead: 1, latest_hour: 10 };
      const res = await pooled.get(`${REGION}/continuous`, { key, query: { ...q, model: 'replay' } });
      assert.equal(res.status, 200, res.text);
      same(await json(`${REGION}/continuous`, { ...q, model: MODEL }), JSON.parse(res.text));
    } finally {
      await pooled?.close();
    }
  });
});

/** A small forecast file: two runs of two ERCOT regions, 48 hours each, with values that say where they are. */
describe('own data: POST /admin/ingest and the admin sources API', () => {
  const TOKEN = 'owndata-admin-token';
  let t: TestApp;
  let key: string;
  const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' };
  const ingest = (body: string, query: Record<string, string>) =>
    t.request('POST', '/admin/ingest', { headers: admin, body, query: { group: 'region', iso: 'ercot', metric: 'demand', ...query } });

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN, ingestMaxBytes: 64 * 1024 });
    key = await t.key({ ercot: 'enterprise' });
  });
  after(() => t?.close());

  test('an upload is ingested and served at once; the same file again changes nothing', async () => {
    const res = await ingest(vendorCsv(), { source: 'vendor_a', filename: 'vendor_a.csv' });
    assert.equal(res.status, 200, res.text);
    const summary = res.json();
    assert.deepEqual(
      { ...summary, seconds: 0 },
      {
        source: 'vendor_a',
        kind: 'forecast',
        runsAdded: 4,
        runsReplaced: 0,
        runsUnchanged: 0,
        actualsAdded: 0,
        actualsReplaced: 0,
        actualsUnchanged: 0,
        targets: 2,
        values: 192,
        first_valid_time: '2026-06-01T00:00:00Z',
        last_valid_time: '2026-06-03T05:00:00Z',
        seconds: 0,
      },
    );
    const served = await t.get(`${REGION}/forecast`, {
      key,
      query: { model: 'vendor_a', id: 'ercot_coast', forecasted_by: '2026-06-01T05:00:00Z' },
    });
    assert.equal(served.status, 200, served.text);
    const body = served.json();
    assert.equal(body.created_at, '2026-06-01T00:00:00Z');
    assert.deepEqual(body.values[0].slice(0, 3), [10000, 10001, 10002]);
    const again = (await ingest(vendorCsv(), { source: 'vendor_a' })).json();
    assert.deepEqual([again.runsAdded, again.runsUnchanged], [0, 4]);
  });

  test('the admin token is required', async () => {
    const res = await t.request('POST', '/admin/ingest', { body: vendorCsv(), query: { source: 'x', iso: 'ercot', metric: 'demand' } });
    assert.equal(res.status, 401);
    assert.equal(res.text, '{"detail":[{"type":"error","msg":"Missing admin token: send Authorization: Bearer <GRIDCAST_ADMIN_TOKEN>."}]}');
  });

  test('missing and bad options are 422s naming the query parameter', async () => {
    const missing = await t.request('POST', '/admin/ingest', { headers: admin, body: vendorCsv(), query: { iso: 'ercot' } });
    assert.equal(missing.status, 422);
    assert.equal(
      missing.text,
      '{"detail":[{"type":"missing","loc":["query","source"],"msg":"Field required","input":null},' +
        '{"type":"missing","loc":["query","metric"],"msg":"Field required","input":null}]}',
    );
    const badIso = await ingest(vendorCsv(), { source: 'v', iso: 'texas' });
    assert.equal(badIso.status, 422);
    assert.deepEqual(badIso.json().detail, [
      {
        type: 'value_error',
        loc: ['query', 'iso'],
        msg: "Value error, iso must be one of pjm, miso, spp, ercot, caiso, nyiso, isone (got 'texas')",
        input: null,
      },
    ]);
  });

  test('bad rows are a 422 listing each with its line; a run stored with other values is a 409; nothing is stored', async () => {
    const bad = vendorCsv().replace(/\n$/, '') + '\n2026-06-09T00:00:00Z,ercot_total,Infinity,2026-06-09T00:00:00Z\n';
    const lines = bad.trim().split('\n').length;
    const res = await ingest(bad, { source: 'vendor_b' });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["body","line",${lines}],"msg":"Value error, value: 'Infinity' is not a finite number (leave it empty for no value)","input":null}]}`,
    );
    const conflict = await ingest(vendorCsv(1), { source: 'vendor_a' });
    assert.equal(conflict.status, 409);
    const detail = conflict.json().detail;
    assert.deepEqual(detail[0], { type: 'error', msg: '4 run(s) or actual(s) already stored with other values; nothing was stored' });
    assert.deepEqual(detail[1], {
      type: 'conflict',
      msg: 'run of ercot_total issued 2026-06-01T00:00:00Z is stored with other values (use --replace)',
    });
    assert.deepEqual(await t.store.sources.names(), ['vendor_a']);
    const replaced = await ingest(vendorCsv(1), { source: 'vendor_a', replace: 'true' });
    assert.equal(replaced.json().runsReplaced, 4);
  });

  test('over 20 bad rows: the first 20 of the file are listed in line order, whatever check found them', async () => {
    // Bad values are found as a batch is read, unknown targets after it: they alternate here.
    const rows = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? `2026-06-09T${String(i % 24).padStart(2, '0')}:00:00Z,nowhere,1,2026-06-09T00:00:00Z`
        : `2026-06-09T${String(i % 24).padStart(2, '0')}:00:00Z,ercot_total,abc,2026-06-09T00:00:00Z`,
    );
    const res = await ingest(['time_utc,id,value,created_at', ...rows].join('\n') + '\n', { source: 'vendor_c' });
    assert.equal(res.status, 422, res.text);
    const detail = res.json().detail as { loc: (string | number)[]; msg: string }[];
    const unknown =
      "Value error, id: unknown region 'nowhere' in ercot (ercot_total, ercot_coast, ercot_east, ercot_far_west, ercot_north, " +
      'ercot_north_central, ercot_south_central, ercot_southern, ercot_west)';
    const notANumber = "Value error, value: 'abc' is not a finite number (leave it empty for no value)";
    assert.deepEqual(
      detail.map((d) => [d.loc, d.msg]),
      [
        ...Array.from({ length: 20 }, (_, i) => [['body', 'line', i + 2], i % 2 === 0 ? unknown : notANumber]),
        [['body'], 'Value error, … and 10 more bad row(s)'],
      ],
    );
    assert.ok(!(await t.store.sources.names()).includes('vendor_c'));
  });

  test('a file over the size limit is a 413 and stores nothing, also when sent without a length', async () => {
    const big =
      vendorCsv().repeat(1).replace(/\n$/, '') +
      '\n' +
      Array.from({ length: 4000 }, () => '2026-06-09T00:00:00Z,ercot_total,1,2026-06-09T00:00:00Z').join('\n');
    const res = await ingest(big, { source: 'vendor_big' });
    assert.equal(res.status, 413);
    assert.equal(res.text, '{"detail":[{"type":"error","msg":"The file is larger than 65536 bytes (GRIDCAST_INGEST_MAX_BYTES)."}]}');
    const chunked = await rawRequest(t.baseUrl, '/admin/ingest?source=vendor_big&iso=ercot&metric=demand', admin, 'POST', big, 8192);
    assert.equal(chunked.status, 413, chunked.text);
    assert.deepEqual(await t.store.sources.names(), ['vendor_a']);
  });

  test('gridcast ingest --server sends the file to the running server (exit 0; a bad file is exit 2 with its lines)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-ingest-'));
    try {
      const good = path.join(dir, 'vendor_e.csv');
      fs.writeFileSync(good, vendorCsv());
      const bad = path.join(dir, 'bad.csv');
      fs.writeFileSync(bad, vendorCsv().replace(',50001,', ',5x,'));
      // Asynchronously: the server answering it runs on this test's thread.
      const cli = (file: string) =>
        runGridcast([
          'ingest',
          file,
          '--source',
          'vendor_e',
          '--iso',
          'ercot',
          '--metric',
          'demand',
          '--server',
          t.baseUrl,
          '--token',
          TOKEN,
        ]);
      const ok = await cli(good);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(
        ok.stdout,
        /^vendor_e: runs: 4 added, 0 replaced, 0 unchanged; 2 target\(s\), 192 value\(s\), 2026-06-01T00:00:00Z to 2026-06-03T05:00:00Z; [\d.]+ s\n$/,
      );
      const refused = await cli(bad);
      assert.equal(refused.status, 2);
      assert.equal(
        refused.stderr,
        `gridcast: bad.csv: ${t.baseUrl} answered 422; nothing was stored\n` +
          "  line 3: value: '5x' is not a finite number (leave it empty for no value)\n",
      );
      assert.equal((await t.request('DELETE', '/admin/sources/vendor_e', { headers: admin })).status, 200);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('GET /admin/sources lists what each source holds; DELETE removes one and its model name', async () => {
    const list = (await t.request('GET', '/admin/sources', { headers: admin })).json();
    assert.deepEqual(
      list.map((s: Record<string, unknown>) => ({ ...s, created_at: undefined })),
      [
        {
          name: 'vendor_a',
          created_at: undefined,
          series: [{ group: 'region', iso: 'ercot', metric: 'demand', targets: 2 }],
          runs: 4,
          forecast_values: 192,
          actuals: 0,
          actual_revisions: 0,
          latest_run: '2026-06-01T06:00:00Z',
          latest_actual: null,
          first_valid_time: '2026-06-01T00:00:00Z',
          last_valid_time: '2026-06-03T05:00:00Z',
        },
      ],
    );
    const del = await t.request('DELETE', '/admin/sources/vendor_a', { headers: admin });
    assert.equal(del.status, 200);
    assert.equal(del.text, '{"deleted":"vendor_a"}');
    assert.equal((await t.request('DELETE', '/admin/sources/vendor_a', { headers: admin })).status, 404);
    const gone = await t.get(`${REGION}/forecast`, { key, query: { model: 'vendor_a' } });
    assert.equal(gone.status, 422);
    assert.match(gone.text, /"msg":"Input should be 'optimized', 'iso' or 'normal'"/);
  });
});

describe('own data: /v1/status, the OpenAPI document and GRIDCAST_WORLD=off', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp();
    key = await t.key({ all: 'enterprise' });
    await ingestFile(t.store.sources, chunks(vendorCsv()), options({ source: 'vendor_a', origin: 'vendor_a.csv' }));
  });
  after(async () => {
    delete process.env.GRIDCAST_WORLD;
    await t?.close();
  });

  test('/v1/status lists each stored source per ISO beside the models', async () => {
    const status = (await t.get('/v1/status', { key })).json();
    assert.ok(status.some((s: { model: string }) => s.model === 'optimized'));
    assert.deepEqual(
      status.filter((s: { source?: string }) => s.source === 'stored'),
      [VENDOR_A_STATUS],
    );
  });

  test('the OpenAPI document names the stored sources in model where a source can be named', async () => {
    const doc = (await t.get('/v1/openapi.json')).json();
    const model = (p: string) => doc.paths[p].get.parameters.find((x: { name: string }) => x.name === 'model');
    // A plain string once sources exist: a client caching the document takes a source ingested since.
    assert.equal(model('/region/{iso}/{metric}/continuous').schema.enum, undefined);
    assert.match(model('/region/{iso}/{metric}/continuous').description, /Stored \(ingested\) sources: vendor_a; /);
    // Cells are served from the synthetic world only.
    assert.deepEqual(model('/cells/{iso}/{metric}/continuous').schema.enum, ['optimized', 'iso']);
  });

  test('with the world off only stored sources are served; anything else is a 4xx naming them', async () => {
    process.env.GRIDCAST_WORLD = 'off';
    const exist = 'vendor_a (region ercot demand)';
    const stored = await t.get(`${REGION}/forecast`, { key, query: { model: 'vendor_a', forecasted_by: '2026-06-01T07:00:00Z' } });
    assert.equal(stored.status, 200, stored.text);
    const synthetic = await t.get(`${REGION}/forecast`, { key });
    assert.equal(synthetic.status, 422);
    assert.equal(
      synthetic.text,
      '{"detail":[{"type":"value_error","loc":["query","model"],"msg":"Value error, the synthetic world is off (GRIDCAST_WORLD=off): ' +
        `model must name a stored source: ${exist}","input":"optimized"}]}`,
    );
    const actual = await t.get(`${REGION}/actual`, { key });
    assert.equal(actual.status, 422);
    assert.equal(
      actual.text,
      '{"detail":[{"type":"missing","loc":["query","source"],"msg":"Field required: the synthetic world is off (GRIDCAST_WORLD=off); ' +
        `actuals come from a stored source: ${exist}","input":null}]}`,
    );
    const cells = await t.get('/v1/cells/ercot/wind/continuous', { key });
    assert.equal(cells.status, 404);
    assert.equal(
      cells.text,
      '{"detail":[{"type":"error","msg":"The synthetic world is off (GRIDCAST_WORLD=off) and /cells/{iso}/{metric}/continuous has no stored data. ' +
        `Stored sources: ${exist}."}]}`,
    );
    assert.equal((await t.get('/v1/region/ercot/demand/list', { key })).status, 200);
    const status = (await t.get('/v1/status', { key })).json();
    assert.deepEqual(
      status.map((s: { model: string }) => s.model),
      ['vendor_a'],
    );
    delete process.env.GRIDCAST_WORLD;
  });
});

/**
 * The 25-hour local day (clocks back on 2025-11-02 in Chicago): no synthetic run covers one before
 * now, so a vendor's runs written with offsets are served by local day as the synthetic ones are.
 */
describe('own data: a 25-hour local day', () => {
  let t: TestApp;
  let key: string;
  const RUNS = ['2025-10-31T12:00:00Z', '2025-11-01T12:00:00Z'];
  /** Each run's value at a valid hour: the hours since its issue, plus 1000 for the second run. */
  const value = (run: number, hourMs: number) => run * 1000 + (hourMs - Date.parse(RUNS[run])) / 3_600_000;
  /** The instant as Chicago wall time with its offset (CDT until 2025-11-02T07:00Z, then CST). */
  const local = (ms: number) => {
    const offset = ms < Date.parse('2025-11-02T07:00:00Z') ? 5 : 6;
    return `${new Date(ms - offset * 3_600_000).toISOString().slice(0, 19)}-0${offset}:00`;
  };

  before(async () => {
    t = await startTestApp();
    key = await t.key({ ercot: 'enterprise' });
    const lines = ['time_local,id,value,created_at'];
    RUNS.forEach((run, r) => {
      for (let h = 0; h < 72; h++) {
        const ms = Date.parse(run) + h * 3_600_000;
        lines.push(`${local(ms)},${ID},${value(r, ms)},${run}`);
      }
    });
    const summary = await ingestFile(t.store.sources, chunks(lines.join('\n') + '\n'), options({ source: 'dst' }));
    assert.deepEqual([summary.runsAdded, summary.values], [2, 144]);
  });
  after(() => t?.close());

  test('continuous and forecast serve the 25 hours of the day, 01:00 twice, each its own value', async () => {
    const res = await t.get(`${REGION}/continuous`, {
      key,
      query: { model: 'dst', id: ID, start: '2025-11-02', end: '2025-11-02', days_ahead: 1, latest_hour: 10 },
    });
    assert.equal(res.status, 200, res.text);
    const body = res.json();
    // Day 2025-11-02 from the run issued by 2025-11-01 10:00 CDT (15:00Z): the second.
    const hours = Array.from({ length: 25 }, (_, h) => Date.parse('2025-11-02T05:00:00Z') + h * 3_600_000);
    assert.deepEqual(body.time_local.slice(0, 4), [
      '2025-11-02T00:00:00-05:00',
      '2025-11-02T01:00:00-05:00',
      '2025-11-02T01:00:00-06:00',
      '2025-11-02T02:00:00-06:00',
    ]);
    assert.equal(body.time_local[24], '2025-11-02T23:00:00-06:00');
    assert.deepEqual(
      body.time_utc,
      hours.map((ms) => new Date(ms).toISOString().replace('.000Z', 'Z')),
    );
    assert.deepEqual(
      body.values[0],
      hours.map((ms) => value(1, ms)),
    );
    // The day's mean over its 25 hours.
    const daily = await t.get(`${REGION}/continuous`, {
      key,
      query: { model: 'dst', id: ID, start: '2025-11-02', end: '2025-11-02', days_ahead: 1, latest_hour: 10, resample: '1d' },
    });
    assert.equal(daily.status, 200, daily.text);
    assert.deepEqual(daily.json().values, [[hours.reduce((a, ms) => a + value(1, ms), 0) / 25]]);
    // Two days ahead: the first run, whose 72 hours end at 2025-11-03T11:00Z.
    const early = await t.get(`${REGION}/continuous`, {
      key,
      query: { model: 'dst', id: ID, start: '2025-11-02', end: '2025-11-02', days_ahead: 2, latest_hour: 10 },
    });
    assert.deepEqual(
      early.json().values[0],
      hours.map((ms) => value(0, ms)),
    );
    const run = await t.get(`${REGION}/forecast`, { key, query: { model: 'dst', id: ID, forecasted_by: '2025-11-02T00:00:00Z' } });
    assert.equal(run.json().created_at, RUNS[1]);
    assert.equal(run.json().time_local.filter((l: string) => l.startsWith('2025-11-02T01:00:00')).length, 2);
  });
});
