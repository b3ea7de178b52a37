/**
 * A compute worker thread (see pool.ts): runs the jobs the HTTP thread sends it and posts
 * back their bytes. workerData: { seed } of the world, where the disk tier of its block cache
 * is (null for none), the pool's shared tables of the weather fields (null for none), and `warmUpAt` — if set, it warms up (warmUp.ts) at that "now" and says
 * 'warm' when done, which readiness waits for; told 'collect' once the pool's own warm-up is
 * done, it finishes its disk writes and collects the warm-up's garbage before the pool is ready.
 */
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { provideCellsFrom } from '../../catalog/cellCatalog.ts';
import type { Cell } from '../../catalog/cells.ts';
import { blockCache } from '../../query/blockCache.ts';
import { DiskBlocks, type DiskBlocksOptions } from '../../query/diskBlocks.ts';
import type { HelpJob, TestFault, ToWorker, WorkerControl, WorkerNotice } from './protocol.ts';
import { JobRunner, warmRunner } from './runner.ts';
import { IdleCollector } from '../../util/idleCollector.ts';
import { isReadReply, remoteReader } from '../../sources/reader.ts';
import type { HourTables } from '../../world/weather/world.ts';

const { seed, warmUpAt, testFault, disk, hourTables } = workerData as {
  seed: number;
  warmUpAt: number | null;
  testFault?: TestFault;
  disk: DiskBlocksOptions | null;
  /** The pool's shared tables of the weather fields (hourTables.ts), or null. */
  hourTables: HourTables | null;
};
const port = parentPort!;
const notify = (notice: WorkerNotice) => port.postMessage(notice);
if (disk) blockCache.useDisk(new DiskBlocks(disk));
// Stored sources are read by the HTTP thread, which holds the store (sources/reader.ts).
const sources = remoteReader((call) => port.postMessage(call));

/** Questions this worker asks the pool, each numbered, answered by a control message with its number. */
class PoolCalls<T> {
  private readonly waiting = new Map<number, { resolve(answer: T): void; reject(error: Error): void }>();
  private next = 1;

  constructor(private readonly what: string) {}

  /** Sends the question `ask` makes for a call number; resolves with the pool's answer. */
  ask(ask: (call: number) => WorkerNotice): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call = this.next++;
      this.waiting.set(call, { resolve, reject });
      notify(ask(call));
    });
  }

  answer(call: number, answer: { result: T } | { message: string }): void {
    const waiting = this.waiting.get(call);
    this.waiting.delete(call);
    if ('result' in answer) waiting?.resolve(answer.result);
    else waiting?.reject(new Error(`${this.what}: ${answer.message}`));
  }
}

// Cell geometry too: the process computes and keeps it once (catalog/cellCatalog.ts).
const cellCalls = new PoolCalls<readonly Cell[]>('cell geometry');
provideCellsFrom((iso, resolution) => cellCalls.ask((call) => ({ type: 'cells', call, iso, resolution })));
// Part of a job computed by another worker when one is idle (RouteContext.helper), asked of the pool.
const helpCalls = new PoolCalls<unknown>('help');
const askHelp = (job: HelpJob) => helpCalls.ask((call) => ({ type: 'help', call, job }));
/**
 * A worker collects its garbage once it has been idle a second after a cancelled job, or after a
 * job that left its heap (with the ArrayBuffers it holds) LEFT_BEHIND_MB above what the last
 * collection kept (util/idleCollector.ts). Off until the pool's warm-up (if any) has settled: its
 * last requests leave compiled code to keep (pool.ts).
 */
const LEFT_BEHIND_MB = 64;
let keptAfterCollection = heldBytes();
let collectsWhenIdle = warmUpAt === null;
const idle = new IdleCollector(
  () => runner.load > 0,
  1_000,
  () => (keptAfterCollection = heldBytes()),
);

/** The heap in use and the memory of its ArrayBuffers, bytes. */
function heldBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.used_heap_size + heap.external_memory;
}

/** The events that end a job (protocol.ts FromWorker). */
const JOB_ENDS = new Set(['end', 'records', 'body', 'head', 'helped', 'error']);

const runner = new JobRunner(
  seed,
  (event, transfer) => {
    port.postMessage(event, transfer ?? []);
    if (collectsWhenIdle && JOB_ENDS.has(event.type) && heldBytes() - keptAfterCollection > LEFT_BEHIND_MB * 1024 * 1024) idle.soon();
  },
  testFault,
  sources.reader,
  askHelp,
);
if (hourTables) runner.useHourTables(hourTables);
// The disk tier writes when no request is being computed here (diskBlocks.ts).
blockCache.diskTier?.holdWhile(() => runner.load > 0);
port.on('message', (message: unknown) => {
  if (isReadReply(message)) return sources.receive(message);
  const control = message as WorkerControl;
  if (control.type === 'settle') {
    collectsWhenIdle = true;
    void (blockCache.diskTier?.settle() ?? Promise.resolve()).then(() => notify({ type: 'settled' }));
  } else if (control.type === 'collect') {
    void (blockCache.diskTier?.settle() ?? Promise.resolve()).then(() => {
      idle.now();
      notify({ type: 'collected' });
    });
  } else if (control.type === 'cellsResult' || control.type === 'cellsError') {
    cellCalls.answer(control.call, control.type === 'cellsResult' ? { result: control.cells } : control);
  } else if (control.type === 'helpResult' || control.type === 'helpError') helpCalls.answer(control.call, control);
  else {
    runner.handle(message as ToWorker);
    if (collectsWhenIdle && (message as ToWorker).type === 'cancel') idle.soon();
  }
});
if (warmUpAt !== null) {
  warmRunner(runner, warmUpAt).then(
    () => notify({ type: 'warm' }),
    (e: Error) => notify({ type: 'warm', error: e.stack ?? e.message }),
  );
}
