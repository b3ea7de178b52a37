/**
 * The disk tier of the block cache (blockCache.ts): computed blocks kept in the data directory,
 * so that a restarted process — or another process on the same machine — reads what was
 * computed before instead of computing it again.
 *
 * - Grouping. Blocks are kept in segments, one file each: a segment is what the callers read
 *   together (a plant's blocks of one metric and model over SEGMENT_HOURS of valid time, an
 *   ensemble run's members), so a large request reads a few hundred files, not a file per block.
 * - Atomic. A segment is written to a temporary file in the same directory and renamed over its
 *   name: a reader (any thread or process) opens either the old file or the new one, whole. A
 *   writer killed mid-write leaves only a temporary file, which no reader opens and which is
 *   removed once stale. Two writers of one segment race harmlessly: the last rename wins and
 *   the other's additions are computed again some day — every block is a pure function of its
 *   key, so no write can make another wrong.
 * - Checked. A file carries a CRC-32 of its contents and names its world version and segment:
 *   a file that fails any check (corrupted, truncated, another version's, a hash collision) is
 *   read as a miss, never served, and removed. No fsync: a power cut that leaves a renamed file
 *   empty or torn is caught by the same checks.
 * - Versioned. Files live under a directory named by the world's version (worldVersion.ts), so
 *   a changed world never sees old blocks; old versions' files are the least recently used and
 *   are the first evicted.
 * - Bounded. The files of all versions together stay under the budget (GRIDCAST_DISK_CACHE_MB):
 *   when a process's count of the bytes there passes it, it lists the directory and removes the
 *   least recently used files (modification time: set by each write, and refreshed when a file
 *   is read) down to LOW_WATER of the budget.
 * - Off the request's path. Reads are synchronous (the callers compute synchronously in a
 *   compute worker; a segment is tens of kB). Writes are queued and written asynchronously
 *   (libuv's thread pool) shortly after, so a request never waits for the disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import zlib from 'node:zlib';

/**
 * Valid hours a plant's segment spans (a year: a year-long request reads one or two files per
 * plant). Measured on the large request (240 plants × 324 days): with 32-day segments, reading
 * 2,640 files and indexing their blocks cost about as much as the JSON floor itself; with a
 * year, 240–480 files cost ~0.1× the floor.
 */
export const SEGMENT_HOURS = 24 * 366;
const MAGIC = Buffer.from('GCBLOCKS', 'latin1');
/** magic (8) | crc32 of the rest (4) | header bytes (4) | data bytes (4) | zero (4) */
const PREFIX_BYTES = 24;
/** A segment larger than this is rewritten with only its new blocks (bounds the cost of a rewrite). */
const MAX_SEGMENT_BYTES = 4 * 1024 * 1024;
/** After eviction the files take at most this share of the budget (so scans are not back to back). */
const LOW_WATER = 0.8;
/** A temporary file older than this belongs to a writer that died; it is removed. */
const STALE_TEMP_MS = 10 * 60_000;
/** Writes wait this long for more blocks to batch with. */
const WRITE_DELAY_MS = 50;
/** Blocks queued for writing beyond this are dropped (the cache is an optimisation, not a duty). */
const MAX_QUEUED_BYTES = 256 * 1024 * 1024;
/** A read refreshes its file's recency at most this often. */
const TOUCH_EVERY_MS = 60_000;
const TEMP_PREFIX = '.tmp-';
const FILE_SUFFIX = '.blocks';

export interface DiskBlocksOptions {
  /** The cache's root directory (DATA_DIR/block-cache); each world version has a directory in it. */
  root: string;
  /** Bytes all files under root may take. */
  budgetBytes: number;
  /** The world's version (worldVersion.ts). */
  version: string;
}

interface Header {
  version: string;
  segment: string;
  /** Each block's name within the segment. */
  keys: string[];
  lengths: number[];
}

const pad8 = (n: number) => (n + 7) & ~7;

