/**
 * A compute worker thread (see pool.ts): runs the jobs the HTTP thread sends it and posts
 * back their bytes. workerData: { seed } of the world.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ToWorker } from './protocol.ts';
import { JobRunner, warmCatalog } from './runner.ts';

const port = parentPort!;
const runner = new JobRunner((workerData as { seed: number }).seed, (event, transfer) => port.postMessage(event, transfer ?? []));
port.on('message', (message: ToWorker) => runner.handle(message));
warmCatalog();
port.postMessage({ type: 'ready' });
