import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockCache, blockCache } from '../src/query/blockCache.ts';
import { plantContinuous, type PlantContinuousRequest } from '../src/query/plants.ts';
import { frameJsonText } from '../src/api/writer.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';

const world = new WeatherWorld();
const day = (d: string) => ({ epochMs: Date.parse(d + 'T00:00:00Z'), dateOnly: true, raw: d });
const request = (start: string, end: string, id?: string): PlantContinuousRequest => ({
  iso: 'spp',
  metric: 'wind',
  id,
  model: 'optimized',
  latestHour: 10,
  daysAhead: 1,
  start: day(start),
  end: day(end),
  nowMs: Date.parse('2026-06-15T18:00:00Z'),
});
const body = (r: PlantContinuousRequest) => frameJsonText(plantContinuous(world, r));

test('a window served from cached day blocks of a larger request equals a cold computation', () => {
  blockCache.clear();
  const cold = body(request('2026-03-05', '2026-03-09'));
  blockCache.clear();
  body(request('2026-03-01', '2026-03-20')); // caches every day of the larger window
  const sizeAfterLarge = blockCache.size;
  assert.ok(sizeAfterLarge > 0, 'the larger request filled the cache');
  const warm = body(request('2026-03-05', '2026-03-09'));
  assert.equal(blockCache.size, sizeAfterLarge, 'the sub-window computed nothing new');
  assert.equal(warm, cold);
});

test('blocks computed by two windows of one stretch are both kept: the union window computes nothing new', () => {
  blockCache.clear();
  const cold = body(request('2026-03-01', '2026-03-20'));
  blockCache.clear();
  body(request('2026-03-01', '2026-03-10'));
  body(request('2026-03-11', '2026-03-20')); // merged into the same segments as the first window's blocks
  const size = blockCache.size;
  assert.equal(body(request('2026-03-01', '2026-03-20')), cold);
  assert.equal(blockCache.size, size, 'the union window computed nothing new');
});

test('a series computed whole keeps the blocks of earlier windows it does not cover, through several merges', () => {
  blockCache.clear();
  const cold = body(request('2026-03-01', '2026-03-20'));
  blockCache.clear();
  // Each window is computed whole over a segment that holds blocks outside it (kept beside the
  // new series, which the segment does not copy), the third over one that already holds such blocks.
  body(request('2026-03-01', '2026-03-06'));
  body(request('2026-03-12', '2026-03-20'));
  body(request('2026-03-05', '2026-03-13'));
  const size = blockCache.size;
  assert.equal(body(request('2026-03-01', '2026-03-20')), cold);
  assert.equal(blockCache.size, size, 'the union window computed nothing new');
});

test('beyond its budget the cache drops the oldest block not used since it was stored', () => {
  const cache = new BlockCache(3 * (8 * 24 + 120));
  for (const k of ['a', 'b', 'c']) cache.set(k, new Float64Array(24));
  assert.ok(cache.get('a')); // a is used, so it gets a second chance
  cache.set('d', new Float64Array(24));
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b'), undefined, 'b was the oldest unused block');
  assert.ok(cache.get('a') && cache.get('c') && cache.get('d'));
  const off = new BlockCache(0);
  off.set('x', new Float64Array(24));
  assert.equal(off.size, 0);
  assert.equal(off.enabled, false);
});

test('actuals (truth rows) are cached in day blocks, not one block per hour', async () => {
  const { regionQueries } = await import('../src/query/regions.ts');
  const { plantsOf } = await import('../src/catalog/plants.ts');
  blockCache.clear();
  const frame = regionQueries.actual(world, {
    iso: 'isone',
    metric: 'wind',
    id: 'isone_total',
    start: day('2026-03-02'),
    end: day('2026-03-03'),
    nowMs: Date.parse('2026-06-15T18:00:00Z'),
  });
  frame.columns[0].fill(new Float64Array(frame.hours.length)); // the total sums every plant
  const plants = plantsOf('isone', 'wind').length;
  // 48 hours are at most three blocks per plant (a block holds at most 24 rows).
  assert.ok(blockCache.size > 0 && blockCache.size <= 3 * plants, `${blockCache.size} blocks for ${plants} plants`);
});

test('regional demand and poptemp: a sub-window from cached day blocks equals a cold computation (continuous: computes nothing new)', async () => {
  const { regionQueries } = await import('../src/query/regions.ts');
  for (const metric of ['demand', 'poptemp'] as const) {
    for (const kind of ['continuous', 'actual'] as const) {
      const frame = (start: string, end: string) =>
        kind === 'continuous'
          ? regionQueries.continuous(world, {
              iso: 'pjm',
              metric,
              id: 'pjm_total',
              model: 'iso',
              latestHour: 10,
              daysAhead: 3,
              start: day(start),
              end: day(end),
              nowMs: Date.parse('2026-06-15T18:00:00Z'),
            })
          : regionQueries.actual(world, {
              iso: 'pjm',
              metric,
              id: 'pjm_total',
              start: day(start),
              end: day(end),
              nowMs: Date.parse('2026-06-15T18:00:00Z'),
            });
      const json = (start: string, end: string) => frameJsonText(frame(start, end));
      blockCache.clear();
      const cold = json('2026-03-05', '2026-03-09');
      blockCache.clear();
      json('2026-03-01', '2026-03-20');
      const sizeAfterLarge = blockCache.size;
      assert.ok(sizeAfterLarge >= 20, `${metric} ${kind}: ${sizeAfterLarge} blocks`);
      assert.equal(json('2026-03-05', '2026-03-09'), cold, `${metric} ${kind}`);
      // Truth rows carry no run, so their blocks are 25-hour runs from the window's start (dayBlocks):
      // another window's actuals are equal but not found in the cache.
      if (kind === 'continuous') assert.equal(blockCache.size, sizeAfterLarge, `${metric}: the sub-window computed nothing new`);
    }
  }
});
