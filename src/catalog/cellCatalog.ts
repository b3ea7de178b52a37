/**
 * The clipped H3 cells of every (ISO, resolution) for the server, computed off the main thread.
 *
 * Clipping is CPU-bound (cells.ts: 0.65 s for MISO at resolution 5, ~3 s for all 28 sets), and
 * on the main thread it would hold up every other request. So the sets are computed in one
 * worker thread (cellWorker.ts) and kept in this module's memory for the life of the process
 * (they are static, so they never go stale):
 * - `loadCells(iso, res)` resolves from memory, or queues the set at the front of the worker's
 *   queue and resolves when it arrives (concurrent requests for one set share one computation);
 * - `warmCells()` (called by `serve` after it starts listening) queues every set not yet known,
 *   smallest resolutions first, so by the time users ask, the sets are usually ready.
 * If the worker cannot run, sets are computed on the calling thread instead: slower to
 * answer, never wrong. Once every set is known the worker thread is ended (its memory freed).
 *
 * A process keeps one copy: its compute workers (api/compute) do not clip cells themselves but
 * ask the HTTP thread for a set (`provideCellsFrom`), keeping the sets they were given.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/moduleWorker.ts';
import { cellsOf, MAX_CELL_RESOLUTION, MIN_CELL_RESOLUTION, type Cell } from './cells.ts';
import { ISO_CODES, type IsoCode } from './isos.ts';

interface Pending {
  iso: IsoCode;
  resolution: number;
  promise: Promise<readonly Cell[]>;
  resolve(cells: readonly Cell[]): void;
  reject(error: Error): void;
}

const ready = new Map<string, readonly Cell[]>();
const pending = new Map<string, Pending>();
/** Keys waiting to be sent to the worker, next first. */
const queue: string[] = [];
let worker: Worker | undefined;
let inFlight: string | undefined;
let workerBroken = false;

const keyOf = (iso: IsoCode, resolution: number) => `${iso}/${resolution}`;
/** Every (ISO, resolution) set. */
const ALL_SETS = ISO_CODES.length * (MAX_CELL_RESOLUTION - MIN_CELL_RESOLUTION + 1);

/** In a compute worker: where sets come from (the process's copy on the HTTP thread), instead of clipping here. */
let provider: ((iso: IsoCode, resolution: number) => Promise<readonly Cell[]>) | undefined;

/** Takes sets from `provide` from now on (a compute worker: worker.ts). */
export function provideCellsFrom(provide: (iso: IsoCode, resolution: number) => Promise<readonly Cell[]>): void {
  provider = provide;
}

/** A set from the provider (concurrent requests share one call; a failed call is tried again next time). */
function provided(provide: (iso: IsoCode, resolution: number) => Promise<readonly Cell[]>, iso: IsoCode, resolution: number) {
  const entry = enqueue(iso, resolution, false);
  provide(iso, resolution).then(
    (cells) => settle(keyOf(iso, resolution), cells),
    (error: Error) => fail(keyOf(iso, resolution), error),
  );
  return entry.promise;
}

/** The cells of an ISO at a resolution (2..5), clipped to its footprint, sorted by id. */
export function loadCells(iso: IsoCode, resolution: number): Promise<readonly Cell[]> {
  const key = keyOf(iso, resolution);
  const known = ready.get(key);
  if (known) return Promise.resolve(known);
  if (provider) return pending.get(key)?.promise ?? provided(provider, iso, resolution);
  const waiting = pending.get(key) ?? enqueue(iso, resolution);
  // Someone is waiting for this set now: it goes before anything merely warming up.
  const at = queue.indexOf(key);
  if (at > 0) queue.unshift(...queue.splice(at, 1));
  pump();
  return waiting.promise;
}

