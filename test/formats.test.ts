/**
 * Output formats: every format is read back with a reader that shares no code with our writers
 * (DuckDB for CSV and Parquet; the Apache Arrow reader for Arrow IPC) and every value is compared
 * with the JSON response of the same request; plus negotiation, headers, errors and OpenAPI.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { BLOCK_VALUES } from '../src/api/writers/table.ts';
import { validateParams } from '../src/api/params.ts';
import { ROUTE_BY_PATH } from '../src/api/routes/index.ts';
import { chooseOutput } from '../src/api/writers/registry.ts';
import { blockCache } from '../src/query/blockCache.ts';
import { okJson, startTestApp, type TestApp, type Timeseries } from './helpers.ts';

let t: TestApp;
let key: string;
let duck: DuckDBConnection;
let tmp: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ ercot: 'enterprise', nyiso: 'enterprise', pjm: 'enterprise' });
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-formats-'));
});
after(async () => {
  duck.closeSync();
  fs.rmSync(tmp, { recursive: true, force: true });
  await t.close();
});

type Row = Record<string, unknown>;

/**
 * A table as columns (names in order, one array per column). Compared column by column: the
 * wide cells case holds over two million values, and row objects of thousands of keys made the
 * comparison itself most of this file's time.
 */
interface Table {
  names: string[];
  columns: unknown[][];
}

/** The wide name of a label, as documented: levels joined by |, with \ and | escaped by \. */
const wideName = (label: string[]) => label.map((l) => l.replace(/[\\|]/g, (c) => '\\' + c)).join('|');

/** The JSON response as the table of each layout, values as JSON gives them. */
function expectedTable(ts: Timeseries, layout: 'wide' | 'long'): Table {
  if (layout === 'wide') {
    return { names: ['time_utc', 'time_local', ...ts.columns.map(wideName)], columns: [ts.time_utc, ts.time_local, ...ts.values] };
  }
  const depth = Math.max(...ts.columns.map((l) => l.length));
  const repeat = <T>(each: (c: number) => T[]) => ts.columns.flatMap((_, c) => each(c));
  return {
    names: ['time_utc', 'time_local', ...Array.from({ length: depth }, (_, l) => (l === 0 ? 'id' : `label_${l}`)), 'value'],
    columns: [
      repeat(() => ts.time_utc),
      repeat(() => ts.time_local),
      ...Array.from({ length: depth }, (_, l) => repeat((c) => ts.time_utc.map(() => ts.columns[c][l] ?? null))),
      repeat((c) => ts.values[c]),
    ],
  };
}

/** Records (every one with the same fields) as a table. */
function tableOfRows(rows: Row[]): Table {
  const names = Object.keys(rows[0] ?? {});
  return { names, columns: names.map((name) => rows.map((r) => r[name])) };
}

/** A table's column by name, each value mapped. */
function mapColumn(table: Table, name: string, f: (v: unknown) => unknown): void {
  const c = table.names.indexOf(name);
  if (c >= 0) table.columns[c] = table.columns[c].map(f);
}

const isoSecond = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Rows of a query DuckDB answers, every number a JS number. */
async function duckRows(sql: string): Promise<Row[]> {
  const reader = await duck.runAndReadAll(sql);
  return reader
    .getRowObjectsJS()
    .map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))) as Row[];
}

/** The same as a table. */
async function duckTable(sql: string): Promise<Table> {
  const reader = await duck.runAndReadAll(sql);
  const columns = reader
    .getColumnsJS()
    .map((column) => (column.some((v) => typeof v === 'bigint') ? column.map((v) => (typeof v === 'bigint' ? Number(v) : v)) : column));
  return { names: reader.columnNames(), columns };
}

