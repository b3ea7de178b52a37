/**
 * Own data (issue 20) as a user meets it around the data: the errors that name what exists
 * (`/actual?source=`), actuals with revisions for regions and LMP nodes (`as_of`), `/v1/status`,
 * the OpenAPI document's `model`, `/skill` on stored actuals, GRIDCAST_WORLD=off across every kind
 * of endpoint, and `gridcast sources list|delete`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GridcastClient } from '../src/client/index.ts';
import { execFile } from 'node:child_process';
import { EMBEDDED_STORE_ONLY, freshDataDir, gridcastCli, ROOT, runGridcast, startTestApp, type TestApp } from './helpers.ts';
import { vendorCsv, VENDOR_A_STATUS } from './owndata-vendor.ts';

const TOKEN = 'owndata-serving-token';
const admin = { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/csv' };
const HOUR_MS = 3_600_000;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Actuals of one target for the 24 hours of 2026-06-01 UTC: first published at `first` + h (each
 * an hour after the last), then every one corrected (+`delta`) at `corrected`.
 */
function revisedActualsCsv(id: string, base: number, delta: number, first: (h: number) => number, corrected: string): string {
  const lines = ['time_utc,id,value,published_at'];
  const start = Date.parse('2026-06-01T00:00:00Z');
  for (let h = 0; h < 24; h++) lines.push(`${utc(start + h * HOUR_MS)},${id},${base + h},${utc(first(h))}`);
  for (let h = 0; h < 24; h++) lines.push(`${utc(start + h * HOUR_MS)},${id},${base + delta + h},${corrected}`);
  return lines.join('\n') + '\n';
}

