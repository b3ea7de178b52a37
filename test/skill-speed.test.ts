/**
 * What makes a cold skill request cheaper must not change a value: the truth's time basis
 * computed once per instant, and the climatology (`normal`) computed once per valid hour for
 * all the leads, give bit for bit what the plain computations give.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { blockCache, uncached } from '../src/query/blockCache.ts';
import type { Frame } from '../src/query/frame.ts';
import { QueryError } from '../src/query/errors.ts';
import type { ContinuousParams } from '../src/query/kinds.ts';
import { regionQueries } from '../src/query/regions.ts';
import { SpectralField } from '../src/world/field.ts';
import { GROUP_SPECS } from '../src/world/weather/fields.ts';
import { sharedTimeBasis } from '../src/world/weather/groups.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';
import { gauge, openPooledAndLocal, type PooledAndLocal, type TestServer } from './helpers.ts';

const world = new WeatherWorld();
const day = (d: string) => ({ epochMs: Date.parse(d + 'T00:00:00Z'), dateOnly: true, raw: d });
const NOW_MS = Date.parse('2026-06-15T18:00:00Z');

/** A frame's one column, as its values. */
function valuesOf(frame: Frame): Float64Array {
  const out = new Float64Array(frame.hours.length);
  frame.columns[0].fill(out);
  return out;
}

/** The request kinds the lead tests below ask for (a group's queries: regionQueries). */
interface LeadQueries<R> {
  continuous(world: WeatherWorld, r: R & ContinuousParams): Frame;
  continuousLeads?(world: WeatherWorld, r: R & Omit<ContinuousParams, 'daysAhead'>, leads: readonly number[]): (Frame | QueryError)[];
}

/**
 * Asserts that each lead of `leads` computed together (continuousLeads, nothing cached) equals the
 * lead computed alone — hours and values; returns the leads' values.
 */
function leadsTogetherEqualAlone<R>(
  queries: LeadQueries<R>,
  r: R & Omit<ContinuousParams, 'daysAhead'>,
  leads: readonly number[],
  what: string,
) {
  blockCache.clear();
  const together = uncached(() => queries.continuousLeads!(world, r, leads));
  return leads.map((daysAhead, i) => {
    const frame = together[i];
    assert.ok(!(frame instanceof QueryError));
    const alone = uncached(() => queries.continuous(world, { ...r, daysAhead }));
    assert.deepEqual(frame.hours, alone.hours);
    const values = valuesOf(frame);
    assert.deepEqual(values, valuesOf(alone), `${what} days_ahead=${daysAhead}`);
    return values;
  });
}

test('the truth time basis shared between rows of one instant equals the basis computed row by row', () => {
  const field = new SpectralField({ name: 'temp.synoptic', ...GROUP_SPECS['temp.synoptic'] }, world.seed);
  const width = 2 * field.k;
  // Mid-hours of several runs (repeats, out of order), fractional instants, and no row at all.
  const runs = Float64Array.from({ length: 500 }, (_, i) => 490_000.5 + ((i * 37) % 120));
  const fractional = Float64Array.from({ length: 60 }, (_, i) => 490_000.25 + (i % 7) / 3);
  for (const mid of [runs, fractional, new Float64Array(0)]) {
    for (const trailing of [0, 24]) {
      const plain = new Float64Array(mid.length * width);
      field.timeBasis(mid, plain, trailing);
      const shared = new Float64Array(mid.length * width).fill(Number.NaN);
      sharedTimeBasis(field, mid, shared, trailing);
      assert.deepEqual(shared, plain);
    }
  }
});

test('normal at several leads together equals each lead computed alone, horizon included', () => {
  // days_ahead 15 lies partly beyond normal's 360-hour horizon: those hours are null.
  const leads = [1, 7, 14, 15];
  for (const metric of ['demand', 'wind'] as const) {
    const r = {
      iso: 'pjm' as const,
      metric,
      model: 'normal' as const,
      latestHour: 10,
      start: day('2026-03-01'),
      end: day('2026-03-16'),
      nowMs: NOW_MS,
    };
    const values = leadsTogetherEqualAlone(regionQueries, r, leads, metric);
    const nulls = values.reduce((sum, v) => sum + v.filter(Number.isNaN).length, 0);
    assert.ok(nulls > 0, `${metric}: some hours lie beyond the horizon of a run`);
  }
});

test("a model's leads computed together, in pieces that reuse each other's weather memory, equal each lead alone", () => {
  // 8 leads × 40 days: more rows than one piece of the union (kinds.ts UNION_CHUNK_ROWS), so the
  // second piece's arenas take the memory the first one's left (dotKernel.ts withPooledArenas).
  // Wind too: its rows' local noise is walked once per instant when the leads repeat instants.
  const leads = [1, 2, 3, 4, 5, 6, 7, 14];
  for (const [metric, end] of [
    ['demand', '2026-04-09'],
    ['wind', '2026-03-04'],
  ] as const) {
    const r = {
      iso: 'pjm' as const,
      metric,
      model: 'optimized' as const,
      latestHour: 10,
      start: day('2026-03-01'),
      end: day(end),
      nowMs: NOW_MS,
    };
    leadsTogetherEqualAlone(regionQueries, r, leads, metric);
  }
});

let servers: PooledAndLocal | undefined;
let pooled: TestServer;
let local: TestServer;
let key: string;
before(async () => ({ pooled, local, key } = servers = await openPooledAndLocal('skill-speed')));
after(() => servers?.close());

test("with two workers the idle one computes two models' series; a repeat finds them kept and asks nothing", async () => {
  const query = { start: '2026-03-01', end: '2026-03-10' };
  const path = '/v1/region/pjm/demand/skill';
  const helps = () => gauge(pooled, 'gridcast_compute_helps_total');
  const before = await helps();
  const cold = await pooled.get(path, { key, query });
  assert.equal(cold.status, 200, cold.text);
  assert.equal(await helps(), before + 1, 'the first model and the baseline were handed to the other worker');
  const one = await local.get(path, { key, query });
  assert.equal(cold.text, one.text, 'the same records as one runner computing everything');
  const warm = await pooled.get(path, { key, query });
  assert.equal(warm.text, cold.text);
  assert.equal(await helps(), before + 1, 'every series was kept: no help asked');
});

test('with two workers, a window the actuals refuse is refused as with one (the help asked before them is thrown away)', async () => {
  const path = '/v1/region/pjm/wind/skill';
  // Days after the tests' now (2026-06-15): runs forecast them, no actual is published.
  const helps = () => gauge(pooled, 'gridcast_compute_helps_total');
  const before = await helps();
  const future = { start: '2026-06-17', end: '2026-06-19' };
  const [two, one] = await Promise.all([pooled.get(path, { key, query: future }), local.get(path, { key, query: future })]);
  assert.equal(two.status, 422, two.text);
  assert.equal(two.text, one.text);
  assert.equal(await helps(), before + 1, 'the help was asked before the actuals refused the window');
  const reversed = { start: '2026-03-10', end: '2026-03-01' };
  const [a, b] = await Promise.all([pooled.get(path, { key, query: reversed }), local.get(path, { key, query: reversed })]);
  assert.equal(a.status, 422, a.text);
  assert.equal(a.text, b.text);
});