/** The table of a body; `timed`: the table starts with time_utc (a time series, not a list). */
async function readBack(format: 'csv' | 'parquet' | 'arrow', bytes: Buffer, timed = true): Promise<Table> {
  const file = path.join(tmp, `body-${Math.random().toString(36).slice(2)}.${format}`);
  if (format === 'arrow') {
    const arrow = tableFromIPC(bytes);
    const names = arrow.schema.fields.map((f) => f.name);
    // Iterating a vector gives null for a null (toArray() would give the buffer's filler).
    const table = { names, columns: names.map((name) => [...arrow.getChild(name)!] as unknown[]) };
    if (timed) mapColumn(table, 'time_utc', (ms) => isoSecond(ms as number));
    return table;
  }
  fs.writeFileSync(file, bytes);
  if (format === 'parquet' && !timed) return duckTable(`SELECT * FROM read_parquet('${file}')`);
  if (format === 'parquet') {
    // time_utc is a UTC-adjusted TIMESTAMP: DuckDB reads it as TIMESTAMPTZ.
    const table = await duckTable(`SELECT epoch_ms(time_utc) AS time_utc, * EXCLUDE (time_utc) FROM read_parquet('${file}')`);
    mapColumn(table, 'time_utc', (ms) => isoSecond(ms as number));
    return table;
  }
  // CSV as text, so that the comparison sees exactly what was written; empty fields are NULL.
  const table = await duckTable(`SELECT * FROM read_csv('${file}', header = true, all_varchar = true, delim = ',', quote = '"')`);
  table.names.forEach((name, c) => {
    if (!['time_utc', 'time_local', 'id'].includes(name) && !name.startsWith('label_'))
      table.columns[c] = table.columns[c].map((v) => (v === null ? v : Number(v)));
  });
  return table;
}

function assertSameTable(actual: Table, expected: Table, what: string): void {
  assert.deepEqual(actual.names, expected.names, `${what}: columns`);
  expected.columns.forEach((column, c) => {
    const got = actual.columns[c];
    assert.equal(got.length, column.length, `${what}: row count`);
    for (let i = 0; i < column.length; i++) {
      if (got[i] !== column[i]) assert.deepEqual(got[i], column[i], `${what}: ${expected.names[c]}, row ${i}`);
    }
  });
}

const CASES: { name: string; path: string; query: Record<string, string> }[] = [
  {
    name: 'region forecast, all regions',
    path: '/v1/region/ercot/wind/forecast',
    query: { forecasted_by: '2026-06-10T15:00:00Z' },
  },
  // Two label levels ([region, member]).
  {
    name: 'ensemble',
    path: '/v1/region/ercot/demand/ensemble',
    query: { id: 'ercot_total', forecasted_by: '2026-05-02T12:00:00Z' },
  },
  // Three label levels, per-column decimals and nulls (actuals after as_of).
  { name: 'summary', path: '/v1/region/nyiso/summary', query: { as_of: '2026-03-10T12:00:00Z' } },
  // A DST day (23 hours) in the local times.
  {
    name: 'continuous over spring forward',
    path: '/v1/region/pjm/demand/continuous',
    query: { id: 'pjm_total', start: '2026-03-07', end: '2026-03-09' },
  },
];

