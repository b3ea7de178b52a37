/**
 * Counties over HTTP, as the official client calls them (list_counties, get_county_forecast,
 * get_county_continuous_forecast): records with FIPS ids and boundaries, and county demand
 * that adds up to the ISO total for any model, run and hour.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { okJson, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ ercot: 'core', pjm: 'core', isone: 'core' });
});

after(async () => {
  await t?.close();
});

const get = (path: string, query: Record<string, string | number> = {}) => okJson(t, path, { key, query });

describe('county list', () => {
  test('records: 5-digit FIPS id, name, state, iso, region_id and a GeoJSON boundary', async () => {
    const res = await t.get('/v1/county/ercot/list', { key });
    assert.equal(res.status, 200);
    const counties = res.json();
    assert.ok(counties.length > 150, `${counties.length} ERCOT counties`);
    for (const c of counties) {
      assert.deepEqual(Object.keys(c), ['id', 'name', 'state', 'iso', 'region_id', 'geojson']);
      assert.match(c.id, /^\d{5}$/);
      assert.ok(c.geojson.type === 'Polygon' || c.geojson.type === 'MultiPolygon');
      assert.match(c.region_id, /^ercot_[a-z_]+$/);
    }
    const harris = counties.find((c: any) => c.id === '48201');
    assert.equal(harris.name, 'Harris');
    assert.equal(harris.state, 'TX');
    assert.equal(harris.region_id, 'ercot_coast');
    // Houston sits inside Harris County's boundary ring (bounding-box check).
    const ring: number[][] = harris.geojson.type === 'Polygon' ? harris.geojson.coordinates[0] : harris.geojson.coordinates[0][0];
    const lons = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    assert.ok(Math.min(...lons) < -95.37 && Math.max(...lons) > -95.37 && Math.min(...lats) < 29.76 && Math.max(...lats) > 29.76);
  });

  test('core access is enough; the summaries give the client its method names', async () => {
    const doc = (await t.get('/v1/openapi.json')).json();
    assert.equal(doc.paths['/county/{iso}/list'].get.summary, 'List Counties');
    assert.equal(doc.paths['/county/{iso}/forecast'].get.summary, 'Get County Forecast');
    assert.equal(doc.paths['/county/{iso}/continuous'].get.summary, 'Get Continuous Forecast');
    const other = await t.get('/v1/county/miso/list', { key });
    assert.equal(other.status, 403);
  });
});

describe('county demand', () => {
  const runs: [string, Record<string, string>][] = [
    ['forecast', {}],
    ['forecast', { forecasted_by: '2026-02-01T12:00:00Z', model: 'iso' }],
    ['continuous', { start: '2026-06-01', end: '2026-06-03' }],
  ];
  for (const iso of ['pjm', 'isone']) {
    for (const [kind, query] of runs) {
      test(`${iso} ${kind} ${JSON.stringify(query)}: the counties add up to the ISO total`, async () => {
        const total = await get(`/v1/region/${iso}/demand/${kind}`, { ...query, id: `${iso}_total` });
        const counties = await get(`/v1/county/${iso}/${kind}`, query);
        assert.deepEqual(counties.time_utc, total.time_utc);
        assert.equal(counties.units, 'MW');
        const tolerance = 0.05 * counties.columns.length + 0.05;
        total.values[0].forEach((expected, i) => {
          if (expected === null) return;
          const sum = counties.values.reduce((s, col) => s + (col[i] as number), 0);
          assert.ok(Math.abs(sum - expected) <= tolerance, `row ${i}: ${sum} vs ${expected}`);
        });
      });
    }
  }

  test('one county by id; a big city county carries a big share; an unknown id is a value_error', async () => {
    const cook = await get('/v1/county/pjm/forecast', { id: '17031' }); // Cook County, IL (ComEd)
    const total = await get('/v1/region/pjm/demand/forecast', { id: 'pjm_total' });
    assert.deepEqual(cook.columns, [['17031']]);
    const share = (cook.values[0][12] as number) / (total.values[0][12] as number);
    assert.ok(share > 0.03 && share < 0.2, `Cook County share of PJM ${share}`);
    const res = await t.get('/v1/county/pjm/forecast', { key, query: { id: '48201' } });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown county id '48201' in pjm (a 5-digit FIPS code); GET /v1/county/pjm/list lists them","input":"48201"}]}`,
    );
  });
});
