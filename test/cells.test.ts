import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cellToBoundary, getResolution, isValidCell, latLngToCell } from 'h3-js';
import {
  cellAreaKm2,
  cellsOf,
  geometryAreaKm2,
  isoFootprint,
  type Cell,
  type MultiPolygonCoords,
  type PolygonCoords,
} from '../src/catalog/cells.ts';
import { ISOS, type IsoCode } from '../src/catalog/isos.ts';

function polygonsOf(c: Cell): MultiPolygonCoords {
  return c.geometry.type === 'Polygon' ? [c.geometry.coordinates as PolygonCoords] : (c.geometry.coordinates as MultiPolygonCoords);
}

/** Even-odd point-in-polygon over all rings of all polygons. */
function contains(mp: MultiPolygonCoords, lon: number, lat: number): boolean {
  let inside = false;
  for (const poly of mp) {
    for (const ring of poly) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i];
        const [xj, yj] = ring[j];
        if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
  }
  return inside;
}

const CASES: { iso: IsoCode; res: number; point: [number, number] }[] = [
  { iso: 'ercot', res: 4, point: [32.78, -96.8] }, // Dallas
  { iso: 'pjm', res: 3, point: [39.96, -83.0] }, // Columbus, Ohio
];

for (const { iso, res, point } of CASES) {
  const cells = cellsOf(iso, res);

  test(`${iso} res ${res}: valid, unique, sorted H3 ids with cell metadata`, () => {
    assert.ok(cells.length > 10);
    for (const c of cells) {
      assert.ok(isValidCell(c.id), c.id);
      assert.equal(getResolution(c.id), res);
      assert.equal(c.resolution, res);
      assert.equal(c.iso, iso);
      assert.equal(c.timezone, ISOS[iso].timezone);
      assert.ok(Number.isFinite(c.center.lat) && Number.isFinite(c.center.lon));
    }
    const ids = cells.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids, [...ids].sort());
  });

  test(`${iso} res ${res}: clipped geometries are non-empty and inside the cell bbox`, () => {
    for (const c of cells) {
      assert.ok(c.geometry.type === 'Polygon' || c.geometry.type === 'MultiPolygon');
      const polys = polygonsOf(c);
      assert.ok(polys.length > 0 && polys.every((p) => p.length > 0 && p[0].length >= 3), c.id);
      assert.ok(geometryAreaKm2(c.geometry) > 0, c.id);
      // the cell's bbox from its own boundary
      const fullRing = cellsRing(c.id);
      const w = Math.min(...fullRing.map((p) => p[0])) - 1e-6;
      const e = Math.max(...fullRing.map((p) => p[0])) + 1e-6;
      const s = Math.min(...fullRing.map((p) => p[1])) - 1e-6;
      const n = Math.max(...fullRing.map((p) => p[1])) + 1e-6;
      for (const poly of polys)
        for (const ring of poly)
          for (const [x, y] of ring) {
            assert.ok(x >= w && x <= e && y >= s && y <= n, `${c.id}: vertex ${x},${y} outside bbox`);
          }
    }
  });

  test(`${iso} res ${res}: inside fractions, interior and border cells`, () => {
    for (const c of cells) {
      assert.ok(c.insideFraction > 0 && c.insideFraction <= 1, `${c.id}: ${c.insideFraction}`);
      const expected = geometryAreaKm2(c.geometry) / cellAreaKm2(c.id);
      // insideFraction comes from the exact clip; the geometry served is rounded to 6 decimals (~0.1 m).
      assert.ok(Math.abs(Math.min(1, expected) - c.insideFraction) < 1e-4, `${c.id}: ${expected} vs ${c.insideFraction}`);
    }
    const border = cells.filter((c) => c.insideFraction < 0.999);
    const interior = cells.filter((c) => c.insideFraction >= 0.999);
    assert.ok(border.length > 0, 'border cells exist');
    assert.ok(interior.length > 0, 'interior cells exist');
    // the cell containing a point well inside the ISO is whole
    const home = cells.find((c) => c.id === latLngToCell(point[0], point[1], res));
    assert.ok(home);
    assert.ok(Math.abs(home.insideFraction - 1) < 1e-6, `${home.id}: ${home.insideFraction}`);
    // an interior cell's clipped geometry is the whole cell
    for (const c of interior) assert.ok(Math.abs(geometryAreaKm2(c.geometry) - cellAreaKm2(c.id)) / cellAreaKm2(c.id) < 1e-3);
  });

  test(`${iso} res ${res}: clipped areas sum to the footprint area (within 1 %)`, () => {
    const total = cells.reduce((s, c) => s + geometryAreaKm2(c.geometry), 0);
    const footprint = geometryAreaKm2({ type: 'MultiPolygon', coordinates: isoFootprint(iso) });
    assert.ok(footprint > 10_000);
    assert.ok(Math.abs(total - footprint) / footprint < 0.01, `${total} vs ${footprint}`);
  });

  test(`${iso} res ${res}: a point well inside falls in exactly one clipped cell, latLngToCell's`, () => {
    const [lat, lon] = point;
    const hits = cells.filter((c) => contains(polygonsOf(c), lon, lat));
    assert.equal(hits.length, 1);
    assert.equal(hits[0].id, latLngToCell(lat, lon, res));
  });
}

test('cellsOf is memoised and deterministic across builds', async () => {
  assert.equal(cellsOf('ercot', 4), cellsOf('ercot', 4));
  // a fresh module instance rebuilds from scratch (the module's file has this file's extension:
  // .ts under tsx, .js in npm test's compiled tree, where only literal import paths are rewritten)
  const ext = path.extname(fileURLToPath(import.meta.url));
  const fresh = (await import(`../src/catalog/cells${ext}?fresh=${Date.now()}`)) as typeof import('../src/catalog/cells.ts');
  const again = fresh.cellsOf('ercot', 4);
  assert.notEqual(again, cellsOf('ercot', 4));
  assert.equal(JSON.stringify(again), JSON.stringify(cellsOf('ercot', 4)));
});

test('cellsOf rejects resolutions outside 2..5', () => {
  assert.throws(() => cellsOf('ercot', 1), RangeError);
  assert.throws(() => cellsOf('ercot', 6), RangeError);
  assert.throws(() => cellsOf('ercot', 4.5), RangeError);
});

test('isoFootprint is a memoised MultiPolygon in [lon, lat] order', () => {
  const fp = isoFootprint('ercot');
  assert.equal(fp, isoFootprint('ercot'));
  assert.ok(fp.length >= 1);
  const [lon, lat] = fp[0][0][0];
  assert.ok(lon < -90 && lon > -107 && lat > 25 && lat < 37, `${lon},${lat}`);
  assert.ok(contains(fp, -96.8, 32.78), 'Dallas is inside ERCOT');
  assert.ok(!contains(fp, -90.07, 29.95), 'New Orleans is outside ERCOT');
});

function cellsRing(id: string): [number, number][] {
  return cellToBoundary(id, true) as [number, number][];
}
