/**
 * Own data (issue 20): an ingest is one transaction, so `gridcast ingest` killed with SIGKILL
 * while it writes leaves nothing of its file behind: the store opens as before (the embedded
 * store's lock, left by the dead process, is taken over), what was stored before is intact, and
 * the same file then ingests whole. On the embedded store, or on PostgreSQL with
 * GRIDCAST_TEST_BACKEND=postgres (scripts/test-postgres.mjs).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeRunsFile, YEAR_OF_RUNS, type RunsFileSpec } from '../bench/runsFile.ts';
import { ROOT, TEST_BACKEND, createTestDatabase, freshDataDir, gridcastCli, runGridcast, waitFor } from './helpers.ts';

/** 60 days of runs, 460,800 values: the ingest writes a batch (200,000 values) before half the file is read. */
const BIG: RunsFileSpec = { start: '2026-03-01T00:00:00Z', days: 60, runsPerDay: 4, horizon: 192, targets: YEAR_OF_RUNS.targets };
const SMALL: RunsFileSpec = { ...BIG, start: '2026-01-01T00:00:00Z', days: 1, targets: YEAR_OF_RUNS.targets.slice(0, 2) };
/** The share of the file read when the ingest is killed. */
const KILL_AT = 0.6;

let dir: string;
let env: NodeJS.ProcessEnv;
let storeArgs: string[];
let dropDatabase: (() => Promise<void>) | undefined;
let bigFile: string;
let smallFile: string;

before(async () => {
  dir = await freshDataDir('gridcast-kill-');
  env = { ...process.env };
  delete env.DATABASE_URL;
  storeArgs = ['--data', dir];
  if (TEST_BACKEND === 'postgres') {
    const db = await createTestDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
    storeArgs = [];
  }
  bigFile = path.join(dir, 'vendor.csv');
  smallFile = path.join(dir, 'before.csv');
  await writeRunsFile(bigFile, BIG);
  await writeRunsFile(smallFile, SMALL);
});

after(async () => {
  await dropDatabase?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ingestArgs = (file: string, source: string) => [
  'ingest',
  file,
  '--source',
  source,
  '--group',
  'region',
  '--iso',
  'miso',
  '--metric',
  'demand',
  ...storeArgs,
];

const gridcast = (args: string[]) => runGridcast(args, env);

/** How far process `pid` has read `file` (its descriptor's position, from /proc); -1 while it has not opened it. */
function readPosition(pid: number, file: string): number {
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      let target = '';
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed meanwhile
      }
      if (target === file) return Number(/^pos:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1] ?? -1);
    }
  } catch {
    // the process is gone
  }
  return -1;
}

/** `gridcast sources list`: name → runs and forecast values. */
async function sources(): Promise<Record<string, { runs: number; values: number }>> {
  const list = await gridcast(['sources', 'list', ...storeArgs]);
  assert.equal(list.status, 0, list.stderr);
  const [, ...rows] = list.stdout.trim().split('\n');
  return Object.fromEntries(
    rows.map((row) => {
      const [name, , runs, values] = row.split('\t');
      return [name, { runs: Number(runs), values: Number(values) }];
    }),
  );
}

test(
  'gridcast ingest killed with SIGKILL mid-file stores nothing of it; the store opens and the file ingests again',
  { skip: process.platform !== 'linux' && "reads the ingest's progress from /proc" },
  async () => {
    const first = await gridcast(ingestArgs(smallFile, 'before'));
    assert.equal(first.status, 0, first.stderr);
    const stored = await sources();
    assert.deepEqual(stored, { before: { runs: 8, values: 8 * 192 } });

    const child = spawn(process.execPath, [await gridcastCli(), ...ingestArgs(bigFile, 'vendor')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const size = fs.statSync(bigFile).size;
    await waitFor(
      () => readPosition(child.pid!, bigFile) >= KILL_AT * size || child.exitCode !== null,
      'the ingest to read into the file',
      60_000,
    );
    assert.equal(child.exitCode, null, `the ingest ended before it was killed: ${output}`);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    assert.equal(output, '', 'killed before its summary');

    // Nothing of the killed file; what was there before is intact.
    assert.deepEqual(await sources(), stored);

    const again = await gridcast(ingestArgs(bigFile, 'vendor'));
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^vendor: runs: 2400 added, 0 replaced, 0 unchanged; 10 target\(s\), 460800 value\(s\), /);
    assert.deepEqual(await sources(), { ...stored, vendor: { runs: 2400, values: 460_800 } });
  },
);
