/**
 * A per-process cache of computed day blocks. An issued forecast never changes, so the
 * values of (target, metric, model, run, local day) computed once are valid forever; big
 * repeated or overlapping requests (dashboards, backtests paging through a year) then cost
 * little more than writing the response. Beyond the byte budget (GRIDCAST_CACHE_MB,
 * default 256; 0 turns the cache off) the oldest blocks not used recently are dropped.
 *
 * Under it may lie a disk tier (diskBlocks.ts, in the data directory): blocks set with a segment
 * are also written there, and a caller that misses in memory asks for the segment from disk
 * (loadSegment) before computing, so a restarted process starts warm.
 */
import type { DiskBlocks } from './diskBlocks.ts';

const BLOCK_OVERHEAD_BYTES = 120;

interface Entry {
  block: Float64Array;
  /** Set on every hit; eviction gives a used entry a second chance (the CLOCK policy). */
  used: boolean;
}

export class BlockCache {
  private readonly map = new Map<string, Entry>();
  private bytes = 0;
  private disk: DiskBlocks | null = null;

  constructor(private readonly budgetBytes: number) {}

  /** A hit only flags the entry, so lookups (tens of thousands per request) stay cheap. */
  get(key: string): Float64Array | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.block;
  }

  /** Keeps a computed block; with a `segment` (the blocks read together) the disk tier keeps it too. */
  set(key: string, block: Float64Array, segment?: string): void {
    if (this.budgetBytes <= 0) return;
    this.remember(key, block);
    if (segment !== undefined) this.disk?.write(segment, key, block);
  }

  /**
   * Brings a segment's blocks from the disk tier into memory; false if there is no disk tier or
   * no intact file of that segment. A caller asks once per segment it misses, then looks again.
   */
  loadSegment(segment: string): boolean {
    const blocks = this.budgetBytes > 0 ? this.disk?.read(segment) : null;
    if (!blocks) return false;
    for (const [key, block] of blocks) this.remember(key, block);
    return true;
  }

  /** Sets the disk tier under this cache (diskBlocks.ts; null for none). */
  useDisk(disk: DiskBlocks | null): void {
    this.disk = disk;
  }

  get diskTier(): DiskBlocks | null {
    return this.disk;
  }

  /** Puts a block in memory. */
  private remember(key: string, block: Float64Array): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.block.byteLength + BLOCK_OVERHEAD_BYTES;
    }
    this.map.set(key, { block, used: false });
    this.bytes += block.byteLength + BLOCK_OVERHEAD_BYTES;
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
        this.bytes -= entry.block.byteLength + BLOCK_OVERHEAD_BYTES;
      }
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  get enabled(): boolean {
    return this.budgetBytes > 0;
  }

  get size(): number {
    return this.map.size;
  }
}

/** The cache's budget in MB: GRIDCAST_CACHE_MB, 256 by default (0 turns it off). */
export function cacheBudgetMb(): number {
  const mb = Number(process.env.GRIDCAST_CACHE_MB ?? '256');
  return Number.isFinite(mb) && mb >= 0 ? mb : 256;
}

export const blockCache = new BlockCache(cacheBudgetMb() * 1024 * 1024);