/**
 * A segment's blocks as read from disk: one array of values and an index, not an object per
 * block — a large request reads tens of thousands of blocks, and creating that many typed
 * arrays would cost as much as writing the response.
 */
export class StoredSegment {
  /** Built on first lookup: a segment just computed is often only written, never looked up. */
  private indexByKey: Map<string, number> | null = null;

  /**
   * Block i's values are `data` from starts[i], or — where starts[i] is negative — `older` from
   * −starts[i] − 1: blocks kept from before a series was computed whole beside it (merged).
   */
  constructor(
    readonly data: Float64Array,
    private readonly keys: string[],
    private readonly starts: Int32Array,
    private readonly lengths: Int32Array,
    private readonly older: Float64Array | null = null,
  ) {}

  /** Block i's values: its array and where they start in it. */
  private place(i: number): { array: Float64Array; from: number } {
    const start = this.starts[i];
    return start >= 0 ? { array: this.data, from: start } : { array: this.older!, from: -start - 1 };
  }

  private get index(): Map<string, number> {
    if (!this.indexByKey) {
      this.indexByKey = new Map();
      for (let i = 0; i < this.keys.length; i++) this.indexByKey.set(this.keys[i], i);
    }
    return this.indexByKey;
  }

  /** Copies block `key` into `into` at `at`; false if the segment does not hold it. */
  copyInto(key: string, into: Float64Array, at: number): boolean {
    const i = this.index.get(key);
    if (i === undefined) return false;
    const start = this.starts[i];
    const array = start >= 0 ? this.data : this.older!;
    const from = start >= 0 ? start : -start - 1;
    const n = this.lengths[i];
    for (let k = 0; k < n; k++) into[at + k] = array[from + k];
    return true;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** Block `key` (a view of the segment's data), or undefined. */
  get(key: string): Float64Array | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.blockAt(i)[1];
  }

  /** Every block, by name (views). */
  *blocks(): Generator<[string, Float64Array]> {
    for (let i = 0; i < this.keys.length; i++) yield this.blockAt(i);
  }

  /** The i-th block: its name and a view of its values. */
  blockAt(i: number): [string, Float64Array] {
    const { array, from } = this.place(i);
    return [this.keys[i], array.subarray(from, from + this.lengths[i])];
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * A segment holding `kept`'s blocks and the given blocks of `values` (each its rows [from, to)),
   * which replace any of `kept`'s of the same name and come last: one or two arrays, so that a
   * series' blocks cost one entry, not one typed array and map entry each. When the blocks are one
   * run of rows (a series computed whole), the segment's data is a view of `values` itself, and
   * the kept blocks they do not replace are copied into a second array: no copy of the new values,
   * no new memory to touch for them (a cold request's series are ~15 MB, and on a loaded machine
   * first touches of new memory cost more than the copy) — so `values` must not change afterwards.
   * (The view keeps all of `values` alive: the segments of a series' other stretches share it.)
   */
  static merged(
    kept: StoredSegment | null,
    blocks: readonly { key: string; from: number; to: number }[],
    values: Float64Array,
  ): StoredSegment {
    const added = new Set(blocks.map((b) => b.key));
    const keptIndices: number[] = [];
    if (kept) for (let i = 0; i < kept.keys.length; i++) if (!added.has(kept.keys[i])) keptIndices.push(i);
    if (blocks.length > 0 && blocks.every((b, i) => i === 0 || b.from === blocks[i - 1].to)) {
      // The new blocks stay where they were computed; the (few) kept ones are copied beside them.
      const first = blocks[0].from;
      const older = new Float64Array(keptIndices.reduce((sum, i) => sum + kept!.lengths[i], 0));
      const keys: string[] = [];
      const starts: number[] = [];
      const lengths: number[] = [];
      let at = 0;
      for (const i of keptIndices) {
        const block = kept!.blockAt(i)[1];
        older.set(block, at);
        keys.push(kept!.keys[i]);
        starts.push(-at - 1);
        lengths.push(block.length);
        at += block.length;
      }
      for (const b of blocks) {
        keys.push(b.key);
        starts.push(b.from - first);
        lengths.push(b.to - b.from);
      }
      return new StoredSegment(
        values.subarray(first, blocks[blocks.length - 1].to),
        keys,
        Int32Array.from(starts),
        Int32Array.from(lengths),
        older.length > 0 ? older : null,
      );
    }
    const keys: string[] = [];
    const lengths: number[] = [];
    let total = 0;
    for (const i of keptIndices) {
      keys.push(kept!.keys[i]);
      lengths.push(kept!.lengths[i]);
      total += kept!.lengths[i];
    }
    for (const b of blocks) {
      keys.push(b.key);
      lengths.push(b.to - b.from);
      total += b.to - b.from;
    }
    const data = new Float64Array(total);
    const starts = new Int32Array(keys.length);
    let at = 0;
    let k = 0;
    // Element loops, not set(subarray): a view per block would cost an allocation each.
    const copy = (from: Float64Array, start: number, length: number) => {
      starts[k++] = at;
      for (let j = 0; j < length; j++) data[at + j] = from[start + j];
      at += length;
    };
    for (const i of keptIndices) {
      const { array, from } = kept!.place(i);
      copy(array, from, kept!.lengths[i]);
    }
    for (const b of blocks) copy(values, b.from, b.to - b.from);
    return new StoredSegment(data, keys, starts, Int32Array.from(lengths));
  }

  /** Memory it holds, for the cache's budget. */
  get bytes(): number {
    return this.data.byteLength + (this.older?.byteLength ?? 0) + this.keys.length * 64;
  }
}

/** A segment file's bytes: its blocks by name. */
export function encodeSegment(version: string, segment: string, blocks: Map<string, Float64Array>): Buffer {
  const header: Header = { version, segment, keys: [...blocks.keys()], lengths: [...blocks.values()].map((b) => b.length) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const dataBytes = header.lengths.reduce((s, n) => s + n * 8, 0);
  const dataAt = PREFIX_BYTES + pad8(headerBytes.length);
  const out = Buffer.alloc(dataAt + dataBytes);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(headerBytes.length, 12);
  out.writeUInt32LE(dataBytes, 16);
  headerBytes.copy(out, PREFIX_BYTES);
  let at = dataAt;
  for (const block of blocks.values()) {
    out.set(new Uint8Array(block.buffer, block.byteOffset, block.byteLength), at);
    at += block.byteLength;
  }
  out.writeUInt32LE(zlib.crc32(out.subarray(12)), 8);
  return out;
}

/** The blocks of a segment file, or null if the bytes are not a whole, intact file of this version and segment. */
export function decodeSegment(bytes: Buffer, version: string, segment: string): StoredSegment | null {
  if (bytes.length < PREFIX_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) return null;
  const headerBytes = bytes.readUInt32LE(12);
  const dataBytes = bytes.readUInt32LE(16);
  const dataAt = PREFIX_BYTES + pad8(headerBytes);
  if (bytes.length !== dataAt + dataBytes || zlib.crc32(bytes.subarray(12)) !== bytes.readUInt32LE(8)) return null;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerBytes)) as Header;
  } catch {
    return null;
  }
  if (header.version !== version || header.segment !== segment || header.keys.length !== header.lengths.length) return null;
  const starts = new Int32Array(header.keys.length);
  let at = 0;
  for (let i = 0; i < header.keys.length; i++) {
    starts[i] = at;
    at += header.lengths[i];
  }
  if (at * 8 !== dataBytes) return null;
  // One copy of the data, 8-byte aligned.
  const data = new Float64Array(at);
  new Uint8Array(data.buffer).set(bytes.subarray(dataAt));
  return new StoredSegment(data, header.keys, starts, Int32Array.from(header.lengths));
}

export interface DiskBlocksStats {
  /** Segments read intact. */
  reads: number;
  /** Segment files found damaged (removed). */
  damaged: number;
  /** Segment files written. */
  writes: number;
  /** Files removed to stay within the budget. */
  evicted: number;
}

interface CacheFile {
  file: string;
  bytes: number;
  usedMs: number;
}

export class DiskBlocks {
  /** This version's directory. */
  readonly dir: string;
  readonly stats: DiskBlocksStats = { reads: 0, damaged: 0, writes: 0, evicted: 0 };
  private queue = new Map<string, Map<string, Float64Array>>();
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly touchedAt = new Map<string, number>();
  /** Files read since the last flush, whose recency it refreshes. */
  private toTouch = new Set<string>();
  /** Damaged files found since the last flush, which it removes. */
  private toRemove = new Set<string>();
  /** Bytes under root at the last scan, plus what this process wrote since. */
  private bytesKnown = 0;
  /** Bytes this process wrote since the last scan (other processes write too: it rescans now and then). */
  private bytesSinceScan = 0;
  private scanning: Promise<void> | null = null;
  private tempCount = 0;

