/**
 * A compute worker thread (see pool.ts): runs the jobs the HTTP thread sends it and posts
 * back their bytes. workerData: { seed } of the world, and where the disk tier of its block
 * cache is (null for none).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { blockCache } from '../../query/blockCache.ts';
import { DiskBlocks, type DiskBlocksOptions } from '../../query/diskBlocks.ts';
import type { TestFault, ToWorker, WorkerControl, WorkerNotice } from './protocol.ts';
import { JobRunner, warmCatalog } from './runner.ts';
import { isReadReply, remoteReader } from '../../sources/reader.ts';

const { seed, warmCells, testFault, disk } = workerData as {
  seed: number;
  warmCells: boolean;
  testFault?: TestFault;
  disk: DiskBlocksOptions | null;
};
const port = parentPort!;
const notify = (notice: WorkerNotice) => port.postMessage(notice);
if (disk) blockCache.useDisk(new DiskBlocks(disk));
// Stored sources are read by the HTTP thread, which holds the store (sources/reader.ts).
const sources = remoteReader((call) => port.postMessage(call));
const runner = new JobRunner(seed, (event, transfer) => port.postMessage(event, transfer ?? []), testFault, sources.reader);
port.on('message', (message: unknown) => {
  if (isReadReply(message)) sources.receive(message);
  else if ((message as WorkerControl).type === 'settle')
    void (blockCache.diskTier?.settle() ?? Promise.resolve()).then(() => notify({ type: 'settled' }));
  else runner.handle(message as ToWorker);
});
warmCatalog(warmCells);
notify({ type: 'ready' });
