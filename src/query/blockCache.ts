/**
 * A per-process cache of computed day blocks. An issued forecast never changes, so the
 * values of (target, metric, model, run, local day) computed once are valid forever; big
 * repeated or overlapping requests (dashboards, backtests paging through a year) then cost
 * little more than writing the response. Beyond the byte budget (GRIDCAST_CACHE_MB,
 * default 256; 0 turns the cache off) the oldest blocks not used recently are dropped.
 */
import type { StitchedRows } from './continuous.ts';

const BLOCK_OVERHEAD_BYTES = 120;

interface Entry {
  block: Float64Array;
  /** Set on every hit; eviction gives a used entry a second chance (the CLOCK policy). */
  used: boolean;
}

export class BlockCache {
  private readonly map = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** A hit only flags the entry, so lookups (tens of thousands per request) stay cheap. */
  get(key: string): Float64Array | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.block;
  }

  set(key: string, block: Float64Array): void {
    if (this.budgetBytes <= 0) return;
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

/** A run of rows that one run serves on one local day: [from, to) row indices. */
export interface DayBlock {
  from: number;
  to: number;
  key: string;
}

/** Splits rows into blocks: a block ends where the run changes or after 24 rows. */
export function dayBlocks(rows: StitchedRows): DayBlock[] {
  const blocks: DayBlock[] = [];
  let from = 0;
  for (let i = 1; i <= rows.valid.length; i++) {
    // Object.is: truth rows carry NaN as their run, and NaN !== NaN.
    if (i === rows.valid.length || !Object.is(rows.created[i], rows.created[from]) || rows.valid[i] - rows.valid[from] >= 25) {
      blocks.push({ from, to: i, key: `${rows.created[from]}:${rows.valid[from]}:${i - from}` });
      from = i;
    }
  }
  return blocks;
}

/**
 * A series over rows from the cache when every one of its blocks is there; otherwise `compute`
 * fills it (all rows) and its blocks are cached. `prefix` names the series (target, metric, model).
 */
export function cachedBlocks(prefix: string, blocks: readonly DayBlock[], n: number, compute: (out: Float64Array) => void): Float64Array {
  const values = new Float64Array(n);
  const copyCached = (b: DayBlock) => {
    const hit = blockCache.get(`${prefix}:${b.key}`);
    if (hit) values.set(hit, b.from);
    return hit !== undefined;
  };
  if (blockCache.enabled && blocks.every(copyCached)) return values;
  compute(values);
  if (blockCache.enabled) for (const b of blocks) blockCache.set(`${prefix}:${b.key}`, values.slice(b.from, b.to));
  return values;
}
