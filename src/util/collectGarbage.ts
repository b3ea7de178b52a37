/**
 * A full garbage collection of the calling thread's heap, now. A thread that has just warmed up
 * (api/compute/warmUp.ts) holds tens of MB of the warm-up's garbage; left alone, V8 collects it
 * during the first requests (a major collection on their time) and the idle process stays grown
 * meanwhile. Collecting it before ready pays that once, on start.
 *
 * Node exposes `gc` only with --expose-gc, which users do not pass. The flag is set at run time
 * (V8 flags are per process) and `gc` taken from a new context, where V8 installs it while the
 * flag is on.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
