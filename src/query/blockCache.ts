/**
 * A per-process cache of computed day blocks. An issued forecast never changes, so the
 * values of (target, metric, model, run, local day) computed once are valid forever; big
 * repeated or overlapping requests (dashboards, backtests paging through a year) then cost
 * little more than writing the response. Beyond the byte budget (GRIDCAST_CACHE_MB,
 * default 256; 0 turns the cache off) the oldest blocks not used recently are dropped.
 *
 * Under it may lie a disk tier (diskBlocks.ts, in the data directory), so that a restarted
 * process starts warm: a block set with a segment (the blocks its callers read together) is
 * also written there, and a caller that misses in memory asks for the segment (`segment()`),
 * which is read from disk once and then kept here whole, as one entry, until evicted.
 */
import type { StitchedRows } from './continuous.ts';
import { SEGMENT_HOURS, StoredSegment, type DiskBlocks } from './diskBlocks.ts';

const BLOCK_OVERHEAD_BYTES = 120;
/** Segments share the map with blocks under names no block key has. */
const SEGMENT_MARK = '\u0000';

interface Entry {
  block: Float64Array | null;
  segment: StoredSegment | null;
  bytes: number;
  /** Blocks it holds (a segment holds many). */
  blocks: number;
  /** Set on every hit; eviction gives a used entry a second chance (the CLOCK policy). */
  used: boolean;
}

/** Where the disk tier keeps a block: its segment and its name within it. */
export interface DiskPlace {
  segment: string;
  key: string;
}

export class BlockCache {
  private readonly map = new Map<string, Entry>();
  private bytes = 0;
  private blocks = 0;
  private disk: DiskBlocks | null = null;

  constructor(private readonly budgetBytes: number) {}

  /** A hit only flags the entry, so lookups (tens of thousands per request) stay cheap. */
  get(key: string): Float64Array | undefined {
    const entry = this.map.get(key);
    if (!entry?.block) return undefined;
    entry.used = true;
    return entry.block;
  }

  /** Keeps a computed block; with a place on disk, the disk tier keeps it too. */
  set(key: string, block: Float64Array, place?: DiskPlace): void {
    if (this.budgetBytes <= 0) return;
    this.remember(key, { block, segment: null, bytes: block.byteLength + BLOCK_OVERHEAD_BYTES, blocks: 1, used: false });
    if (place) this.disk?.write(place.segment, place.key, block);
  }

  /**
   * A segment's blocks as the disk tier holds them: from memory if it was read before, else
   * read from disk now (null: no disk tier, or no intact file of it). Callers ask once per
   * segment they miss blocks of, not once per block.
   */
  segment(name: string): StoredSegment | null {
    if (this.budgetBytes <= 0) return null;
    const entry = this.map.get(SEGMENT_MARK + name);
    if (entry?.segment) {
      entry.used = true;
      return entry.segment;
    }
    const stored = this.disk?.read(name) ?? null;
    if (stored) this.rememberSegment(name, stored);
    return stored;
  }

  /**
   * Keeps computed blocks of a segment (each block `key` is `values`' rows [from, to)): merged
   * into the segment's entry in memory, and written to the disk tier. Call segment(name) first,
   * so that the entry holds what the disk held.
   */
  keepSegment(name: string, blocks: readonly { key: string; from: number; to: number }[], values: Float64Array): void {
    if (this.budgetBytes <= 0) return;
    const kept = this.map.get(SEGMENT_MARK + name)?.segment ?? null;
    const merged = StoredSegment.merged(kept, blocks, values);
    this.rememberSegment(name, merged);
    this.disk?.keep(name, merged);
  }

  /** Sets the disk tier under this cache (diskBlocks.ts; null for none). */
  useDisk(disk: DiskBlocks | null): void {
    this.disk = disk;
  }

  get diskTier(): DiskBlocks | null {
    return this.disk;
  }

  private rememberSegment(name: string, segment: StoredSegment): void {
    this.remember(SEGMENT_MARK + name, {
      block: null,
      segment,
      bytes: segment.bytes + BLOCK_OVERHEAD_BYTES,
      blocks: segment.size,
      used: false,
    });
  }

  private remember(key: string, entry: Entry): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.bytes;
      this.blocks -= old.blocks;
    }
    this.map.set(key, entry);
    this.bytes += entry.bytes;
    this.blocks += entry.blocks;
    if (this.bytes > this.budgetBytes) this.evict();
  }

  /** Drops the oldest entries not used since their last chance until within budget. */
  private evict(): void {
    while (this.bytes > this.budgetBytes && this.map.size > 0) {
      const [key, entry] = this.map.entries().next().value as [string, Entry];
      this.map.delete(key);
      if (entry.used) {
        entry.used = false;
        this.map.set(key, entry); // second chance: to the back of the queue
      } else {
        this.bytes -= entry.bytes;
        this.blocks -= entry.blocks;
      }
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
    this.blocks = 0;
  }

  get enabled(): boolean {
    return this.budgetBytes > 0;
  }

  /** Blocks held (alone, or in segments). */
  get size(): number {
    return this.blocks;
  }
}

