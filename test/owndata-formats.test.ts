/**
 * Own data (issue 20), input formats: gridcast's long layout exported in JSON, Parquet and Arrow
 * (and CSV) ingests back unchanged; gridstatus-style wide files and EIA-930 balancing-authority
 * files; times (offsets, declared zones, DST days) and units in every format; and hostile files
 * through POST /admin/ingest and `gridcast ingest`: a clear 422 (or 413) in the service's error
 * format listing bad rows with their line or row numbers, never a 500, nothing stored.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { freshDataDir, rawRequest, runGridcast, startTestApp, type TestApp } from './helpers.ts';

const TOKEN = 'formats-admin-token';
const REGION = '/v1/region/ercot/demand';
const ADMIN = { authorization: `Bearer ${TOKEN}` };

let t: TestApp;
let key: string;

/** POST /admin/ingest with a body and the query (group/iso/metric default to region/ercot/demand). */
function ingest(body: string | Buffer, query: Record<string, string | string[]>, contentType = 'application/octet-stream') {
  return t.request('POST', '/admin/ingest', {
    headers: { ...ADMIN, 'content-type': contentType },
    body,
    query: { iso: 'ercot', metric: 'demand', ...query },
  });
}

async function json(p: string, query: Record<string, string | number>) {
  const res = await t.get(p, { key, query });
  assert.equal(res.status, 200, `${p} ${JSON.stringify(query)}: ${res.text}`);
  return res.json();
}

/** The 422's items as `loc: msg` lines (the shape is checked once in full below). */
function problems(res: { status: number; text: string }): string[] {
  assert.equal(res.status, 422, res.text);
  return JSON.parse(res.text).detail.map(
    (d: { loc: (string | number)[]; msg: string }) =>
      `${(d.loc[0] === 'body' && d.loc.length > 1 ? d.loc.slice(1) : d.loc).join(' ')}: ${d.msg}`,
  );
}

async function sourceNames(): Promise<string[]> {
  return (await t.store.sources.names()).sort();
}

function parquet(columns: { name: string; data: unknown[]; type?: string }[], rowGroupSize?: number, kv?: Record<string, string>): Buffer {
  return Buffer.from(
    parquetWriteBuffer({
      columnData: columns as never,
      rowGroupSize,
      kvMetadata: kv ? Object.entries(kv).map(([key, value]) => ({ key, value })) : undefined,
    }),
  );
}

before(async () => {
  t = await startTestApp({ adminToken: TOKEN });
  key = await t.key({ ercot: 'enterprise' });
});
after(() => t?.close());

