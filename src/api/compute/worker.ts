/**
 * A compute worker thread (see pool.ts): runs the jobs the HTTP thread sends it and posts
 * back their bytes. workerData: { seed } of the world.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TestFault, ToWorker } from './protocol.ts';
import { JobRunner, warmCatalog } from './runner.ts';
import { isReadReply, remoteReader } from '../../sources/reader.ts';

const { seed, warmCells, testFault } = workerData as { seed: number; warmCells: boolean; testFault?: TestFault };
const port = parentPort!;
// Stored sources are read by the HTTP thread, which holds the store (sources/reader.ts).
const sources = remoteReader((call) => port.postMessage(call));
const runner = new JobRunner(seed, (event, transfer) => port.postMessage(event, transfer ?? []), testFault, sources.reader);
port.on('message', (message: unknown) => {
  if (isReadReply(message)) sources.receive(message);
  else runner.handle(message as ToWorker);
});
warmCatalog(warmCells);
port.postMessage({ type: 'ready' });
