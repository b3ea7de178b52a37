/**
 * A compute worker thread (see pool.ts): runs the jobs the HTTP thread sends it and posts
 * back their bytes. workerData: { seed } of the world.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TestFault, ToWorker } from './protocol.ts';
import { JobRunner, warmCatalog } from './runner.ts';

const { seed, warmCells, testFault } = workerData as { seed: number; warmCells: boolean; testFault?: TestFault };
const port = parentPort!;
const runner = new JobRunner(seed, (event, transfer) => port.postMessage(event, transfer ?? []), testFault);
port.on('message', (message: ToWorker) => runner.handle(message));
warmCatalog(warmCells);
port.postMessage({ type: 'ready' });
