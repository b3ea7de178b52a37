/**
 * Runs jobs (compute/protocol.ts) where the computing happens: in a worker thread (worker.ts),
 * or on the HTTP thread when the pool has no workers (tests, GRIDCAST_WORKERS=0).
 *
 * Several jobs share one runner, taking turns: a large response is computed a column (JSON) or
 * a few milliseconds of a batch (the tabular writers) at a time, and between two turns any
 * other job gets its turn, so a small request waits for a turn of a large one, never for the
 * whole of it. A job sends a chunk only while it holds credit (granted as its client reads),
 * and a cancelled job computes nothing more.
 */
import { BasisExchange, withBasisExchange } from '../../world/basisExchange.ts';
import { buildAllRegions, loadCentres, regionsOf } from '../../catalog/regions.ts';
import { allPlants } from '../../catalog/plants.ts';
import { ISO_CODES } from '../../catalog/isos.ts';
import { prepareExtremeClimate } from '../../world/weather/extremes.ts';
import type { Frame } from '../../query/frame.ts';
import type { ExtremeCatalogue } from '../../world/weather/extremes.ts';
import { WeatherWorld, type HourTables } from '../../world/weather/world.ts';
import { ROUTE_BY_PATH } from '../routes/index.ts';
import { frameJsonPieces, isLargeFrame, WHOLE_BODY, type BodyPart } from '../writer.ts';
import { isPlainJson, outputBody } from '../writers/registry.ts';
import { DEFAULT_HEAVY_VALUES } from '../heavyBudget.ts';
import { deserializeError, serializeError, type FromWorker, type HelpJob, type Job, type TestFault, type ToWorker } from './protocol.ts';
import type { SourceReader } from '../../sources/reader.ts';
import { runnerWarmUpJobs } from './warmUp.ts';
import { keepComputeShapes } from '../../query/shapes.ts';

/** A chunk gathers pieces until it holds this many bytes (or STEP_MS have passed). */
const CHUNK_BYTES = 256 * 1024;
/** Longest a step gathers pieces, ms. */
const STEP_MS = 20;

/** Credit a large job gets when the HTTP thread lets it begin: chunks it may compute before its client has read any. */
export const INITIAL_CREDIT = 2;

interface Streaming {
  id: number;
  pieces: Iterator<string | Uint8Array> | AsyncIterator<string | Uint8Array>;
  credit: number;
  /** The part of the body being written (all of it unless it was shared out). */
  part: BodyPart;
  /** Aborts the writer's own work (the tabular writers check it between batches). */
  abort: AbortController;
  /** A piece of it is being computed (at most one at a time). */
  stepping: boolean;
  /** Large (DEFAULT_HEAVY_VALUES or more): it computes only while no small job has work. */
  large: boolean;
  /** Shared out: where its weather batches' time bases are shared with the other half's worker. */
  bases?: BasisExchange;
}

const encoder = new TextEncoder();

/** A value that arrives later, by message: what the part before a job's part returned (protocol.ts 'earlier'). */
interface Earlier {
  promise: Promise<unknown>;
  resolve(summary: unknown): void;
  reject(error: Error): void;
}

/** Is the array the whole of its buffer (so that transferring the buffer moves nothing else)? */
function ownsItsBuffer(piece: Uint8Array): boolean {
  return piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength && piece.buffer instanceof ArrayBuffer;
}