describe('each format read back by an independent reader equals the JSON', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const json = await okJson(t, c.path, { key, query: c.query });
      assert.ok(json.values.flat().some((v) => v === null) || c.name !== 'summary', 'the summary case has nulls');
      for (const layout of ['wide', 'long'] as const) {
        for (const format of ['csv', 'parquet', 'arrow'] as const) {
          const res = await t.get(c.path, { key, query: { ...c.query, format, layout } });
          assert.equal(res.status, 200, res.text);
          assertSameTable(await readBack(format, res.raw), expectedTable(json, layout), `${c.name} ${format} ${layout}`);
        }
      }
    });
  }

  test('a wide table of thousands of columns: row groups of many rows; DuckDB and Arrow read it as the JSON', async () => {
    // Every PJM cell at resolution 5 over 41 days: more values than one wide block holds, so the
    // rows come from two row slices of the frame.
    const p = '/v1/cells/pjm/demand/continuous';
    const query = { resolution: '5', start: '2026-04-20', end: '2026-05-30' };
    const json = await okJson(t, p, { key, query });
    const columns = json.columns.length;
    assert.ok(columns > 2000 && json.time_utc.length * columns > BLOCK_VALUES, `${columns} columns × ${json.time_utc.length} rows`);
    const expected = expectedTable(json, 'wide');
    for (const format of ['csv', 'parquet', 'arrow'] as const) {
      const res = await t.get(p, { key, query: { ...query, format } });
      assert.equal(res.status, 200, res.text);
      assertSameTable(await readBack(format, res.raw), expected, `wide cells ${format}`);
      if (format === 'parquet') {
        const file = path.join(tmp, 'wide.parquet');
        fs.writeFileSync(file, res.raw);
        const groups = await duckRows(`SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${file}') ORDER BY 1`);
        const rowsPerBlock = Math.floor(BLOCK_VALUES / columns);
        assert.deepEqual(
          groups.map((g) => g.row_group_num_rows),
          [rowsPerBlock, json.time_utc.length - rowsPerBlock],
          'row groups of a block of rows each',
        );
      }
    }
  });

  test('Parquet and Arrow carry model, created_at, units and timezone as metadata', async () => {
    const c = CASES[0];
    const json = await okJson(t, c.path, { key, query: c.query });
    const arrow = tableFromIPC((await t.get(c.path, { key, query: { ...c.query, format: 'arrow' } })).raw);
    assert.equal(arrow.schema.metadata.get('model'), json.model);
    assert.equal(arrow.schema.metadata.get('created_at'), json.created_at);
    assert.equal(arrow.schema.metadata.get('units'), json.units);
    assert.equal(arrow.schema.metadata.get('timezone'), json.timezone);
    const file = path.join(tmp, 'meta.parquet');
    fs.writeFileSync(file, (await t.get(c.path, { key, query: { ...c.query, format: 'parquet' } })).raw);
    const meta = await duckRows(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}')`);
    assert.deepEqual(Object.fromEntries(meta.map((m) => [m.k, m.v])), {
      units: json.units,
      timezone: json.timezone,
      model: json.model,
      created_at: json.created_at,
    });
  });

  test('lists as records: one column per field, nested values (GeoJSON) as JSON text', async () => {
    for (const p of ['/v1/region/ercot/wind/list', '/v1/plant/ercot/solar/list', '/v1/county/ercot/list']) {
      const json = await okJson<Row[]>(t, p, { key });
      const expected = json.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v !== null && typeof v === 'object' ? JSON.stringify(v) : v])),
      );
      for (const format of ['parquet', 'arrow'] as const) {
        const res = await t.get(p, { key, query: { format } });
        assert.equal(res.status, 200, res.text);
        assertSameTable(await readBack(format, res.raw, false), tableOfRows(expected), `${p} ${format}`);
      }
      // CSV has no types: compare the text of each field. A field with a fractional value anywhere
      // is a float column, written as floats throughout (57 as 57.0), so that readers type it so.
      const csv = await t.get(p, { key, query: { format: 'csv' } });
      const file = path.join(tmp, 'list.csv');
      fs.writeFileSync(file, csv.raw);
      const rows = await duckRows(`SELECT * FROM read_csv('${file}', header = true, all_varchar = true, delim = ',', quote = '"')`);
      const floatFields = new Set(
        Object.keys(json[0]).filter((k) => json.some((r) => typeof r[k] === 'number' && !Number.isInteger(r[k]))),
      );
      const text = (k: string, v: unknown) =>
        v === null ? null : floatFields.has(k) && Number.isInteger(v) ? `${v as number}.0` : String(v);
      assertSameTable(
        tableOfRows(rows),
        tableOfRows(expected.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, text(k, v)])))),
        `${p} csv`,
      );
    }
  });

  test('CSV: every value of a float column is written as a float, so readers that infer types get DOUBLE', async () => {
    // ERCOT's cells at night: solar is 0 MW for hours, and many cells' values are whole numbers.
    const cells = '/v1/cells/ercot/solar/forecast';
    const query = { forecasted_by: '2026-06-10T12:00:00Z', format: 'csv' };
    const columnTypes = async (body: Buffer, sample = 100) => {
      const file = path.join(tmp, `types-${Math.random().toString(36).slice(2)}.csv`);
      fs.writeFileSync(file, body);
      // sample_size 100: like polars' default infer_schema_length, only the first rows decide.
      const rows = await duckRows(`DESCRIBE SELECT * FROM read_csv('${file}', sample_size = ${sample})`);
      return new Map(rows.map((r) => [r.column_name as string, r.column_type as string]));
    };
    const wide = await t.get(cells, { key, query });
    assert.equal(wide.status, 200, wide.text);
    const wideTypes = await columnTypes(wide.raw);
    const valueTypes = [...wideTypes].filter(([name]) => !name.startsWith('time_')).map(([, type]) => type);
    assert.ok(valueTypes.length > 100, `${valueTypes.length} cell columns`);
    assert.deepEqual(new Set(valueTypes), new Set(['DOUBLE']));
    const lines = wide.text.trim().split('\r\n');
    assert.ok(
      lines.slice(1).some((l) => l.split(',').slice(2).includes('0.0')),
      'zero is written 0.0',
    );
    for (const line of lines.slice(1)) {
      for (const field of line.split(',').slice(2)) assert.match(field, /^$|[.e]/, `a float field: ${field}`);
    }
    const long = await t.get(cells, { key, query: { ...query, layout: 'long' } });
    assert.equal((await columnTypes(long.raw)).get('value'), 'DOUBLE');
    // Lists: integer fields stay integers, float fields are floats.
    const plants = await t.get('/v1/plant/ercot/solar/list', { key, query: { format: 'csv' } });
    const plantTypes = await columnTypes(plants.raw, 20480);
    assert.equal(plantTypes.get('id'), 'BIGINT');
    assert.equal(plantTypes.get('capacity_mw'), 'DOUBLE');
  });
});

