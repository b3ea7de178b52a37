/**
 * Where forecast computation runs: a pool of worker threads (one per core by default,
 * GRIDCAST_WORKERS), so that the HTTP thread only routes, checks and streams. A job goes to
 * the worker with the fewest jobs in hand, and inside a worker jobs take turns column by
 * column (runner.ts): a small request never waits for a heavy one to finish, only — at worst
 * — for one column of it.
 *
 * With no workers (GRIDCAST_WORKERS=0, and the in-process tests) the same runner works on the
 * HTTP thread, through the same messages: one code path either way.
 *
 * Each worker keeps its own cache of computed blocks (query/blockCache.ts), so the budget
 * GRIDCAST_CACHE_MB is shared out between them. Under them all lies one disk tier in the data
 * directory (query/diskBlocks.ts): each worker reads and writes its files, safely alongside the
 * others and other processes; a stopping pool lets the workers finish their writes first.
 *
 * Ready means warm: with `warm` (serve), each runner builds its catalogs and serves a few
 * warm-up requests (warmUp.ts) before it counts as warm, and the process builds its one copy of
 * the cell geometry (catalog/cellCatalog.ts; the workers ask this thread for it); `ready` is
 * true once all of that is done, and /readyz waits for it. A replaced worker warms up again.
 *
 * Each worker runs under resource limits (its V8 heap, GRIDCAST_WORKER_HEAP_MB) and this pool is
 * its supervisor: a worker that runs out of memory or otherwise dies takes only its own jobs
 * with it — they are answered 503 in the service's error format (a response already streaming is
 * cut, as its status has gone out) — and a new worker takes its place. The process goes on.
 */
import { sharedKernelMemory } from '../../world/dotKernel.ts';
import os from 'node:os';
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { blockCache, cacheBudgetMb } from '../../query/blockCache.ts';
import { DiskBlocks, prepareDiskCache, type DiskBlocksOptions } from '../../query/diskBlocks.ts';
import { worldVersion } from '../../query/worldVersion.ts';
import { startModuleWorker } from '../../util/moduleWorker.ts';
import { serviceError } from '../errors.ts';
import { SOCKET_WRITE_BYTES } from '../sendTimeout.ts';
import {
  deserializeError,
  type FromWorker,
  type HelpJob,
  type Job,
  type TestFault,
  type ToWorker,
  type WorkerControl,
  type WorkerNotice,
} from './protocol.ts';
import { INITIAL_CREDIT, JobRunner, warmRunner } from './runner.ts';
import { loadCells, warmCells } from '../../catalog/cellCatalog.ts';
import v8 from 'node:v8';
import { poolWarmUpJobs } from './warmUp.ts';
import { precomputedHours } from './hourTables.ts';
import type { HourTables } from '../../world/weather/world.ts';
import { collectGarbage } from '../../util/collectGarbage.ts';
import { IdleCollector } from '../../util/idleCollector.ts';
import { isReadCall, serveRead, type ReadCall, type SourceReader } from '../../sources/reader.ts';

export type ComputeResult =
  | { kind: 'records'; body: Buffer; count: number }
  /** A time series: its bytes whole (small); `values` = rows × columns. */
  | { kind: 'frame'; values: number; body: Buffer }
  /**
   * A large time series as a stream. Nothing of it is computed until `begin()` (the HTTP thread
   * first decides whether it may compute now: heavyBudget.ts); `computing()`: is a chunk of it
   * being computed, rather than waiting for its client?
   */
  | { kind: 'stream'; values: number; body: Readable; begin(): void; computing(): boolean }
  | { kind: 'head'; values: number };

/**
 * Hands a chunk to the response in pieces of at most SOCKET_WRITE_BYTES: each socket write then
 * completes once the client has taken that much, which is how the send time-out sees a slow
 * client still reading (sendTimeout.ts).
 */
function pushInWrites(stream: Readable, data: Buffer): void {
  for (let at = 0; at < data.length; at += SOCKET_WRITE_BYTES) stream.push(data.subarray(at, at + SOCKET_WRITE_BYTES));
}

/** Thrown to a job whose client went away before it had an answer. */
export class JobAborted extends Error {}

