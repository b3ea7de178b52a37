/**
 * Worker-thread entry that computes clipped H3 cells (cells.ts) off the main thread; see
 * cellCatalog.ts. Messages in: { iso, resolution }; out: { key, cells } or { key, error }.
 */
import { parentPort } from 'node:worker_threads';
import { cellsOf } from './cells.ts';
import type { IsoCode } from './isos.ts';

parentPort!.on('message', ({ key, iso, resolution }: { key: string; iso: IsoCode; resolution: number }) => {
  try {
    parentPort!.postMessage({ key, cells: cellsOf(iso, resolution) });
  } catch (error) {
    parentPort!.postMessage({ key, error: String((error as Error)?.stack ?? error) });
  }
});
