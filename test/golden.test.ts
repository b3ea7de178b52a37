/**
 * Golden digests: the SHA-256 of the exact bytes of a few responses, one or more per group
 * (regions with every request kind, ensemble and summary; plants; cells; counties; gas; LMP
 * day-ahead and real-time) and the catalog lists whose ids clients store (every ISO's plants,
 * regions and price nodes), at a frozen clock.
 *
 * Any change to a served value or id changes a digest, so it has to be a deliberate, reviewed
 * change: rerun with GRIDCAST_GOLDEN_UPDATE=1 to rewrite test/fixtures/golden-digests.json and
 * commit the new digests together with the change that explains them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ISO_CODES } from '../src/catalog/isos.ts';
import { ROOT, startTestApp, type TestApp } from './helpers.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'golden-digests.json');
const UPDATE = process.env.GRIDCAST_GOLDEN_UPDATE === '1';

interface Case {
  name: string;
  path: string;
  query?: Record<string, string | number>;
}

/** Small windows and single ids, so the whole file runs in seconds. */
const CASES: Case[] = [
  { name: 'region forecast', path: '/v1/region/ercot/wind/forecast', query: { id: 'ercot_total', forecasted_by: '2026-06-10T15:00:00Z' } },
  {
    name: 'region forecast iso model',
    path: '/v1/region/pjm/demand/forecast',
    query: { id: 'pjm_total', model: 'iso', forecasted_by: '2026-06-12T10:00:00Z' },
  },
  { name: 'region continuous', path: '/v1/region/miso/solar/continuous', query: { start: '2026-06-08', end: '2026-06-09' } },
  { name: 'region actual', path: '/v1/region/nyiso/demand/actual', query: { start: '2026-06-08', end: '2026-06-09' } },
  {
    name: 'region actual poptemp',
    path: '/v1/region/isone/poptemp/actual',
    query: { id: 'isone_total', start: '2026-01-20', end: '2026-01-21' },
  },
  {
    name: 'region outage continuous',
    path: '/v1/region/pjm/outage/continuous',
    query: { id: 'pjm_total', start: '2026-06-01', end: '2026-06-10' },
  },
  { name: 'region backcast', path: '/v1/region/spp/wind/backcast', query: { id: 'spp_total', start: '2026-06-01', end: '2026-06-02' } },
  {
    name: 'region ensemble',
    path: '/v1/region/ercot/demand/ensemble',
    query: { id: 'ercot_total', forecasted_by: '2026-05-02T12:00:00Z' },
  },
  {
    name: 'region ensemble wind',
    path: '/v1/region/caiso/wind/ensemble',
    query: { id: 'caiso_total', model: 'euro_ec46', forecasted_by: '2026-05-20T23:00:00Z' },
  },
  { name: 'region summary', path: '/v1/region/nyiso/summary', query: { as_of: '2026-03-10T12:00:00Z' } },
  { name: 'plant continuous', path: '/v1/plant/ercot/wind/continuous', query: { id: 56001, start: '2026-03-07', end: '2026-03-09' } },
  { name: 'plant forecast solar', path: '/v1/plant/caiso/solar/forecast', query: { forecasted_by: '2026-06-14T06:00:00Z' } },
  { name: 'cells forecast', path: '/v1/cells/isone/wind/forecast', query: { resolution: 2, forecasted_by: '2026-06-14T06:00:00Z' } },
  { name: 'county forecast', path: '/v1/county/pjm/forecast', query: { id: '17031', forecasted_by: '2026-06-14T06:00:00Z' } },
  { name: 'gas forecast', path: '/v1/gas/forecast', query: { forecasted_by: '2026-05-04T15:00:00Z' } },
  { name: 'gas backcast', path: '/v1/gas/backcast', query: { start: '2026-05-01', end: '2026-05-10' } },
  { name: 'lmp dalmp forecast', path: '/v1/lmp/pjm/dalmp/forecast', query: { forecasted_by: '2026-06-14T06:00:00Z' } },
  { name: 'lmp rtlmp continuous', path: '/v1/lmp/ercot/rtlmp/continuous', query: { start: '2026-06-08', end: '2026-06-08' } },
  { name: 'gas list', path: '/v1/gas/list' },
  ...ISO_CODES.flatMap((iso): Case[] => [
    { name: `${iso} wind plants`, path: `/v1/plant/${iso}/wind/list` },
    { name: `${iso} solar plants`, path: `/v1/plant/${iso}/solar/list` },
    { name: `${iso} regions`, path: `/v1/region/${iso}/demand/list` },
    { name: `${iso} price nodes`, path: `/v1/lmp/${iso}/dalmp/list` },
  ]),
];

let t: TestApp;
let key: string;
const actual: Record<string, string> = {};

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' });
});

after(async () => {
  if (UPDATE) fs.writeFileSync(FIXTURE, JSON.stringify(actual, null, 2) + '\n');
  await t?.close();
});

const expected: Record<string, string> = UPDATE ? {} : JSON.parse(fs.readFileSync(FIXTURE, 'utf8'));

describe('golden digests of response bodies', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const res = await t.get(c.path, { key, query: c.query });
      assert.equal(res.status, 200, res.text);
      const digest = createHash('sha256').update(res.text).digest('hex');
      actual[c.name] = digest;
      if (!UPDATE) assert.equal(digest, expected[c.name], `${c.path} ${JSON.stringify(c.query ?? {})}: the body changed`);
    });
  }

  test('every digest in the fixture is checked', () => {
    if (UPDATE) return;
    assert.deepEqual(Object.keys(expected).sort(), CASES.map((c) => c.name).sort());
  });
});
