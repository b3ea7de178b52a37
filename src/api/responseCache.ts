/**
 * Recently served response bodies, on the HTTP thread: a repeated request (a dashboard
 * refreshing, a client polling, a backtest re-reading the same days, several users opening the
 * same large download) is answered without a round trip to the compute pool.
 *
 * A body is a pure function of the route, its validated parameters and "now" (which runs are
 * issued, which hours are published). Runs are issued and hours published on whole minutes
 * (models/, query/runs.ts), so "now" enters the key as its minute: within one minute the same
 * request always has the same bytes, and a new minute is a new key — never a stale body.
 * Bodies are kept within a byte budget, least recently used out first; a body larger than
 * MAX_SHARE of the budget is not kept (it would push out everything else). A streamed (large)
 * body is kept as it goes out, once it has gone out whole (`keepStreamed`).
 */
import { pipeline, Transform, type Readable } from 'node:stream';

const MAX_SHARE = 0.5;
const MINUTE_MS = 60_000;

export interface CachedBody {
  body: Buffer;
  /** rows × columns of a time series, or records of a list (for usage metering). */
  values: number;
}

/** A kept body: whole, or a streamed body's chunks as they went out, joined on its first reuse. */
interface Entry {
  body: Buffer | Buffer[];
  /** The body's length. */
  length: number;
  /** Memory it holds, for the budget: its chunks' buffers, which may be larger than the chunks (views). */
  bytes: number;
  values: number;
}

/**
 * Memory that `chunks` keep alive: each distinct buffer under them whole. A chunk may be a view
 * of a larger buffer — a socket write's share of a worker's chunk (those share one buffer, counted
 * once), a string's bytes in Node's shared pool — and keeping the view keeps all of it.
 */
class HeldBuffers {
  private readonly seen = new Set<ArrayBufferLike>();
  bytes = 0;

  add(chunk: Buffer): void {
    if (this.seen.has(chunk.buffer)) return;
    this.seen.add(chunk.buffer);
    this.bytes += chunk.buffer.byteLength;
  }

  /** Lets the buffers go (the body is not kept). */
  clear(): void {
    this.seen.clear();
  }
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Requests answered from the cache so far. */
  hits = 0;

  constructor(private readonly budgetBytes: number) {}

  /** The key of a request: the route, its validated parameters (and output options) and the minute of `nowMs`. */
  static keyOf(path: string, params: unknown, nowMs: number): string {
    return ResponseCache.keyAt(ResponseCache.keyBase(path, params), nowMs);
  }

  /** A request's key without the minute: made once for a URL served again (app.ts). */
  static keyBase(path: string, params: unknown): string {
    return `${path}\u0000${JSON.stringify(params)}`;
  }

  /** The key of a request whose keyBase is `base`, at `nowMs`. */
  static keyAt(base: string, nowMs: number): string {
    return `${base}\u0000${Math.floor(nowMs / MINUTE_MS)}`;
  }

  /** Bytes of the largest body kept. */
  get largestBody(): number {
    return Math.floor(this.budgetBytes * MAX_SHARE);
  }

  /**
   * The streamed body `body` as the response should read it: the same bytes, kept under `key`
   * once they have all gone through — a body cut short (its client went away, its computation
   * failed) or larger than largestBody is not kept. Destroying what this returns destroys `body`
   * (the job is cancelled, as before).
   */
  keepStreamed(key: string, body: Readable, values: number): Readable {
    if (this.largestBody <= 0) return body;
    let chunks: Buffer[] | null = [];
    let length = 0;
    const held = new HeldBuffers();
    const largest = this.largestBody;
    const recorder = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (chunks) {
          length += chunk.length;
          held.add(chunk);
          if (held.bytes > largest) {
            chunks = null;
            held.clear();
          } else chunks.push(chunk);
        }
        done(null, chunk);
      },
      flush: (done) => {
        // Joined when first served again, not now: the copy (~9 MB for the large request) and its
        // memory would fall on every large response's last step, and most are never asked again.
        if (chunks) this.keep(key, { body: chunks, length, bytes: held.bytes, values });
        chunks = null;
        done();
      },
    });
    pipeline(body, recorder, () => {
      chunks = null;
      held.clear();
    });
    return recorder;
  }

  get(key: string): CachedBody | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.hits++;
    // Most recently used goes to the back of the eviction order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    if (Array.isArray(hit.body)) {
      hit.body = Buffer.concat(hit.body, hit.length);
      // It now holds its own bytes only: the chunks' buffers are let go.
      this.bytes += hit.length - hit.bytes;
      hit.bytes = hit.length;
    }
    return { body: hit.body, values: hit.values };
  }

  set(key: string, entry: CachedBody): void {
    this.keep(key, { body: entry.body, length: entry.body.length, bytes: entry.body.length, values: entry.values });
  }

  private keep(key: string, entry: Entry): void {
    if (entry.bytes > this.largestBody || this.entries.has(key)) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}
