/**
 * A separate process using the disk tier of the block cache (query/diskBlocks.ts), for
 * test/diskCache.test.ts. Every block's values are a pure function of its segment and name
 * (expectedBlock), as the service's are, so any process can check what it reads.
 *
 *   share ROOT VERSION ME OTHER N   writes segments own-ME-0..N-1 and shared-0..N-1, then reads
 *                                   the other process's own-OTHER-* (waiting for them) and the
 *                                   shared ones; prints {"verified":…,"wrong":…}
 *   write ROOT VERSION              writes large segments big-0, big-1, … until killed; prints
 *                                   "writing" once the first is on disk
 */
import { pathToFileURL } from 'node:url';
import { DiskBlocks, type StoredSegment } from '../src/query/diskBlocks.ts';

const BLOCKS_PER_SEGMENT = 32;

/** The values of block `key` of `segment`. */
export function expectedBlock(segment: string, key: string, length: number): Float64Array {
  let h = 2166136261;
  for (const c of `${segment}/${key}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return Float64Array.from({ length }, (_, i) => h + i / 8);
}

/** Blocks of `stored` that hold their expected values, and those that do not. */
export function check(stored: StoredSegment, segment: string): { verified: number; wrong: number } {
  let verified = 0;
  let wrong = 0;
  for (let i = 0; i < stored.size; i++) {
    const [key, block] = stored.blockAt(i);
    const expected = expectedBlock(segment, key, block.length);
    if (block.length === expected.length && block.every((v, i) => v === expected[i])) verified++;
    else wrong++;
  }
  return { verified, wrong };
}

function writeSegment(disk: DiskBlocks, segment: string, blockLength: number): void {
  for (let k = 0; k < BLOCKS_PER_SEGMENT; k++) disk.write(segment, `b${k}`, expectedBlock(segment, `b${k}`, blockLength));
}

async function share(root: string, version: string, me: string, other: string, n: number): Promise<void> {
  const disk = new DiskBlocks({ root, version, budgetBytes: 1 << 30 });
  const names = (who: string) => Array.from({ length: n }, (_, j) => `own-${who}-${j}`);
  const shared = Array.from({ length: n }, (_, j) => `shared-${j}`);
  for (let j = 0; j < n; j++) {
    writeSegment(disk, names(me)[j], 24);
    writeSegment(disk, shared[j], 24);
    if (j % 4 === 3) await disk.flush();
  }
  await disk.settle();
  const totals = { verified: 0, wrong: 0, missing: 0 };
  const deadline = Date.now() + 60_000;
  for (const segment of [...names(other), ...shared]) {
    let stored = disk.read(segment);
    while (!stored && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      stored = disk.read(segment);
    }
    if (!stored) {
      totals.missing++;
      continue;
    }
    const c = check(stored, segment);
    totals.verified += c.verified;
    totals.wrong += c.wrong;
  }
  process.stdout.write(JSON.stringify(totals) + '\n');
}

async function writeForever(root: string, version: string): Promise<void> {
  const disk = new DiskBlocks({ root, version, budgetBytes: 1 << 30 });
  for (let i = 0; ; i++) {
    // 32 blocks of 32,768 values: 8 MB a file, so that a kill lands mid-write.
    writeSegment(disk, `big-${i}`, 32_768);
    await disk.flush();
    if (i === 0) process.stdout.write('writing\n');
  }
}

// Run as a script (the test imports expectedBlock and check from it too).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [mode, root, version, ...rest] = process.argv.slice(2);
  if (mode === 'share') await share(root, version, rest[0], rest[1], Number(rest[2]));
  else if (mode === 'write') await writeForever(root, version);
  else throw new Error(`unknown mode ${mode}`);
}