interface Lane {
  post(message: ToWorker): void;
  /** Answers a worker's own request (a part of its job computed elsewhere); the HTTP thread's runner makes none. */
  answer(message: WorkerControl): void;
  /** Its runner has built its catalogs and served the warm-up requests (or was not asked to). */
  warm: boolean;
  /** Jobs sent and not yet done. */
  jobs: number;
  /** After the warm-up: its disk writes finished and its garbage collected (util/collectGarbage.ts). */
  collect(): Promise<void>;
  /** Its queued disk writes finished (bounded by SETTLE_TIMEOUT_MS for a worker). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

interface Pending {
  lane: Lane;
  job: Job;
  resolve(result: ComputeResult): void;
  reject(error: Error): void;
  stream?: Readable;
  /** Chunks the worker may compute and has not sent yet (credit granted, not used). */
  outstanding: number;
  settled: boolean;
  detach(): void;
  /** The other half of a split body: computed by another worker, sent after this job's part. */
  split?: SplitHalf;
  /** For the other half's job: the job whose body it completes. */
  halfOf?: number;
}

interface SplitHalf {
  id: number;
  /** Chunks that arrived before the first half ended. */
  queue: Buffer[];
  firstDone: boolean;
  secondDone: boolean;
}

export interface PoolOptions {
  /** Worker threads; 0 computes on the calling thread. */
  workers: number;
  /** Seed of the world the workers compute. */
  seed: number;
  /** The block-cache budget of the whole pool, MB (shared out between the workers). */
  cacheMb?: number;
  /** Told when a worker fails (it is replaced). */
  onWorkerError?: (error: Error) => void;
  /** Largest V8 heap of a worker, MB (its old generation; GRIDCAST_WORKER_HEAP_MB). */
  workerHeapMb?: number;
  /** Tests only: make the workers fail on jobs of one route (protocol.ts TestFault). */
  testFault?: TestFault;
  /**
   * Warm up before ready (serve): every runner builds its catalogs and serves the warm-up
   * requests, and the process builds the cell geometry. Without it (the tests) nothing is built
   * ahead and the pool is ready at once.
   */
  warm?: boolean;
  /** "Now" for the warm-up requests (the app's clock; default Date.now). */
  now?: () => number;
  /** The store's stored sources: the workers' reads are answered from it on this thread. */
  sources?: SourceReader;
  /** The disk tier of the block cache: its directory (DATA_DIR/block-cache) and budget in MB (0: none). */
  diskCache?: { root: string; budgetMb: number };
}

/** How long a stopping pool waits for its workers' disk writes. */
const SETTLE_TIMEOUT_MS = 5_000;

/**
 * A compute worker's young generation, MB (V8's default on 64 bits is ~48: three semi-spaces of
 * 16 MB, which stay committed, and so resident, once a thread has allocated through them). The
 * workers' short-lived objects (a column's values, a weather batch's rows) die young either way;
 * a smaller nursery is scavenged more often, each time as quickly. Measured (README, *Memory*):
 * ~25 MB less idle RSS per worker; the cold large request's CPU unchanged within the noise.
 */
export const WORKER_YOUNG_MB = 12;

/**
 * The old generation a compute worker may fill before V8 starts a full collection, at the least,
 * MB (V8's --initial-old-space-size, read by each new isolate: the workers'). V8 sets the next
 * collection at its survivors times a factor it picks from its speeds, ~1.2 here: a worker keeps
 * ~50 MB, so every large cold request (~15 MB of computed blocks kept per worker) started two
 * incremental markings per worker, run by V8's helper threads on the cores the workers compute
 * on. With a floor the first collections wait for it, and heaps that keep more still grow by
 * V8's own factor. Measured on the cold large request (every ERCOT wind plant, 11 months): 0.40 s
 * with V8's choice, 0.27 s at 128 MB, 0.25 s at 256 MB (no marking in the request); idle RSS
 * unchanged (the warm-up collects last). The garbage a job leaves could stay up to the floor: a
 * worker collects once idle after a cancelled job or one that left much behind (worker.ts,
 * util/idleCollector.ts). (A growth factor of 2–3 for every heap instead of a floor left
 * +255–305 MB after an abandoned largest download, and 1.2–1.36 GB peaks.)
 */
export const WORKER_OLD_SPACE_FLOOR_MB = 256;

/** Heap limit of a compute worker by default, MB: room for its catalogs, caches and a few large jobs' blocks. */
export const DEFAULT_WORKER_HEAP_MB = 1536;

export function defaultWorkerHeapMb(): number {
  const configured = Number(process.env.GRIDCAST_WORKER_HEAP_MB);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_WORKER_HEAP_MB;
}

