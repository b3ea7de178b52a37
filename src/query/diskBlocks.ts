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
 *   compute worker; a segment is tens of kB). Writes are queued — a segment as the memory tier
 *   holds it, not a view per block — and written asynchronously (libuv's thread pool) once the
 *   thread has no request to compute (holdWhile): encoding and writing a cold request's ~500
 *   segments on its own thread while it computed cost ~25 % of its CPU.
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
/** magic (8) | crc32 of the rest (4) | header bytes (4) | data bytes (4) | blocks (4) */
const PREFIX_BYTES = 24;
/** A segment larger than this is rewritten with only its new blocks (bounds the cost of a rewrite). */
const MAX_SEGMENT_BYTES = 4 * 1024 * 1024;
/** After eviction the files take at most this share of the budget (so scans are not back to back). */
const LOW_WATER = 0.8;
/** A temporary file older than this belongs to a writer that died; it is removed. */
const STALE_TEMP_MS = 10 * 60_000;
/** Segments a flush writes per turn of the event loop (synchronously: see flush). */
const SEGMENTS_PER_TURN = 16;
/** Writes wait this long for more blocks to batch with. */
const WRITE_DELAY_MS = 50;
/** Writes held back while the thread computes wait at most this long (a thread busy for good still writes). */
const MAX_HOLD_MS = 15_000;
/**
 * After computing, writes wait until the thread has been idle this long: the other half of a
 * shared-out body may still be computing on the other worker, the cores are shared, and a
 * segment rewritten once for several requests' blocks costs one write instead of several. A
 * write replaces a file, and freeing the old one's blocks is the expensive part on some file
 * systems (measured here, ext4 mounted with `discard`: a write and rename over an existing file
 * 0.5 ms of CPU, over no file 0.06 ms; a week of every SPP wind plant rewrote ~200 files).
 */
const QUIET_BEFORE_WRITE_MS = 2_000;
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

/** A file's JSON header; its blocks' lengths and names follow in binary (see encodeSegment). */
interface Header {
  version: string;
  segment: string;
  /** UTF-8 bytes of the blocks' names, one after the other. */
  keyBytes: number;
}

const pad8 = (n: number) => (n + 7) & ~7;

/** Lookups out of order a segment answers by comparing names before it builds an index of them. */
const SCANS_BEFORE_INDEX = 4;

/**
 * A segment's blocks as read from disk: one array of values and an index, not an object per
 * block — a large request reads tens of thousands of blocks, and creating that many typed
 * arrays would cost as much as writing the response. The blocks' names are one string too
 * (`keyText`, block i's name at [keyAt[i], keyAt[i + 1])), not a string each: the first request
 * after a restart reads ~500 segments of ~300 blocks, and a string per name (made, hashed into
 * a map, kept alive through the young generation) cost more than reading the files.
 */
/** The blocks of a kept segment that a merged one keeps beside the new ones: their indices and names, in order, and their values' count. */
interface KeptBlocks {
  kept: StoredSegment | null;
  indices: number[];
  keys: string[];
  values: number;
}

/** A segment's names and where its blocks lie, as merged lays them out. */
interface SegmentLayout {
  keyText: string;
  keyAt: Int32Array;
  starts: Int32Array;
  lengths: Int32Array;
}

export class StoredSegment {
  /** Built on the first lookup that is not the block after the last one found (see indexOf). */
  private indexByKey: Map<string, number> | null = null;
  /** The block after the last one found: callers ask for a segment's blocks in its order. */
  private next = 0;
  /** Lookups that were not of the next block. */
  private misses = 0;

  /**
   * Block i's values are `data` from starts[i], or — where starts[i] is negative — `older` from
   * −starts[i] − 1: blocks kept from before a series was computed whole beside it (merged).
   */
  constructor(
    readonly data: Float64Array,
    private readonly keyText: string,
    private readonly keyAt: Int32Array,
    private readonly starts: Int32Array,
    private readonly lengths: Int32Array,
    private readonly older: Float64Array | null = null,
  ) {}

  private keyOf(i: number): string {
    return this.keyText.slice(this.keyAt[i], this.keyAt[i + 1]);
  }

  /** Is block i named `key`? (A comparison in place: no string is made.) */
  private named(i: number, key: string): boolean {
    const at = this.keyAt[i];
    return this.keyAt[i + 1] - at === key.length && this.keyText.startsWith(key, at);
  }

  /** Block i's values: its array and where they start in it. */
  private place(i: number): { array: Float64Array; from: number } {
    const start = this.starts[i];
    return start >= 0 ? { array: this.data, from: start } : { array: this.older!, from: -start - 1 };
  }

  /**
   * Block `key`'s position, or -1: the block after the last one found if that is it; else, the
   * first few times, found by comparing each name in place (a segment's blocks are in the order
   * their requests asked for them, so a request over a part of it, or over blocks an earlier
   * request added, misses once or twice: cheaper than an index of every name); else by the index.
   */
  private indexOf(key: string): number {
    let i = this.next;
    if (i >= this.size || !this.named(i, key)) {
      if (!this.indexByKey && ++this.misses <= SCANS_BEFORE_INDEX) {
        for (i = 0; i < this.size && !this.named(i, key); i++);
        if (i === this.size) return -1;
      } else {
        if (!this.indexByKey) {
          this.indexByKey = new Map();
          for (let k = 0; k < this.size; k++) this.indexByKey.set(this.keyOf(k), k);
        }
        i = this.indexByKey.get(key) ?? -1;
        if (i < 0) return -1;
      }
    }
    this.next = i + 1;
    return i;
  }

  /** Copies block `key` into `into` at `at`; false if the segment does not hold it. */
  copyInto(key: string, into: Float64Array, at: number): boolean {
    const i = this.indexOf(key);
    if (i < 0) return false;
    const start = this.starts[i];
    const array = start >= 0 ? this.data : this.older!;
    const from = start >= 0 ? start : -start - 1;
    const n = this.lengths[i];
    for (let k = 0; k < n; k++) into[at + k] = array[from + k];
    return true;
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** Block `key` (a view of the segment's data), or undefined. */
  get(key: string): Float64Array | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.blockAt(i)[1];
  }

  /** The i-th block: its name and a view of its values. */
  blockAt(i: number): [string, Float64Array] {
    const { array, from } = this.place(i);
    return [this.keyOf(i), array.subarray(from, from + this.lengths[i])];
  }

  get size(): number {
    return this.lengths.length;
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
    // Everything about the kept blocks is in keptBeside and copyKept, called whether or not there
    // are any: this runs once per series and stretch of every cold request, after a warm-up whose
    // series found none kept, and V8 throws away code that meets a case it has never seen and
    // compiles it again in the request (it was ~40 ms of a helper thread's CPU per worker, as one
    // function with the kept names' map and the copies inlined).
    const beside = StoredSegment.keptBeside(kept, blocks);
    const keys = beside.keys;
    let contiguous = blocks.length > 0;
    for (let b = 0; b < blocks.length; b++) {
      keys.push(blocks[b].key);
      if (b > 0 && blocks[b].from !== blocks[b - 1].to) contiguous = false;
    }
    const layout: SegmentLayout = {
      keyText: keys.join(''),
      keyAt: keyPositions(keys),
      starts: new Int32Array(keys.length),
      lengths: new Int32Array(keys.length),
    };
    return contiguous ? StoredSegment.besideKept(beside, blocks, values, layout) : StoredSegment.copied(beside, blocks, values, layout);
  }

  /**
   * The blocks of `kept` (none if null) that none of `blocks` names, in order. Usually a few kept
   * blocks (an earlier request's days) beside hundreds of new ones: a map of the few kept names,
   * looked up by each new one (not a set of every new name).
   */
  private static keptBeside(kept: StoredSegment | null, blocks: readonly { key: string }[]): KeptBlocks {
    const beside: KeptBlocks = { kept, indices: [], keys: [], values: 0 };
    if (!kept) return beside;
    const index = new Map<string, number>();
    for (let i = 0; i < kept.size; i++) index.set(kept.keyOf(i), i);
    const replaced = new Uint8Array(kept.size);
    for (let b = 0; b < blocks.length; b++) {
      const i = index.get(blocks[b].key);
      if (i !== undefined) replaced[i] = 1;
    }
    for (let i = 0; i < kept.size; i++) {
      if (replaced[i]) continue;
      beside.indices.push(i);
      beside.keys.push(kept.keyOf(i));
      beside.values += kept.lengths[i];
    }
    return beside;
  }

  /**
   * Copies the kept blocks into `into` one after the other, each at its place in the layout (the
   * first ones); their starts are −at − 1 when `into` is the segment's `older` array, else `at`.
   * Element loops: a view per block would be an allocation.
   */
  private static copyKept({ kept, indices }: KeptBlocks, into: Float64Array, { starts, lengths }: SegmentLayout, older: boolean): number {
    let at = 0;
    for (let k = 0; k < indices.length; k++) {
      const { array, from } = kept!.place(indices[k]);
      const length = kept!.lengths[indices[k]];
      for (let j = 0; j < length; j++) into[at + j] = array[from + j];
      starts[k] = older ? -at - 1 : at;
      lengths[k] = length;
      at += length;
    }
    return at;
  }

  /** The new blocks stay where they were computed (one run of rows); the (few) kept ones are copied beside them. */
  private static besideKept(
    beside: KeptBlocks,
    blocks: readonly { from: number; to: number }[],
    values: Float64Array,
    layout: SegmentLayout,
  ): StoredSegment {
    const older = new Float64Array(beside.values);
    StoredSegment.copyKept(beside, older, layout, true);
    const first = blocks[0].from;
    const { starts, lengths } = layout;
    for (let b = 0; b < blocks.length; b++) {
      starts[beside.indices.length + b] = blocks[b].from - first;
      lengths[beside.indices.length + b] = blocks[b].to - blocks[b].from;
    }
    const data = values.subarray(first, blocks[blocks.length - 1].to);
    return new StoredSegment(data, layout.keyText, layout.keyAt, starts, lengths, older.length > 0 ? older : null);
  }

  /** The kept blocks and the new ones copied into one array of their own. */
  private static copied(
    beside: KeptBlocks,
    blocks: readonly { from: number; to: number }[],
    values: Float64Array,
    layout: SegmentLayout,
  ): StoredSegment {
    let total = beside.values;
    for (let b = 0; b < blocks.length; b++) total += blocks[b].to - blocks[b].from;
    const data = new Float64Array(total);
    let at = StoredSegment.copyKept(beside, data, layout, false);
    const { starts, lengths } = layout;
    for (let b = 0; b < blocks.length; b++) {
      const { from, to } = blocks[b];
      const k = beside.indices.length + b;
      starts[k] = at;
      lengths[k] = to - from;
      for (let j = 0; j < to - from; j++) data[at + j] = values[from + j];
      at += to - from;
    }
    return new StoredSegment(data, layout.keyText, layout.keyAt, starts, lengths);
  }

  /** Every block, as picks to encode (encodeSegment). */
  picks(): BlockPick[] {
    return Array.from({ length: this.size }, (_, index) => ({ segment: this, index }));
  }

  /** Block i's name (a string made now: for writing, not for lookups). */
  nameAt(i: number): string {
    return this.keyOf(i);
  }

  /** Block i's length and where its values are: for encodeSegment, without a view. */
  valuesAt(i: number): { array: Float64Array; from: number; length: number } {
    const { array, from } = this.place(i);
    return { array, from, length: this.lengths[i] };
  }

  /** A segment of these blocks (their values copied into one array), in this order. */
  static of(blocks: Iterable<[string, Float64Array]>): StoredSegment {
    const entries = [...blocks];
    const data = new Float64Array(entries.reduce((sum, [, values]) => sum + values.length, 0));
    const starts = new Int32Array(entries.length);
    const lengths = new Int32Array(entries.length);
    let at = 0;
    entries.forEach(([, values], i) => {
      data.set(values, at);
      starts[i] = at;
      lengths[i] = values.length;
      at += values.length;
    });
    const keys = entries.map(([key]) => key);
    return new StoredSegment(data, keys.join(''), keyPositions(keys), starts, lengths);
  }

  /** Memory it holds, for the cache's budget. */
  get bytes(): number {
    return this.data.byteLength + (this.older?.byteLength ?? 0) + this.keyText.length * 2 + this.size * 12;
  }
}

/** A segment's blocks waiting to be written: a snapshot of the memory tier's segment (written as it is), or blocks to merge into the file. */
interface QueuedVersion {
  stored: StoredSegment;
  snapshot: boolean;
}

/** A file's bytes, or null if it cannot be read. */
function readFileOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** Does `a` hold a block of every name `b` holds? */
function coversNames(a: StoredSegment, b: StoredSegment): boolean {
  for (let i = 0; i < b.size; i++) if (!a.has(b.nameAt(i))) return false;
  return true;
}

/** The blocks of queued versions of a segment, each name once, from the newest version that has it. */
function newestBlocks(versions: readonly StoredSegment[]): BlockPick[] {
  if (versions.length === 1) return versions[0].picks();
  const seen = new Set<string>();
  const picks: BlockPick[] = [];
  for (let v = versions.length - 1; v >= 0; v--) {
    for (let i = 0; i < versions[v].size; i++) {
      const name = versions[v].nameAt(i);
      if (seen.has(name)) continue;
      seen.add(name);
      picks.push({ segment: versions[v], index: i });
    }
  }
  return picks;
}

/** Where each of `keys` starts in their concatenation, and (last) where it ends. */
function keyPositions(keys: readonly string[]): Int32Array {
  const at = new Int32Array(keys.length + 1);
  for (let i = 0; i < keys.length; i++) at[i + 1] = at[i] + keys[i].length;
  return at;
}

/** Block `index` of `segment`, chosen for a file (encodeSegment). */
export interface BlockPick {
  segment: StoredSegment;
  index: number;
}

/**
 * A segment file's bytes: the picked blocks by name, in order. Layout, each part from an offset
 * that is a multiple of 8: the prefix (PREFIX_BYTES), the JSON header, the blocks' lengths (int32
 * each), their names' positions in the names' text (int32, one more than the blocks), the names'
 * text (UTF-8), the values (float64, this machine's byte order: it is part of the world's version).
 */
export function encodeSegment(version: string, segment: string, picks: readonly BlockPick[]): Buffer {
  const keys = picks.map((p) => p.segment.nameAt(p.index));
  const keyBytes = Buffer.from(keys.join(''), 'utf8');
  const headerBytes = Buffer.from(JSON.stringify({ version, segment, keyBytes: keyBytes.length } satisfies Header), 'utf8');
  const table = new Int32Array(2 * keys.length + 1);
  let values = 0;
  picks.forEach((p, i) => {
    table[i] = p.segment.valuesAt(p.index).length;
    values += table[i];
  });
  table.set(keyPositions(keys), keys.length);
  const layout = layoutOf(headerBytes.length, keys.length, keyBytes.length);
  // Its own buffer (not Node's shared pool), so the values can be written through an aligned view.
  const buffer = new ArrayBuffer(layout.dataAt + values * 8);
  const out = Buffer.from(buffer);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(headerBytes.length, 12);
  out.writeUInt32LE(values * 8, 16);
  out.writeUInt32LE(keys.length, 20);
  headerBytes.copy(out, PREFIX_BYTES);
  out.set(new Uint8Array(table.buffer), layout.tableAt);
  keyBytes.copy(out, layout.keysAt);
  const data = new Float64Array(buffer, layout.dataAt, values);
  let at = 0;
  for (const p of picks) {
    const { array, from, length } = p.segment.valuesAt(p.index);
    // A native copy: a flush runs after the requests, often before V8 has optimised it.
    data.set(array.subarray(from, from + length), at);
    at += length;
  }
  out.writeUInt32LE(zlib.crc32(out.subarray(12)), 8);
  return out;
}

/** Where a file's parts begin (see encodeSegment). */
function layoutOf(headerBytes: number, blocks: number, keyBytes: number) {
  const tableAt = PREFIX_BYTES + pad8(headerBytes);
  const keysAt = tableAt + pad8(4 * (2 * blocks + 1));
  return { tableAt, keysAt, dataAt: keysAt + pad8(keyBytes) };
}

/**
 * `count` elements of type `Type` at byte `at` of `bytes`: a view when `bytes` is a buffer of its
 * own (a file read whole, but for a small one in Node's shared pool, which a view would keep
 * alive) and the part is aligned (every part of a file is, from its start), else a copy.
 */
function viewOf<T extends Float64Array | Int32Array>(
  Type: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number },
  bytes: Buffer,
  at: number,
  count: number,
): T {
  const offset = bytes.byteOffset + at;
  const own = bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
  if (own && offset % Type.BYTES_PER_ELEMENT === 0) return new Type(bytes.buffer as ArrayBuffer, offset, count);
  const copy = new Type(count);
  new Uint8Array(copy.buffer).set(bytes.subarray(at, at + count * Type.BYTES_PER_ELEMENT));
  return copy;
}

/**
 * The blocks of a segment file, or null if the bytes are not a whole, intact file of this version
 * and segment. The values are not copied: the segment keeps `bytes` (read whole, for it alone).
 */
export function decodeSegment(bytes: Buffer, version: string, segment: string): StoredSegment | null {
  if (bytes.length < PREFIX_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) return null;
  const headerBytes = bytes.readUInt32LE(12);
  const dataBytes = bytes.readUInt32LE(16);
  const blocks = bytes.readUInt32LE(20);
  if (bytes.length < PREFIX_BYTES + headerBytes + 4 * (2 * blocks + 1)) return null;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerBytes)) as Header;
  } catch {
    return null;
  }
  if (header.version !== version || header.segment !== segment || !Number.isInteger(header.keyBytes)) return null;
  const layout = layoutOf(headerBytes, blocks, header.keyBytes);
  if (bytes.length !== layout.dataAt + dataBytes || zlib.crc32(bytes.subarray(12)) !== bytes.readUInt32LE(8)) return null;
  const table = viewOf(Int32Array, bytes, layout.tableAt, 2 * blocks + 1);
  const lengths = table.subarray(0, blocks);
  const keyAt = table.subarray(blocks);
  const keyText = bytes.toString('utf8', layout.keysAt, layout.keysAt + header.keyBytes);
  if (keyAt[0] !== 0 || keyAt[blocks] !== keyText.length) return null;
  const starts = new Int32Array(blocks);
  let at = 0;
  for (let i = 0; i < blocks; i++) {
    if (lengths[i] < 0 || keyAt[i + 1] < keyAt[i]) return null;
    starts[i] = at;
    at += lengths[i];
  }
  if (at * 8 !== dataBytes) return null;
  return new StoredSegment(viewOf(Float64Array, bytes, layout.dataAt, at), keyText, keyAt, starts, lengths);
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
  /** Per segment, what to add to its file: versions in the order they came (a later one's blocks win). */
  private queue = new Map<string, QueuedVersion[]>();
  /** The size of each file as this process last read or wrote it (for bytesKnown without reading it again). */
  private readonly fileBytes = new Map<string, number>();
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  /** While true, queued writes wait (the thread is computing a request); set by holdWhile. */
  private busy: () => boolean = () => false;
  /** When the writes now waiting were first held back (0: none is). */
  private heldSince = 0;
  /** When the thread was last seen computing. */
  private busyAt = 0;
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
    this.fileBytes.set(file, bytes.length);
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
      const now = Date.now();
      if (this.busy()) this.busyAt = now;
      if (now - this.busyAt < QUIET_BEFORE_WRITE_MS && (this.heldSince === 0 || now - this.heldSince < MAX_HOLD_MS)) {
        if (this.heldSince === 0) this.heldSince = now;
        this.schedule();
        return;
      }
      void this.flush();
    }, WRITE_DELAY_MS);
  }

  /** Queued writes wait while `busy()` is true and QUIET_BEFORE_WRITE_MS after (at most MAX_HOLD_MS in all): the compute runner's "a request is being computed". */
  holdWhile(busy: () => boolean): void {
    this.busy = busy;
  }

  /** Queues block `key` (its name within the segment) for the segment's file (written shortly, off the caller's path): merged into the file. */
  write(segment: string, key: string, block: Float64Array): void {
    this.enqueue(segment, { stored: StoredSegment.of([[key, block]]), snapshot: false });
  }

  /**
   * Queues a segment as the memory tier holds it — what the file held when it was read, and what
   * was computed since — to be written as it is, without reading the file again (the segment must
   * not change afterwards: StoredSegment.merged's never do). Re-reading and merging each file
   * cost ~1 ms per segment (~270 ms of CPU after a week of every SPP wind plant); what another
   * process added to the file meanwhile is lost to the race the module header describes.
   */
  keep(segment: string, stored: StoredSegment): void {
    this.enqueue(segment, { stored, snapshot: true });
  }

  private enqueue(segment: string, version: QueuedVersion): void {
    if (this.queuedBytes + version.stored.bytes > MAX_QUEUED_BYTES) return;
    let versions = this.queue.get(segment);
    if (!versions) this.queue.set(segment, (versions = []));
    // A version that holds every block of the one before (the usual case: the memory tier's
    // merged segment) makes that one unneeded.
    const last = versions[versions.length - 1];
    if (last && last.stored.size <= version.stored.size && coversNames(version.stored, last.stored)) {
      versions.pop();
      this.queuedBytes -= last.stored.bytes;
    }
    versions.push(version);
    this.queuedBytes += version.stored.bytes;
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
    this.heldSince = 0;
    this.writing = this.writing.then(async () => {
      for (const file of remove) await fs.promises.rm(file, { force: true }).catch(() => {});
      const seconds = Date.now() / 1000;
      for (const file of touch) await fs.promises.utimes(file, seconds, seconds).catch(() => {});
      // Synchronous writes, a few segments per turn of the event loop (a request that arrives
      // meanwhile waits for one turn, ~1–3 ms): the asynchronous API's open, write, close and
      // rename are a thread-pool round trip and a promise each, ~0.6 ms of CPU per segment
      // against ~0.1 ms written directly (~120 ms after a week of every SPP wind plant).
      let inTurn = 0;
      for (const [segment, versions] of batch) {
        try {
          this.writeSegment(segment, versions);
        } catch {
          // Best effort: the blocks are computed again when asked for.
        }
        if (++inTurn === SEGMENTS_PER_TURN) {
          inTurn = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (this.bytesKnown > this.options.budgetBytes || this.bytesSinceScan > this.options.budgetBytes / 8) await this.evict();
    });
    return this.writing;
  }

  /**
   * Writes the queued versions' blocks to the segment's file (a temporary file renamed over it):
   * as they are when the newest is a snapshot of the memory tier (keep), else merged into what the
   * file holds.
   */
  private writeSegment(segment: string, versions: readonly QueuedVersion[]): void {
    const file = this.fileOf(segment);
    const queued = newestBlocks(versions.map((v) => v.stored));
    const snapshot = versions[versions.length - 1].snapshot;
    const old = snapshot ? null : readFileOrNull(file);
    const kept = old ? decodeSegment(old, this.options.version, segment) : null;
    if (kept && queued.every((p) => kept.has(p.segment.nameAt(p.index)))) return;
    let picks = queued;
    if (kept) {
      // The file's blocks first (those the queue does not replace), then the queue's.
      const replaced = new Set(queued.map((p) => p.segment.nameAt(p.index)));
      const all = [...kept.picks().filter((p) => !replaced.has(kept.nameAt(p.index))), ...queued];
      let values = 0;
      for (const p of all) values += p.segment.valuesAt(p.index).length;
      if (values * 8 <= MAX_SEGMENT_BYTES) picks = all;
    }
    const bytes = encodeSegment(this.options.version, segment, picks);
    const temp = path.join(this.dir, `${TEMP_PREFIX}${process.pid}-${threadId}-${++this.tempCount}`);
    try {
      fs.writeFileSync(temp, bytes);
    } catch (e) {
      // Another process may have removed this version's (then empty) directory meanwhile.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(temp, bytes);
    }
    try {
      fs.renameSync(temp, file);
    } catch (e) {
      fs.rmSync(temp, { force: true });
      throw e;
    }
    this.stats.writes++;
    this.bytesKnown += bytes.length - (old?.length ?? this.fileBytes.get(file) ?? 0);
    this.fileBytes.set(file, bytes.length);
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
      this.fileBytes.delete(f.file);
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
