/**
 * A full garbage collection of this thread once it has been idle for a while (util/collectGarbage.ts).
 *
 * A large body's garbage (a wide Parquet table's row groups, a year of columns, the chunks a
 * split body queued ahead of its client) can stay long after the request: a compute worker's
 * old generation starts no full collection below its floor (compute/pool.ts
 * WORKER_OLD_SPACE_FLOOR_MB), and an idle thread allocates nothing that would start one. Measured,
 * the largest request (bench/largest.ts) abandoned part way left the server +309–379 MB 10 s later
 * (issue 25 allows 0.3 GB). `soon()` collects once `isBusy` has been false for `idleMs`; requests
 * in a row never wait on it.
 */
import { collectGarbage } from './collectGarbage.ts';

export class IdleCollector {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly isBusy: () => boolean,
    private readonly idleMs: number,
    /** Called after each collection (a caller's new baseline). */
    private readonly collected: () => void = () => {},
  ) {}

  /** Collects once idle for idleMs (a later call restarts the wait). */
  soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.isBusy()) return this.soon();
      this.now();
    }, this.idleMs);
    this.timer.unref();
  }

  /** Collects now. */
  now(): void {
    clearTimeout(this.timer);
    collectGarbage();
    this.collected();
  }
}
