import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plantsOf } from '../src/catalog/plants.ts';
import { frameJsonText } from '../src/api/writer.ts';
import { blockCache } from '../src/query/blockCache.ts';
import { plantContinuous, type PlantContinuousRequest } from '../src/query/plants.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { CellSharedGroup, PreparedGroup, type AnomalyGroup, type GroupView } from '../src/world/weather/groups.ts';
import { SYNOPTIC_CELL_DEG, synopticCellCentre } from '../src/world/weather/fields.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';

const world = new WeatherWorld();
const HOUR0 = Date.parse('2026-01-02T00:00:00Z') / 3_600_000;
const n = 24 * 10;
const mid = Float64Array.from({ length: n }, (_, i) => HOUR0 + i + 0.5);
/** Each row from the run made 30 hours before it (a forecast's view: truth and error fields). */
const created = Float64Array.from(mid, (t) => Math.floor(t) - 30);
const skill = FORECAST_MODELS.optimized.skill!;

/** The forecast view of temp.synoptic a batch makes for these rows (α·truth + β·error). */
function forecastView(): GroupView {
  const alpha = new Float64Array(n).fill(0.9);
  const beta = new Float64Array(n).fill(Math.sqrt(1 - 0.81));
  return {
    zero: false,
    alpha,
    errors: [{ field: world.errorField('temp.synoptic', skill.errorSeedName), weight: beta, stream: 1 }],
  };
}

const views: [string, () => GroupView][] = [
  ['truth', () => ({ zero: false, alpha: null, errors: [] })],
  ['a forecast', forecastView],
];

for (const [what, view] of views) {
  test(`a point's synoptic anomaly (${what}) is the one at its cell's centre, shared by every point of the cell`, () => {
    const field = world.truthField('temp.synoptic');
    const atCentre = new PreparedGroup(field, mid, created, view(), true);
    const shared = new CellSharedGroup(new PreparedGroup(field, mid, created, view(), true), n);
    const a = { lat: 32.31, lon: -101.42 };
    const b = { lat: 31.62, lon: -100.71 };
    const centre = synopticCellCentre(a.lat, a.lon);
    assert.deepEqual(centre, synopticCellCentre(b.lat, b.lon), 'a and b lie in one cell');
    assert.ok(Math.abs(a.lat - centre.lat) <= SYNOPTIC_CELL_DEG / 2 && Math.abs(a.lon - centre.lon) <= SYNOPTIC_CELL_DEG / 2);

    atCentre.setPoint(centre.lat, centre.lon);
    const expected = new Float64Array(n);
    atCentre.fill(expected);
    const own = new PreparedGroup(field, mid, created, view(), true);
    own.setPoint(a.lat, a.lon);
    const atA = new Float64Array(n);
    own.fill(atA);
    assert.ok(
      atA.some((x, i) => x !== expected[i]),
      'the field itself differs between the point and the centre',
    );

    for (const p of [a, b]) {
      shared.setPoint(p.lat, p.lon);
      const got = new Float64Array(n);
      shared.fill(got);
      assert.deepEqual(got, expected);
      // A range (the cold rows of a wind plant) reads the same values; rows outside it are untouched.
      const part = new Float64Array(n).fill(-7);
      shared.fill(part, 30, 90);
      assert.deepEqual(part.subarray(30, 90), expected.subarray(30, 90));
      assert.ok(part.subarray(0, 30).every((x) => x === -7) && part.subarray(90).every((x) => x === -7));
      assert.equal(shared.valueAt(17), expected[17]);
      assert.equal(shared.trailingAt(40), atCentre.trailingAt(40));
    }
    // A point of another cell reads that cell's series, not the last one.
    const other = { lat: 35.2, lon: -97.4 };
    shared.setPoint(other.lat, other.lon);
    const c = synopticCellCentre(other.lat, other.lon);
    atCentre.setPoint(c.lat, c.lon);
    const expectedOther = new Float64Array(n);
    atCentre.fill(expectedOther);
    const got = new Float64Array(n);
    shared.fill(got);
    assert.deepEqual(got, expectedOther);
    assert.equal(shared.trailingAt(40), atCentre.trailingAt(40));
  });
}

test("a cell's 24-hour trailing mean is worked out once per row for all of the cell's points (solar plants' snow)", () => {
  const field = world.truthField('temp.synoptic');
  const inner = new PreparedGroup(field, mid, created, forecastView(), true);
  let asked = 0;
  const counting: AnomalyGroup = {
    setPoint: (lat, lon) => inner.setPoint(lat, lon),
    series: () => inner.series(),
    fill: (out, from, to) => inner.fill(out, from, to),
    valueAt: (i) => inner.valueAt(i),
    trailingAt: (i) => {
      asked++;
      return inner.trailingAt(i);
    },
  };
  const shared = new CellSharedGroup(counting, n);
  const atCentre = new PreparedGroup(field, mid, created, forecastView(), true);
  const inCell = [
    { lat: 32.31, lon: -101.42 },
    { lat: 31.62, lon: -100.71 },
    { lat: 32.05, lon: -101.2 },
  ];
  const elsewhere = { lat: 35.2, lon: -97.4 };
  const centre = synopticCellCentre(inCell[0].lat, inCell[0].lon);
  atCentre.setPoint(centre.lat, centre.lon);
  // The points of the cell, with a point of another cell between them (the inner group's point moves).
  for (const p of [inCell[0], elsewhere, inCell[1], inCell[2]]) {
    shared.setPoint(p.lat, p.lon);
    const expected = p === elsewhere ? null : atCentre;
    for (let i = 0; i < n; i++) {
      const got = shared.trailingAt(i);
      if (expected) assert.equal(got, expected.trailingAt(i));
    }
  }
  assert.equal(asked, 2 * n, 'each cell asked once per row (before: once per point and row)');
});

test('a plant alone has the values it has among all of its ISO’s plants (the cell series do not depend on the company)', () => {
  const day = (d: string) => ({ epochMs: Date.parse(d + 'T00:00:00Z'), dateOnly: true, raw: d });
  const request = (id?: string): PlantContinuousRequest => ({
    iso: 'ercot',
    metric: 'wind',
    id,
    model: 'optimized',
    latestHour: 10,
    daysAhead: 1,
    start: day('2026-01-02'),
    end: day('2026-01-05'),
    nowMs: Date.parse('2026-06-15T18:00:00Z'),
  });
  /** The body's series by plant id (values are column-major: one array per column). */
  const series = (r: PlantContinuousRequest) => {
    const body = JSON.parse(frameJsonText(plantContinuous(world, r))) as { columns: string[][]; values: number[][] };
    return new Map(body.columns.map((c, i) => [c[0], body.values[i]]));
  };
  // Two plants of one cell, the second alone first: its cell's series is then made for it alone.
  const plants = plantsOf('ercot', 'wind');
  const key = (p: (typeof plants)[number]) => JSON.stringify(synopticCellCentre(p.latitude, p.longitude));
  const pair = plants.filter((p) => plants.some((q) => q !== p && key(q) === key(p))).slice(0, 2);
  assert.equal(pair.length, 2);
  blockCache.clear();
  const id = String(pair[1].id);
  const alone = series(request(id)).get(id);
  blockCache.clear();
  const all = series(request());
  blockCache.clear();
  assert.ok(alone && alone.length === 4 * 24);
  assert.deepEqual(all.get(id), alone);
  // Its cell-mate differs from it (each plant keeps its meso, local weather and physics).
  assert.notDeepEqual(all.get(String(pair[0].id)), alone);
});
