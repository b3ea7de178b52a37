/**
 * Recently served small response bodies, on the HTTP thread: a repeated request (a dashboard
 * refreshing, a client polling, a backtest re-reading the same days) is answered without a
 * round trip to the compute pool.
 *
 * A body is a pure function of the route, its validated parameters and "now" (which runs are
 * issued, which hours are published). Runs are issued and hours published on whole minutes
 * (models/, query/runs.ts), so "now" enters the key as its minute: within one minute the same
 * request always has the same bytes, and a new minute is a new key — never a stale body.
 * Only bodies up to MAX_BODY_BYTES are kept, within a byte budget, least recently used out first.
 */

const MAX_BODY_BYTES = 256 * 1024;
const MINUTE_MS = 60_000;

export interface CachedBody {
  body: Buffer;
  /** rows × columns of a time series, or records of a list (for usage metering). */
  values: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedBody>();
  private bytes = 0;
  /** Requests answered from the cache so far. */
  hits = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The key of a request: the route, its validated parameters (and output options) and the minute of `nowMs`. */
  static keyOf(path: string, params: unknown, nowMs: number): string {
    return `${path}\u0000${JSON.stringify(params)}\u0000${Math.floor(nowMs / MINUTE_MS)}`;
  }

  get(key: string): CachedBody | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      // Most recently used goes to the back of the eviction order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, entry: CachedBody): void {
    if (this.budgetBytes <= 0 || entry.body.length > MAX_BODY_BYTES || this.entries.has(key)) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}