describe('own data formats: the long layout exported in each format ingests back unchanged', () => {
  const RUN_DAYS = { start: '2026-06-01', end: '2026-06-02' };
  let runs: { created_at: string }[];

  before(async () => {
    runs = await json(`${REGION}/runs`, { model: 'iso', ...RUN_DAYS });
    assert.ok(runs.length >= 4);
  });

  for (const format of ['json', 'parquet', 'arrow', 'csv'] as const) {
    test(`${format}: every run's export and the actuals' export, told apart by their bytes, served as the synthetic ones`, async () => {
      const source = `rt_${format}`;
      for (const run of runs) {
        const exported = await t.get(`${REGION}/forecast`, {
          key,
          query: { model: 'iso', forecasted_by: run.created_at, format, layout: 'long' },
        });
        assert.equal(exported.status, 200);
        // Parquet and Arrow carry the run's created_at in their metadata; CSV and JSON rows do not.
        const query: Record<string, string> = ['csv', 'json'].includes(format) ? { source, created_at: run.created_at } : { source };
        const res = await ingest(exported.raw, query);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual([res.json().kind, res.json().runsAdded, res.json().targets], ['forecast', 9, 9]);
      }
      const actual = await t.get(`${REGION}/actual`, { key, query: { start: '2026-06-01', end: '2026-06-04', format, layout: 'long' } });
      const res = await ingest(actual.raw, { source });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json().kind, 'actual');
      // The same export again: nothing changes.
      const again = await ingest(actual.raw, { source });
      assert.deepEqual([again.json().actualsAdded, again.json().actualsUnchanged > 0], [0, true]);

      for (const at of ['2026-06-01T13:00:00Z', '2026-06-02T02:30:00Z', '2026-06-02T23:59:00Z']) {
        const synthetic = await json(`${REGION}/forecast`, { model: 'iso', forecasted_by: at });
        const stored = await json(`${REGION}/forecast`, { model: source, forecasted_by: at });
        assert.deepEqual({ ...stored, model: 'iso' }, synthetic);
      }
      const q = { start: '2026-06-02', end: '2026-06-03', days_ahead: 1, latest_hour: 10 };
      assert.deepEqual(
        { ...(await json(`${REGION}/continuous`, { ...q, model: source })), model: 'iso' },
        await json(`${REGION}/continuous`, { ...q, model: 'iso' }),
      );
      const a = { start: '2026-06-01', end: '2026-06-04' };
      assert.deepEqual(await json(`${REGION}/actual`, { ...a, source }), await json(`${REGION}/actual`, a));
    });
  }

  test('the format may also be told by the file name, the content type, or --format', async () => {
    const exported = await t.get(`${REGION}/actual`, {
      key,
      query: { start: '2026-06-01', end: '2026-06-02', format: 'json', layout: 'long' },
    });
    const byName = await ingest(exported.raw, { source: 'rt_named', filename: 'actuals.json' }, 'text/csv');
    assert.equal(byName.status, 200, byName.text);
    const byType = await ingest(exported.raw, { source: 'rt_named' }, 'application/json');
    assert.equal(byType.status, 200, byType.text);
    const forced = await ingest(exported.raw, { source: 'rt_named', format: 'csv' });
    assert.equal(forced.status, 422);
    const badFormat = await ingest(exported.raw, { source: 'rt_named', format: 'xlsx' });
    assert.deepEqual(problems(badFormat), ["query format: Value error, format must be one of csv, json, parquet, arrow (got 'xlsx')"]);
  });

  test('JSON lines and a multi-run Parquet file with created_at and unit columns, read row group by row group', async () => {
    const lines = [
      // Braces, brackets, quotes and backslashes inside strings are text, not structure.
      '{"time_utc":"2026-05-01T00:00:00Z","id":"ercot_total","value":50000,"note":"a \\"}{\\" [x] \\\\"}',
      '{"time_utc":"2026-05-01T01:00:00Z","id":"ercot_total","value":null}',
      '{"time_utc":"2026-05-01T02:00:00Z","id":"ercot_total","value":51000}',
    ].join('\n');
    // `note` is no column of the long layout: refused unless left out with --column 'note='.
    const refused = await ingest(lines, { source: 'lines', filename: 'a.ndjson' });
    assert.equal(refused.status, 422, refused.text);
    const res = await ingest(lines, { source: 'lines', filename: 'a.ndjson', column: 'note=' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.json().kind, res.json().values], ['actual', 3]);

    const issued = ['2026-05-01T00:00:00Z', '2026-05-01T06:00:00Z'];
    const rows = issued.flatMap((c) => Array.from({ length: 24 }, (_, h) => ({ c, h })));
    const file = parquet(
      [
        { name: 'created_at', data: rows.map((r) => new Date(r.c)), type: 'TIMESTAMP' },
        { name: 'time_utc', data: rows.map((r) => new Date(Date.parse(r.c) + r.h * 3_600_000)), type: 'TIMESTAMP' },
        { name: 'id', data: rows.map(() => 'ercot_coast'), type: 'STRING' },
        { name: 'value', data: rows.map((r) => 10 + r.h / 10), type: 'DOUBLE' },
        { name: 'unit', data: rows.map(() => 'GW'), type: 'STRING' },
      ],
      7,
    );
    const runs = await ingest(file, { source: 'multi' });
    assert.equal(runs.status, 200, runs.text);
    assert.deepEqual([runs.json().runsAdded, runs.json().values], [2, 48]);
    const served = await json(`${REGION}/forecast`, { model: 'multi', id: 'ercot_coast', forecasted_by: '2026-05-01T07:00:00Z' });
    assert.equal(served.created_at, '2026-05-01T06:00:00Z');
    assert.deepEqual(served.values[0].slice(0, 3), [10000, 10100, 10200]);
  });
});