describe('own data served: errors naming what exists, actuals with revisions, status, OpenAPI, skill', () => {
  let t: TestApp;
  let key: string;
  const get = async (p: string, query: Record<string, string | number> = {}) => t.get(p, { key, query });
  const ok = async (p: string, query: Record<string, string | number> = {}) => {
    const res = await get(p, query);
    assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
    return res.json();
  };
  const ingest = async (body: string, query: Record<string, string>) => {
    const res = await t.request('POST', '/admin/ingest', { headers: admin, body, query });
    assert.equal(res.status, 200, res.text);
    return res.json();
  };
  const region = { group: 'region', iso: 'ercot', metric: 'demand' };

  before(async () => {
    t = await startTestApp({ adminToken: TOKEN });
    key = await t.key({ all: 'enterprise' });
    await ingest(vendorCsv(), { ...region, source: 'vendor_a' });
    // ERCOT total's hours published an hour after they end, then all corrected on 2026-06-03.
    const hourly = (h: number) => Date.parse('2026-06-01T01:00:00Z') + h * HOUR_MS;
    await ingest(revisedActualsCsv('ercot_total', 49000, 500, hourly, '2026-06-03T00:00:00Z'), { ...region, source: 'truth' });
    // Houston hub's day-ahead prices cleared the day before, then corrected on 2026-06-02.
    const dayBefore = () => Date.parse('2026-05-31T18:00:00Z');
    await ingest(revisedActualsCsv('HB_HOUSTON', 30, 10, dayBefore, '2026-06-02T00:00:00Z'), {
      group: 'lmp',
      iso: 'ercot',
      type: 'dalmp',
      source: 'prices',
    });
  });
  after(async () => {
    delete process.env.GRIDCAST_WORLD;
    await t?.close();
  });

  const exist = 'prices (lmp ercot dalmp); truth (region ercot demand); vendor_a (region ercot demand)';

  test('/actual?source= with an unknown source is a 422 on source listing the sources and what they hold', async () => {
    const res = await get('/v1/region/ercot/demand/actual', { source: 'nosuch' });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["query","source"],"msg":"Value error, no stored source 'nosuch': ${exist}","input":"nosuch"}]}`,
    );
    // The same on a list's source.
    const list = await get('/v1/lmp/ercot/dalmp/list', { source: 'nosuch' });
    assert.equal(list.status, 422);
    assert.equal(list.json().detail[0].loc.join('.'), 'query.source');
  });

  test('/actual?source= naming a source without those actuals is a 422 on source, never a 500', async () => {
    const wind = await get('/v1/region/ercot/wind/actual', { source: 'truth' });
    assert.equal(wind.status, 422);
    assert.equal(
      wind.text,
      '{"detail":[{"type":"value_error","loc":["query","source"],"msg":"Value error, source \'truth\' holds no region ercot wind series; ' +
        'it holds: region ercot demand","input":"truth"}]}',
    );
    // vendor_a holds ercot_coast's forecasts but no actuals of it.
    const forecastsOnly = await get('/v1/region/ercot/demand/actual', { source: 'vendor_a', id: 'ercot_coast' });
    assert.equal(forecastsOnly.status, 422);
    assert.equal(
      forecastsOnly.text,
      '{"detail":[{"type":"value_error","loc":["query","source"],"msg":"Value error, source \'vendor_a\' has no actuals for this target ' +
        'published by 2026-06-15T18:00:00Z (it may hold forecasts only)","input":"vendor_a"}]}',
    );
  });

  test('region actuals: as_of returns what was published then, first values and corrections', async () => {
    const q = { source: 'truth', id: 'ercot_total', start: '2026-06-01T00:00:00Z', end: '2026-06-01T23:00:00Z' };
    const values = async (asOf?: string) => (await ok('/v1/region/ercot/demand/actual', asOf ? { ...q, as_of: asOf } : q)).values[0];
    // At 05:30 the hours 00–03 are out (each an hour after it ends), first values.
    const early = await ok('/v1/region/ercot/demand/actual', { ...q, as_of: '2026-06-01T04:30:00Z' });
    assert.deepEqual(early.time_utc, ['2026-06-01T00:00:00Z', '2026-06-01T01:00:00Z', '2026-06-01T02:00:00Z', '2026-06-01T03:00:00Z']);
    assert.deepEqual(early.values[0], [49000, 49001, 49002, 49003]);
    assert.deepEqual(
      await values('2026-06-02T12:00:00Z'),
      Array.from({ length: 24 }, (_, h) => 49000 + h),
    );
    assert.deepEqual(
      await values(),
      Array.from({ length: 24 }, (_, h) => 49500 + h),
    );
    const before = await get('/v1/region/ercot/demand/actual', { ...q, as_of: '2026-05-31T00:00:00Z' });
    assert.equal(before.status, 422);
    assert.match(before.json().detail[0].msg, /has no actuals for this target published by 2026-05-31T00:00:00Z/);
  });

  test('LMP actuals: ingested with revisions, served by /lmp/{iso}/{type}/actual?source= with as_of', async () => {
    const q = { source: 'prices', start: '2026-06-01T00:00:00Z', end: '2026-06-01T02:00:00Z' };
    const first = await ok('/v1/lmp/ercot/dalmp/actual', { ...q, as_of: '2026-06-01T12:00:00Z' });
    assert.deepEqual(
      { units: first.units, columns: first.columns, values: first.values, model: first.model },
      { units: 'USD/MWh', columns: [['HB_HOUSTON']], values: [[30, 31, 32]], model: null },
    );
    assert.deepEqual((await ok('/v1/lmp/ercot/dalmp/actual', q)).values, [[40, 41, 42]]);
    const rt = await get('/v1/lmp/ercot/rtlmp/actual', q);
    assert.equal(rt.status, 422);
    assert.equal(rt.json().detail[0].msg, "Value error, source 'prices' holds no lmp ercot rtlmp series; it holds: lmp ercot dalmp");
  });

  test('plants and gas have no /actual: a file of their actuals is refused at ingest, saying so', async () => {
    const res = await t.request('POST', '/admin/ingest', {
      headers: admin,
      body: 'time_utc,id,value\n2026-06-01T00:00:00Z,henry_hub,3.1\n',
      query: { group: 'gas', source: 'gasact' },
    });
    assert.equal(res.status, 422);
    assert.match(res.text, /--group gas serves forecasts only \(no \/actual endpoint\)/);
  });

  test('/v1/status shows each source per ISO with its series, latest run, latest actual, counts and span', async () => {
    const stored = (await ok('/v1/status')).filter((s: { source?: string }) => s.source === 'stored');
    assert.deepEqual(stored, [
      {
        iso: 'ercot',
        model: 'prices',
        last_run: null,
        next_run: null,
        last_actual_hour: '2026-06-01T23:00:00Z',
        source: 'stored',
        runs: 0,
        forecast_values: 0,
        actuals: 24,
        actual_revisions: 24,
        first_valid_time: '2026-06-01T00:00:00Z',
        last_valid_time: '2026-06-01T23:00:00Z',
        series: [{ group: 'lmp', metric: 'dalmp' }],
      },
      {
        iso: 'ercot',
        model: 'truth',
        last_run: null,
        next_run: null,
        last_actual_hour: '2026-06-01T23:00:00Z',
        source: 'stored',
        runs: 0,
        forecast_values: 0,
        actuals: 24,
        actual_revisions: 24,
        first_valid_time: '2026-06-01T00:00:00Z',
        last_valid_time: '2026-06-01T23:00:00Z',
        series: [{ group: 'region', metric: 'demand' }],
      },
      VENDOR_A_STATUS,
    ]);
  });

  test('the sources list counts what /v1/status counts: (target, hour) actuals, and their revisions apart', async () => {
    const status = (await ok('/v1/status')).filter((s: { source?: string }) => s.source === 'stored');
    const list = (await t.request('GET', '/admin/sources', { headers: admin })).json();
    const counts = ['runs', 'forecast_values', 'actuals', 'actual_revisions'] as const;
    const summed = (name: string) =>
      counts.map((c) =>
        status.filter((s: { model: string }) => s.model === name).reduce((n: number, s: Record<string, number>) => n + s[c], 0),
      );
    assert.deepEqual(
      list.map((s: Record<string, number> & { name: string }) => [s.name, counts.map((c) => s[c])]),
      list.map((s: { name: string }) => [s.name, summed(s.name)]),
    );
    // truth: 24 hours published, each corrected once.
    assert.deepEqual(
      counts.map((c) => list.find((s: { name: string }) => s.name === 'truth')[c]),
      [0, 0, 24, 24],
    );
  });

  test('OpenAPI: model is a plain string documenting the models and the stored sources; source lists them too', async () => {
    const doc = (await t.get('/v1/openapi.json')).json();
    const param = (p: string, name: string) => doc.paths[p].get.parameters.find((x: { name: string }) => x.name === name);
    const listed = 'Stored (ingested) sources: prices, truth, vendor_a; /v1/status lists what each holds.';
    for (const [p, synthetic] of [
      ['/region/{iso}/{metric}/forecast', ['optimized', 'iso', 'normal']],
      ['/region/{iso}/{metric}/continuous', ['optimized', 'iso']],
      ['/lmp/{iso}/{type}/runs', ['optimized', 'iso']],
      ['/gas/forecast', ['optimized', 'iso']],
    ] as const) {
      const model = param(p, 'model');
      assert.deepEqual(
        model.schema,
        { type: 'string', minLength: 1, examples: [...synthetic, 'prices', 'truth', 'vendor_a'], default: 'optimized', title: 'Model' },
        p,
      );
      assert.ok(model.description.endsWith(` Or a stored source. ${listed}`), model.description);
      assert.match(model.description, /^Forecast model: optimized/);
    }
    assert.ok(param('/region/{iso}/{metric}/actual', 'source').description.endsWith(listed));
    // Routes no stored source serves keep their enum.
    assert.deepEqual(param('/cells/{iso}/{metric}/continuous', 'model').schema.enum, ['optimized', 'iso']);
  });

  test('the TypeScript SDK takes a stored source as model (its types accept any name) and source for actuals', async () => {
    const client = new GridcastClient({ apiKey: key, baseUrl: `${t.baseUrl}/v1` });
    const q = { id: 'ercot_total', forecasted_by: '2026-06-01T07:00:00Z' };
    const viaSdk = await client.getRegionalForecast('ercot', 'demand', { ...q, model: 'vendor_a' });
    const viaHttp = await ok('/v1/region/ercot/demand/forecast', { ...q, model: 'vendor_a' });
    assert.deepEqual([viaSdk.model, viaSdk.created_at, viaSdk.values], [viaHttp.model, viaHttp.created_at, viaHttp.values]);
    const actual = await client.getHistoricalActuals('ercot', 'demand', {
      id: 'ercot_total',
      source: 'truth',
      as_of: '2026-06-02T00:00:00Z',
    });
    assert.equal(actual.values[0][0], 49000);
  });

  test('gridcast get takes a stored source as --model (forecast, continuous, runs, vintages) as the API serves it', async () => {
    const download = (args: string[]) =>
      runGridcast(['get', ...args, '--format', 'csv', '-o', '-', '--key', key, '--url', `${t.baseUrl}/v1`]);
    const region = ['region', 'ercot', 'demand'];
    for (const [kind, query] of [
      ['forecast', { id: 'ercot_total', forecasted_by: '2026-06-01T07:00:00Z' }],
      ['continuous', { start: '2026-06-02', end: '2026-06-02', days_ahead: 1, latest_hour: 0 }],
      ['runs', { start: '2026-06-01', end: '2026-06-01' }],
      ['vintages', { id: 'ercot_coast', valid_time: '2026-06-01T12:00:00Z' }],
    ] as const) {
      const options = Object.entries(query).flatMap(([name, value]) => [`--${name.replace(/_/g, '-')}`, String(value)]);
      const cli = await download([...region, kind, '--model', 'vendor_a', ...options]);
      assert.equal(cli.status, 0, `${kind}: ${cli.stderr}`);
      const api = await get(`/v1/region/ercot/demand/${kind}`, { ...query, model: 'vendor_a', format: 'csv' });
      assert.equal(api.status, 200, api.text);
      assert.equal(cli.stdout, api.text, kind);
      assert.ok(cli.stdout.split('\n').length > 2, `${kind}: ${cli.stdout}`);
    }
    // A name no source has is the service's 422 listing the models and the sources; a name no source may have is refused before any request.
    const unknown = await download([...region, 'forecast', '--model', 'nosuch']);
    assert.deepEqual(
      [unknown.status, unknown.stderr],
      [
        1,
        "gridcast: 422: query.model: Input should be 'optimized', 'iso', 'normal', 'prices', 'truth' or 'vendor_a' " +
          `(GET ${t.baseUrl}/v1/region/ercot/demand/forecast?model=nosuch).\n`,
      ],
    );
    const malformed = await download([...region, 'forecast', '--model', 'Vendor-A']);
    assert.deepEqual(
      [malformed.status, malformed.stderr],
      [2, `gridcast: model: Input should be 'optimized', 'iso' or 'normal' (got "Vendor-A")\nsee gridcast get --help\n`],
    );
  });

  test('/skill scores forecasts against a stored source’s actuals with actual_source=', async () => {
    const q = { id: 'ercot_total', days_ahead: 1, latest_hour: 10 };
    const records = await ok('/v1/region/ercot/demand/skill', { ...q, actual_source: 'truth', model: 'optimized' });
    // The window defaults to the 30 local days ending with truth's last actual (2026-06-01 23:00 UTC).
    const window = { start: '2026-05-03', end: '2026-06-01T23:00:00Z' };
    const forecast = await ok('/v1/region/ercot/demand/continuous', { ...q, model: 'optimized', ...window });
    const actual = await ok('/v1/region/ercot/demand/actual', { id: 'ercot_total', source: 'truth', ...window });
    const byHour = new Map(forecast.time_utc.map((t: string, i: number) => [t, forecast.values[0][i]]));
    const errors = actual.time_utc.map((t: string, i: number) => (byHour.get(t) as number) - actual.values[0][i]);
    assert.equal(records.length, 1);
    assert.equal(records[0].n, 24);
    const mae = errors.reduce((a: number, e: number) => a + Math.abs(e), 0) / errors.length;
    assert.ok(Math.abs(records[0].mae - mae) < 0.01, `${records[0].mae} vs ${mae}`);
  });

  test('/skill?actual_source= naming no source, or one without those actuals, is a 422 on actual_source saying so', async () => {
    const expect422 = async (actualSource: string, msg: string) => {
      const res = await get('/v1/region/ercot/demand/skill', { actual_source: actualSource });
      assert.equal(res.status, 422, res.text);
      assert.equal(
        res.text,
        `{"detail":[{"type":"value_error","loc":["query","actual_source"],"msg":"Value error, ${msg}","input":"${actualSource}"}]}`,
      );
    };
    await expect422('nosuch', `no stored source 'nosuch': ${exist}`);
    await expect422('prices', "source 'prices' holds no region ercot demand series; it holds: lmp ercot dalmp");
    await expect422(
      'vendor_a',
      "source 'vendor_a' has no actuals for this target published by 2026-06-15T18:00:00Z (it may hold forecasts only)",
    );
  });

  test('GRIDCAST_WORLD=off: every endpoint serves stored data or is a 4xx naming what exists', async () => {
    process.env.GRIDCAST_WORLD = 'off';
    try {
      const expectError = async (p: string, query: Record<string, string | number>, status: number, body: string) => {
        const res = await get(p, query);
        assert.equal(res.status, status, `${p}: ${res.text}`);
        assert.equal(res.text, body, p);
      };
      const missingSource =
        '{"detail":[{"type":"missing","loc":["query","source"],"msg":"Field required: the synthetic world is off (GRIDCAST_WORLD=off); ' +
        `actuals come from a stored source: ${exist}","input":null}]}`;
      const modelOff = (model: string) =>
        '{"detail":[{"type":"value_error","loc":["query","model"],"msg":"Value error, the synthetic world is off (GRIDCAST_WORLD=off): ' +
        `model must name a stored source: ${exist}","input":"${model}"}]}`;
      const notServed = (route: string) =>
        `{"detail":[{"type":"error","msg":"The synthetic world is off (GRIDCAST_WORLD=off) and ${route} has no stored data. Stored sources: ${exist}."}]}`;
      await expectError('/v1/region/ercot/demand/skill', {}, 422, missingSource.replace('"source"', '"actual_source"'));
      await expectError('/v1/lmp/ercot/dalmp/actual', {}, 422, missingSource);
      await expectError('/v1/region/ercot/demand/continuous', { model: 'iso' }, 422, modelOff('iso'));
      await expectError('/v1/gas/continuous', {}, 422, modelOff('optimized'));
      await expectError('/v1/region/ercot/summary', {}, 404, notServed('/region/{iso}/summary'));
      await expectError('/v1/region/ercot/demand/ensemble', { id: 'ercot_total' }, 404, notServed('/region/{iso}/{metric}/ensemble'));
      await expectError('/v1/county/ercot/forecast', {}, 404, notServed('/county/{iso}/forecast'));
      // /skill on stored actuals scores stored sources only: no synthetic model, no climatological baseline.
      const skill = await ok('/v1/region/ercot/demand/skill', { actual_source: 'truth', days_ahead: 1, model: 'vendor_a' });
      assert.deepEqual(
        skill.map((r: { model: string; skill_vs_normal: unknown }) => [r.model, r.skill_vs_normal]),
        [['vendor_a', null]],
      );
      assert.deepEqual(
        (await ok('/v1/region/ercot/demand/skill', { actual_source: 'truth' })).map((r: { model: string }) => r.model),
        [],
      );
      await expectError('/v1/region/ercot/demand/skill', { actual_source: 'truth', model: 'optimized' }, 422, modelOff('optimized'));
      // Stored data is served.
      assert.equal((await ok('/v1/lmp/ercot/dalmp/actual', { source: 'prices' })).columns.length, 1);
      assert.equal((await ok('/v1/region/ercot/demand/forecast', { model: 'vendor_a', id: 'ercot_total' })).model, 'vendor_a');
      // /v1/status lists the stored sources only.
      assert.deepEqual(
        (await ok('/v1/status')).map((s: { model: string }) => s.model),
        ['prices', 'truth', 'vendor_a'],
      );
      // The OpenAPI document names no synthetic model where a stored source may be named.
      const doc = (await t.get('/v1/openapi.json')).json();
      const models = Object.entries(
        doc.paths as Record<string, { get: { parameters: { name: string; schema: object; description?: string }[] } }>,
      )
        .map(([p, item]) => [p, item.get.parameters.find((x) => x.name === 'model')] as const)
        .filter(([p, model]) => model && !p.endsWith('/skill') && !('enum' in model.schema));
      // Every route serving stored sources: forecast, continuous, runs, vintages of regions, plants, LMPs; gas forecast and continuous.
      assert.equal(models.length, 14);
      for (const [p, model] of models) {
        assert.deepEqual(
          model!.schema,
          { anyOf: [{ type: 'string', minLength: 1, examples: ['prices', 'truth', 'vendor_a'] }, { type: 'null' }], title: 'Model' },
          p,
        );
        assert.equal(
          model!.description,
          'The synthetic models are off (GRIDCAST_WORLD=off). Stored (ingested) sources: prices, truth, vendor_a; /v1/status lists what each holds.',
          p,
        );
      }
      assert.equal(
        doc.paths['/region/{iso}/{metric}/forecast'].get.parameters.find((x: { name: string }) => x.name === 'model').schema.default,
        undefined,
      );
      // The dashboard page itself is served (its panels show these answers).
      assert.equal((await t.get('/dashboard')).status, 200);
    } finally {
      delete process.env.GRIDCAST_WORLD;
    }
  });
});

