/**
 * Request counting without a database round trip per request. Each API process counts
 * rate-limit windows and usage in memory and adds its counts to the database in one batch
 * every flush interval (1 s by default) and at shutdown; the database's atomic upserts add up
 * the batches of every process sharing it.
 *
 * Rate limits stay shared across processes with a bounded overshoot: a process decides with
 * the shared count as of its last flush plus its own requests since. A flush sends every live
 * window (with a zero count where it saw nothing) and reads back each window's total, so
 * every other process's requests reach it within about two flush intervals (theirs, then its
 * own): together the processes admit at most about one flush interval's worth of each
 * process's requests beyond a budget. On one process (the embedded store) the count is exact.
 *
 * What is lost: on SIGTERM nothing (shutdown flushes); on kill -9 at most the counts of the
 * last flush interval. A failed flush (database away) keeps its counts for the next one.
 * Windows are aligned to this process's clock (keep replicas' clocks in sync, e.g. NTP).
 */
import type { UsageDelta, UsageStore, WindowDelta } from './usage.ts';

export const DEFAULT_FLUSH_MS = 1000;

export interface WindowCount {
  windowSecs: number;
  /** Requests in the window so far, this one included. */
  count: number;
  /** Seconds until the window ends. */
  resetSecs: number;
}

interface WindowState {
  keyId: string;
  windowSecs: number;
  /** Epoch seconds. */
  windowStart: number;
  /** The count of every process as of this process's last flush. */
  shared: number;
  /** This process's requests in the flush under way (not yet in `shared`). */
  flushing: number;
  /** This process's requests since the flush under way began (or the last one). */
  unflushed: number;
}

export interface MeterOptions {
  flushMs?: number;
  /** Told of a failed periodic flush (its counts are kept for the next one). */
  onError?: (error: Error) => void;
  /** Epoch milliseconds (tests may move it). */
  now?: () => number;
}

export class UsageMeter {
  private readonly windows = new Map<string, WindowState>();
  private usage = new Map<string, UsageDelta>();
  private readonly flushMs: number;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly store: UsageStore,
    options: MeterOptions = {},
  ) {
    this.flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  /** Starts the periodic flush (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush().catch(this.onError), this.flushMs);
    this.timer.unref();
  }

  /** Stops the periodic flush and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Counts one request of a key in each of its windows; no I/O. */
  hit(keyId: string, windowSecs: readonly number[]): WindowCount[] {
    const nowSecs = this.now() / 1000;
    return windowSecs.map((w) => {
      const windowStart = Math.floor(nowSecs / w) * w;
      const id = `${keyId}\u0000${w}\u0000${windowStart}`;
      let state = this.windows.get(id);
      if (!state) this.windows.set(id, (state = { keyId, windowSecs: w, windowStart, shared: 0, flushing: 0, unflushed: 0 }));
      state.unflushed++;
      const count = state.shared + state.flushing + state.unflushed;
      return { windowSecs: w, count, resetSecs: Math.max(0, windowStart + w - nowSecs) };
    });
  }

  /** Today's UTC date as text, made once a day (not per request). */
  private today = { number: Number.NaN, text: '' };

  /** Adds one request and `values` values to today's (UTC) usage of a key at an endpoint; no I/O. */
  record(keyId: string, endpoint: string, values: number): void {
    const now = this.now();
    const dayNumber = Math.floor(now / 86_400_000);
    if (dayNumber !== this.today.number) this.today = { number: dayNumber, text: new Date(now).toISOString().slice(0, 10) };
    const day = this.today.text;
    const id = `${keyId}\u0000${day}\u0000${endpoint}`;
    const delta = this.usage.get(id);
    if (delta) {
      delta.requests++;
      delta.values += values;
    } else this.usage.set(id, { keyId, day, endpoint, requests: 1, values });
  }

  /** Writes the counts since the last flush (one at a time: a flush under way is waited for). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.write().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async write(): Promise<void> {
    const usage = [...this.usage.values()];
    this.usage = new Map();
    // Every live window, counted or not: the answer brings each the other processes' counts.
    const pending = [...this.windows.values()];
    const deltas: WindowDelta[] = pending.map((s) => ({
      keyId: s.keyId,
      windowSecs: s.windowSecs,
      windowStart: s.windowStart,
      count: s.unflushed,
    }));
    for (const s of pending) {
      s.flushing = s.unflushed;
      s.unflushed = 0;
    }
    /** A batch not added is counted again next time. */
    const keepWindowCounts = () => {
      for (const s of pending) {
        s.unflushed += s.flushing;
        s.flushing = 0;
      }
    };
    try {
      await this.store.addUsage(usage);
    } catch (e) {
      for (const d of usage) this.mergeUsage(d);
      keepWindowCounts();
      throw e;
    }
    try {
      const totals = await this.store.addWindowCounts(deltas);
      for (const s of pending) s.flushing = 0;
      for (const total of totals) {
        const state = this.windows.get(`${total.keyId}\u0000${total.windowSecs}\u0000${total.windowStart}`);
        if (state) state.shared = total.count;
      }
    } catch (e) {
      keepWindowCounts();
      throw e;
    } finally {
      this.dropEndedWindows();
    }
  }

  private mergeUsage(d: UsageDelta): void {
    const id = `${d.keyId}\u0000${d.day}\u0000${d.endpoint}`;
    const current = this.usage.get(id);
    if (current) {
      current.requests += d.requests;
      current.values += d.values;
    } else this.usage.set(id, d);
  }

  private dropEndedWindows(): void {
    const nowSecs = this.now() / 1000;
    for (const [id, s] of this.windows) if (s.unflushed === 0 && s.windowStart + s.windowSecs < nowSecs) this.windows.delete(id);
  }
}
