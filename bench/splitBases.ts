/**
 * `node --import tsx bench/splitBases.ts [reps]`: the compute of the large request of `npm run bench`
 * (every ERCOT wind plant, 2026-01-01 to 11-19) shared out between two worker threads as the pool
 * does it — each prepares the weather batch and computes half the plants — with a time-basis
 * exchange (world/basisExchange.ts) and without, alternating, in each thread's own CPU time
 * (/proc/thread-self/schedstat): what sharing the time bases saves, apart from the writer, the
 * block cache and the HTTP thread.
 */
import { startModuleWorker } from '../src/util/moduleWorker.ts';
import { sharedKernelMemory } from '../src/world/dotKernel.ts';
import type { Reply } from './splitBasesWorker.ts';
const workers = [0, 1].map(() => startModuleWorker(import.meta.url, 'splitBasesWorker'));
const ask = (w: (typeof workers)[0], msg: object) =>
  new Promise<Reply>((res) => {
    w.once('message', res);
    w.postMessage(msg);
  });
const reps = Number(process.argv[2] ?? 6);
for (let r = 0; r < reps; r++) {
  for (const shared of [false, true]) {
    const memory = shared ? sharedKernelMemory() : undefined;
    const t0 = performance.now();
    const out = await Promise.all(workers.map((w, half) => ask(w, { half, memory })));
    const wall = performance.now() - t0;
    console.log(
      `${shared ? 'shared' : 'own   '}: wall ${wall.toFixed(0)} ms, thread cpu ${out.map((o) => o.cpu.toFixed(0)).join(' + ')} = ${(out[0].cpu + out[1].cpu).toFixed(0)} ms, batch ${out.map((o) => o.batchMs.toFixed(0)).join('/')} ms${shared ? `, computed ${out.map((o) => o.computed).join('/')}` : ''}`,
    );
  }
}
process.exit(0);