/** Workers by default: one per core the process may use. */
export function defaultWorkers(): number {
  const configured = process.env.GRIDCAST_WORKERS;
  if (configured !== undefined && /^\d+$/.test(configured)) return Number(configured);
  return os.availableParallelism();
}

/**
 * Sends a worker a control message and waits for its notice `until` — or for the worker's exit (a
 * worker that dies is replaced and warms up again: nothing to wait for), or `timeoutMs`.
 */
function askWorker(worker: Worker | undefined, control: WorkerControl, until: WorkerNotice['type'], timeoutMs?: number): Promise<void> {
  if (!worker) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
    const noticed = (notice: WorkerNotice) => {
      if (notice.type === until) done();
    };
    function done() {
      clearTimeout(timer);
      worker!.off('message', noticed);
      worker!.off('exit', done);
      resolve();
    }
    worker.on('message', noticed);
    worker.once('exit', done);
    worker.postMessage(control);
  });
}

export class ComputePool {
  private readonly lanes: Lane[] = [];
  private readonly pending = new Map<number, Pending>();
  /**
   * This thread's garbage once no job has been in flight for a second after a cancelled one: the
   * chunks a split body's second half queued ahead of its client (up to half of the body) are
   * garbage here once the client has gone, and an idle HTTP thread allocates nothing that would
   * collect them (util/idleCollector.ts).
   */
  private readonly idle = new IdleCollector(() => this.pending.size > 0, 1_000);
  private nextId = 1;
  private closed = false;
  /** Bodies shared out between two workers so far. */
  splits = 0;
  /** Parts of jobs computed by another, idle worker so far (RouteContext.helper). */
  helps = 0;
  /** Parts being computed for another worker's job: by whom, and for which call of which worker. */
  private readonly helping = new Map<number, { lane: Lane; from: Lane; call: number }>();

  /** Where the workers keep blocks on disk, or null. */
  private readonly disk: DiskBlocksOptions | null;
  /** The weather fields' per-instant values every runner reads (hourTables.ts); null without a warm-up (the tests). */
  private readonly hourTables: HourTables | null;
  /** Why the disk tier is off although asked for: its directory cannot be written (the service runs without it). */
  diskCacheOff: Error | null = null;

  /** The process's cell geometry is built (or not asked for: see PoolOptions.warm). */
  private cellsWarm: boolean;
  /** The pool's own warm-up (streamed bodies through it: warmUp.ts) is done, or not asked for; started once every runner is warm. */
  private streamsWarm: boolean;
  private streamsWarming = false;

  constructor(private readonly options: PoolOptions) {
    this.disk = this.diskTier();
    // Before the workers start: each one is handed the same shared tables.
    this.hourTables = options.warm ? precomputedHours(options.seed, options.now?.() ?? Date.now()) : null;
    this.cellsWarm = !options.warm;
    this.streamsWarm = !options.warm;
    if (options.warm) {
      warmCells().then(
        () => (this.cellsWarm = true),
        (e: Error) => {
          // Not ready without it: the failed sets are tried again on their first request, and said here.
          this.options.onWorkerError?.(e);
          this.cellsWarm = true;
        },
      );
    }
    // A flag of the process, read by each isolate made after it: the workers below (the HTTP thread's is made).
    v8.setFlagsFromString(`--initial-old-space-size=${WORKER_OLD_SPACE_FLOOR_MB}`);
    if (options.workers <= 0) this.lanes.push(this.localLane());
    else for (let i = 0; i < options.workers; i++) this.lanes.push(this.workerLane(i));
  }

  /** Where the disk tier is, if it is on and its directory can be written (else it is off, and said so). */
  private diskTier(): DiskBlocksOptions | null {
    const diskCache = this.options.diskCache;
    if (!diskCache || diskCache.budgetMb <= 0) return null;
    const version = worldVersion(this.options.seed);
    const error = prepareDiskCache(diskCache.root, version);
    if (error) {
      this.diskCacheOff = error;
      return null;
    }
    return { root: diskCache.root, budgetBytes: diskCache.budgetMb * 1024 * 1024, version };
  }

  get workers(): number {
    return this.options.workers;
  }

  /** Runners that are warm (all of them once ready). */
  get warmRunners(): number {
    return this.lanes.filter((l) => l.warm).length;
  }

