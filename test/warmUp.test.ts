import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobRunner, warmRunner } from '../src/api/compute/runner.ts';
import { DEFAULT_WORLD_SEED } from '../src/world/weather/world.ts';

test('every warm-up request of a compute runner is served (a failing one would end the warm-up there)', async () => {
  const events: string[] = [];
  const runner = new JobRunner(DEFAULT_WORLD_SEED, (event) => events.push(event.type));
  // The bench's now: the warm-up's fixed days (an extreme event's) must lie inside the forecasts' history.
  await assert.doesNotReject(warmRunner(runner, Date.parse('2026-11-20T18:00:00Z')));
  assert.deepEqual(events, [], 'warm-up bodies end in the runner, not at the HTTP thread');
});
