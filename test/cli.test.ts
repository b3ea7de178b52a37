/**
 * Acceptance ("Foundation"): the `gridcast` command as an operator runs it — real child
 * processes of the compiled CLI (src/cli/main.ts, see gridcastCli in helpers.ts) on a temporary
 * data directory.
 *
 * The tests run in order on one data directory: `serve` on the empty directory (demo key,
 * lock held), then `keys create/list/revoke` once the server has stopped.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gridcastCli, NOW_ISO, ROOT, rawRequest, spawnServe } from './helpers.ts';

const KEY_RE = /^gc_[A-Za-z0-9_-]{32}$/;
const ENV: NodeJS.ProcessEnv = { ...process.env, GRIDCAST_NOW: NOW_ISO, GRIDCAST_LOG: 'off' };
delete ENV.GRIDCAST_DATA_DIR;
delete ENV.PORT;
delete ENV.HOST;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function gridcast(args: string[]): Promise<Run> {
  const cli = await gridcastCli();
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: ROOT, env: ENV, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

let dataDir: string;
let server: ChildProcess | undefined;

before(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-cli-'));
});

after(() => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('gridcast serve', () => {
  let stderr = '';
  let baseUrl = '';
  let demoKey = '';
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  test('on an empty data directory prints a demo key once, on stderr, and the URL it listens on', async () => {
    const serve = await spawnServe(['--data', dataDir], { ...ENV, GRIDCAST_LOG: 'on' });
    server = serve.child;
    exited = serve.exited;
    baseUrl = serve.baseUrl;
    stderr = serve.stderr();
    assert.notEqual(new URL(baseUrl).port, '0', 'the bound port, not the requested 0');
    const keys = lines(stderr).filter((l) => KEY_RE.test(l));
    assert.equal(keys.length, 1, `exactly one demo key line in: ${stderr}`);
    demoKey = keys[0];
    assert.equal(stderr.split(demoKey).length - 1, 1, `the key is printed exactly once: ${stderr}`);
    assert.match(stderr, /demo API key key_[0-9a-f]{24}/);
    assert.match(stderr, /Try: KEY=<the key above>; curl -H "X-API-Key: \$KEY"/);
    // stdout is the JSON log stream only, and the key is never on it.
    await rawRequest(baseUrl, '/healthz');
    await new Promise((r) => setTimeout(r, 100));
    const out = serve.stdout();
    assert.ok(out.length > 0, 'the request log is on stdout');
    assert.ok(!out.includes(demoKey), 'the key never reaches the log stream');
    for (const line of lines(out)) assert.doesNotThrow(() => JSON.parse(line), `not a JSON log line: ${line}`);
  });

  test('the demo key works over HTTP, and GRIDCAST_NOW freezes "now"', async () => {
    const list = await rawRequest(baseUrl, '/v1/plant/ercot/wind/list', { 'x-api-key': demoKey });
    assert.equal(list.status, 200, list.text.slice(0, 300));
    const plants = list.json();
    assert.ok(Array.isArray(plants) && plants.length > 0);
    const id = plants[0].id;
    const res = await rawRequest(baseUrl, `/v1/plant/ercot/wind/continuous?id=${id}`, { 'x-api-key': demoKey });
    assert.equal(res.status, 200, res.text.slice(0, 300));
    // Now = 2026-06-15T18:00Z (13:00 CDT): the default window ends with local day 2026-06-16.
    assert.equal(res.json().time_utc.at(-1), '2026-06-17T04:00:00Z');
    const noKey = await rawRequest(baseUrl, '/v1/plant/ercot/wind/list');
    assert.equal(noKey.status, 401);
  });

  test('while it runs, another gridcast process on the same data directory is refused (exit 1, "in use")', async () => {
    const run = await gridcast(['keys', 'list', '--data', dataDir]);
    assert.equal(run.code, 1, `exit code; stderr: ${run.stderr}`);
    assert.match(run.stderr, /^gridcast: The data directory .+ is in use by process \d+ \(gridcast serve/);
    assert.match(run.stderr, /one process at a time/);
    assert.equal(run.stdout, '');
  });

  test('SIGTERM stops the server cleanly and releases the data directory', async () => {
    assert.ok(server, 'the server runs');
    server.kill('SIGTERM');
    const { code, signal } = await exited;
    assert.equal(signal, null, 'it handled SIGTERM itself');
    assert.equal(code, 0);
    assert.equal(fs.existsSync(path.join(dataDir, 'gridcast.lock')), false, 'lock file removed');
    const run = await gridcast(['keys', 'list', '--data', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    const out = lines(run.stdout);
    assert.equal(out.length, 1, `one key (the demo key): ${run.stdout}`);
    assert.match(out[0], /^key_[0-9a-f]{24}\tdemo\tall=enterprise\tactive$/);
    assert.ok(!run.stdout.includes(demoKey), 'the secret is never listed');
  });
});

describe('gridcast keys', () => {
  let id = '';
  let secret = '';

  test('create prints the key alone on the last stdout line and exits 0', async () => {
    const run = await gridcast([
      'keys',
      'create',
      '--name',
      'x',
      '--subscription',
      'ercot=advanced',
      '--subscription',
      'all=core',
      '--data',
      dataDir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const out = lines(run.stdout);
    secret = out.at(-1)!;
    assert.match(secret, KEY_RE);
    const m = /(key_[0-9a-f]{24})/.exec(out.slice(0, -1).join('\n'));
    assert.ok(m, `the key id is shown: ${run.stdout}`);
    id = m[1];
  });

  test('list prints one line per key starting with its id, never the secret', async () => {
    const run = await gridcast(['keys', 'list', '--data', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    const out = lines(run.stdout);
    assert.equal(out.length, 2, run.stdout);
    const line = out.find((l) => l.startsWith(`${id}\t`));
    assert.ok(line, `a line for ${id}: ${run.stdout}`);
    assert.equal(line, `${id}\tx\tall=core,ercot=advanced\tactive`);
    assert.ok(!run.stdout.includes(secret), 'the secret is never listed');
    assert.ok(!run.stdout.includes(secret.slice(3, 15)), 'not even part of it');
  });

  test('revoke ID revokes it, and list shows it revoked', async () => {
    const run = await gridcast(['keys', 'revoke', id, '--data', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `Revoked ${id}\n`);
    const list = await gridcast(['keys', 'list', '--data', dataDir]);
    assert.equal(list.code, 0, list.stderr);
    const line = lines(list.stdout).find((l) => l.startsWith(`${id}\t`));
    assert.match(line ?? '', new RegExp(`^${id}\\tx\\tall=core,ercot=advanced\\trevoked \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`));
    const demo = lines(list.stdout).find((l) => !l.startsWith(`${id}\t`));
    assert.match(demo ?? '', /\tactive$/, 'the other key stays active');
  });

  test('revoking an unknown id exits 1 with a message', async () => {
    const run = await gridcast(['keys', 'revoke', 'key_00000000', '--data', dataDir]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "gridcast: no key with id 'key_00000000'\n");
  });

  test('a bad --subscription exits 2 with a message naming it', async () => {
    const bads = ['foo=bar', 'ercot=gold', 'ercot', 'ercot=core=x'];
    const runs = await Promise.all(
      bads.map((bad) => gridcast(['keys', 'create', '--name', 'y', '--subscription', bad, '--data', dataDir])),
    );
    for (const [i, bad] of bads.entries()) {
      const run = runs[i];
      assert.equal(run.code, 2, `${bad}: exit code`);
      assert.match(run.stderr, new RegExp(`^gridcast: a subscription is ISO=LEVEL\\[@EXPIRES\\] .*\\(got '${bad}'\\)`), bad);
      assert.equal(run.stdout, '', `${bad}: nothing on stdout`);
    }
  });

  test('list marks a subscription that has ended as expired', async () => {
    const created = await gridcast([
      'keys',
      'create',
      '--name',
      'exp',
      '--subscription',
      'pjm=core@2001-01-01',
      '--subscription',
      'miso=core@0001-01-01T00:00:00Z',
      '--data',
      dataDir,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const newId = /(key_[0-9a-f]{24})/.exec(created.stdout)![1];
    const list = await gridcast(['keys', 'list', '--data', dataDir]);
    const line = lines(list.stdout).find((l) => l.startsWith(`${newId}\t`));
    // Year 0001 stays year 0001 (a driver reading the timestamp text once made it 2001).
    assert.equal(line, `${newId}\texp\tmiso=core@0001-01-01T00:00:00Z (expired),pjm=core@2001-01-01T00:00:00Z (expired)\tactive`);
  });

  test('usage with an impossible date exits 2 with a clear message, no stack', async () => {
    for (const [bad, why] of [
      ['2026-13-45', 'month value is outside expected range of 1-12'],
      ['2026-02-30', 'day value is outside expected range'],
      ['9999-99-99', 'month value is outside expected range of 1-12'],
      ['0000-01-01', 'year 0 is out of range'],
    ]) {
      const run = await gridcast(['usage', '--from', bad, '--data', dataDir]);
      assert.equal(run.code, 2, `${bad}: ${run.stderr}`);
      assert.ok(run.stderr.startsWith(`gridcast: --from takes a date YYYY-MM-DD: `), run.stderr);
      assert.ok(run.stderr.includes(why) && run.stderr.includes(`(got '${bad}')`), run.stderr);
      assert.ok(!/\n\s+at /.test(run.stderr), `no stack trace: ${run.stderr}`);
      assert.equal(run.stdout, '');
    }
    const ok = await gridcast(['usage', '--from', '2026-01-01', '--to', '2026-12-31', '--data', dataDir]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(lines(ok.stdout)[0], 'day\tkey\tendpoint\trequests\tvalues');
  });
});

describe('help and usage errors', () => {
  const COMMANDS = ['serve', 'keys', 'usage', 'get', 'ingest', 'sources'];

  test("--help and -h after any command (and after its arguments) print that command's usage only, exit 0", async () => {
    const asks = COMMANDS.map((c) => [c, '--help']).concat([
      ['usage', '-h'],
      ['keys', 'create', '--name', 'x', '--help'],
      ['get', 'region', 'ercot', 'demand', 'actual', '--help'],
      ['serve', '--port', '0', '-h'],
    ]);
    const runs = await Promise.all(asks.map((args) => gridcast(args)));
    for (const [i, args] of asks.entries()) {
      const run = runs[i];
      const command = args[0];
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr, '', args.join(' '));
      assert.ok(run.stdout.startsWith(`Usage:\n  gridcast ${command} `), `${args.join(' ')}:\n${run.stdout}`);
      for (const other of COMMANDS.filter((c) => c !== command))
        assert.ok(!run.stdout.includes(`gridcast ${other} `), `${args.join(' ')}: no usage of ${other}`);
    }
    const all = await gridcast(['--help']);
    assert.equal(all.code, 0);
    for (const command of COMMANDS) assert.ok(all.stdout.includes(`\n  gridcast ${command} `), `gridcast --help shows ${command}`);
  });

  test('a usage mistake is one line and where to look, exit 2', async () => {
    const cases: [string[], string][] = [
      [['get', 'region', 'ercot', 'demand', 'actual'], 'gridcast: get needs -o FILE (or -o - for stdout)\nsee gridcast get --help\n'],
      [['keys', 'create', '--data', dataDir], 'gridcast: keys create needs --name NAME\nsee gridcast keys --help\n'],
      [['serve', '--port', 'x'], 'gridcast: --port takes a port number\nsee gridcast serve --help\n'],
      [['usage', '--colour', 'red'], 'gridcast: unknown option --colour\nsee gridcast usage --help\n'],
      [['frobnicate'], "gridcast: unknown command 'frobnicate' (one of serve, keys, usage, get, ingest, sources)\nsee gridcast --help\n"],
    ];
    const runs = await Promise.all(cases.map(([args]) => gridcast(args)));
    for (const [i, [args, stderr]] of cases.entries()) {
      assert.equal(runs[i].code, 2, args.join(' '));
      assert.equal(runs[i].stderr, stderr, args.join(' '));
      assert.equal(runs[i].stdout, '', args.join(' '));
    }
  });
});
