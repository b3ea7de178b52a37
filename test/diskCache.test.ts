/**
 * The block cache's disk tier (query/diskBlocks.ts): a restart serves what the last process
 * computed, byte for byte what a cold computation serves; damaged files and other worlds'
 * files are never served; the directory stays within its budget, least recently used first;
 * several processes share it; a writer killed with SIGKILL leaves no partial file behind.
 *
 * The servers here compute on the test's thread (workers: 0), whose block cache is the
 * process's one: `blockCache.clear()` between two servers is the restart's empty memory.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blockCache } from '../src/query/blockCache.ts';
import { decodeSegment, DiskBlocks, encodeSegment, StoredSegment } from '../src/query/diskBlocks.ts';
import { worldVersion } from '../src/query/worldVersion.ts';
import { DEFAULT_WORLD_SEED } from '../src/world/weather/world.ts';
import { check, expectedBlock } from './diskCacheChild.ts';
import { createKey, openTestStore, ROOT, startServer, type ServerOptions, type TestStore } from './helpers.ts';

const CHILD = path.join(ROOT, 'test', 'diskCacheChild.ts');
const REQUESTS = [
  '/v1/plant/ercot/wind/continuous?start=2026-03-01&end=2026-03-06',
  '/v1/plant/caiso/solar/forecast?forecasted_by=2026-06-14T06:00:00Z',
  '/v1/region/ercot/demand/ensemble?id=ercot_total&forecasted_by=2026-05-02T12:00:00Z',
];

let ts: TestStore;
let key: string;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-disk-cache-'));

/** The bodies of `paths` from a new server (after emptying the memory cache: a fresh process); its disk tier's stats. */
async function serve(options: ServerOptions, paths = REQUESTS) {
  blockCache.clear();
  const server = await startServer(ts.store, options);
  const disk = blockCache.diskTier;
  try {
    const bodies: string[] = [];
    for (const p of paths) {
      const res = await server.get(p, { key });
      assert.equal(res.status, 200, `${p}: ${res.text.slice(0, 300)}`);
      bodies.push(res.text);
    }
    return { bodies, disk };
  } finally {
    await server.close(); // waits for the disk writes
  }
}

/** The segment files under a cache root (temporary files left out), by world version directory. */
function segmentFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .flatMap((dir) => fs.readdirSync(path.join(root, dir)).map((f) => path.join(root, dir, f)))
    .filter((f) => !path.basename(f).startsWith('.tmp-'));
}

before(async () => {
  ts = await openTestStore();
  key = await createKey(ts.store, { all: 'enterprise' });
});

after(async () => {
  blockCache.clear();
  await ts.close();
});

describe('a restart with the disk cache', () => {
  const root = tmp();
  let cold: string[];
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('serves what the last process computed, equal to a cold computation, computing nothing', async () => {
    cold = (await serve({})).bodies;
    const first = await serve({ blockCacheDir: root });
    assert.deepEqual(first.bodies, cold);
    const files = segmentFiles(root).length;
    assert.ok(files > 0 && first.disk!.stats.writes >= files, 'the first server wrote its blocks');
    const again = await serve({ blockCacheDir: root });
    assert.deepEqual(again.bodies, cold);
    assert.equal(again.disk!.stats.reads, segmentFiles(root).length, 'every segment was read from disk');
    assert.equal(again.disk!.stats.writes, 0, 'nothing was computed (so nothing new was written)');
  });

  test('ignores and removes a corrupted or truncated file, and serves cold values', async () => {
    const [corrupt, truncated] = segmentFiles(root);
    const originals = [fs.readFileSync(corrupt), fs.readFileSync(truncated)];
    const flipped = Buffer.from(originals[0]);
    flipped[flipped.length - 3] ^= 0x40; // one value's bits: only the checksum can tell
    fs.writeFileSync(corrupt, flipped);
    fs.writeFileSync(truncated, originals[1].subarray(0, originals[1].length >> 1));
    const served = await serve({ blockCacheDir: root });
    assert.deepEqual(served.bodies, cold);
    assert.equal(served.disk!.stats.damaged, 2);
    // The damaged segments were computed again and written whole.
    assert.deepEqual([fs.readFileSync(corrupt), fs.readFileSync(truncated)], originals);
  });

  test('of a changed world misses: another seed serves its own values', async () => {
    const request = [REQUESTS[0]];
    const otherCold = (await serve({ seed: 7 }, request)).bodies;
    assert.notDeepEqual(otherCold, [cold[0]], 'the seed changes the values');
    const other = await serve({ blockCacheDir: root, seed: 7 }, request);
    assert.deepEqual(other.bodies, otherCold);
    assert.equal(other.disk!.stats.reads, 0, "the other world's blocks were not read");
    assert.equal(fs.readdirSync(root).length, 2, 'one directory per world version');
    assert.notEqual(worldVersion(7), worldVersion(DEFAULT_WORLD_SEED));
  });
});