describe('negotiation and headers', () => {
  const p = '/v1/region/ercot/wind/forecast';
  const query = { id: 'ercot_total', forecasted_by: '2026-06-10T15:00:00Z' };

  test('Accept picks the format; format= wins over Accept; anything else is JSON', async () => {
    const cases: [Record<string, string>, Record<string, string>, string][] = [
      [{}, { accept: 'text/csv' }, 'text/csv; charset=utf-8'],
      [{}, { accept: 'application/vnd.apache.parquet' }, 'application/vnd.apache.parquet'],
      [{}, { accept: 'application/vnd.apache.arrow.stream' }, 'application/vnd.apache.arrow.stream'],
      [{}, { accept: 'text/csv;q=0.5, application/vnd.apache.parquet;q=0.9' }, 'application/vnd.apache.parquet'],
      [{}, { accept: 'text/csv;q=0, application/json' }, 'application/json'],
      [{}, { accept: 'text/html, */*' }, 'application/json'],
      [{ format: 'json' }, { accept: 'text/csv' }, 'application/json'],
      [{ format: 'arrow' }, { accept: 'text/csv' }, 'application/vnd.apache.arrow.stream'],
    ];
    for (const [extra, headers, type] of cases) {
      const res = await t.get(p, { key, query: { ...query, ...extra }, headers });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], type, JSON.stringify([extra, headers]));
    }
  });

  test('JSON is unchanged by the new parameters and has no Content-Disposition; files have a name', async () => {
    const plain = await t.get(p, { key, query });
    const explicit = await t.get(p, { key, query: { ...query, format: 'json', layout: 'wide' } });
    assert.equal(explicit.text, plain.text);
    assert.equal(plain.headers['content-disposition'], undefined);
    const csv = await t.get(p, { key, query: { ...query, format: 'csv' } });
    assert.equal(
      csv.headers['content-disposition'],
      'attachment; filename="region_ercot_wind_forecast_forecasted_by-2026-06-10T150000Z_id-ercot_total.csv"',
    );
    const arrow = await t.get(p, { key, query: { ...query, format: 'arrow' } });
    assert.equal(
      arrow.headers['content-disposition'],
      'attachment; filename="region_ercot_wind_forecast_forecasted_by-2026-06-10T150000Z_id-ercot_total.arrows"',
    );
  });

  test('the file name carries the query: different requests, different names; defaults and the key are left out', async () => {
    const nameOf = async (path: string, q: Record<string, string>) => {
      const res = await t.get(path, { key, query: { format: 'csv', ...q } });
      assert.equal(res.status, 200, res.text);
      return /^attachment; filename="([^"]+)"$/.exec(res.headers['content-disposition'] as string)?.[1];
    };
    const cont = '/v1/region/ercot/demand/continuous';
    assert.equal(
      await nameOf(cont, { start: '2026-01-01', end: '2026-02-01' }),
      'region_ercot_demand_continuous_start-2026-01-01_end-2026-02-01.csv',
    );
    assert.equal(
      await nameOf(cont, { start: '2026-03-01', end: '2026-03-02', id: 'ercot_total', layout: 'long', tz: 'America/New_York' }),
      'region_ercot_demand_continuous_start-2026-03-01_end-2026-03-02_id-ercot_total_layout-long_tz-America-New_York.csv',
    );
    // A parameter given at its default names the same data as leaving it out; the key never shows.
    assert.equal(
      await nameOf(cont, { start: '2026-01-01', end: '2026-02-01', layout: 'wide', api_key: key }),
      'region_ercot_demand_continuous_start-2026-01-01_end-2026-02-01.csv',
    );
    // Instants are written in UTC without colons, whatever offset the request used.
    assert.equal(
      await nameOf('/v1/region/ercot/wind/forecast', { forecasted_by: '2026-06-10T10:00:00-05:00' }),
      'region_ercot_wind_forecast_forecasted_by-2026-06-10T150000Z.csv',
    );
    // Long values keep the name bounded (200 characters) and distinct (a hash of the whole name).
    const def = ROUTE_BY_PATH.get('/region/{iso}/{metric}/continuous')!;
    const longNames = ['a', 'b'].map((last) => {
      const { values } = validateParams(def.params, { path: { iso: 'ercot', metric: 'demand' }, query: { id: 'x'.repeat(300) + last } });
      return chooseOutput(def, values, 'text/csv').headers['content-disposition'];
    });
    assert.match(longNames[0], /^attachment; filename="region_ercot_demand_continuous_id-x+-[0-9a-f]{12}\.csv"$/);
    assert.equal(longNames[0].length, 'attachment; filename=""'.length + 200);
    assert.notEqual(longNames[0], longNames[1]);
  });

  test('unknown format or layout is a pydantic-style 422', async () => {
    const bad = await t.get(p, { key, query: { ...query, format: 'xml', layout: 'tall' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.json(), {
      detail: [
        {
          type: 'enum',
          loc: ['query', 'format'],
          msg: "Input should be 'json', 'csv', 'parquet' or 'arrow'",
          input: 'xml',
          ctx: { expected: "'json', 'csv', 'parquet' or 'arrow'" },
        },
        {
          type: 'enum',
          loc: ['query', 'layout'],
          msg: "Input should be 'wide' or 'long'",
          input: 'tall',
          ctx: { expected: "'wide' or 'long'" },
        },
      ],
    });
  });

  test('a large body is streamed (chunked), not sent with a length computed up front', async () => {
    for (const format of ['csv', 'parquet', 'arrow']) {
      const res = await t.get('/v1/region/pjm/demand/actual', {
        key,
        query: { start: '2026-01-01', end: '2026-03-31', format, layout: 'long' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers['transfer-encoding'], 'chunked', format);
      assert.equal(res.headers['content-length'], undefined, format);
    }
  });

  test('a client that goes away stops the computing of any format', async () => {
    const { port } = new URL(t.baseUrl);
    // Each case a whole year no earlier case has computed: a wide table needs every column
    // for its first rows, so half a year could be computed before the client's leaving is seen.
    const cases = [
      ['csv', 'long', 'wind', '2023'],
      ['parquet', 'long', 'wind', '2024'],
      ['arrow', 'long', 'wind', '2025'],
      ['csv', 'wide', 'solar', '2023'],
    ] as const;
    for (const [format, layout, metric, year] of cases) {
      const path = `/v1/plant/ercot/${metric}/backcast?start=${year}-01-01&end=${year}-12-31&format=${format}&layout=${layout}`;
      const before = blockCache.size;
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () =>
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`),
        );
        socket.on('error', () => {});
        // Gone once computing has started (a cold year of plants takes ~0.3 s on a quiet machine,
        // so a fixed delay could outlast it).
        const started = setInterval(() => {
          if (blockCache.size === before) return;
          clearInterval(started);
          socket.destroy();
          resolve();
        }, 5);
      });
      // Wait until computing has stopped (no new block for 500 ms; a loaded machine notices the
      // closed socket later), then check it stopped early: a computation that ignored the client
      // would only go quiet after the whole year.
      let computed = blockCache.size;
      for (let waited = 0; waited < 20_000; waited += 500) {
        await new Promise((r) => setTimeout(r, 500));
        if (blockCache.size === computed) break;
        computed = blockCache.size;
      }
      const plants = (await okJson<unknown[]>(t, `/v1/plant/ercot/${metric}/list`, { key })).length;
      assert.ok(computed - before < (plants * 365) / 2, `${format} ${layout}: ${computed - before} blocks computed`);
    }
  });

  test('the OpenAPI document lists every content type of each 200 response and the new parameters', async () => {
    const doc = await okJson<any>(t, '/v1/openapi.json');
    for (const [route, ops] of Object.entries<any>(doc.paths)) {
      const content = ops.get.responses['200'].content;
      assert.deepEqual(
        Object.keys(content),
        ['application/json', 'text/csv', 'application/vnd.apache.parquet', 'application/vnd.apache.arrow.stream'],
        route,
      );
      const names = ops.get.parameters.map((x: any) => x.name);
      assert.ok(names.includes('format'), route);
      assert.equal(names.includes('layout'), content['application/json'].schema.type !== 'array', route);
    }
  });
});
