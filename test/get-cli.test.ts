/**
 * `gridcast get` (src/cli/get.ts) as a user runs it: a real child process of the CLI against a
 * live server — chunked windows joined into one file, every format read back, resuming after a
 * failure, nothing but errors when piped, and a clear message for every bad argument.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { GET_USAGE } from '../src/cli/usage.ts';
import { gridcastCli, okJson, ROOT, startTestApp, type TestApp } from './helpers.ts';
import { closedPort, startFaultServer } from './network-faults.ts';

/** The compiled CLI (helpers.ts, gridcastCli). */
let cli: string;
let t: TestApp;
let key: string;
let dir: string;

before(async () => {
  cli = await gridcastCli();
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
      [cli, 'get', ...args],
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

/**
 * A proxy in front of the test server that lets `intercept` answer a request itself (returning
 * true) — a fault — and forwards every other request; resolves with its /v1 URL and server.
 */
async function faultyProxy(intercept: (req: http.IncomingMessage, res: http.ServerResponse) => boolean) {
  const upstream = new URL(t.baseUrl);
  const proxy = http.createServer((req, res) => {
    if (intercept(req, res)) return;
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return { proxy, url: `http://127.0.0.1:${(proxy.address() as { port: number }).port}/v1` };
}

test('after a failure the same command fetches only the missing chunks', async () => {
  // A proxy that fails the second chunk once (as a network or server fault would).
  let failed = false;
  const seen: string[] = [];
  const { proxy, url } = await faultyProxy((req, res) => {
    seen.push(req.url!);
    if (failed || !req.url!.includes('start=2025-01-01')) return false;
    failed = true;
    res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    return true;
  });
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

/**
 * The `gridcast get` command lines of README.md's shell blocks and of the usage text's
 * examples. The README writes the command as `npm run -s gridcast --` (from a checkout); the
 * test runs the same CLI (compiled: gridcastCli in helpers.ts) as a shell function `gridcast`, in
 * bash with pipefail, in an empty directory. The service and the key come from
 * GRIDCAST_URL and GRIDCAST_API_KEY, the variables the README's block exports.
 */
function documentedExamples(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const fromReadme = shellBlocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => /^(npm run -s gridcast -- |gridcast )get /.test(line))
    .map((line) => line.replace(/^npm run -s gridcast -- /, 'gridcast '));
  // The usage text's examples are the lines that start with `gridcast get` and a group (the synopsis has GROUP).
  const fromUsage = GET_USAGE.split('\n')
    .map((line) => line.trim())
    .filter((line) => /^gridcast get [a-z]/.test(line));
  assert.ok(fromReadme.length >= 4, `README examples found: ${fromReadme.join(' / ')}`);
  assert.ok(fromUsage.length >= 2, `usage examples found: ${fromUsage.join(' / ')}`);
  return [...fromReadme, ...fromUsage];
}

test('every `gridcast get` example in README.md and in the usage text works as printed', async () => {
  for (const example of documentedExamples()) {
    const cwd = fs.mkdtempSync(path.join(dir, 'example-'));
    const script = `set -o pipefail\ngridcast() { ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} "$@"; }\n${example.replace(/\s+#.*$/, '')}\n`;
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        'bash',
        ['-c', script],
        { cwd, env: { ...process.env, GRIDCAST_API_KEY: key, GRIDCAST_URL: `${t.baseUrl}/v1` }, timeout: 120_000, maxBuffer: 64 << 20 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    assert.equal(run.code, 0, `${example}\n${run.stderr}`);
    assert.equal(run.stderr, '', example);
    const output = /-o (\S+)/.exec(example)![1];
    if (output === '-') assert.ok(run.stdout.length > 0, `${example}: prints the data`);
    else {
      assert.ok(fs.statSync(path.join(cwd, output)).size > 0, `${example}: writes ${output}`);
      assert.deepEqual(fs.readdirSync(cwd), [output], `${example}: nothing else left (no parts)`);
    }
  }
});

test('a download that running again cannot mend (a 4xx) removes its parts', async () => {
  // The continuous history starts 2026-01-01: a window in 2025 is a 422, nothing to resume.
  const file = path.join(dir, 'before-history.parquet');
  const early = await get([
    'region',
    'ercot',
    'demand',
    'continuous',
    '--start',
    '2025-01-01',
    '--end',
    '2025-12-31',
    '--format',
    'parquet',
    '-o',
    file,
  ]);
  assert.equal(early.code, 1);
  assert.match(
    early.stderr,
    /^gridcast: 422: query\.end: Value error, no forecast data in the requested window: continuous forecasts exist for local days from 2026-01-01 .*\(GET .*\/v1\/region\/ercot\/demand\/continuous\?start=2025-01-01&end=2025-12-31\)\.\n$/,
  );
  assert.equal(fs.existsSync(`${file}.parts`), false, 'no parts left');
  assert.equal(fs.existsSync(file), false);
  // A 403 on the second chunk of two: the first chunk's part goes too.
  const { proxy, url } = await faultyProxy((req, res) => {
    if (!req.url!.includes('start=2025-01-01')) return false;
    res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: [{ type: 'error', msg: 'No subscription' }] }));
    return true;
  });
  try {
    const refused = path.join(dir, 'refused.csv');
    const run = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'csv', '-o', refused], url);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^gridcast: 403: No subscription \(GET .*\) \(chunk 2\/2, 2025-01-01 … 2025-06-30\)\.\n$/);
    assert.equal(fs.existsSync(`${refused}.parts`), false, 'no parts left');
  } finally {
    proxy.close();
  }
});