  /** Every runner can serve at full speed: catalogs built, warm-up requests served, cell geometry built. */
  get ready(): boolean {
    return this.cellsWarm && this.streamsWarm && this.lanes.every((l) => l.warm);
  }

  /** Why not ready, for /readyz (null when ready). */
  get warmingUp(): string | null {
    if (this.ready) return null;
    const lanes = `${this.warmRunners} of ${this.lanes.length} compute ${this.lanes.length === 1 ? 'runner' : 'runners'} warm`;
    return `warming up: ${lanes}, cell geometry ${this.cellsWarm ? 'built' : 'building'}, streamed bodies ${this.streamsWarm ? 'served' : 'to serve'}`;
  }

  /** A runner is warm, or failed warming up (a bug: reported, and it serves anyway, as fast as it can). */
  private warmed(lane: Lane, error?: string): void {
    lane.warm = true;
    if (error) this.options.onWorkerError?.(new Error(`compute warm-up failed: ${error}`));
    if (!this.streamsWarming && this.lanes.every((l) => l.warm)) {
      this.streamsWarming = true;
      void this.warmUpStreams().then(
        () => (this.streamsWarm = true),
        (e: Error) => {
          // A pool closed while it warms up cancels the warm-up: not a failure.
          if (!this.closed) this.options.onWorkerError?.(new Error(`compute warm-up failed: ${e.stack ?? e.message}`));
          this.streamsWarm = true;
        },
      );
    }
  }

  /** Sends the streamed warm-up bodies through the pool as a request's would go (shared out, with credit), and drains them. */
  private async warmUpStreams(): Promise<void> {
    // The runners' warm-up garbage (catalogs, tables' scratch), in every thread, is collected
    // now rather than in the first requests. Before the streamed bodies, not after: a full
    // collection while no request is in flight also frees the hidden classes of the per-request
    // objects (weather batches, plant computers, noise walkers) and with them every optimised
    // function that was specialised to them — the first request after ready would then run
    // unoptimised and recompile, at 2–3× the CPU of later ones. The streamed bodies after it
    // re-create those classes and re-optimise the hot paths of both sides of the pool.
    // The long bodies (warmUp.ts LONG_POOL_REQUESTS) are computed first, so that their garbage is
    // collected too, and served again after the collection from the blocks it kept: the
    // collection discards their optimised code as well. (query/shapes.ts now keeps the shapes of
    // the weather and plant path alive, but not of every object a request makes; every model's
    // weather skill has one shape, so the skill request last no longer deoptimises the plant path.)
    const nowMs = this.options.now?.() ?? Date.now();
    await this.serveWarmUp(poolWarmUpJobs(nowMs, 'long'));
    await Promise.all(this.lanes.map((lane) => lane.collect()));
    collectGarbage();
    await this.serveWarmUp([...poolWarmUpJobs(nowMs, 'long'), ...poolWarmUpJobs(nowMs, 'streamed')]);
    // The workers' garbage once more, now that the heaps may grow far before a collection
    // (WORKER_OLD_SPACE_FLOOR_MB: else the idle process kept this phase's garbage, ~15–20 MB), then a
    // week of plants not computed before, to optimise again what the collection deoptimised
    // (query/shapes.ts keeps most of it), and its disk writes, now rather than after the first
    // request.
    await Promise.all(this.lanes.map((lane) => lane.collect()));
    await this.serveWarmUp(poolWarmUpJobs(nowMs, 'final'));
    // The skill request last, on every runner (a small body: not shared out): code no other request
    // runs, whose optimisation the collection above would have thrown away (query/shapes.ts keeps
    // the plant and region computers' shapes; its objects come and go with the request).
    for (const job of poolWarmUpJobs(nowMs, 'skill')) await Promise.all(this.lanes.map(() => this.serveWarmUp([job])));
    await Promise.all(this.lanes.map((lane) => lane.settle()));
    // This thread's heap again (not the workers': see above), now that the streamed bodies have
    // grown it: else its first major collection fell in the first large request after ready
    // (~50–110 ms on this thread; the first request after a restart, --trace-gc). Its own code
    // (routing, the stream of chunks, the socket) holds no per-request classes to lose.
    collectGarbage();
  }

  /** Sends warm-up jobs through the pool one after the other, bodies drained and thrown away. */
  private async serveWarmUp(jobs: Omit<Job, 'id'>[]): Promise<void> {
    for (const job of jobs) {
      const result = await this.run(job, new AbortController().signal);
      if (result.kind !== 'stream') continue;
      result.begin();
      for await (const chunk of result.body) void chunk;
    }
  }

