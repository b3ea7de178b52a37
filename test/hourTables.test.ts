/**
 * The compute pool's precomputed tables of the weather fields (api/compute/hourTables.ts): a
 * world that reads them computes every value bit for bit as one that computes them, inside the
 * tables' span, across its edge and outside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plantsOf } from '../src/catalog/plants.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { PlantSeriesComputer, weatherNeedsFor } from '../src/world/plantOutput.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { sharedTimeBasis } from '../src/world/weather/groups.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';
import { precomputedHours, TABLE_AHEAD_DAYS, TABLE_PAST_DAYS } from '../src/api/compute/hourTables.ts';

const NOW_MS = Date.parse('2026-06-15T12:00:00Z');
const NOW_HOUR = NOW_MS / 3_600_000;
const FIRST_TABLED = NOW_HOUR - TABLE_PAST_DAYS * 24;
const tables = precomputedHours(new WeatherWorld().seed, NOW_MS);
const tabled = new WeatherWorld();
tabled.useHourTables(tables);
const computed = new WeatherWorld();

/** Rows of `days` days of day-ahead runs from `startHour` (each row from the run 30 hours before it), as mid-hours and creation hours. */
function rows(startHour: number, days: number): { valid: number[]; created: number[] } {
  const valid = Array.from({ length: days * 24 }, (_, i) => startHour + i);
  return { valid, created: valid.map((h) => h - 30 - (h % 24)) };
}

const windows: [string, number][] = [
  ['inside the span', NOW_HOUR - 40 * 24],
  ['across its first hour', FIRST_TABLED - 36],
  ['across its last hour', NOW_HOUR + TABLE_AHEAD_DAYS * 24 - 36],
  ['before it', FIRST_TABLED - 30 * 24],
];

test('the tables span the days before now and the longest horizon after it, in shared memory', () => {
  assert.equal(tables.firstHour, FIRST_TABLED);
  assert.equal(tables.hours, (TABLE_PAST_DAYS + TABLE_AHEAD_DAYS) * 24);
  for (const buffer of [...Object.values(tables.truth), ...Object.values(tables.errors)]) assert.ok(buffer instanceof SharedArrayBuffer);
  assert.deepEqual(
    Object.keys(tables.errors)
      .map((k) => k.split(':')[0])
      .filter((s, i, all) => all.indexOf(s) === i),
    ['optimized', 'iso'],
  );
});

for (const [where, start] of windows) {
  test(`time bases read from the tables equal those computed (${where})`, () => {
    const { valid, created } = rows(start, 3);
    const mid = Float64Array.from(valid, (h) => h + 0.5);
    // A skill's rows: the same valid hours from two runs, so that instants repeat.
    const twice = Float64Array.from([...mid, ...mid]);
    const scratch = new Float64Array(mid.length * 2 * tabled.truthField('temp.meso').k);
    assert.equal(tabled.truthField('temp.meso').fromTable(mid, scratch), where === 'inside the span', 'read from the tables');
    for (const group of ['temp.synoptic', 'windU.meso', 'cloud.meso'] as const) {
      for (const m of [mid, twice]) {
        const a = new Float64Array(m.length * 2 * tabled.truthField(group).k);
        const b = new Float64Array(a.length);
        sharedTimeBasis(tabled.truthField(group), m, a);
        sharedTimeBasis(computed.truthField(group), m, b);
        assert.deepEqual(a, b, group);
      }
      const errorA = tabled.errorField(group, 'optimized');
      const errorB = computed.errorField(group, 'optimized');
      const a = new Float64Array(mid.length * 2 * errorA.k);
      const b = new Float64Array(a.length);
      errorA.errorBasis(mid, Float64Array.from(created), a, 18, 36, 1);
      errorB.errorBasis(mid, Float64Array.from(created), b, 18, 36, 1);
      assert.deepEqual(a, b, `${group} error`);
    }
  });
}

test('plant output computed with the tables is bit for bit the output without them', () => {
  const plants = plantsOf('spp', 'wind').slice(0, 5);
  for (const [where, start] of windows) {
    const r = rows(start, 2);
    const series = (world: WeatherWorld) =>
      plants.map((plant) => {
        const batch = new WeatherBatch(world, r, FORECAST_MODELS.iso.skill, weatherNeedsFor('wind'));
        const out = new Float64Array(r.valid.length);
        new PlantSeriesComputer(batch, 'wind', r.valid).compute(plant, -Infinity, out);
        return out;
      });
    assert.deepEqual(series(tabled), series(computed), where);
  }
});

test('tables of another world are refused', () => {
  assert.throws(() => new WeatherWorld(7).useHourTables(tables), /hour tables of world 20260101 offered to world 7/);
});
