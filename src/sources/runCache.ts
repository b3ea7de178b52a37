/**
 * Decoded values of stored runs, kept between requests (per compute worker, per store reader).
 *
 * A stored run's values change only when it is replaced, which increments its `revisions`, or
 * when its source is deleted, which removes its series (a series id is never reused: ids come
 * from a sequence, and an ingest that rolls back leaves nothing visible). So (series id, issue
 * time, revisions) names one content for good, across processes sharing a database, and a
 * request can take a cached run without asking the store whether it changed: the list of runs it
 * reads anyway (SourceStore.runs) carries each run's revisions. Reading and decoding a year of a
 * target's runs is most of a warm request's time otherwise (1,460 runs through the HTTP thread).
 */

/** Bytes of decoded values kept per reader (a year of one target's 4 runs a day, 8 days ahead, is 2.2 MB). */
export const RUN_CACHE_BYTES = 64 * 1024 * 1024;

export const runKey = (seriesId: number, issued: number, revisions: number) => `${seriesId}@${issued}@${revisions}`;

/** Least recently used first out, bounded by the bytes of the values it holds. */
export class RunCache {
  private readonly entries = new Map<string, Float64Array>();
  private bytes = 0;

  constructor(private readonly maxBytes = RUN_CACHE_BYTES) {}

  get(key: string): Float64Array | undefined {
    const values = this.entries.get(key);
    if (values) {
      // Map order is insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, values);
    }
    return values;
  }

  set(key: string, values: Float64Array): void {
    if (values.byteLength > this.maxBytes) return;
    const before = this.entries.get(key);
    if (before) {
      this.entries.delete(key);
      this.bytes -= before.byteLength;
    }
    this.entries.set(key, values);
    this.bytes += values.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.byteLength;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, RunCache>();

/** The cache of the runs read through `reader` (one per store: series ids are a store's own). */
export function runCacheOf(reader: object): RunCache {
  let cache = caches.get(reader);
  if (!cache) caches.set(reader, (cache = new RunCache()));
  return cache;
}
