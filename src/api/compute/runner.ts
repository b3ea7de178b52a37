/**
 * Runs jobs (compute/protocol.ts) where the computing happens: in a worker thread (worker.ts),
 * or on the HTTP thread when the pool has no workers (tests, GRIDCAST_WORKERS=0).
 *
 * Several jobs share one runner, taking turns column by column: a large response is computed
 * one column at a time, and between two columns any other job gets its turn, so a small
 * request waits for at most one column of a large one, never for the whole of it. A job
 * sends a chunk only while it holds credit (granted as its client reads), and a cancelled
 * job computes nothing more.
 */
import { warmCells } from '../../catalog/cellCatalog.ts';
import { buildAllRegions } from '../../catalog/regions.ts';
import type { Frame } from '../../query/frame.ts';
import { WeatherWorld } from '../../world/weather/world.ts';
import { ROUTE_BY_PATH } from '../routes/index.ts';
import { frameJsonPieces, isLargeFrame } from '../writer.ts';
import { serializeError, type FromWorker, type Job, type ToWorker } from './protocol.ts';

/** Credit a large job starts with: chunks it may compute before its client has read any. */
export const INITIAL_CREDIT = 2;

interface Streaming {
  id: number;
  pieces: Iterator<string>;
  credit: number;
}

const encoder = new TextEncoder();

/**
 * Builds what the first requests would otherwise wait for, where the computing happens: the
 * region catalog (population, load centres: ~0.5 s) now, and the H3 cell geometry (~3 s) in
 * the catalog's own worker thread.
 */
export function warmCatalog(): void {
  buildAllRegions();
  warmCells();
}

export class JobRunner {
  private readonly world: WeatherWorld;
  private readonly streaming = new Map<number, Streaming>();
  /** Jobs being set up (their frame or list being made), and those of them cancelled meanwhile. */
  private readonly starting = new Set<number>();
  private readonly cancelled = new Set<number>();
  /** Round-robin order of the streaming jobs. */
  private turn: number[] = [];
  private scheduled = false;

  constructor(
    seed: number,
    private readonly emit: (event: FromWorker, transfer?: ArrayBuffer[]) => void,
  ) {
    this.world = new WeatherWorld(seed);
  }

  handle(message: ToWorker): void {
    if (message.type === 'run') void this.start(message.job);
    else if (message.type === 'credit') {
      const job = this.streaming.get(message.id);
      if (job) {
        job.credit += message.n;
        this.schedule();
      }
    } else if (this.starting.has(message.id)) {
      this.cancelled.add(message.id);
    } else {
      this.finish(message.id);
    }
  }

  /** Jobs this runner is working on (the pool sends new jobs to the least busy runner). */
  get load(): number {
    return this.starting.size + this.streaming.size;
  }

  private async start(job: Job): Promise<void> {
    const def = ROUTE_BY_PATH.get(job.path);
    this.starting.add(job.id);
    try {
      if (!def) throw new Error(`no route ${job.path}`);
      const result = await def.handle({ params: job.params, raw: job.raw, key: job.key, nowMs: job.nowMs, world: this.world });
      this.starting.delete(job.id);
      if (this.cancelled.delete(job.id)) return;
      if (Array.isArray(result)) {
        const body = encoder.encode(JSON.stringify(result));
        this.emit({ type: 'records', id: job.id, body, count: result.length }, [body.buffer as ArrayBuffer]);
        return;
      }
      const frame = result as Frame;
      const values = frame.hours.length * frame.columns.length;
      if (job.head) {
        this.emit({ type: 'head', id: job.id, values });
      } else if (!isLargeFrame(frame)) {
        const body = encoder.encode([...frameJsonPieces(frame)].join(''));
        this.emit({ type: 'body', id: job.id, body, values }, [body.buffer as ArrayBuffer]);
      } else {
        this.emit({ type: 'start', id: job.id, values });
        this.streaming.set(job.id, { id: job.id, pieces: frameJsonPieces(frame), credit: INITIAL_CREDIT });
        this.turn.push(job.id);
        this.schedule();
      }
    } catch (e) {
      this.starting.delete(job.id);
      if (!this.cancelled.delete(job.id)) this.emit({ type: 'error', id: job.id, error: serializeError(e) });
    }
  }

  /** Computes the next piece of the next job that holds credit, then yields to other messages. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const runnable = this.turn.find((id) => (this.streaming.get(id)?.credit ?? 0) > 0);
      if (runnable === undefined) return;
      // Next turn goes to the job after this one.
      this.turn = [...this.turn.filter((id) => id !== runnable), runnable];
      const job = this.streaming.get(runnable)!;
      try {
        const next = job.pieces.next();
        if (next.done) {
          this.finish(job.id);
          this.emit({ type: 'end', id: job.id });
        } else {
          job.credit--;
          const data = encoder.encode(next.value);
          this.emit({ type: 'chunk', id: job.id, data }, [data.buffer as ArrayBuffer]);
        }
      } catch (e) {
        this.finish(job.id);
        this.emit({ type: 'error', id: job.id, error: serializeError(e) });
      }
      this.schedule();
    });
  }

  private finish(id: number): void {
    const job = this.streaming.get(id);
    if (!job) return;
    this.streaming.delete(id);
    this.turn = this.turn.filter((t) => t !== id);
    job.pieces.return?.(undefined);
  }
}