/** The pieces in one array of its own (its buffer is transferred to the HTTP thread, so never a pooled Buffer's). */
function joined(pieces: Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/**
 * Makes `runner` as fast as it will be (readiness, pool.ts): builds the plant and region
 * catalogs (~1–2 s of CPU) and serves the warm-up requests (warmUp.ts) at `nowMs`.
 */
export async function warmRunner(runner: JobRunner, nowMs: number): Promise<void> {
  buildAllRegions();
  // What never changes, for every point the service computes weather at (~0.2 s).
  prepareExtremeClimate(catalogPoints());
  runner.keepShapes();
  await runner.warmUp(runnerWarmUpJobs(nowMs, runner.extremes));
}

/** Every plant and load centre of the catalog (the points the weather is computed at, but for cells). */
function* catalogPoints(): Generator<{ lat: number; lon: number }> {
  for (const p of allPlants()) yield { lat: p.latitude, lon: p.longitude };
  for (const iso of ISO_CODES) for (const region of regionsOf(iso)) yield* loadCentres(region);
}

/** The failure a test asked for (protocol.ts TestFault). */
function failForTest(fault: TestFault): void {
  if (fault.fault === 'throw') throw new Error('test fault: this job fails');
  const hoard: number[][] = [];
  // Arrays of 8 MB: an allocation much larger than the 16 MB Node grants a worker past its limit to unwind would be fatal for the process.
  for (;;) hoard.push(new Array<number>(1 << 20).fill(hoard.length));
}

export class JobRunner {
  private readonly world: WeatherWorld;
  private readonly streaming = new Map<number, Streaming>();
  /** Jobs being set up (their frame or list being made), and those of them cancelled meanwhile. */
  private readonly starting = new Set<number>();
  private readonly cancelled = new Set<number>();
  /** The streaming jobs in the order they started. */
  private turn: number[] = [];
  private scheduled = false;
  /** The earlier parts' summaries of jobs that write a later part, made by whichever comes first: the message or the writer's asking. */
  private readonly earlier = new Map<number, Earlier>();
  /** Warm-up jobs (negative ids): their events end here, not at the HTTP thread. */
  private readonly warming = new Map<number, (event: FromWorker) => void>();
  private nextWarmUpId = -1;

  constructor(
    seed: number,
    private readonly emit: (event: FromWorker, transfer?: ArrayBuffer[]) => void,
    private readonly testFault?: TestFault,
    /** Where stored sources are read (the store, through the HTTP thread from a worker). */
    private readonly sources?: SourceReader,
    /** Asks the pool for another runner to compute part of a job (a worker's; none on the HTTP thread). */
    private readonly askHelp?: (job: HelpJob) => Promise<unknown>,
  ) {
    this.world = new WeatherWorld(seed);
  }

  /** The weather fields' per-instant values precomputed by the pool (hourTables.ts): read from now on where they hold the rows. */
  useHourTables(tables: HourTables): void {
    this.world.useHourTables(tables);
  }

  /** The extreme events of this runner's world (the warm-up asks for days they touch). */
  get extremes(): ExtremeCatalogue {
    return this.world.extremes;
  }

  /** An event of a job: to the HTTP thread, or to the warm-up that ran the job. */
  private send(event: FromWorker, transfer?: ArrayBuffer[]): void {
    const warmUp = this.warming.get(event.id);
    if (warmUp) warmUp(event);
    else this.emit(event, transfer);
  }

  /**
   * Runs `jobs` one after another as the HTTP thread's would run (warmUp.ts), bodies thrown
   * away; resolves once all are done. A job that fails does not stop the others (the rest still
   * warm up): the warm-up rejects at the end with every failure (a warm-up request is a fixed,
   * valid request: its failure is a bug to report).
   */
  /** Keeps the shapes of the objects its computations make alive, and so the code optimised for them (query/shapes.ts). */
  keepShapes(): void {
    keepComputeShapes(this.world);
  }

  async warmUp(jobs: readonly Omit<Job, 'id'>[]): Promise<void> {
    const failures: string[] = [];
    for (const job of jobs) {
      const id = this.nextWarmUpId--;
      await new Promise<void>((resolve, reject) => {
        this.warming.set(id, (event) => {
          if (event.type === 'start' || event.type === 'chunk') return;
          this.warming.delete(id);
          if (event.type === 'error') reject(deserializeError(event.error));
          else resolve();
        });
        this.handle({ type: 'run', job: { ...job, id, credit: Number.MAX_SAFE_INTEGER } });
      }).catch((e: Error) => failures.push(`${job.path} ${JSON.stringify(job.raw)}: ${e.message}`));
    }
    if (failures.length > 0) throw new Error(`${failures.length} of ${jobs.length} warm-up requests failed: ${failures.join('; ')}`);
  }

  handle(message: ToWorker): void {
    if (message.type === 'run') void this.start(message.job);
    else if (message.type === 'help') void this.help(message.id, message.job);
    else if (message.type === 'credit') {
      const job = this.streaming.get(message.id);
      if (job) {
        job.credit += message.n;
        this.schedule();
      }
    } else if (message.type === 'limit') {
      const job = this.streaming.get(message.id);
      if (job) {
        job.part.to = Math.min(job.part.to, message.to);
        job.part.close = false;
        if (message.bases) job.bases = new BasisExchange(message.bases);
      }
    } else if (message.type === 'earlier') {
      if (this.streaming.has(message.id) || this.starting.has(message.id)) this.earlierOf(message.id).resolve(message.summary);
    } else if (this.starting.has(message.id)) {
      this.cancelled.add(message.id);
    } else {
      this.finish(message.id);
    }
  }

  /** Computes part of another runner's job (RouteDef.help) and answers with its result. */
  private async help(id: number, job: HelpJob): Promise<void> {
    try {
      const def = ROUTE_BY_PATH.get(job.path);
      if (!def?.help) throw new Error(`no help for route ${job.path}`);
      const { result, transfer } = await def.help(
        { params: job.params, raw: job.raw, key: job.key, nowMs: job.nowMs, world: this.world, sources: this.sources },
        job.task,
      );
      this.send({ type: 'helped', id, result }, transfer);
    } catch (e) {
      this.send({ type: 'error', id, error: serializeError(e) });
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
      if (this.testFault?.path === job.path) failForTest(this.testFault);
      const askHelp = this.askHelp;
      const result = await def.handle({
        params: job.params,
        raw: job.raw,
        key: job.key,
        nowMs: job.nowMs,
        world: this.world,
        sources: this.sources,
        helper: askHelp && ((task) => askHelp({ path: job.path, params: job.params, raw: job.raw, key: job.key, nowMs: job.nowMs, task })),
      });
      this.starting.delete(job.id);
      if (this.cancelled.delete(job.id)) {
        this.earlier.delete(job.id);
        return;
      }
      const plain = isPlainJson(job.output);
      if (Array.isArray(result) && plain) {
        const body = encoder.encode(JSON.stringify(result));
        this.send({ type: 'records', id: job.id, body, count: result.length }, [body.buffer as ArrayBuffer]);
        return;
      }
      const frame = Array.isArray(result) ? null : (result as Frame);
      const values = frame ? frame.hours.length * frame.columns.length : (result as unknown[]).length;
      if (job.head) {
        this.send({ type: 'head', id: job.id, values });
      } else if (plain && frame && !isLargeFrame(frame)) {
        const pieces = [...frameJsonPieces(frame)].map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
        const body = joined(
          pieces,
          pieces.reduce((n, p) => n + p.length, 0),
        );
        this.send({ type: 'body', id: job.id, body, values }, [body.buffer as ArrayBuffer]);
      } else {
        const abort = new AbortController();
        const large = values >= DEFAULT_HEAVY_VALUES;
        const part = { ...(job.part ?? WHOLE_BODY) };
        const body = outputBody(result, job.output, {
          signal: abort.signal,
          turn: large ? this.largeTurn : undefined,
          part,
          earlier: () => this.earlierOf(job.id).promise,
        });
        this.send({ type: 'start', id: job.id, values, parts: body.parts });
        const pieces = body.pieces;
        this.streaming.set(job.id, {
          id: job.id,
          pieces: Symbol.asyncIterator in pieces ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator](),
          credit: job.credit ?? INITIAL_CREDIT,
          part,
          abort,
          stepping: false,
          large,
          bases: job.bases ? new BasisExchange(job.bases) : undefined,
        });
        this.turn.push(job.id);
        this.schedule();
      }
    } catch (e) {
      this.starting.delete(job.id);
      this.earlier.delete(job.id);
      if (!this.cancelled.delete(job.id)) this.send({ type: 'error', id: job.id, error: serializeError(e) });
    }
  }

  /**
   * On the next turn of the event loop, starts the next piece of the next job (round robin,
   * small jobs first) that holds credit and has no piece in progress, then does the same on the
   * turn after. A JSON piece is a column computed at once; a tabular writer's piece computes a
   * batch, turning the event loop every few milliseconds (writers/table.ts), so several jobs'
   * pieces — and new jobs' set-up — take turns at that grain: a small request never waits for a
   * large one's batch, only for a turn of it.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const smallFirst = this.hasSmallWork();
      const ready = (id: number) => {
        const job = this.streaming.get(id);
        return job !== undefined && job.credit > 0 && !job.stepping && !(smallFirst && job.large);
      };
      const next = this.turn.find(ready);
      if (next === undefined) return;
      // Its next turn comes after every other job's.
      this.turn = [...this.turn.filter((id) => id !== next), next];
      const job = this.streaming.get(next)!;
      job.stepping = true;
      void this.step(job).finally(() => {
        job.stepping = false;
        this.schedule();
      });
      if (this.turn.some(ready)) this.schedule();
    });
  }

  private earlierOf(id: number): Earlier {
    let earlier = this.earlier.get(id);
    if (!earlier) {
      let resolve!: (summary: unknown) => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<unknown>((res, rej) => ((resolve = res), (reject = rej)));
      // A job cancelled while it waits rejects it, and nothing else may be awaiting it.
      promise.catch(() => {});
      this.earlier.set(id, (earlier = { promise, resolve, reject }));
    }
    return earlier;
  }

  /** Is a small streaming job waiting to compute (its client has room for more)? */
  private hasSmallWork(): boolean {
    for (const job of this.streaming.values()) if (!job.large && job.credit > 0) return true;
    return false;
  }

  /**
   * A large job's turn (writers/table.ts takes one every few milliseconds): it goes on once no
   * small job has work, so a small request's response waits for no large one's batch.
   */
  private readonly largeTurn = async (): Promise<void> => {
    do await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.hasSmallWork());
  };

  /** Computes and sends the job's next piece (the tabular writers' pieces may be awaited). */
  private async step(job: Streaming): Promise<void> {
    try {
      // Small pieces (a JSON column) are gathered into one chunk: fewer messages, and a small
      // response goes out within its first credit rather than a credit round trip per column.
      const pieces: Uint8Array[] = [];
      let bytes = 0;
      let done = false;
      let summary: unknown;
      const started = performance.now();
      while (bytes < CHUNK_BYTES && performance.now() - started < STEP_MS) {
        // The piece's synchronous work (a JSON column, a batch's start) shares time bases with the other half's worker.
        const next = await withBasisExchange(job.bases, () => job.pieces.next());
        if (!this.streaming.has(job.id)) return; // cancelled meanwhile
        if (next.done) {
          done = true;
          summary = next.value;
          break;
        }
        const data = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
        pieces.push(data);
        bytes += data.length;
      }
      if (bytes > 0) {
        job.credit--;
        // Its memory moves to the HTTP thread: a piece the writer handed over whole (writers/registry.ts) as it is, else a copy.
        const data = pieces.length === 1 && ownsItsBuffer(pieces[0]) ? pieces[0] : joined(pieces, bytes);
        this.send({ type: 'chunk', id: job.id, data }, [data.buffer as ArrayBuffer]);
      }
      if (done) {
        this.finish(job.id);
        this.send({ type: 'end', id: job.id, summary });
      }
    } catch (e) {
      if (!this.streaming.has(job.id)) return;
      this.finish(job.id);
      this.send({ type: 'error', id: job.id, error: serializeError(e) });
    }
  }

  private finish(id: number): void {
    this.earlier.get(id)?.reject(new Error('the job has ended'));
    this.earlier.delete(id);
    const job = this.streaming.get(id);
    if (!job) return;
    this.streaming.delete(id);
    this.turn = this.turn.filter((t) => t !== id);
    job.abort.abort();
    void job.pieces.return?.(undefined);
  }
}