/** Queues every (ISO, resolution) not yet computed, coarse resolutions first; resolves once all are known. */
export async function warmCells(): Promise<void> {
  const all: Promise<readonly Cell[]>[] = [];
  for (let res = MIN_CELL_RESOLUTION; res <= MAX_CELL_RESOLUTION; res++) {
    for (const iso of ISO_CODES) {
      const key = keyOf(iso, res);
      const known = ready.get(key);
      all.push(known ? Promise.resolve(known) : (pending.get(key) ?? enqueue(iso, res)).promise);
    }
  }
  pump();
  await Promise.all(all);
}

function enqueue(iso: IsoCode, resolution: number, queued = true): Pending {
  if (!Number.isInteger(resolution) || resolution < MIN_CELL_RESOLUTION || resolution > MAX_CELL_RESOLUTION) {
    throw new RangeError(`loadCells: resolution must be an integer ${MIN_CELL_RESOLUTION}..${MAX_CELL_RESOLUTION}, got ${resolution}`);
  }
  const key = keyOf(iso, resolution);
  let resolve!: (cells: readonly Cell[]) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<readonly Cell[]>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const entry = { iso, resolution, promise, resolve, reject };
  pending.set(key, entry);
  if (queued) queue.push(key);
  return entry;
}

/** A set could not be computed (a bug): its waiters fail (a 500), and a later request tries again. */
function fail(key: string, error: Error): void {
  const entry = pending.get(key);
  pending.delete(key);
  entry?.reject(error);
}

function settle(key: string, cells: readonly Cell[]): void {
  const frozen = Object.isFrozen(cells) ? cells : Object.freeze(cells.map((c) => Object.freeze(c)));
  ready.set(key, frozen);
  const entry = pending.get(key);
  pending.delete(key);
  entry?.resolve(frozen);
}

function pump(): void {
  if (inFlight !== undefined || queue.length === 0) return;
  const key = queue.shift()!;
  const entry = pending.get(key)!;
  inFlight = key;
  const w = workerBroken ? undefined : startWorker();
  if (!w) {
    // No worker: compute here, but after the current turn so callers get their promise first.
    setImmediate(() => {
      inFlight = undefined;
      try {
        settle(key, cellsOf(entry.iso, entry.resolution));
      } catch (error) {
        fail(key, error as Error);
      }
      pump();
    });
    return;
  }
  // Keep the process alive while a set is being computed (someone may be awaiting it),
  // but let it exit when the worker is idle.
  w.ref();
  w.postMessage({ key, iso: entry.iso, resolution: entry.resolution });
}

function startWorker(): Worker | undefined {
  if (worker) return worker;
  try {
    const w = startModuleWorker(import.meta.url, 'cellWorker');
    w.on('message', (msg: { key: string; cells?: readonly Cell[]; error?: string }) => {
      const key = msg.key;
      inFlight = undefined;
      if (msg.cells) settle(key, msg.cells);
      else fail(key, new Error(`cell geometry ${key} failed in the worker: ${msg.error}`));
      if (ready.size === ALL_SETS) retireWorker(w);
      else if (queue.length === 0) w.unref();
      pump();
    });
    w.on('error', (e) => failWorker(e));
    w.on('exit', (code) => failWorker(new Error(`exited with code ${code}`)));
    w.unref();
    worker = w;
    return w;
  } catch (e) {
    // pump() computes the current set on this thread when no worker comes back.
    markBroken(e as Error);
    return undefined;
  }
}

/** Every set is known: the worker has nothing left to do, and its heap is given back. */
function retireWorker(w: Worker): void {
  w.removeAllListeners('exit');
  w.removeAllListeners('error');
  void w.terminate();
  worker = undefined;
}

/** No more worker: later sets are computed on this thread (still correct, but requests wait), said once. */
function markBroken(error: Error): void {
  worker = undefined;
  if (workerBroken) return;
  workerBroken = true;
  process.emitWarning(`cell geometry worker unavailable (${error.message}); computing cell geometry on the main thread`, 'GridcastWarning');
}

/** The worker died: finish everything (including the set it was computing) on this thread. */
function failWorker(error: Error): void {
  if (!worker) return;
  markBroken(error);
  if (inFlight !== undefined) {
    queue.unshift(inFlight);
    inFlight = undefined;
  }
  pump();
}
