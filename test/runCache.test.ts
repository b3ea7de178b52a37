import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunCache, runCacheOf, runKey } from '../src/sources/runCache.ts';

test('run cache: bounded by bytes, the least recently used run leaves first', () => {
  const run = (n: number) => new Float64Array(n);
  const cache = new RunCache(3 * 8 * 100);
  cache.set(runKey(1, 10, 0), run(100));
  cache.set(runKey(1, 16, 0), run(100));
  cache.set(runKey(2, 10, 0), run(100));
  assert.ok(cache.get(runKey(1, 10, 0)), 'read: now the most recently used');
  cache.set(runKey(2, 16, 0), run(100));
  assert.equal(cache.size, 3);
  assert.equal(cache.get(runKey(1, 16, 0)), undefined, 'the least recently used left');
  assert.ok(cache.get(runKey(1, 10, 0)));
  assert.equal(cache.get(runKey(1, 10, 1)), undefined, 'another revision of a run is another entry');
  cache.set(runKey(3, 10, 0), run(1000));
  assert.equal(cache.get(runKey(3, 10, 0)), undefined, 'a run larger than the whole cache is not kept');
  assert.equal(cache.size, 3);
});

test('run cache: one per store reader (series ids are a store’s own)', () => {
  const a = {};
  const b = {};
  assert.equal(runCacheOf(a), runCacheOf(a));
  assert.notEqual(runCacheOf(a), runCacheOf(b));
});
