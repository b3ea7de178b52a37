/**
 * A worker thread running one of our own modules, compiled or not. Compiled (npm start), the
 * module is .js and so is the worker file. Under tsx (dev, tests) the file is .ts, and a worker
 * thread does not always inherit tsx's loader (under `node --test` it does not), so the worker
 * first registers tsx itself, resolved from here so that it is found whatever the process's
 * working directory.
 */
import { extname } from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts `./<name>.ts|.js` next to the module `from` (pass `import.meta.url`). */
export function startModuleWorker(from: string, name: string, options: WorkerOptions = {}): Worker {
  const ext = extname(new URL(from).pathname);
  const file = new URL(`./${name}${ext}`, from);
  if (ext !== '.ts') return new Worker(file, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((t) => t.register()).then(() => import(${JSON.stringify(file.href)}))`;
  return new Worker(boot, { ...options, eval: true });
}
