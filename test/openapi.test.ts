/**
 * Acceptance ("Foundation"): the OpenAPI document at /v1/openapi.json and the interactive
 * docs, as the official Python client and a browser use them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers.ts';

const CONTINUOUS = '/plant/{iso}/{metric}/continuous';
const LIST = '/plant/{iso}/{metric}/list';

let t: TestApp;
let doc: any;

before(async () => {
  t = await startTestApp();
  const res = await t.get('/v1/openapi.json');
  assert.equal(res.status, 200, res.text.slice(0, 300));
  doc = res.json();
});

after(async () => {
  await t?.close();
});

/**
 * The Python client's method names (reference isoview-api.md §6): lower-cased summary with
 * whitespace runs as '_'; a name used by several operations gets the path's first segment
 * inserted after its first word (unless the name already contains it); then '-' becomes '_'.
 */
function clientMethodNames(paths: Record<string, Record<string, { summary?: string }>>): Map<string, string> {
  const ops: { path: string; name: string }[] = [];
  for (const [p, methods] of Object.entries(paths)) {
    for (const op of Object.values(methods)) {
      ops.push({ path: p, name: (op.summary ?? '').trim().toLowerCase().replace(/\s+/g, '_') });
    }
  }
  const counts = new Map<string, number>();
  for (const op of ops) counts.set(op.name, (counts.get(op.name) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const op of ops) {
    let name = op.name;
    if (counts.get(name)! > 1) {
      const segment = op.path.replace(/^\/+|\/+$/g, '').split('/')[0];
      if (!name.includes(segment)) {
        const [first, ...rest] = name.split('_');
        name = [first, segment, ...rest].join('_');
      }
    }
    out.set(op.path, name.replace(/-/g, '_'));
  }
  return out;
}

describe('the client method-name rule (as implemented here)', () => {
  test('reproduces the reference table of §6', () => {
    const table: [string, string, string][] = [
      ['/region/{iso}/{metric}/list', 'List Regions', 'list_regions'],
      ['/region/{iso}/{metric}/forecast', 'Get Regional Forecast', 'get_regional_forecast'],
      ['/region/{iso}/{metric}/continuous', 'Get Continuous Forecast', 'get_region_continuous_forecast'],
      ['/region/{iso}/{metric}/backcast', 'Get Day-Ahead Backcast', 'get_region_day_ahead_backcast'],
      ['/plant/{iso}/{metric}/list', 'List Plants', 'list_plants'],
      ['/plant/{iso}/{metric}/continuous', 'Get Continuous Forecast', 'get_plant_continuous_forecast'],
      ['/plant/{iso}/{metric}/backcast', 'Get Day-Ahead Backcast', 'get_plant_day_ahead_backcast'],
      ['/gas/continuous', 'Get Continuous Gas Forecast', 'get_continuous_gas_forecast'],
      ['/lmp/{iso}/{type}/continuous', 'Get Continuous Forecast', 'get_lmp_continuous_forecast'],
    ];
    const names = clientMethodNames(Object.fromEntries(table.map(([p, summary]) => [p, { get: { summary } }])));
    for (const [p, , expected] of table) assert.equal(names.get(p), expected, p);
  });
});

describe('GET /v1/openapi.json', () => {
  test('is served without a key, as application/json, OpenAPI 3.1.0', async () => {
    const res = await t.get('/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info?.title, 'string');
    assert.equal(typeof doc.info?.version, 'string');
  });

  test('is served with a key too (the Python client always sends X-API-Key), identically', async () => {
    const key = await t.key({ ercot: 'advanced' });
    const withKey = await t.get('/v1/openapi.json', { key });
    assert.equal(withKey.status, 200);
    assert.deepEqual(withKey.json(), doc);
  });

  test('paths are relative to /v1 and include the plant continuous and list operations', () => {
    const paths = Object.keys(doc.paths);
    assert.ok(paths.includes(CONTINUOUS), `paths: ${paths.join(', ')}`);
    assert.ok(paths.includes(LIST), `paths: ${paths.join(', ')}`);
    for (const p of paths) assert.ok(!p.startsWith('/v1'), `${p} is relative`);
    assert.deepEqual(doc.servers, [{ url: '/v1' }]);
    assert.deepEqual(Object.keys(doc.paths[CONTINUOUS]), ['get']);
  });

  test('summaries and FastAPI-style operation ids', () => {
    assert.equal(doc.paths[CONTINUOUS].get.summary, 'Get Continuous Forecast');
    assert.equal(doc.paths[LIST].get.summary, 'List Plants');
    assert.equal(doc.paths[CONTINUOUS].get.operationId, 'continuous_plant__iso___metric__continuous_get');
  });

  test('continuous parameters: iso, metric in the path; start, end, id, model, latest_hour, days_ahead, quantiles (stored sources), then format, layout, resample, agg, tz in the query', () => {
    const params: any[] = doc.paths[CONTINUOUS].get.parameters;
    assert.deepEqual(
      params.map((p) => `${p.in}:${p.name}`),
      [
        'path:iso',
        'path:metric',
        'query:start',
        'query:end',
        'query:id',
        'query:model',
        'query:latest_hour',
        'query:days_ahead',
        'query:quantiles',
        'query:format',
        'query:layout',
        'query:resample',
        'query:agg',
        'query:tz',
      ],
    );
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    assert.equal(byName.iso.required, true);
    assert.deepEqual(byName.iso.schema.enum, ['pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso', 'isone']);
    assert.equal(byName.metric.required, true);
    assert.deepEqual(byName.metric.schema.enum, ['wind', 'solar', 'wind_icing', 'solar_snow']);
    for (const name of ['start', 'end', 'id', 'model', 'latest_hour', 'days_ahead']) assert.equal(byName[name].required, false, name);
    for (const name of ['start', 'end']) {
      const variants = byName[name].schema.anyOf ?? [byName[name].schema];
      assert.ok(
        variants.some((s: any) => s.type === 'string' && s.format === 'date-time'),
        `${name} is a date-time`,
      );
    }
    assert.deepEqual(byName.model.schema.enum, ['optimized', 'iso']);
    assert.equal(byName.model.schema.default, 'optimized');
    const lh = byName.latest_hour.schema;
    assert.deepEqual([lh.type, lh.default, lh.minimum, lh.maximum], ['integer', 10, 0, 23]);
    const da = byName.days_ahead.schema;
    assert.deepEqual([da.type, da.default, da.minimum, da.maximum], ['integer', 1, 1, 14]);
  });

  test('security: an API key in the X-API-Key header or the api_key query parameter', () => {
    const schemes = Object.entries(doc.components.securitySchemes) as [string, any][];
    const header = schemes.find(([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name === 'X-API-Key');
    const query = schemes.find(([, s]) => s.type === 'apiKey' && s.in === 'query' && s.name === 'api_key');
    assert.ok(header, 'header scheme');
    assert.ok(query, 'query scheme');
    for (const p of [CONTINUOUS, LIST]) {
      const used = (doc.paths[p].get.security as Record<string, unknown>[]).flatMap((r) => Object.keys(r));
      assert.ok(used.includes(header[0]) && used.includes(query[0]), `${p} accepts both schemes`);
    }
  });

  test('components: TimeseriesResponse (with time_utc) for continuous, HTTPValidationError for 422', () => {
    const schemas = doc.components.schemas;
    const ts = schemas.TimeseriesResponse;
    assert.ok(ts, 'TimeseriesResponse');
    assert.deepEqual(ts.properties.time_utc.items, { type: 'string', format: 'date-time' });
    assert.deepEqual(ts.properties.time_local.items, { type: 'string', format: 'date-time' });
    for (const field of ['model', 'created_at', 'units', 'timezone', 'columns', 'values']) assert.ok(ts.properties[field], field);
    const cont = doc.paths[CONTINUOUS].get.responses;
    assert.deepEqual(cont['200'].content['application/json'].schema, { $ref: '#/components/schemas/TimeseriesResponse' });
    assert.ok(schemas.HTTPValidationError, 'HTTPValidationError');
    assert.deepEqual(cont['422'].content['application/json'].schema, { $ref: '#/components/schemas/HTTPValidationError' });
    const list = doc.paths[LIST].get.responses['200'].content['application/json'].schema;
    assert.equal(list.type, 'array');
    assert.ok(!('time_utc' in (schemas[list.items.$ref.split('/').pop()]?.properties ?? {})), 'a list is not a timeseries');
  });

  test('every $ref resolves', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    assert.ok(refs.length > 0);
    for (const r of refs) {
      const target = r.slice(8, -1);
      assert.ok(target.startsWith('#/components/schemas/'), target);
      assert.ok(doc.components.schemas[target.split('/').pop()!], `${target} exists`);
    }
  });

  test('the Python client derives the reference method names (§6) for every served operation', () => {
    const names = clientMethodNames(doc.paths);
    // The operators' API is not in the public document: a client generated from it must not
    // get methods that would call /v1/admin/… (see the admin document's own test).
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.includes('admin')),
      [],
    );
    const expected: Record<string, string> = {
      '/region/{iso}/{metric}/list': 'list_regions',
      '/region/{iso}/{metric}/forecast': 'get_regional_forecast',
      '/region/{iso}/{metric}/continuous': 'get_region_continuous_forecast',
      '/region/{iso}/{metric}/ensemble': 'get_ensemble_forecast',
      '/region/{iso}/{metric}/actual': 'get_historical_actuals',
      '/region/{iso}/{metric}/backcast': 'get_region_day_ahead_backcast',
      '/region/{iso}/summary': 'get_iso_summary',
      [LIST]: 'list_plants',
      '/plant/{iso}/{metric}/forecast': 'get_plant_forecast',
      [CONTINUOUS]: 'get_plant_continuous_forecast',
      '/plant/{iso}/{metric}/backcast': 'get_plant_day_ahead_backcast',
      '/county/{iso}/list': 'list_counties',
      '/county/{iso}/forecast': 'get_county_forecast',
      '/county/{iso}/continuous': 'get_county_continuous_forecast',
      '/gas/list': 'list_gas_hubs',
      '/gas/forecast': 'get_gas_price_forecast',
      '/gas/continuous': 'get_continuous_gas_forecast',
      '/gas/backcast': 'get_gas_day_ahead_backcast',
      '/lmp/{iso}/{type}/list': 'list_lmp_nodes',
      '/lmp/{iso}/{type}/forecast': 'get_lmp_forecast',
      '/lmp/{iso}/{type}/continuous': 'get_lmp_continuous_forecast',
      '/lmp/{iso}/{type}/actual': 'get_lmp_actuals',
      '/cells/{iso}/{metric}/list': 'list_cells',
      '/cells/{iso}/{metric}/forecast': 'get_cells_forecast',
      '/cells/{iso}/{metric}/continuous': 'get_cells_continuous_forecast',
      '/cells/{iso}/{metric}/backcast': 'get_cells_day_ahead_backcast',
      // Runs and vintages (issue 13): one summary per kind, the group segment makes each name unique.
      '/region/{iso}/{metric}/runs': 'list_region_forecast_runs',
      '/region/{iso}/{metric}/vintages': 'get_region_forecast_vintages',
      '/plant/{iso}/{metric}/runs': 'list_plant_forecast_runs',
      '/plant/{iso}/{metric}/vintages': 'get_plant_forecast_vintages',
      '/county/{iso}/runs': 'list_county_forecast_runs',
      '/county/{iso}/vintages': 'get_county_forecast_vintages',
      '/lmp/{iso}/{type}/runs': 'list_lmp_forecast_runs',
      '/lmp/{iso}/{type}/vintages': 'get_lmp_forecast_vintages',
      '/cells/{iso}/{metric}/runs': 'list_cells_forecast_runs',
      '/cells/{iso}/{metric}/vintages': 'get_cells_forecast_vintages',
      '/status': 'get_data_status',
      // Forecast skill (issue 21): one summary, the group segment makes each name unique.
      '/region/{iso}/{metric}/skill': 'get_region_forecast_skill',
      '/plant/{iso}/{metric}/skill': 'get_plant_forecast_skill',
      '/gas/skill': 'get_gas_forecast_skill',
      '/cells/{iso}/{metric}/skill': 'get_cells_forecast_skill',
      '/lmp/{iso}/{type}/skill': 'get_lmp_forecast_skill',
    };
    assert.deepEqual(Object.fromEntries(names), expected);
  });
});

describe('GET /docs', () => {
  test('returns the interactive docs as HTML, without a key', async () => {
    let res = await t.get('/docs');
    for (let hops = 0; hops < 3 && res.status >= 300 && res.status < 400; hops++) {
      res = await t.get(new URL(String(res.headers.location), `${t.baseUrl}/docs`).pathname);
    }
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.text, /<html/i);
  });
});
