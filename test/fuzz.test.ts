/**
 * The fuzzer (test/fuzzer.ts) inside `npm test`: a bounded run of requests generated from the
 * OpenAPI documents against a real app on the test store. `npm run fuzz` runs a long one.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFailures, fuzz } from './fuzzer.ts';
import { openTestStore, type TestStore } from './helpers.ts';

let ts: TestStore;
before(async () => {
  ts = await openTestStore();
});
after(async () => {
  await ts?.close();
});

test('generated requests for every operation: no 5xx, every error in the documented shapes, no key in the log', async () => {
  const report = await fuzz({
    store: ts.store,
    requests: Number(process.env.GRIDCAST_FUZZ_REQUESTS ?? 1500),
    seed: Number(process.env.GRIDCAST_FUZZ_SEED ?? 20261124),
  });
  assert.ok(report.requests >= 1000, `${report.requests} requests`);
  assert.equal(report.failures.length, 0, `seed ${report.seed}:\n${describeFailures(report)}`);
  assert.equal(report.keyInLog, null, 'a key reached the log');
  const statuses = Object.keys(report.byStatus).map(Number);
  for (const expected of [200, 401, 404, 405, 422])
    assert.ok(statuses.includes(expected), `some ${expected}s among ${JSON.stringify(report.byStatus)}`);
});