test('-o - into a reader that stops early (| head -c 300) ends quietly, with no stack trace', async () => {
  // Every ERCOT wind plant for a month: megabytes, far more than a pipe holds.
  const child = spawn(
    process.execPath,
    [cli, 'get', 'plant', 'ercot', 'wind', 'continuous', '--start', '2026-05-01', '--end', '2026-05-31', '--format', 'csv', '-o', '-'],
    {
      cwd: ROOT,
      env: { ...process.env, GRIDCAST_API_KEY: key, GRIDCAST_URL: `${t.baseUrl}/v1` },
    },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let head = Buffer.alloc(0);
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (c: Buffer) => {
      head = Buffer.concat([head, c]);
      if (head.length >= 300) {
        child.stdout.destroy();
        resolve();
      }
    }),
  );
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.ok(head.toString('utf8', 0, 300).startsWith('time_utc,time_local,'));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});

const ERASE_TO_END = '\x1b[K';

/** What a terminal shows after `text`: carriage returns and "erase to end of line" applied. */
function screen(text: string): string[] {
  return text.split('\n').map((line) => {
    let shown = '';
    let cursor = 0;
    for (const part of line.split(new RegExp(`(\r|${ERASE_TO_END.replace('[', '\\[')})`))) {
      if (part === '\r') cursor = 0;
      else if (part === ERASE_TO_END) shown = shown.slice(0, cursor);
      else {
        shown = shown.slice(0, cursor) + part + shown.slice(cursor + part.length);
        cursor += part.length;
      }
    }
    return shown;
  });
}

test('on a terminal the progress bar is drawn and erased at the end: nothing of it is left on the screen', async () => {
  const file = path.join(dir, 'tty.csv');
  // script(1) runs the command on a pseudo-terminal and copies what it shows.
  const command = [process.execPath, cli, 'get', 'region', 'ercot', 'demand', 'actual', ...WINDOW, '--format', 'csv', '-o', file]
    .map((a) => `'${a}'`)
    .join(' ');
  const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { cwd: ROOT, env: { ...process.env, GRIDCAST_API_KEY: key, GRIDCAST_URL: `${t.baseUrl}/v1` }, timeout: 120_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    ),
  );
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /\[#{15}\.{15}\] 1\/2 2025-01-01 … 2025-06-30/, 'the bar was drawn');
  assert.deepEqual(
    screen(run.stdout).filter((line) => line !== ''),
    [],
    'and nothing is left of it',
  );
});

test('network failures name the URL and the cause: connection refused, time-out, a server that dies mid-answer', async () => {
  const port = await closedPort();
  const refused = await get(['gas', 'forecast', '--id', 'henry_hub', '-o', path.join(dir, 'gas.json')], `http://127.0.0.1:${port}/v1`);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    `gridcast: GET http://127.0.0.1:${port}/v1/gas/forecast?id=henry_hub: connection refused: nothing listens at 127.0.0.1:${port} (is the service running?) (ECONNREFUSED).\n`,
  );
  const hang = await startFaultServer('hang');
  const die = await startFaultServer('die');
  try {
    const slow = await get(['gas', 'forecast', '--id', 'henry_hub', '--timeout', '0.5', '-o', path.join(dir, 'gas.json')], hang.baseUrl);
    assert.equal(slow.code, 1);
    assert.equal(slow.stderr, `gridcast: GET ${hang.baseUrl}/gas/forecast?id=henry_hub: no complete answer within 0.5 s (time-out).\n`);
    const cut = await get(['region', 'ercot', 'demand', 'actual', ...WINDOW, '-o', path.join(dir, 'cut.json')], die.baseUrl);
    assert.equal(cut.code, 1);
    assert.equal(
      cut.stderr,
      `gridcast: GET ${die.baseUrl}/region/ercot/demand/actual?id=ercot_total&start=2024-01-01&end=2024-12-31: the connection closed before the whole answer arrived (terminated: other side closed) (UND_ERR_SOCKET) (chunk 1/2, 2024-01-01 … 2024-12-31).\n`,
    );
  } finally {
    await hang.close();
    await die.close();
  }
});
