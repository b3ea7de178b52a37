/**
 * Cell geometry is computed off the main thread: while a fresh process computes the largest
 * set (MISO at resolution 5, the first request for it), other requests are still answered.
 * (Its own file, so that no other test has computed the set in this process before.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let key: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'advanced' });
});

after(async () => {
  await t?.close();
});

test('other requests are served while the first MISO resolution-5 cell request waits for its geometry', async () => {
  // Warm what the small request needs, so that it measures only the server's availability.
  assert.equal((await t.get('/v1/region/isone/demand/list', { key })).status, 200);
  const order: string[] = [];
  const cells = t.get('/v1/cells/miso/demand/list', { key, query: { resolution: 5 } }).then((res) => {
    order.push('cells');
    return res;
  });
  // Ask while the set is being computed (it takes over a second in a fresh process).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const small = t.get('/v1/region/isone/demand/list', { key }).then((res) => {
    order.push('small');
    return res;
  });
  const [cellsRes, smallRes] = await Promise.all([cells, small]);
  assert.equal(smallRes.status, 200);
  assert.equal(cellsRes.status, 200);
  assert.ok(cellsRes.json().length > 5000);
  assert.deepEqual(order, ['small', 'cells']);
});