  constructor(private readonly options: DiskBlocksOptions) {
    this.dir = path.join(options.root, `world-${options.version}`);
    // A directory that cannot be made (read-only, no space) makes every read miss and every write fail, quietly.
    fs.mkdir(this.dir, { recursive: true }, () => {});
    this.scanning = this.scan().finally(() => (this.scanning = null));
  }

  private fileOf(segment: string): string {
    return path.join(this.dir, createHash('sha256').update(segment).digest('hex').slice(0, 40) + FILE_SUFFIX);
  }

  /** The segment's blocks, or null (absent, or damaged: then the file is removed). */
  read(segment: string): StoredSegment | null {
    const file = this.fileOf(segment);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return null;
    }
    const blocks = decodeSegment(bytes, this.options.version, segment);
    if (!blocks) {
      this.stats.damaged++;
      // Removed with the writes, in order: never after the segment has been written anew.
      this.toRemove.add(file);
      this.schedule();
      return null;
    }
    this.stats.reads++;
    // Its recency is refreshed later, with the writes (even an asynchronous utimes costs the caller ~1 ms).
    const now = Date.now();
    if (now - (this.touchedAt.get(file) ?? 0) >= TOUCH_EVERY_MS) {
      this.touchedAt.set(file, now);
      this.toTouch.add(file);
      this.schedule();
    }
    return blocks;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, WRITE_DELAY_MS);
  }

  /** Queues block `key` (its name within the segment) for the segment's file (written shortly, off the caller's path). */
  write(segment: string, key: string, block: Float64Array): void {
    if (this.queuedBytes + block.byteLength > MAX_QUEUED_BYTES) return;
    let blocks = this.queue.get(segment);
    if (!blocks) this.queue.set(segment, (blocks = new Map()));
    blocks.set(key, block);
    this.queuedBytes += block.byteLength;
    this.schedule();
  }

  /** Writes every queued block now; resolves once they are on disk (or failed: the cache is best effort). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.queue;
    const touch = this.toTouch;
    const remove = this.toRemove;
    this.queue = new Map();
    this.toTouch = new Set();
    this.toRemove = new Set();
    this.queuedBytes = 0;
    this.writing = this.writing.then(async () => {
      for (const file of remove) await fs.promises.rm(file, { force: true }).catch(() => {});
      const seconds = Date.now() / 1000;
      for (const file of touch) await fs.promises.utimes(file, seconds, seconds).catch(() => {});
      for (const [segment, blocks] of batch) await this.writeSegment(segment, blocks).catch(() => {});
      if (this.bytesKnown > this.options.budgetBytes || this.bytesSinceScan > this.options.budgetBytes / 8) await this.evict();
    });
    return this.writing;
  }

  /** Merges the blocks into the segment's file: a temporary file renamed over it. */
  private async writeSegment(segment: string, blocks: Map<string, Float64Array>): Promise<void> {
    const file = this.fileOf(segment);
    const old = await fs.promises.readFile(file).catch(() => null);
    const kept = old ? decodeSegment(old, this.options.version, segment) : null;
    let merged = blocks;
    if (kept) {
      if ([...blocks.keys()].every((key) => kept.has(key))) return;
      merged = new Map([...kept.blocks(), ...blocks]);
      let bytes = 0;
      for (const b of merged.values()) bytes += b.byteLength;
      if (bytes > MAX_SEGMENT_BYTES) merged = blocks;
    }
    const bytes = encodeSegment(this.options.version, segment, merged);
    const temp = path.join(this.dir, `${TEMP_PREFIX}${process.pid}-${threadId}-${++this.tempCount}`);
    try {
      await fs.promises.writeFile(temp, bytes);
    } catch (e) {
      // Another process may have removed this version's (then empty) directory meanwhile.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.writeFile(temp, bytes);
    }
    try {
      await fs.promises.rename(temp, file);
    } catch (e) {
      await fs.promises.rm(temp, { force: true });
      throw e;
    }
    this.stats.writes++;
    this.bytesKnown += bytes.length - (old?.length ?? 0);
    this.bytesSinceScan += bytes.length;
  }

  /** Every file under root (all versions), with its size and last use; removes stale temporary files and empty directories. */
  private async listFiles(): Promise<CacheFile[]> {
    const files: CacheFile[] = [];
    const now = Date.now();
    const dirs = await fs.promises.readdir(this.options.root).catch(() => [] as string[]);
    for (const name of dirs) {
      const dir = path.join(this.options.root, name);
      const entries = await fs.promises.readdir(dir).catch(() => null);
      if (!entries) continue;
      if (entries.length === 0 && dir !== this.dir) await fs.promises.rmdir(dir).catch(() => {});
      for (const entry of entries) {
        const file = path.join(dir, entry);
        const stat = await fs.promises.stat(file).catch(() => null);
        if (!stat?.isFile()) continue;
        if (entry.startsWith(TEMP_PREFIX)) {
          if (now - stat.mtimeMs > STALE_TEMP_MS) await fs.promises.rm(file, { force: true });
          continue;
        }
        files.push({ file, bytes: stat.size, usedMs: stat.mtimeMs });
      }
    }
    return files;
  }

  /** Counts the bytes under root (and evicts if they are over the budget). */
  private async scan(): Promise<void> {
    this.bytesSinceScan = 0;
    const files = await this.listFiles();
    this.bytesKnown = files.reduce((s, f) => s + f.bytes, 0);
    if (this.bytesKnown > this.options.budgetBytes) await this.removeLeastRecentlyUsed(files);
  }

  /** Rescans (and evicts), unless a scan is running. */
  private evict(): Promise<void> {
    this.scanning ??= this.scan().finally(() => (this.scanning = null));
    return this.scanning;
  }

  private async removeLeastRecentlyUsed(files: CacheFile[]): Promise<void> {
    files.sort((a, b) => a.usedMs - b.usedMs);
    const target = this.options.budgetBytes * LOW_WATER;
    for (const f of files) {
      if (this.bytesKnown <= target) break;
      await fs.promises.rm(f.file, { force: true });
      this.bytesKnown -= f.bytes;
      this.stats.evicted++;
    }
  }

  /** Waits for queued writes and a running scan (tests; a worker that is stopping). */
  async settle(): Promise<void> {
    await this.flush();
    await this.scanning;
  }
}

/** Makes the cache's directory; the error if it cannot be made or written to (then the disk tier is off). */
export function prepareDiskCache(root: string, version: string): Error | null {
  try {
    const dir = path.join(root, `world-${version}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return null;
  } catch (e) {
    return e as Error;
  }
}

/** The disk budget in MB: GRIDCAST_DISK_CACHE_MB, 1024 by default (0 turns the disk tier off). */
export function diskCacheBudgetMb(): number {
  const mb = Number(process.env.GRIDCAST_DISK_CACHE_MB ?? '1024');
  return Number.isFinite(mb) && mb >= 0 ? mb : 1024;
}
