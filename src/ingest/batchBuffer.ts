/**
 * A batch of observations as the parse worker sends them (parallel.ts, parseWorker.ts): all
 * columns in one ArrayBuffer — targets as indexes into the names sent before, then line, valid
 * hour, stamp, value and quantile. One buffer per batch, not one per column: each transferred
 * buffer costs the sender ~0.5 ms (its memory is handed over and accounted for), six per batch
 * were more than a tenth of the worker's time. The buffers go back and forth: the ingesting thread
 * returns each once read, and the worker refills it.
 */

/** The columns of a batch of `n` observations, as views of `buffer`. */
export interface BatchColumns {
  target: Int32Array;
  line: Float64Array;
  hour: Float64Array;
  stamp: Float64Array;
  value: Float64Array;
  quantile: Float64Array;
}

/** Where the float64 columns start: after the targets, rounded up to a multiple of 8 bytes. */
const floatsAt = (n: number) => 8 * Math.ceil(n / 2);

/** Bytes a batch of `n` observations takes. */
export const batchBytes = (n: number): number => floatsAt(n) + 5 * 8 * n;

/** Views of a batch of `n` observations in `buffer` (at least batchBytes(n) long). */
export function batchColumns(buffer: ArrayBuffer, n: number): BatchColumns {
  const at = floatsAt(n);
  const column = (k: number) => new Float64Array(buffer, at + k * 8 * n, n);
  return {
    target: new Int32Array(buffer, 0, n),
    line: column(0),
    hour: column(1),
    stamp: column(2),
    value: column(3),
    quantile: column(4),
  };
}
