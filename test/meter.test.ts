/**
 * Counting requests without a database round trip (store/meter.ts): two meters on one store
 * stand for two API processes. Runs on the embedded store, and on PostgreSQL with
 * GRIDCAST_TEST_BACKEND=postgres.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageMeter } from '../src/store/meter.ts';
import type { UsageStore } from '../src/store/usage.ts';
import { openTestStore, type TestStore } from './helpers.ts';

let ts: TestStore;
let keyId: string;
before(async () => {
  ts = await openTestStore();
  keyId = (await ts.store.keys.create('metered', [{ iso: 'all', level: 'core' }])).id;
});
after(async () => {
  await ts?.close();
});

/** A clock in the middle of a minute, so that no window ends during a test. */
const clock = () => Math.floor(Date.now() / 60_000) * 60_000 + 20_000;

test('two processes share a budget: each sees the other after a flush of each; the overshoot is one interval of each', async () => {
  const a = new UsageMeter(ts.store.usage, { now: clock });
  const b = new UsageMeter(ts.store.usage, { now: clock });
  const limit = 10;
  const counts = (m: UsageMeter, n: number) => Array.from({ length: n }, () => m.hit(keyId, [60])[0].count);
  // Between flushes each process counts only what it has seen: both admit 6 (12 in all).
  assert.deepEqual(counts(a, 6), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(counts(b, 6), [1, 2, 3, 4, 5, 6]);
  // The overshoot is bounded by what each admitted since its last flush: 12 - 10 ≤ 6 + 6.
  await a.flush();
  await b.flush();
  await a.flush();
  // Now each knows the shared total of 12: the next request on either is over the budget.
  assert.equal(a.hit(keyId, [60])[0].count, 13);
  assert.equal(b.hit(keyId, [60])[0].count, 13);
  assert.ok(13 > limit);
  await a.flush();
  await b.flush();
  const rows = await ts.store.sql.query<{ count: number }>('SELECT count FROM rate_counters WHERE key_id = $1 AND window_secs = 60', [
    keyId,
  ]);
  assert.deepEqual(
    rows.map((r) => r.count),
    [14],
    'every request counted once in the database',
  );
});

test('usage is added in batches, and a flush that fails keeps its counts for the next one', async () => {
  let failNext = true;
  const flaky: UsageStore = Object.create(ts.store.usage);
  flaky.addUsage = async (deltas) => {
    if (failNext) {
      failNext = false;
      throw new Error('database away');
    }
    return ts.store.usage.addUsage(deltas);
  };
  const meter = new UsageMeter(flaky, { now: clock });
  meter.record(keyId, '/gas/list', 18);
  meter.record(keyId, '/gas/list', 18);
  await assert.rejects(meter.flush(), /database away/);
  meter.record(keyId, '/gas/list', 0);
  await meter.stop();
  const rows = await ts.store.usage.query({ keyId, endpoint: '/gas/list' });
  assert.deepEqual(
    rows.map((r) => [r.requests, r.values_served]),
    [[3, 36]],
  );
});
