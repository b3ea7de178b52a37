/**
 * `gridcast get` (src/cli/get.ts) as a user runs it: a real child process of the CLI against a
 * live server — chunked windows joined into one file, every format read back, resuming after a
 * failure, nothing but errors when piped, and a clear message for every bad argument.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { okJson, ROOT, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let key: string;
let dir: string;

before(async () => {
  t = await startTestApp();
  key = await t.key({ all: 'enterprise' }, 'get-cli');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-get-'));
});
after(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function get(args: string[], url = `${t.baseUrl}/v1`): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts'), 'get', ...args],
      { cwd: ROOT, env: { ...process.env, GRIDCAST_API_KEY: key, GRIDCAST_URL: url }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const WINDOW = ['--id', 'ercot_total', '--start', '2024-01-01', '--end', '2025-06-30'];

test('a window over 365 days is fetched in chunks and written as one CSV: the same values as the API, nothing printed when piped', async () => {
  const file = path.join(dir, 'ercot.csv');
  const run = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'csv', '-o', file]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '', 'no progress bar when stderr is not a terminal');
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  assert.equal(lines[0], 'time_utc,time_local,ercot_total');
  const api = await okJson(t, '/v1/region/ercot/demand/actual', {
    key,
    query: { id: 'ercot_total', start: '2025-01-01', end: '2025-06-30' },
  });
  const firstOf2025 = lines.findIndex((l) => l.startsWith(`${api.time_utc[0]},`));
  assert.ok(firstOf2025 > 0);
  assert.equal(lines.length - 1, 8784 + api.time_utc.length, '2024 (leap year) and the first half of 2025, each hour once');
  // A float column's whole numbers are written with a decimal point (46984.0): compare the values as numbers.
  const [utc, local, value] = lines[firstOf2025].split(',');
  assert.deepEqual([utc, local, Number(value)], [api.time_utc[0], api.time_local[0], api.values[0][0]]);
  assert.equal(fs.existsSync(`${file}.parts`), false, 'the parts are removed');
});

test('parquet and arrow files hold the same rows (read back with DuckDB and Arrow)', async () => {
  const file = path.join(dir, 'ercot.parquet');
  const run = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'parquet', '-o', file]);
  assert.equal(run.code, 0, run.stderr);
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await db.runAndReadAll(`SELECT count(*) AS n, max(ercot_total) AS peak FROM '${file}'`)).getRowObjects()[0];
  assert.equal(Number(rows.n), 13127);
  const list = path.join(dir, 'plants.arrows');
  const plants = await get(['plant', 'ercot', 'wind', 'list', '--format', 'arrow', '-o', list]);
  assert.equal(plants.code, 0, plants.stderr);
  const { tableFromIPC } = await import('apache-arrow');
  assert.equal(tableFromIPC(fs.readFileSync(list)).numRows, (await okJson<unknown[]>(t, '/v1/plant/ercot/wind/list', { key })).length);
});

test('after a failure the same command fetches only the missing chunks', async () => {
  // A proxy that fails the second chunk once (as a network or server fault would).
  let failed = false;
  const seen: string[] = [];
  const upstream = new URL(t.baseUrl);
  const proxy = http.createServer((req, res) => {
    seen.push(req.url!);
    if (!failed && req.url!.includes('start=2025-01-01')) {
      failed = true;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
      return;
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/v1`;
  try {
    const file = path.join(dir, 'resumed.csv');
    const first = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'csv', '-o', file], url);
    assert.equal(first.code, 1);
    assert.match(
      first.stderr,
      /chunk 2\/2, 2025-01-01 … 2025-06-30\)\. 1 chunk\(s\) are saved in .*resumed\.csv\.parts: run the same command again/,
    );
    assert.equal(fs.existsSync(file), false, 'no half-written file');
    const before = seen.length;
    const second = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'csv', '-o', file], url);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(
      seen.slice(before).map((u) => new URL(u, url).searchParams.get('start')),
      ['2025-01-01'],
      'only the missing chunk',
    );
    assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(path.join(dir, 'ercot.csv'), 'utf8'));
  } finally {
    proxy.close();
  }
});

test('every bad argument is a clear message and exit code 2, before any request', async () => {
  const cases: [string[], RegExp][] = [
    [['regions', 'ercot', 'demand', 'actual', '-o', 'x'], /^gridcast: the first word names the group: one of region, plant/],
    [['region', 'ercot', 'demand', 'nowcast', '-o', 'x'], /'region ercot demand nowcast' is no operation; the region operations are:/],
    [
      ['region', 'texas', 'demand', 'actual', '-o', 'x'],
      /iso: Input should be 'pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso' or 'isone' \(got "texas"\)/,
    ],
    [
      ['region', 'ercot', 'demand', 'actual', '--start', 'nope', '-o', 'x'],
      /start: Input should be a valid datetime or date, input is too short/,
    ],
    [
      ['region', 'ercot', 'demand', 'actual', '--colour', 'red', '-o', 'x'],
      /unknown option --colour; this operation takes --start, --end, --id/,
    ],
    [['region', 'ercot', 'demand', 'actual', '--format', 'xml', '-o', 'x'], /--format is one of json, csv, parquet, arrow \(got 'xml'\)/],
    [['region', 'ercot', 'demand', 'actual'], /get needs -o FILE/],
  ];
  for (const [args, message] of cases) {
    const run = await get(args, 'http://127.0.0.1:9/v1');
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
  }
});
