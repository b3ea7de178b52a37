/**
 * A per-process cache of computed day blocks. An issued forecast never changes, so the
 * values of (target, metric, model, run, local day) computed once are valid forever; big
 * repeated or overlapping requests (dashboards, backtests paging through a year) then cost
 * little more than writing the response. Least recently used blocks are dropped beyond
 * the byte budget (GRIDCAST_CACHE_MB, default 256; 0 turns the cache off).
 */
const BLOCK_OVERHEAD_BYTES = 120;

export class BlockCache {
  private readonly map = new Map<string, Float64Array>();
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): Float64Array | undefined {
    const block = this.map.get(key);
    if (block) {
      // Re-insert to mark it most recently used (Map keeps insertion order).
      this.map.delete(key);
      this.map.set(key, block);
    }
    return block;
  }

  set(key: string, block: Float64Array): void {
    if (this.budgetBytes <= 0) return;
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.byteLength + BLOCK_OVERHEAD_BYTES;
    }
    this.map.set(key, block);
    this.bytes += block.byteLength + BLOCK_OVERHEAD_BYTES;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budgetBytes) break;
      this.map.delete(k);
      this.bytes -= v.byteLength + BLOCK_OVERHEAD_BYTES;
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

function budgetFromEnv(): number {
  const mb = Number(process.env.GRIDCAST_CACHE_MB ?? '256');
  return Number.isFinite(mb) && mb >= 0 ? mb * 1024 * 1024 : 256 * 1024 * 1024;
}

export const blockCache = new BlockCache(budgetFromEnv());
