/**
 * H3 cells over HTTP: the list (clipped geometry, resolutions 2–5), the resolution and id
 * rules, access levels, and the disaggregation users rely on — for every model, run and hour
 * the cells of an ISO add up to the ISO total, wind and solar are the plants inside each cell.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { latLngToCell } from 'h3-js';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;
let advancedKey: string;
let coreKey: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
  advancedKey = await t.key({ isone: 'advanced', nyiso: 'advanced' });
  coreKey = await t.key({ isone: 'core' });
});

after(async () => {
  await t?.close();
});

const get = (path: string, query: Record<string, string | number> = {}, k = key) => okJson(t, path, { key: k, query });

/**
 * Asserts that the columns of `parts` add up to the single column of `total`, row by row.
 * Each part is rounded to 0.1 MW, so the sum may drift by up to 0.05 per non-zero part.
 */
function assertSumsTo(parts: Timeseries, total: Timeseries, what: string): void {
  assert.deepEqual(parts.time_utc, total.time_utc, `${what}: same rows`);
  assert.equal(parts.created_at, total.created_at);
  const nonZero = parts.values.filter((col) => col.some((v) => v !== 0 && v !== null)).length;
  const tolerance = 0.05 * nonZero + 0.05;
  let checked = 0;
  total.values[0].forEach((expected, i) => {
    const column = parts.values.map((col) => col[i]);
    if (expected === null) {
      assert.ok(
        column.every((v) => v === null),
        `${what} row ${i}: null in the total, null in every part`,
      );
      return;
    }
    const sum = column.reduce<number>((s, v) => s + (v as number), 0);
    assert.ok(Math.abs(sum - expected) <= tolerance, `${what} row ${i}: parts sum to ${sum}, total is ${expected} (±${tolerance})`);
    checked++;
  });
  assert.ok(checked > 0, `${what}: some rows compared`);
}

