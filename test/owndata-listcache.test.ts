/**
 * The series and run lists of stored sources are kept between requests (src/sources/listCache.ts):
 * a change — a new run ingested, a run replaced, the source deleted and ingested again — is seen
 * by the next request, also when another process made it (on PostgreSQL: a second store on the
 * same database, which the server's caches are not told about).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ingestFile, type IngestOptions } from '../src/ingest/ingest.ts';
import { cachedListings } from '../src/sources/listCache.ts';
import type { SourceReader } from '../src/sources/reader.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { startTestApp, type TestApp } from './helpers.ts';

const HOUR_MS = 3_600_000;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const FORECAST = '/v1/region/ercot/demand/forecast';

/** One run of ercot_total's demand issued at `issued`, 24 hours from then, each `base` + hour. */
function runCsv(issued: string, base: number): string {
  const lines = ['time_utc,id,value,created_at'];
  for (let h = 0; h < 24; h++) lines.push(`${utc(Date.parse(issued) + h * HOUR_MS)},ercot_total,${base + h},${issued}`);
  return lines.join('\n') + '\n';
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

const options = (o: Partial<IngestOptions> = {}): IngestOptions => ({
  source: 'vendor',
  group: 'region',
  iso: 'ercot',
  metric: 'demand',
  replace: false,
  origin: 'run.csv',
  ...o,
});

describe('own data: cached run lists see every change', () => {
  let t: TestApp;
  let key: string;
  /** The store changes are made through: another process's on PostgreSQL, the server's own on PGlite (one opener only). */
  let other: Store;

  /** The first value served for `model=vendor` at `forecasted_by`, or the status and body when it is not 200. */
  const first = async (forecastedBy: string) => {
    const res = await t.get(FORECAST, { key, query: { model: 'vendor', id: 'ercot_total', forecasted_by: forecastedBy } });
    if (res.status !== 200) return `${res.status} ${res.text}`;
    const body = JSON.parse(res.text) as { created_at: string; values: number[][] };
    return `${body.created_at} ${body.values[0][0]}`;
  };

  before(async () => {
    t = await startTestApp();
    key = await t.key({ ercot: 'enterprise' });
    other = t.databaseUrl ? await openStore({ databaseUrl: t.databaseUrl, dataDir: t.dataDir, command: 'test' }) : t.store;
    await ingestFile(other.sources, once(runCsv('2026-06-01T00:00:00Z', 1000)), options());
  });
  after(async () => {
    if (other !== t.store) await other.close();
    await t?.close();
  });

  test('a new run, a replaced run, a deleted and re-ingested source: each served at the next request', async () => {
    const late = '2026-06-01T12:00:00Z';
    assert.equal(await first(late), '2026-06-01T00:00:00Z 1000');
    assert.equal(await first(late), '2026-06-01T00:00:00Z 1000', 'warm: from the cached lists');

    await ingestFile(other.sources, once(runCsv('2026-06-01T06:00:00Z', 2000)), options());
    assert.equal(await first(late), '2026-06-01T06:00:00Z 2000', 'the new run is the latest');

    await ingestFile(other.sources, once(runCsv('2026-06-01T06:00:00Z', 3000)), options({ replace: true }));
    assert.equal(await first(late), '2026-06-01T06:00:00Z 3000', 'the replaced run');

    assert.equal(await other.sources.delete('vendor'), true);
    await ingestFile(other.sources, once(runCsv('2026-06-01T00:00:00Z', 4000)), options());
    assert.equal(await first(late), '2026-06-01T00:00:00Z 4000', 'the source as ingested again, without the deleted run');
  });
});

test('cached listings: the store is asked again only when its change stamp moves; now cuts the cached runs', async () => {
  let stamp = 'a';
  const calls: string[] = [];
  const row = (issued: number) => ({ seriesId: 7, issued, first: issued, length: 24, revisions: 0, quantiles: [] });
  const store = {
    changeStamp: async () => stamp,
    series: async () => (calls.push('series'), [{ id: 7, target: 'ercot_total' }]),
    runs: async () => (calls.push('runs'), [row(10), row(16)]),
  } as unknown as SourceReader & { changeStamp(): Promise<string> };
  const reader = cachedListings(store);
  const key = { group: 'region', iso: 'ercot', metric: 'demand' };
  assert.deepEqual(await reader.series('vendor', key), [{ id: 7, target: 'ercot_total' }]);
  assert.deepEqual(await reader.series('vendor', key), [{ id: 7, target: 'ercot_total' }]);
  assert.deepEqual(await reader.runs([7], 20 * HOUR_MS), [row(10), row(16)]);
  assert.deepEqual(await reader.runs([7], 12 * HOUR_MS), [row(10)], 'runs issued after now are left out');
  assert.deepEqual(calls, ['series', 'runs']);
  stamp = 'b';
  await reader.series('vendor', key);
  await reader.runs([7], 20 * HOUR_MS);
  assert.deepEqual(calls, ['series', 'runs', 'series', 'runs']);
});