/** The cache's budget in MB: GRIDCAST_CACHE_MB, 256 by default (0 turns it off). */
export function cacheBudgetMb(): number {
  const mb = Number(process.env.GRIDCAST_CACHE_MB ?? '256');
  return Number.isFinite(mb) && mb >= 0 ? mb : 256;
}

export const blockCache = new BlockCache(cacheBudgetMb() * 1024 * 1024);

/** A run of rows that one run serves on one local day: [from, to) row indices. */
export interface DayBlock {
  from: number;
  to: number;
  key: string;
  /** Which stretch of SEGMENT_HOURS its first hour falls in: a series' blocks in one stretch share a file on disk. */
  stretch: number;
}

/** Splits rows into blocks: a block ends where the run changes or after 24 rows. */
export function dayBlocks(rows: StitchedRows): DayBlock[] {
  const blocks: DayBlock[] = [];
  let from = 0;
  for (let i = 1; i <= rows.valid.length; i++) {
    // Object.is: truth rows carry NaN as their run, and NaN !== NaN.
    if (i === rows.valid.length || !Object.is(rows.created[i], rows.created[from]) || rows.valid[i] - rows.valid[from] >= 25) {
      const key = `${rows.created[from]}:${rows.valid[from]}:${i - from}`;
      blocks.push({ from, to: i, key, stretch: Math.floor(rows.valid[from] / SEGMENT_HOURS) });
      from = i;
    }
  }
  return blocks;
}

/** The blocks of a series by stretch (blocks are in row order, so each stretch's blocks are one run), named as they are kept. */
function stretchRuns(prefix: string, blocks: readonly DayBlock[]): { name: string; blocks: readonly DayBlock[] }[] {
  const runs: { name: string; blocks: readonly DayBlock[] }[] = [];
  for (let first = 0; first < blocks.length;) {
    let end = first + 1;
    while (end < blocks.length && blocks[end].stretch === blocks[first].stretch) end++;
    runs.push({ name: `${prefix}:${blocks[first].stretch}`, blocks: blocks.slice(first, end) });
    first = end;
  }
  return runs;
}

/** Copies every block of `runs` into `values` from the cache (memory, else disk); false when one is missing. */
function allHeld(runs: readonly { name: string; blocks: readonly DayBlock[] }[], values: Float64Array): boolean {
  return runs.every((run) => {
    const stored = blockCache.segment(run.name);
    return stored !== null && run.blocks.every((b) => stored.copyInto(b.key, values, b.from));
  });
}

/** A series cachedBlocks kept, when every one of its blocks is held; null otherwise (nothing is computed). */
export function heldBlocks(prefix: string, blocks: readonly DayBlock[], n: number): Float64Array | null {
  if (!caching()) return null;
  const values = new Float64Array(n);
  return allHeld(stretchRuns(prefix, blocks), values) ? values : null;
}

/** Nesting depth of `uncached` calls: while above 0, cachedBlocks neither reads nor writes the cache. */
let bypassDepth = 0;

/** Whether cachedBlocks would read and keep blocks now (the cache is on and no `uncached` call is running). */
export function caching(): boolean {
  return blockCache.enabled && bypassDepth === 0;
}

/** Whether an `uncached` computation is running (an aggregate over many series, each read once). */
export function bypassing(): boolean {
  return bypassDepth > 0;
}

/**
 * Runs `compute` with cachedBlocks computing everything and keeping nothing: for a caller that
 * keeps only an aggregate of many series (the skill's sums over every plant), whose per-target
 * blocks would only push out what is worth keeping. Computations are synchronous, so the scope is exact.
 */
export function uncached<X>(compute: () => X): X {
  bypassDepth++;
  try {
    return compute();
  } finally {
    bypassDepth--;
  }
}

/** Blocks of a series keyed by its valid hours alone (one per UTC day): for series whose values depend on nothing else. */
export function hourBlocks(hours: ArrayLike<number>): DayBlock[] {
  const blocks: DayBlock[] = [];
  for (let from = 0, i = 1; i <= hours.length; i++) {
    if (i < hours.length && Math.floor(hours[i] / 24) === Math.floor(hours[from] / 24)) continue;
    blocks.push({ from, to: i, key: `${hours[from]}:${i - from}`, stretch: Math.floor(hours[from] / SEGMENT_HOURS) });
    from = i;
  }
  return blocks;
}

/**
 * A series over rows from the cache when every one of its blocks is there — from its stretches'
 * segments, in memory or else read from disk (at most once here: what an earlier process
 * computed); otherwise `compute` fills it (all rows) and its blocks are kept, one segment per
 * stretch, in memory and on disk. `prefix` names the series (target, metric, model). The series
 * returned may be the cache's own memory (a segment computed whole is kept without a copy):
 * callers read it and never write to it.
 */
export function cachedBlocks(prefix: string, blocks: readonly DayBlock[], n: number, compute: (out: Float64Array) => void): Float64Array {
  const values = new Float64Array(n);
  if (!caching()) {
    compute(values);
    return values;
  }
  const runs = stretchRuns(prefix, blocks);
  if (allHeld(runs, values)) return values;
  compute(values);
  for (const run of runs) blockCache.keepSegment(run.name, run.blocks, values);
  return values;
}