describe('cell list', () => {
  test('default resolution 4: H3 ids with the record fields, sorted, clipped geometry', async () => {
    const res = await t.get('/v1/cells/isone/demand/list', { key: advancedKey });
    assert.equal(res.status, 200);
    const cells = res.json();
    assert.ok(cells.length > 50, `${cells.length} cells`);
    const ids = cells.map((c: any) => c.id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(new Set(ids).size, ids.length);
    for (const c of cells) {
      assert.deepEqual(Object.keys(c), ['id', 'resolution', 'iso', 'timezone', 'latitude', 'longitude', 'area_km2', 'geojson']);
      assert.match(c.id, /^84[0-9a-f]{13}$/);
      assert.equal(c.resolution, 4);
      assert.equal(c.iso, 'isone');
      assert.equal(c.timezone, 'America/New_York');
      assert.equal(latLngToCell(c.latitude, c.longitude, 4), c.id, 'latitude/longitude are the cell centre');
      assert.ok(c.geojson.type === 'Polygon' || c.geojson.type === 'MultiPolygon');
      // A res-4 cell is ~1,770 km²; a clipped border cell is smaller, never larger.
      assert.ok(c.area_km2 > 0 && c.area_km2 < 2300, `${c.id}: ${c.area_km2} km²`);
    }
    assert.ok(
      cells.some((c: any) => c.area_km2 < 1000),
      'border cells are clipped',
    );
  });

  test('resolution 2 and 5 give coarser and finer sets; the metric does not change the set', async () => {
    const coarse = (await t.get('/v1/cells/nyiso/wind/list', { key, query: { resolution: 2 } })).json();
    const fine = (await t.get('/v1/cells/nyiso/solar/list', { key, query: { resolution: 5 } })).json();
    assert.ok(coarse.every((c: any) => c.resolution === 2 && c.id.startsWith('82')));
    assert.ok(fine.every((c: any) => c.resolution === 5 && c.id.startsWith('85')));
    assert.ok(coarse.length < 10 && fine.length > 400, `${coarse.length} / ${fine.length}`);
    const area = (list: any[]) => list.reduce((s, c) => s + c.area_km2, 0);
    // Both cover the same footprint (NYISO is ~127,000 km²).
    assert.ok(Math.abs(area(coarse) - area(fine)) / area(fine) < 0.001, `${area(coarse)} vs ${area(fine)}`);
    const demandList = (await t.get('/v1/cells/nyiso/demand/list', { key, query: { resolution: 5 } })).json();
    assert.deepEqual(demandList, fine);
  });

  test('resolution outside 2–5 or not an integer: pydantic 422s', async () => {
    const cases: [string, string][] = [
      [
        '1',
        '{"detail":[{"type":"greater_than_equal","loc":["query","resolution"],"msg":"Input should be greater than or equal to 2","input":"1","ctx":{"ge":2}}]}',
      ],
      [
        '6',
        '{"detail":[{"type":"less_than_equal","loc":["query","resolution"],"msg":"Input should be less than or equal to 5","input":"6","ctx":{"le":5}}]}',
      ],
      [
        'four',
        '{"detail":[{"type":"int_parsing","loc":["query","resolution"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"four"}]}',
      ],
    ];
    for (const [value, body] of cases) {
      for (const kind of ['list', 'forecast', 'continuous', 'backcast']) {
        const res = await t.get(`/v1/cells/isone/demand/${kind}`, { key, query: { resolution: value } });
        assert.equal(res.status, 422, `${kind} resolution=${value}`);
        assert.equal(res.text, body);
      }
    }
  });
});

describe('cell access levels', () => {
  test('advanced reads list, forecast and continuous; backcast needs enterprise; core is refused', async () => {
    for (const kind of ['list', 'forecast', 'continuous']) {
      assert.equal((await t.get(`/v1/cells/isone/wind/${kind}`, { key: advancedKey, query: { resolution: 2 } })).status, 200, kind);
    }
    const backcast = await t.get('/v1/cells/isone/wind/backcast', { key: advancedKey });
    assert.equal(backcast.status, 403);
    assert.equal(
      backcast.text,
      `{"detail":[{"type":"error","msg":"Your subscription for ISO 'isone' is at the 'advanced' level. This endpoint needs the 'enterprise' level or higher for 'isone'."}]}`,
    );
    const core = await t.get('/v1/cells/isone/demand/list', { key: coreKey });
    assert.equal(core.status, 403);
    assert.equal(
      core.text,
      `{"detail":[{"type":"error","msg":"Your subscription for ISO 'isone' is at the 'core' level. This endpoint needs the 'advanced' level or higher for 'isone'."}]}`,
    );
  });
});

describe('cells add up to the ISO total', () => {
  const regionPath = (iso: string, metric: string, kind: string) => `/v1/region/${iso}/${metric}/${kind}`;
  const cellPath = (iso: string, metric: string, kind: string) => `/v1/cells/${iso}/${metric}/${kind}`;
  const runs: [string, Record<string, string | number>][] = [
    ['forecast', { forecasted_by: '2026-06-10T15:30:00Z' }],
    ['forecast', { model: 'iso' }],
    ['continuous', { start: '2026-06-08', end: '2026-06-09', days_ahead: 3, latest_hour: 6 }],
    ['backcast', { start: '2024-01-15', end: '2024-01-16' }],
  ];
  for (const metric of ['demand', 'wind', 'solar']) {
    for (const [kind, query] of runs) {
      test(`ISO-NE ${metric} ${kind} ${JSON.stringify(query)} at resolutions 2 and 5`, async () => {
        const total = await get(regionPath('isone', metric, kind), { ...query, id: 'isone_total' });
        for (const resolution of [2, 5]) {
          const cells = await get(cellPath('isone', metric, kind), { ...query, resolution });
          assert.equal(cells.units, 'MW');
          assert.equal(cells.model, total.model);
          assertSumsTo(cells, total, `isone ${metric} ${kind} res ${resolution}`);
        }
      });
    }
  }

  test('the largest ISO at resolution 5: every MISO cell, demand, the latest run', async () => {
    const total = await get('/v1/region/miso/demand/forecast', { id: 'miso_total' });
    const cells = await get('/v1/cells/miso/demand/forecast', { resolution: 5 });
    assert.ok(cells.columns.length > 5000, `${cells.columns.length} cells`);
    assertSumsTo(cells, total, 'miso demand res 5');
  });
});

describe('what a cell holds', () => {
  test("a cell's wind is the sum of the wind plants inside it", async () => {
    const plants = (await t.get('/v1/plant/ercot/wind/list', { key })).json();
    // The res-4 cell holding the most plants.
    const byCell = new Map<string, string[]>();
    for (const p of plants) {
      const cell = latLngToCell(p.latitude, p.longitude, 4);
      byCell.set(cell, [...(byCell.get(cell) ?? []), String(p.id)]);
    }
    const [cellId, ids] = [...byCell].sort((a, b) => b[1].length - a[1].length)[0];
    assert.ok(ids.length >= 2, `${ids.length} plants in ${cellId}`);
    const query = { forecasted_by: '2026-06-12T00:00:00Z' };
    const cell = await get('/v1/cells/ercot/wind/forecast', { ...query, id: cellId });
    assert.deepEqual(cell.columns, [[cellId]]);
    const sum = new Array(cell.time_utc.length).fill(0);
    for (const id of ids) {
      const p = await get('/v1/plant/ercot/wind/forecast', { ...query, id });
      p.values[0].forEach((v, i) => (sum[i] += v ?? 0));
    }
    cell.values[0].forEach((v, i) =>
      assert.ok(Math.abs((v as number) - sum[i]) <= 0.05 * ids.length + 1e-9, `row ${i}: ${v} vs ${sum[i]}`),
    );
  });

  test('demand follows population: the cell holding Houston outweighs a West Texas ranch cell', async () => {
    const houston = latLngToCell(29.76, -95.37, 4);
    const ranch = latLngToCell(31.0, -101.8, 4); // Reagan/Upton county range land
    const all = await get('/v1/cells/ercot/demand/forecast', {});
    const mean = (id: string) => {
      const col = all.values[all.columns.findIndex((c) => c[0] === id)];
      const v = col.filter((x): x is number => x !== null);
      return v.reduce((s, x) => s + x, 0) / v.length;
    };
    assert.ok(mean(houston) > 3000, `Houston cell ${mean(houston)} MW`);
    assert.ok(mean(ranch) < mean(houston) / 50, `ranch cell ${mean(ranch)} MW`);
  });

  test('one cell by id: the same column as in the all-cells answer; the id sets the resolution', async () => {
    const all = await get('/v1/cells/nyiso/demand/forecast', { resolution: 5 });
    const id = all.columns[17][0];
    const one = await get('/v1/cells/nyiso/demand/forecast', { id });
    assert.deepEqual(one.columns, [[id]]);
    assert.deepEqual(one.values[0], all.values[17]);
    const upper = await get('/v1/cells/nyiso/demand/forecast', { id: id.toUpperCase(), resolution: 5 });
    assert.deepEqual(upper.values, one.values);
  });

  test('a cell id at another resolution, or unknown in the ISO: value_error 422s', async () => {
    const res4 = latLngToCell(42.65, -73.75, 4); // Albany, NYISO
    let res = await t.get('/v1/cells/nyiso/demand/continuous', { key, query: { id: res4, resolution: 3 } });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, cell ${res4} has H3 resolution 4, not the requested resolution 3","input":"${res4}"}]}`,
    );
    const houston = latLngToCell(29.76, -95.37, 4);
    res = await t.get('/v1/cells/nyiso/demand/forecast', { key, query: { id: houston } });
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      `{"detail":[{"type":"value_error","loc":["query","id"],"msg":"Value error, unknown cell id '${houston}' in nyiso at resolution 4; GET /v1/cells/nyiso/demand/list?resolution=4 lists them","input":"${houston}"}]}`,
    );
  });
});