describe('own data: gridcast sources list and delete', { skip: EMBEDDED_STORE_ONLY }, () => {
  test('list shows per source its series, runs, values, actuals, latest run and actual, time span; delete removes it', async () => {
    const dir = await freshDataDir('gridcast-sources-');
    const env = { ...process.env, DATABASE_URL: '' };
    try {
      const data = ['--data', dir];
      const file = path.join(dir, 'vendor_a.csv');
      fs.writeFileSync(file, vendorCsv());
      const actuals = path.join(dir, 'truth.csv');
      const hourly = (h: number) => Date.parse('2026-06-01T01:00:00Z') + h * HOUR_MS;
      fs.writeFileSync(actuals, revisedActualsCsv('ercot_total', 49000, 500, hourly, '2026-06-03T00:00:00Z'));
      const options = ['--iso', 'ercot', '--metric', 'demand', ...data];
      assert.equal((await runGridcast(['ingest', file, '--source', 'vendor_a', ...options], env)).status, 0);
      assert.equal((await runGridcast(['ingest', actuals, '--source', 'vendor_a', ...options], env)).status, 0);
      const list = await runGridcast(['sources', 'list', ...data], env);
      assert.equal(list.status, 0, list.stderr);
      assert.equal(
        list.stdout,
        'name\tseries\truns\tforecast_values\tactuals\tactual_revisions\tlatest_run\tlatest_actual\tfirst_valid_time\tlast_valid_time\n' +
          'vendor_a\tregion/ercot/demand:2\t4\t192\t24\t24\t2026-06-01T06:00:00Z\t2026-06-01T23:00:00Z\t2026-06-01T00:00:00Z\t2026-06-03T05:00:00Z\n',
      );
      const deleted = await runGridcast(['sources', 'delete', 'vendor_a', ...data], env);
      assert.deepEqual([deleted.status, deleted.stdout], [0, 'Deleted source vendor_a\n']);
      const again = await runGridcast(['sources', 'delete', 'vendor_a', ...data], env);
      assert.deepEqual([again.status, again.stderr], [1, "gridcast: no source 'vendor_a'\n"]);
      const empty = await runGridcast(['sources', 'list', ...data], env);
      assert.equal(
        empty.stdout,
        'name\tseries\truns\tforecast_values\tactuals\tactual_revisions\tlatest_run\tlatest_actual\tfirst_valid_time\tlast_valid_time\n',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'on a terminal, gridcast ingest draws a progress bar, then its one-line summary',
    { skip: !fs.existsSync('/usr/bin/script') && 'needs script(1) to give the command a terminal' },
    async () => {
      const dir = await freshDataDir('gridcast-progress-');
      try {
        const file = path.join(dir, 'vendor_a.csv');
        fs.writeFileSync(file, vendorCsv());
        const args = [process.execPath, await gridcastCli(), 'ingest', file, '--source', 'vendor_a', '--iso', 'ercot'];
        const command = [...args, '--metric', 'demand', '--data', dir].map((a) => `'${a}'`).join(' ');
        // script(1) runs the command on a pseudo-terminal (its output's line ends become CRLF).
        const out = await new Promise<string>((resolve, reject) =>
          execFile(
            'script',
            ['-qec', command, '/dev/null'],
            { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } },
            (e, stdout) => (e ? reject(e) : resolve(stdout)),
          ),
        );
        assert.match(out, /\r {2}\[####################\] 100% of 0\.0 MB\r\n/);
        assert.match(
          out,
          /\r\nvendor_a: runs: 4 added, 0 replaced, 0 unchanged; 2 target\(s\), 192 value\(s\), 2026-06-01T00:00:00Z to 2026-06-03T05:00:00Z; [\d.]+ s\r\n$/,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