/** A gridstatus-style forecast: two publish times, 24 hours each, zone columns and a total in GW. */
function gridstatusCsv(published = true): string {
  const head = ['Interval Start', 'Interval End', ...(published ? ['Publish Time'] : []), 'Coast', 'Far West', 'System Total (GW)'];
  const lines = [head.join(',')];
  for (const [p, issue] of ['2026-06-01T00:00:00-05:00', '2026-06-01T06:00:00-05:00'].entries()) {
    if (!published && p > 0) break;
    for (let h = 0; h < 24; h++) {
      const start = new Date(Date.parse(issue) + h * 3_600_000);
      const local = (d: Date) => new Date(d.getTime() - 5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ') + '-05:00';
      const end = new Date(start.getTime() + 3_600_000);
      lines.push(
        [local(start), local(end), ...(published ? [issue.replace('T', ' ')] : []), 10000 + h + p, 1000 + h, 50 + h / 10].join(','),
      );
    }
  }
  return lines.join('\n') + '\n';
}

describe("own data formats: a long file has only the long layout's columns", () => {
  const other = (names: string) =>
    `{"detail":[{"type":"value_error","loc":["body"],"msg":"Value error, test.csv: column(s) ${names} are not of the long layout ` +
    '(time_utc or time_local, id, value, unit, created_at for forecasts or published_at for actuals, quantile): ' +
    `rename them, or leave them out with --column 'NAME='","input":null}]}`;

  test('another column is refused, never dropped: a misspelt created_at would make a run actuals', async () => {
    const run = 'time_utc,id,value,issued_at\n2026-06-01T06:00:00Z,ercot_total,5,2026-06-01T05:00:00Z\n';
    const res = await ingest(run, { source: 'misspelt', filename: 'test.csv' });
    assert.deepEqual([res.status, res.text], [422, other("'issued_at'")]);
    const actuals = 'time_utc,id,value,publish_time,note\n2026-06-01T06:00:00Z,ercot_total,5,2026-06-02T00:00:00Z,x\n';
    const two = await ingest(actuals, { source: 'misspelt', filename: 'test.csv' });
    assert.deepEqual([two.status, two.text], [422, other("'publish_time', 'note'")]);
    // --column NAME=TARGET maps a wide file's columns; a long file's targets are in its id column.
    const mapped = await ingest(actuals, { source: 'misspelt', filename: 'test.csv', column: 'note=ercot_total' });
    assert.equal(mapped.status, 422);
    assert.equal(
      mapped.json().detail[0].msg,
      "Value error, test.csv: --column 'note=…' maps a column of a gridstatus-style file to a target; " +
        "a long-layout file names its targets in its id column (--column 'NAME=' leaves a column out)",
    );
    assert.deepEqual(await sourceNames().then((n) => n.filter((s) => s === 'misspelt')), []);
  });

  test("--column 'NAME=' leaves a column out; a column without a name (pandas' index) is skipped", async () => {
    const actuals = 'time_utc,id,value,note\n2026-06-01T06:00:00Z,ercot_total,5,x\n';
    const res = await ingest(actuals, { source: 'noted', filename: 'test.csv', column: 'note=' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.json().kind, res.json().values], ['actual', 1]);
    const pandas = ',time_utc,id,value,created_at\n0,2026-06-01T06:00:00Z,ercot_total,5,2026-06-01T05:00:00Z\n';
    const indexed = await ingest(pandas, { source: 'indexed', filename: 'test.csv' });
    assert.equal(indexed.status, 200, indexed.text);
    assert.deepEqual([indexed.json().kind, indexed.json().values], ['forecast', 1]);
  });
});

describe('own data formats: gridstatus-style wide files', () => {
  test('Publish Time gives runs; zone columns by name, a total mapped with --column, its unit from the header', async () => {
    const res = await ingest(gridstatusCsv(), { source: 'gs', filename: 'ercot_load_forecast.csv', column: 'System Total=ercot_total' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.json().kind, res.json().runsAdded, res.json().targets, res.json().values], ['forecast', 6, 3, 144]);
    const runs = await json(`${REGION}/runs`, { model: 'gs', start: '2026-05-31', end: '2026-06-02' });
    assert.deepEqual([...new Set(runs.map((r: { created_at: string }) => r.created_at))], ['2026-06-01T05:00:00Z', '2026-06-01T11:00:00Z']);
    const total = await json(`${REGION}/forecast`, { model: 'gs', id: 'ercot_total', forecasted_by: '2026-06-01T12:00:00Z' });
    assert.deepEqual([total.time_utc[0], ...total.values[0].slice(0, 2)], ['2026-06-01T11:00:00Z', 50000, 50100]);
    const far = await json(`${REGION}/forecast`, { model: 'gs', id: 'ercot_far_west', forecasted_by: '2026-06-01T05:00:00Z' });
    assert.deepEqual(far.values[0].slice(0, 2), [1000, 1001]);
  });

  test('without Publish Time the file holds actuals; --value reads one column as the ISO total; naive times need --timezone', async () => {
    const actuals = await ingest(gridstatusCsv(false), { source: 'gs_actual', column: ['Coast=ercot_coast'], value: 'System Total' });
    assert.equal(actuals.status, 200, actuals.text);
    // Far West is read too: it is a region's name.
    assert.deepEqual([actuals.json().kind, actuals.json().targets, actuals.json().values], ['actual', 3, 72]);
    const served = await json(`${REGION}/actual`, { source: 'gs_actual', id: 'ercot_total', start: '2026-06-01', end: '2026-06-02' });
    assert.deepEqual(served.values[0].slice(0, 2), [50000, 50100]);

    const naive = 'Interval Start,Load\n2026-03-08 01:00,100\n2026-03-08 02:00,101\n2026-03-08 03:00,102\n';
    assert.deepEqual(problems(await ingest(naive, { source: 'gs_naive', value: 'Load' })), [
      "line 2: Value error, Interval Start: '2026-03-08 01:00' has no offset: add one (Z, -05:00) or declare the file's zone with --timezone",
      "line 3: Value error, Interval Start: '2026-03-08 02:00' has no offset: add one (Z, -05:00) or declare the file's zone with --timezone",
      "line 4: Value error, Interval Start: '2026-03-08 03:00' has no offset: add one (Z, -05:00) or declare the file's zone with --timezone",
    ]);
    assert.deepEqual(problems(await ingest(naive, { source: 'gs_naive', value: 'Load', timezone: 'America/Chicago' })), [
      "line 3: Value error, Interval Start: '2026-03-08 02:00' does not exist in America/Chicago (the clocks skip it on a DST day)",
    ]);
  });

  test('columns that are no target are refused with how to map them; sub-hourly intervals are refused by line', async () => {
    const unknown =
      'Interval Start,Interval End,Publish Time,Houston,West\n2026-06-01T00:00:00Z,2026-06-01T01:00:00Z,2026-06-01T00:00:00Z,1,2\n';
    assert.deepEqual(problems(await ingest(unknown, { source: 'gs_bad' })), [
      "body: Value error, upload: column(s) 'Houston' are not targets of ercot (ercot_total, ercot_coast, ercot_east, ercot_far_west, ercot_north, ercot_north_central, ercot_south_central, ercot_southern, ercot_west): map them with --column 'NAME=TARGET' (--value NAME for the ISO's total), or leave them out with --column 'NAME='",
    ]);
    const fifteen = 'Interval Start,Interval End,West\n2026-06-01T00:00:00Z,2026-06-01T00:15:00Z,2\n';
    assert.deepEqual(problems(await ingest(fifteen, { source: 'gs_bad' })), [
      'line 2: Value error, Interval End: an interval of 15 minutes; values must be hourly',
    ]);
    const wrongTarget = await ingest(unknown, { source: 'gs_bad', column: 'Houston=ercot_houston' });
    assert.match(
      problems(wrongTarget)[0],
      /^body: Value error, upload: --column Houston=ercot_houston: ercot_houston is not one of ercot_total, /,
    );
    const skipped = await ingest(unknown, { source: 'gs_skip', column: 'Houston=' });
    assert.deepEqual([skipped.status, skipped.json().targets], [200, 1], skipped.text);
    assert.equal((await t.request('DELETE', '/admin/sources/gs_skip', { headers: ADMIN })).status, 200);
    assert.ok(!(await sourceNames()).includes('gs_bad'));
  });

  test('a gridstatus Parquet file (timestamp columns, Snappy) reads the same as its CSV', async () => {
    const starts = Array.from({ length: 24 }, (_, h) => new Date(Date.UTC(2026, 5, 1, 5 + h)));
    const file = parquet([
      { name: 'interval_start_utc', data: starts, type: 'TIMESTAMP' },
      { name: 'interval_end_utc', data: starts.map((d) => new Date(d.getTime() + 3_600_000)), type: 'TIMESTAMP' },
      { name: 'publish_time_utc', data: starts.map(() => new Date(Date.UTC(2026, 5, 1, 5))), type: 'TIMESTAMP' },
      { name: 'ercot_coast', data: starts.map((_, h) => 10000 + h), type: 'DOUBLE' },
    ]);
    const res = await ingest(file, { source: 'gs_parquet' });
    assert.equal(res.status, 200, res.text);
    const served = await json(`${REGION}/forecast`, { model: 'gs_parquet', id: 'ercot_coast', forecasted_by: '2026-06-01T05:00:00Z' });
    assert.deepEqual(served.values[0].slice(0, 2), [10000, 10001]);
  });
});

/** An EIA-930 Balance file: two balancing authorities, three hours, EIA's time and number spellings. */
const EIA_CSV = [
  'Balancing Authority,Data Date,Hour Number,Local Time at End of Hour,UTC Time at End of Hour,Demand Forecast (MW),Demand (MW),Net Generation (MW),Net Generation (MW) from Wind,Net Generation (MW) from Solar,Demand (MW) (Adjusted),Region',
  'CISO,06/01/2026,1,06/01/2026 1:00:00 AM,6/1/2026 8:00:00 AM,"21,000","20,500","18,000","1,000",0,"20,510",CAL',
  'ERCO,06/01/2026,1,06/01/2026 1:00:00 AM,6/1/2026 6:00:00 AM,"45,000","44,123","43,000","12,345",0,"44,130",TEX',
  'ERCO,06/01/2026,2,06/01/2026 2:00:00 AM,6/1/2026 7:00:00 AM,"44,000","43,000.5","42,000","12,000",0,"43,010",TEX',
  'ERCO,06/01/2026,3,06/01/2026 3:00:00 AM,6/1/2026 8:00:00 AM,"43,000",,"41,000","11,000",5,"42,010",TEX',
].join('\r\n');

describe('own data formats: EIA-930 balancing-authority files', () => {
  test("the ISO's balancing authority is its total; the metric picks the column; --value another", async () => {
    const demand = await ingest(EIA_CSV, { source: 'eia', filename: 'EIA930_BALANCE_2026_Jan_Jun.csv' });
    assert.equal(demand.status, 200, demand.text);
    assert.deepEqual([demand.json().kind, demand.json().values, demand.json().first_valid_time], ['actual', 3, '2026-06-01T05:00:00Z']);
    const served = await json(`${REGION}/actual`, { source: 'eia', id: 'ercot_total', start: '2026-06-01', end: '2026-06-02' });
    // The third hour is empty: no value (the series ends with the last value).
    assert.deepEqual(served.values[0], [44123, 43000.5]);
    const wind = await ingest(EIA_CSV, { source: 'eia', metric: 'wind' });
    assert.equal(wind.status, 200, wind.text);
    const windServed = await json('/v1/region/ercot/wind/actual', {
      source: 'eia',
      id: 'ercot_total',
      start: '2026-06-01',
      end: '2026-06-02',
    });
    assert.deepEqual(windServed.values[0].slice(0, 3), [12345, 12000, 11000]);
    const adjusted = await ingest(EIA_CSV, { source: 'eia_adjusted', value: 'Demand (MW) (Adjusted)' });
    assert.equal(adjusted.json().values, 3);
  });

  test('a metric EIA-930 does not hold, or a file without the ISO, is a 422 naming what there is', async () => {
    assert.deepEqual(problems(await ingest(EIA_CSV, { source: 'eia_bad', metric: 'poptemp' })), [
      'body: Value error, upload: EIA-930 has no column for poptemp (it has demand, wind, solar): name one with --value',
    ]);
    assert.deepEqual(problems(await ingest(EIA_CSV, { source: 'eia_bad', iso: 'pjm' })), [
      'body: Value error, upload: no rows of PJM (pjm); the file has CISO, ERCO',
    ]);
  });
});

describe('own data formats: times and units hold in every format', () => {
  test('an ambiguous local time on a DST day is refused with its row in JSON and Parquet, its line in CSV', async () => {
    const times = ['2026-11-01 00:00', '2026-11-01 01:00', '2026-11-01 02:00'];
    const jsonFile = JSON.stringify(times.map((time) => ({ time_utc: time, id: 'ercot_total', value: 1 })));
    const expected = (where: string) => [
      `${where}: Value error, time_utc: '2026-11-01 01:00' is ambiguous in America/Chicago (it occurs twice on a DST day): give an offset`,
    ];
    assert.deepEqual(problems(await ingest(jsonFile, { source: 'dst', timezone: 'America/Chicago' })), expected('row 2'));
    const pq = parquet([
      { name: 'time_utc', data: times, type: 'STRING' },
      { name: 'id', data: times.map(() => 'ercot_total'), type: 'STRING' },
      { name: 'value', data: times.map(() => 1), type: 'DOUBLE' },
    ]);
    assert.deepEqual(problems(await ingest(pq, { source: 'dst', timezone: 'America/Chicago' })), expected('row 2'));
    const csv = 'time_utc,id,value\n' + times.map((time) => `${time},ercot_total,1`).join('\n');
    assert.deepEqual(problems(await ingest(csv, { source: 'dst', timezone: 'America/Chicago' })), expected('line 3'));
  });

  test('units: a unit column converts per row; a price unit for demand and a clash with --unit are refused', async () => {
    const rows = [
      { time_utc: '2026-05-02T00:00:00Z', id: 'ercot_total', value: 50, unit: 'GW' },
      { time_utc: '2026-05-02T01:00:00Z', id: 'ercot_total', value: 51000, unit: 'MW' },
      { time_utc: '2026-05-02T02:00:00Z', id: 'ercot_total', value: 52000000, unit: 'kW' },
    ];
    const ok = await ingest(JSON.stringify(rows), { source: 'units' });
    assert.equal(ok.status, 200, ok.text);
    const served = await json(`${REGION}/actual`, { source: 'units', id: 'ercot_total', start: '2026-05-01', end: '2026-05-02' });
    assert.deepEqual(
      served.values[0].filter((v: number | null) => v !== null),
      [50000, 51000, 52000],
    );
    const price = [{ ...rows[0], unit: 'USD/MWh' }];
    assert.deepEqual(problems(await ingest(JSON.stringify(price), { source: 'units_bad' })), [
      'row 1: Value error, unit USD/MWh cannot be demand, which is in MW (MW, GW, kW, MWh, megawatthours can)',
    ]);
    assert.deepEqual(problems(await ingest(JSON.stringify(rows), { source: 'units_bad', unit: 'GW' })), [
      'row 2: Value error, the file gives the unit MW where --unit says GW',
      'row 3: Value error, the file gives the unit kW where --unit says GW',
    ]);
    const header = 'Interval Start,West (USD/MWh)\n2026-06-01T00:00:00Z,2\n';
    assert.deepEqual(problems(await ingest(header, { source: 'units_bad' })), [
      'body: Value error, upload: column West (USD/MWh): unit USD/MWh cannot be demand, which is in MW (MW, GW, kW, MWh, megawatthours can)',
    ]);
    assert.deepEqual(problems(await ingest(header, { source: 'units_bad', unit: 'USD/MWh' })), [
      'query unit: Value error, unit USD/MWh cannot be demand, which is in MW (MW, GW, kW, MWh, megawatthours can)',
    ]);
    assert.ok(!(await sourceNames()).includes('units_bad'));
  });
});

describe('own data formats: hostile files get a clear 4xx, never a 500, and store nothing', () => {
  let before: string[];
  const longRows = (values: unknown[]) =>
    values.map((value, h) => ({ time_utc: `2026-08-01T${String(h).padStart(2, '0')}:00:00Z`, id: 'ercot_total', value }));

  test('the full error shape of a bad row in a binary file', async () => {
    before = await sourceNames();
    const res = await ingest(
      parquet([
        { name: 'time_utc', data: ['x'], type: 'STRING' },
        { name: 'id', data: ['ercot_total'], type: 'STRING' },
        { name: 'value', data: [1], type: 'DOUBLE' },
      ]),
      { source: 'hostile' },
    );
    assert.equal(res.status, 422);
    assert.equal(
      res.text,
      '{"detail":[{"type":"value_error","loc":["body","row",1],"msg":"Value error, time_utc: \'x\' is not an ISO 8601 date and time","input":null}]}',
    );
  });

  test('wrong types: text, booleans and nested values where numbers are expected, numbers where times are', async () => {
    const rows = [
      ...longRows(['abc', true, { v: 1 }, 5]),
      { time_utc: 1780000000000, id: 'ercot_total', value: 1 },
      { time_utc: '2026-08-01T09:00:00Z', id: 7, value: 1 },
    ];
    assert.deepEqual(problems(await ingest(JSON.stringify(rows), { source: 'hostile' })), [
      "row 1: Value error, value: 'abc' is not a finite number (leave it empty for no value)",
      'row 2: Value error, value: the boolean true where a number is expected',
      'row 3: Value error, value: a nested value where a string, number or null is expected',
      'row 5: Value error, time_utc: the number 1780000000000 where a date and time is expected',
      'row 6: Value error, id: 7 is not text',
    ]);
    const typed = parquet([
      { name: 'time_utc', data: [new Date('2026-08-01T00:00:00Z')], type: 'TIMESTAMP' },
      { name: 'id', data: ['ercot_total'], type: 'STRING' },
      { name: 'value', data: [true], type: 'BOOLEAN' },
    ]);
    assert.deepEqual(problems(await ingest(typed, { source: 'hostile' })), [
      'row 1: Value error, value: the boolean true where a number is expected',
    ]);
  });

  test('NaN and Infinity: refused in Parquet and Arrow doubles, and as JSON literals', async () => {
    const times = [0, 1, 2].map((h) => new Date(Date.UTC(2026, 7, 1, h)));
    const pq = parquet([
      { name: 'time_utc', data: times, type: 'TIMESTAMP' },
      { name: 'id', data: times.map(() => 'ercot_total'), type: 'STRING' },
      { name: 'value', data: [1, Number.NaN, Number.POSITIVE_INFINITY], type: 'DOUBLE' },
    ]);
    const expected = [
      'row 2: Value error, value: NaN is not a finite number (leave it empty for no value)',
      'row 3: Value error, value: Infinity is not a finite number (leave it empty for no value)',
    ];
    assert.deepEqual(problems(await ingest(pq, { source: 'hostile' })), expected);
    const arrow = tableToIPC(
      tableFromArrays({
        time_utc: ['2026-08-01T00:00:00Z', '2026-08-01T01:00:00Z', '2026-08-01T02:00:00Z'],
        id: ['ercot_total', 'ercot_total', 'ercot_total'],
        value: Float64Array.from([1, Number.NaN, Infinity]),
      }),
      'stream',
    );
    assert.deepEqual(problems(await ingest(Buffer.from(arrow), { source: 'hostile' })), expected);
    const literal =
      '[{"time_utc":"2026-08-01T00:00:00Z","id":"ercot_total","value":NaN},{"time_utc":"2026-08-01T01:00:00Z","id":"ercot_total","value":1e999}]';
    const got = problems(await ingest(literal, { source: 'hostile' }));
    assert.match(got[0], /^row 1: Value error, not valid JSON \(Unexpected token/);
    assert.equal(got[1], 'row 2: Value error, value: Infinity is not a finite number (leave it empty for no value)');
  });

  test('duplicated rows with different values, and unknown targets, are listed by row', async () => {
    const rows = [
      ...longRows([1, 2]),
      { time_utc: '2026-08-01T01:00:00Z', id: 'ercot_total', value: 3 },
      { time_utc: '2026-08-01T01:00:00Z', id: 'ercot_total', value: 2 },
      { time_utc: '2026-08-01T01:00:00Z', id: 'texas', value: 2 },
    ];
    assert.deepEqual(problems(await ingest(JSON.stringify(rows), { source: 'hostile' })), [
      'row 3: Value error, a second value for ercot_total at 2026-08-01T01:00:00Z (same publication) differs from the first',
      "row 5: Value error, id: unknown region 'texas' in ercot (ercot_total, ercot_coast, ercot_east, ercot_far_west, ercot_north, ercot_north_central, ercot_south_central, ercot_southern, ercot_west)",
    ]);
  });

  test('an unknown ISO or metric is a 422 on the query parameter', async () => {
    const rows = JSON.stringify(longRows([1]));
    assert.deepEqual(problems(await ingest(rows, { source: 'hostile', iso: 'texas' })), [
      "query iso: Value error, iso must be one of pjm, miso, spp, ercot, caiso, nyiso, isone (got 'texas')",
    ]);
    assert.deepEqual(problems(await ingest(rows, { source: 'hostile', metric: 'load' })), [
      "query metric: Value error, metric must be one of demand, wind, solar, outage, poptemp for --group region (got 'load')",
    ]);
  });

  test('a 10 MB line in CSV and a 10 MB record in JSON are refused by their number, not held', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const csv = `time_utc,id,value\n2026-08-01T00:00:00Z,ercot_total,1\n2026-08-01T01:00:00Z,${big},1\n`;
    assert.deepEqual(problems(await ingest(csv, { source: 'hostile' })), ['line 3: Value error, a line is longer than 1048576 characters']);
    const jsonFile = `[{"time_utc":"2026-08-01T00:00:00Z","id":"ercot_total","value":1},{"time_utc":"2026-08-01T01:00:00Z","id":"${big}","value":1}]`;
    assert.deepEqual(problems(await ingest(jsonFile, { source: 'hostile' })), [
      'row 2: Value error, record 2 is longer than 1048576 characters',
    ]);
  });

  test('a truncated Parquet or Arrow file, binary garbage and a JSON file cut short are 422s', async () => {
    const whole = (
      await t.get(`${REGION}/actual`, { key, query: { start: '2026-06-01', end: '2026-06-02', format: 'parquet', layout: 'long' } })
    ).raw;
    const truncated = problems(await ingest(whole.subarray(0, whole.length - 100), { source: 'hostile' }));
    assert.equal(truncated.length, 1);
    assert.match(truncated[0], /^body: Value error, upload: not a readable Parquet file \(.+\)$/);
    const arrow = (
      await t.get(`${REGION}/actual`, { key, query: { start: '2026-06-01', end: '2026-06-02', format: 'arrow', layout: 'long' } })
    ).raw;
    const cut = problems(await ingest(arrow.subarray(0, Math.floor(arrow.length / 2)), { source: 'hostile' }));
    assert.equal(cut.length, 1);
    assert.match(cut[0], /^body: Value error, upload: not a readable Arrow IPC file or stream \(.+\)$/);
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    assert.deepEqual(problems(await ingest(garbage, { source: 'hostile' })), [
      'body: Value error, upload: binary content that is not Parquet or Arrow (and not CSV or JSON text); nothing was stored',
    ]);
    const magicOnly = Buffer.concat([Buffer.from('PAR1'), garbage]);
    assert.match(problems(await ingest(magicOnly, { source: 'hostile' }))[0], /^body: Value error, upload: not a readable Parquet file/);
    const short = '[{"time_utc":"2026-08-01T00:00:00Z","id":"ercot_total","value":1},{"time_utc":"2026-08-01T01:00:00Z","id":"erc';
    assert.deepEqual(problems(await ingest(short, { source: 'hostile' })), ['row 2: Value error, the file ends inside record 2']);
    assert.deepEqual(await sourceNames(), before);
  });
});

describe('own data formats: the size limit holds for every format', () => {
  test('a Parquet, Arrow or JSON upload over GRIDCAST_INGEST_MAX_BYTES is a 413 and stores nothing', async () => {
    const small = await startTestApp({ adminToken: TOKEN, ingestMaxBytes: 4096 });
    try {
      for (const format of ['parquet', 'arrow', 'json']) {
        const body = (await t.get(`${REGION}/actual`, { key, query: { start: '2026-06-01', end: '2026-06-03', format, layout: 'long' } }))
          .raw;
        assert.ok(body.length > 4096);
        // Sent in pieces without a length: the limit is met while the file is read.
        const res = await rawRequest(small.baseUrl, '/admin/ingest?source=too_big&iso=ercot&metric=demand', ADMIN, 'POST', body, 1024);
        assert.equal(res.status, 413, `${format}: ${res.text}`);
        assert.equal(res.text, '{"detail":[{"type":"error","msg":"The file is larger than 4096 bytes (GRIDCAST_INGEST_MAX_BYTES)."}]}');
      }
      assert.deepEqual(await small.store.sources.names(), []);
    } finally {
      await small.close();
    }
  });
});

describe('own data formats: gridcast ingest with the formats', () => {
  /** Runs the CLI (asynchronously: the server answering it runs on this test's thread). */
  const cli = (args: string[]) => runGridcast(['ingest', ...args]);

  test('--server: a Parquet export, a gridstatus file with --column, and a bad JSON row (exit 2, its row)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-formats-'));
    try {
      const server = ['--iso', 'ercot', '--metric', 'demand', '--server', t.baseUrl, '--token', TOKEN];
      const pq = path.join(dir, 'export.parquet');
      fs.writeFileSync(
        pq,
        (
          await t.get(`${REGION}/forecast`, {
            key,
            query: { model: 'iso', forecasted_by: '2026-06-01T12:00:00Z', format: 'parquet', layout: 'long' },
          })
        ).raw,
      );
      const ok = await cli([pq, '--source', 'cli_parquet', ...server]);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /^cli_parquet: runs: 9 added, 0 replaced, 0 unchanged; 9 target\(s\), /);
      const gs = path.join(dir, 'load.csv');
      fs.writeFileSync(gs, gridstatusCsv());
      const wide = await cli([gs, '--source', 'cli_gs', '--column', 'System Total=ercot_total', ...server]);
      assert.equal(wide.status, 0, wide.stderr);
      assert.match(wide.stdout, /^cli_gs: runs: 6 added/);
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify(longRows([1, 'x'])));
      const refused = await cli([bad, '--source', 'cli_bad', ...server]);
      assert.equal(refused.status, 2);
      assert.equal(
        refused.stderr,
        `gridcast: bad.json: ${t.baseUrl} answered 422; nothing was stored\n  row 2: value: 'x' is not a finite number (leave it empty for no value)\n`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without --server, into the embedded store: an Arrow export is stored; a truncated Parquet file and a bad JSON row are exit 2', async () => {
    const dir = await freshDataDir('gridcast-formats-');
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const run = (args: string[]) => runGridcast(['ingest', ...args, '--iso', 'ercot', '--metric', 'demand', '--data', dir], env);
    try {
      const actuals = { start: '2026-06-01', end: '2026-06-02', layout: 'long' };
      const arrow = path.join(dir, 'actuals.arrows');
      fs.writeFileSync(arrow, (await t.get(`${REGION}/actual`, { key, query: { ...actuals, format: 'arrow' } })).raw);
      const ok = await run([arrow, '--source', 'local_arrow']);
      assert.equal(ok.status, 0, ok.stderr);
      assert.match(ok.stdout, /^local_arrow: actuals: \d+ added, 0 replaced, 0 unchanged; 9 target\(s\), 432 value/);
      const pq = path.join(dir, 'cut.parquet');
      const whole = (await t.get(`${REGION}/actual`, { key, query: { ...actuals, format: 'parquet' } })).raw;
      fs.writeFileSync(pq, whole.subarray(0, whole.length - 50));
      const cut = await run([pq, '--source', 'local_cut']);
      assert.equal(cut.status, 2);
      assert.match(cut.stderr, /^gridcast: cut\.parquet: not a readable Parquet file \(.+\)\n$/);
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify(longRows([1, 2, Number.NaN])).replace('null', '"NaN"'));
      const refused = await run([bad, '--source', 'local_bad']);
      assert.equal(refused.status, 2);
      assert.equal(
        refused.stderr,
        "gridcast: bad.json: 1 bad row(s); nothing was stored\n  row 3: value: 'NaN' is not a finite number (leave it empty for no value)\n",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  function longRows(values: unknown[]) {
    return values.map((value, h) => ({ time_utc: `2026-08-01T${String(h).padStart(2, '0')}:00:00Z`, id: 'ercot_total', value }));
  }
});