  /** Jobs sent to the workers and not yet done. */
  get jobsInFlight(): number {
    return this.pending.size;
  }

  /**
   * Runs a job; `signal` aborts it (the client has gone). A large body that can be written in
   * parts (JSON's columns, a wide table's blocks) is shared out between two workers when another
   * one has nothing to do: each computes half, and the halves go out in order.
   */
  run(job: Omit<Job, 'id'>, signal: AbortSignal): Promise<ComputeResult> {
    if (signal.aborted) return Promise.reject(new JobAborted());
    const id = this.nextId++;
    const lane = this.leastBusy();
    return new Promise<ComputeResult>((resolve, reject) => {
      const onAbort = () => this.cancel(id);
      signal.addEventListener('abort', onAbort, { once: true });
      // No chunk before the HTTP thread says so (begin()).
      const full = { ...job, id, credit: 0 };
      this.pending.set(id, {
        lane,
        job: full,
        resolve,
        reject,
        outstanding: 0,
        settled: false,
        detach: () => signal.removeEventListener('abort', onAbort),
      });
      lane.jobs++;
      lane.post({ type: 'run', job: full });
    });
  }

  private leastBusy(except?: Lane): Lane {
    return this.lanes.filter((l) => l !== except).reduce((best, l) => (l.jobs < best.jobs ? l : best));
  }

  /**
   * Hands the second half of job `id`'s parts to an idle worker, if there is one. It computes
   * ahead of the client (its chunks wait here until the first half is out), so the time of a
   * split body is about half the time of the whole, and the HTTP thread may hold up to half of it.
   */
  private trySplit(id: number, p: Pending, parts: number): void {
    if (this.lanes.length < 2 || parts < 2) return;
    const other = this.leastBusy(p.lane);
    if (other.jobs > 0) return;
    const mid = Math.ceil(parts / 2);
    this.splits++;
    // Both halves prepare the same weather: they share its time bases (world/basisExchange.ts).
    const bases = sharedKernelMemory();
    p.lane.post({ type: 'limit', id, to: mid, bases });
    const halfId = this.nextId++;
    p.split = { id: halfId, queue: [], firstDone: false, secondDone: false };
    this.pending.set(halfId, {
      lane: other,
      job: p.job,
      resolve: () => {},
      reject: () => {},
      outstanding: 0,
      settled: true,
      halfOf: id,
      detach: () => {},
    });
    other.jobs++;
    // The second half runs ahead of the client, without waiting for credit.
    other.post({
      type: 'run',
      job: { ...p.job, id: halfId, part: { from: mid, to: parts, header: false, close: true }, credit: Number.MAX_SAFE_INTEGER, bases },
    });
  }