test('a cache directory that cannot be written leaves the service running without it', async () => {
  const file = path.join(tmp(), 'a-file');
  fs.writeFileSync(file, '');
  try {
    const cold = await serve({}, [REQUESTS[0]]);
    const served = await serve({ blockCacheDir: path.join(file, 'block-cache') }, [REQUESTS[0]]);
    assert.equal(served.disk, null, 'no disk tier');
    assert.deepEqual(served.bodies, cold.bodies);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

describe('the disk tier', () => {
  test('stays within its budget, removing the least recently used segments first', async () => {
    const root = tmp();
    try {
      const version = 'v-test';
      const segmentBytes = 32 * 1000 * 8; // 32 blocks of 1,000 values (plus a small header)
      const fill = (disk: DiskBlocks, segment: string) => {
        for (let k = 0; k < 32; k++) disk.write(segment, `b${k}`, expectedBlock(segment, `b${k}`, 1000));
      };
      let disk = new DiskBlocks({ root, version, budgetBytes: 3.5 * segmentBytes });
      for (const s of ['a', 'b', 'c']) {
        fill(disk, s);
        await disk.settle();
        await new Promise((r) => setTimeout(r, 20)); // distinct modification times
      }
      // A new process reads a: a becomes the most recently used.
      disk = new DiskBlocks({ root, version, budgetBytes: 3.5 * segmentBytes });
      assert.ok(disk.read('a'));
      await disk.settle();
      await new Promise((r) => setTimeout(r, 20));
      fill(disk, 'd'); // four segments: over budget
      await disk.settle();
      const present = ['a', 'b', 'c', 'd'].filter((s) => disk.read(s) !== null);
      assert.deepEqual(present, ['a', 'd'], 'b and c, least recently used, were removed down to 80 % of the budget');
      assert.equal(disk.stats.evicted, 2);
      const bytes = segmentFiles(root).reduce((sum, f) => sum + fs.statSync(f).size, 0);
      assert.ok(bytes <= 3.5 * segmentBytes, `${bytes} bytes on disk`);
      assert.deepEqual(check(disk.read('d')!, 'd'), { verified: 32, wrong: 0 });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('is shared by two processes writing and reading one directory at once', async () => {
    const root = tmp();
    try {
      const run = (me: string, other: string) =>
        new Promise<{ verified: number; wrong: number; missing: number }>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'share', root, 'v-share', me, other, '24'], { cwd: ROOT });
          let out = '';
          let err = '';
          child.stdout.on('data', (c: Buffer) => (out += c.toString()));
          child.stderr.on('data', (c: Buffer) => (err += c.toString()));
          child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child ${me}: ${code} ${err}`))));
        });
      const [x, y] = await Promise.all([run('x', 'y'), run('y', 'x')]);
      // 24 of the other's segments and 24 shared ones, 32 blocks each.
      assert.deepEqual(x, { verified: 48 * 32, wrong: 0, missing: 0 });
      assert.deepEqual(y, { verified: 48 * 32, wrong: 0, missing: 0 });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('a writer killed with SIGKILL leaves no partial file to be served, and its temporary files are cleared later', async () => {
    const root = tmp();
    try {
      const version = 'v-kill';
      for (const delayMs of [0, 37, 150, 400]) {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'write', root, version], { cwd: ROOT });
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', () => resolve());
          child.on('exit', (code) => reject(new Error(`writer exited with ${code}`)));
        });
        await new Promise((r) => setTimeout(r, delayMs));
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      const files = segmentFiles(root);
      assert.ok(files.length >= 1, 'the writers wrote whole segments before they were killed');
      // Every segment file there is whole: its header names its segment, and it decodes intact.
      for (const file of files) {
        const bytes = fs.readFileSync(file);
        const segment = (JSON.parse(bytes.toString('utf8', 24, 24 + bytes.readUInt32LE(12))) as { segment: string }).segment;
        assert.ok(decodeSegment(bytes, version, segment), `${path.basename(file)} is whole`);
      }
      const disk = new DiskBlocks({ root, version, budgetBytes: 1 << 30 });
      for (let i = 0; i < 8; i++) {
        const stored = disk.read(`big-${i}`);
        if (stored) assert.deepEqual(check(stored, `big-${i}`), { verified: 32, wrong: 0 });
      }
      assert.equal(disk.stats.damaged, 0);
      // A writer killed mid-write leaves its temporary file; once stale, the next scan removes it.
      const temps = () => fs.readdirSync(disk.dir).filter((f) => f.startsWith('.tmp-'));
      fs.writeFileSync(path.join(disk.dir, '.tmp-999999-0-1'), 'a writer killed long ago');
      const old = Date.now() / 1000 - 3600;
      for (const t of temps()) fs.utimesSync(path.join(disk.dir, t), old, old);
      await new DiskBlocks({ root, version, budgetBytes: 1 << 30 }).settle();
      assert.deepEqual(temps(), []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

test('a segment read from its file finds each block by its exact name, in any order, a small file as a large one', () => {
  // Names that begin alike (a lookup compares names in place in the file's text of names) and
  // lengths from none to a large file's (whose values are read in place, not copied).
  for (const length of [0, 3, 40_000]) {
    const blocks = new Map<string, Float64Array>();
    for (const name of ['1:2', '1:23', '1:234', '', '12:3', 'ü:9']) blocks.set(name, expectedBlock('s', name, length));
    const dir = tmp();
    try {
      const file = path.join(dir, 'segment');
      fs.writeFileSync(file, encodeSegment('v', 's', StoredSegment.of(blocks).picks()));
      const stored = decodeSegment(fs.readFileSync(file), 'v', 's')!;
      const names = [...blocks.keys()];
      // In order (as requests ask), then backwards, then in order again from the middle.
      for (const name of [...names, ...[...names].reverse(), ...names.slice(2)]) {
        assert.deepEqual(stored.get(name), blocks.get(name), `block ${JSON.stringify(name)} of ${length} values`);
      }
      for (const missing of ['1', '1:2345', '2', '1:2 ']) assert.equal(stored.get(missing), undefined, `no block ${missing}`);
      assert.deepEqual(check(stored, 's'), { verified: names.length, wrong: 0 });
      assert.equal(decodeSegment(fs.readFileSync(file), 'v', 'another segment'), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
});