  /** An event about the second half of a split body. */
  private receiveHalf(event: FromWorker, half: Pending): void {
    const first = this.pending.get(half.halfOf!);
    const split = first?.split;
    const stream = first?.stream;
    if (!first || !split || !stream) return;
    if (event.type === 'chunk') {
      const data = Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength);
      if (split.firstDone) pushInWrites(stream, data);
      else split.queue.push(data);
    } else if (event.type === 'end') {
      this.done(event.id);
      split.secondDone = true;
      if (split.firstDone) this.finishSplit(half.halfOf!);
    } else if (event.type === 'error') {
      this.done(event.id);
      stream.destroy(deserializeError(event.error));
    }
  }

  private finishSplit(id: number): void {
    const p = this.pending.get(id);
    this.done(id);
    p?.stream?.push(null);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.cancel(id);
    await Promise.all(this.lanes.map((l) => l.stop()));
  }

  private cancel(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    if (p.split) this.cancel(p.split.id);
    p.lane.post({ type: 'cancel', id });
    this.done(id);
    if (p.split) this.idle.soon();
    if (p.stream) p.stream.destroy();
    else if (!p.settled) p.reject(new JobAborted());
  }

  private done(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.lane.jobs--;
    p.detach();
  }

  /**
   * A job of `from` asks for another worker to compute part of it: given to an idle worker (it
   * then counts as busy), or answered null at once when none is (the job computes it itself).
   */
  private help(from: Lane, call: number, job: HelpJob): void {
    const other = this.lanes.length > 1 ? this.leastBusy(from) : null;
    if (!other || other.jobs > 0) {
      from.answer({ type: 'helpResult', call, result: null });
      return;
    }
    const id = this.nextId++;
    this.helps++;
    other.jobs++;
    this.helping.set(id, { lane: other, from, call });
    other.post({ type: 'help', id, job });
  }

  /** The end of a part computed for another worker's job: its result (or error) to the job. */
  private helped(id: number, event: FromWorker): void {
    const h = this.helping.get(id)!;
    this.helping.delete(id);
    h.lane.jobs--;
    if (event.type === 'helped') h.from.answer({ type: 'helpResult', call: h.call, result: event.result });
    else if (event.type === 'error') h.from.answer({ type: 'helpError', call: h.call, message: deserializeError(event.error).message });
  }

  /** An event from a lane about one of its jobs. */
  private receive(event: FromWorker): void {
    if (this.helping.has(event.id)) return this.helped(event.id, event);
    const p = this.pending.get(event.id);
    if (!p) return; // cancelled meanwhile
    if (p.halfOf !== undefined) return this.receiveHalf(event, p);
    const bytes = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    switch (event.type) {
      case 'records':
        this.settle(event.id, p, { kind: 'records', body: bytes(event.body), count: event.count });
        return;
      case 'body':
        this.settle(event.id, p, { kind: 'frame', values: event.values, body: bytes(event.body) });
        return;
      case 'head':
        this.settle(event.id, p, { kind: 'head', values: event.values });
        return;
      case 'start': {
        const lane = p.lane;
        // Each read grants the worker one more chunk: it computes no faster than the client reads.
        p.stream = new Readable({
          read: () => {
            p.outstanding++;
            lane.post({ type: 'credit', id: event.id, n: 1 });
          },
          destroy: (err, cb) => {
            if (this.pending.has(event.id)) this.cancel(event.id);
            cb(err);
          },
        });
        p.settled = true;
        const computing = () => this.pending.has(event.id) && (p.outstanding > 0 || (p.split !== undefined && !p.split.secondDone));
        const begin = () => {
          if (!this.pending.has(event.id)) return;
          // The split first: the worker must know where its part ends before it computes any of it.
          this.trySplit(event.id, p, event.parts);
          p.outstanding += INITIAL_CREDIT;
          lane.post({ type: 'credit', id: event.id, n: INITIAL_CREDIT });
        };
        p.resolve({ kind: 'stream', values: event.values, body: p.stream, begin, computing });
        return;
      }
      case 'chunk':
        p.outstanding--;
        if (p.stream) pushInWrites(p.stream, bytes(event.data));
        return;
      case 'end':
        if (p.split) {
          // The first half is out: the second follows, as far as it has come, and is told what the first ended with.
          if (event.summary !== undefined)
            this.pending.get(p.split.id)?.lane.post({ type: 'earlier', id: p.split.id, summary: event.summary });
          p.split.firstDone = true;
          for (const data of p.split.queue) if (p.stream) pushInWrites(p.stream, data);
          p.split.queue = [];
          if (p.split.secondDone) this.finishSplit(event.id);
          return;
        }
        this.done(event.id);
        p.stream?.push(null);
        return;
      case 'error': {
        if (p.split) this.cancel(p.split.id);
        this.done(event.id);
        const error = deserializeError(event.error);
        if (p.stream) p.stream.destroy(error);
        else p.reject(error);
        return;
      }
    }
  }

  private settle(id: number, p: Pending, result: ComputeResult): void {
    this.done(id);
    p.settled = true;
    p.resolve(result);
  }

  /** The runner on this thread; its events are delivered on a later turn, as a worker's would be. */
  private localLane(): Lane {
    // With no workers, the cache of this thread (one per process) gets this pool's disk tier.
    const disk = this.disk ? new DiskBlocks(this.disk) : null;
    if (disk) blockCache.useDisk(disk);
    const runner = new JobRunner(
      this.options.seed,
      (event) => queueMicrotask(() => this.receive(event)),
      this.options.testFault,
      this.options.sources,
    );
    if (this.hourTables) runner.useHourTables(this.hourTables);
    disk?.holdWhile(() => runner.load > 0);
    const lane: Lane = {
      post: (message) => setImmediate(() => runner.handle(message)),
      answer: () => {},
      jobs: 0,
      warm: !this.options.warm,
      collect: async () => {
        await disk?.settle();
      },
      settle: async () => {
        await disk?.settle();
      },
      stop: async () => {
        if (!disk) return;
        await disk.settle();
        if (blockCache.diskTier === disk) blockCache.useDisk(null);
      },
    };
    if (this.options.warm) {
      const now = this.options.now?.() ?? Date.now();
      setImmediate(() =>
        warmRunner(runner, now).then(
          () => this.warmed(lane),
          (e: Error) => this.warmed(lane, e.stack ?? e.message),
        ),
      );
    }
    return lane;
  }

  private workerLane(index: number): Lane {
    const cacheMb = this.options.cacheMb ?? cacheBudgetMb();
    const lane: Lane & { worker?: Worker } = {
      jobs: 0,
      warm: false,
      post: (message) => lane.worker?.postMessage(message),
      answer: (message) => lane.worker?.postMessage(message),
      collect: () => askWorker(lane.worker, { type: 'collect' }, 'collected'),
      // Sent with or without a disk tier: it also tells the worker its warm-up is over (worker.ts).
      // Bounded: a stuck disk does not hold the shutdown or readiness.
      settle: () => askWorker(lane.worker, { type: 'settle' }, 'settled', SETTLE_TIMEOUT_MS),
      stop: async () => {
        const worker = lane.worker;
        if (!worker) return;
        // Its queued disk writes first.
        await lane.settle();
        await worker.terminate();
      },
    };
    const spawn = () => {
      lane.warm = !this.options.warm;
      const warmUpAt = this.options.warm ? (this.options.now?.() ?? Date.now()) : null;
      const worker = startModuleWorker(import.meta.url, 'worker', {
        workerData: { seed: this.options.seed, warmUpAt, testFault: this.options.testFault, disk: this.disk, hourTables: this.hourTables },
        env: { ...process.env, GRIDCAST_CACHE_MB: String(cacheMb / this.options.workers) },
        // Out of heap, the worker alone ends (ERR_WORKER_OUT_OF_MEMORY), not the process.
        resourceLimits: {
          maxOldGenerationSizeMb: this.options.workerHeapMb ?? defaultWorkerHeapMb(),
          maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
        },
      });
      worker.on('message', (event: FromWorker | WorkerNotice | ReadCall) => {
        if (isReadCall(event)) {
          const sources = this.options.sources;
          if (sources) void serveRead(sources, event).then((reply) => worker.postMessage(reply));
          else worker.postMessage({ type: 'readError', call: event.call, message: 'no store' });
        } else if (event.type === 'warm') this.warmed(lane, event.error);
        else if (event.type === 'cells') {
          const { call, iso, resolution } = event;
          Promise.resolve(iso)
            .then(() => loadCells(iso, resolution))
            .then(
              (cells) => worker.postMessage({ type: 'cellsResult', call, cells } satisfies WorkerControl),
              (e: Error) => worker.postMessage({ type: 'cellsError', call, message: e.message } satisfies WorkerControl),
            );
        } else if (event.type === 'help') this.help(lane, event.call, event.job);
        else if (event.type !== 'settled' && event.type !== 'collected') this.receive(event);
      });
      worker.on('error', (e) => this.options.onWorkerError?.(e));
      worker.on('exit', (code) => {
        if (this.closed) return;
        // A part it computed for another worker's job: that job computes it itself.
        for (const [id, h] of this.helping) {
          if (h.lane !== lane) continue;
          this.helping.delete(id);
          lane.jobs--;
          h.from.answer({ type: 'helpError', call: h.call, message: `compute worker ${index} stopped` });
        }
        // Fail its jobs (503: the request was sound, the server failed it) and put a new worker in its place.
        for (const [id, p] of this.pending) {
          if (p.lane !== lane) continue;
          this.done(id);
          const error = serviceError(
            503,
            'The computation of this request failed (its compute worker stopped, e.g. out of memory); ' +
              'the service goes on: retry, or ask for fewer targets or a shorter window.',
            { 'retry-after': '5' },
          );
          const target = p.halfOf !== undefined ? this.pending.get(p.halfOf) : p;
          if (target?.stream) target.stream.destroy(error);
          else if (target && !target.settled) target.reject(error);
        }
        this.options.onWorkerError?.(new Error(`compute worker ${index} exited with code ${code}; starting another`));
        lane.worker = spawn();
      });
      return worker;
    };
    lane.worker = spawn();
    return lane;
  }
}
