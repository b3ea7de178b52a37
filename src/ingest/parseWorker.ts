/**
 * A CSV ingest's parse in the long layout, on a worker thread (parallel.ts starts it): the file's
 * bytes come in from the ingesting thread as they are read, and go back as observations by
 * column, in the order of the file — what the CSV reader and the long layout make of them in one
 * thread (csv.ts, long.ts), with the same bad rows. The ingesting thread checks, assembles and
 * writes them meanwhile. Only those readers are loaded here (the worker starts in a fraction of
 * a second, also under tsx).
 *
 * Messages in: `chunk` (bytes, transferred), `end` (the file ended), `ack` (a batch was taken; its
 * buffer comes back, transferred, to be refilled).
 * Out: `pull` (send the next chunk), `kind`, `batch`, `done`, `error`; a batch, `done` and
 * `error` carry the bad rows the readers found before them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { unitOf, type MetricName } from '../catalog/metrics.ts';
import { MAX_LISTED } from '../store/sources.ts';
import { batchBytes, batchColumns } from './batchBuffer.ts';
import { csvFileBatches } from './csv.ts';
import { knownAtRule } from './knownAt.ts';
import { longCsv } from './long.ts';
import { checkColumnOptions, IngestError, type LayoutContext } from './observations.ts';
import type { BadRows, FromParser, ParseRequest, ToParser } from './parallel.ts';
import { unitResolver } from './units.ts';

/** Batches posted and not yet taken: the parse runs at most this far ahead of the assembly. */
const AHEAD = 3;

const port = parentPort!;
const { options: o, dayZone } = workerData as ParseRequest;
const post = (m: FromParser, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

const chunks: Uint8Array[] = [];
let ended = false;
let posted = 0;
/** Batch buffers the ingesting thread has read and sent back. */
const spare: ArrayBuffer[] = [];
let wake: (() => void) | undefined;
port.on('message', (m: ToParser) => {
  if (m.type === 'chunk') chunks.push(new Uint8Array(m.bytes));
  else if (m.type === 'end') ended = true;
  else {
    posted--;
    spare.push(m.buffer);
  }
  wake?.();
});

/** A buffer for a batch of `n`: a spare one when it is large enough, else a new one with room to spare. */
function batchBuffer(n: number): ArrayBuffer {
  const i = spare.findIndex((b) => b.byteLength >= batchBytes(n));
  return i >= 0 ? spare.splice(i, 1)[0] : new ArrayBuffer(batchBytes(Math.ceil(n * 1.25)));
}
const woken = () => new Promise<void>((resolve) => (wake = resolve));

async function* input(): AsyncGenerator<Uint8Array> {
  for (;;) {
    if (chunks.length) {
      post({ type: 'pull' });
      yield chunks.shift()!;
    } else if (ended) return;
    else await woken();
  }
}

let bad: BadRows = { lines: [], reasons: [], more: 0 };
const takeBad = () => {
  const b = bad;
  bad = { lines: [], reasons: [], more: 0 };
  return b;
};

try {
  const ctx: LayoutContext = {
    origin: o.origin,
    iso: o.iso,
    metric: o.metric,
    // The long layout names its targets in a column: the ingesting thread checks them.
    targets: new Set(),
    refuse: () => null,
    timezone: o.timezone,
    // The long layout reads only --column 'NAME=' (a column left out); the ingesting thread checked the options.
    columns: checkColumnOptions(o.columns ?? []),
    value: o.value,
    createdAt: o.createdAt,
    metadata: {},
    scale: unitResolver(unitOf(o.metric as MetricName), o.metric, o.unit),
    bad: (line, reason) => {
      // The ingest lists MAX_LISTED bad rows: more of one batch are only counted.
      if (bad.lines.length < MAX_LISTED) {
        bad.lines.push(line);
        bad.reasons.push(reason);
      } else bad.more++;
    },
    // When an actual without a publication time became known: the ingesting thread's rule (hourly,
    // or a daily metric's local day), from the same options it checked.
    knownAt: knownAtRule(dayZone),
    kind: (kind) => post({ type: 'kind', kind }),
  };
  // Targets are sent as indexes into the names sent so far (each name once per file).
  const index = new Map<string, number>();
  for await (const obs of longCsv(csvFileBatches(input(), ctx.bad), ctx)) {
    const n = obs.length;
    const buffer = batchBuffer(n);
    const columns = batchColumns(buffer, n);
    const target = columns.target;
    const names: string[] = [];
    let last = '';
    let k = -1;
    for (let i = 0; i < n; i++) {
      const name = obs.target[i];
      // Rows of a target usually follow each other: the map is asked when the target changes.
      if (name !== last) {
        last = name;
        const known = index.get(name);
        if (known === undefined) {
          index.set(name, (k = index.size));
          names.push(name);
        } else k = known;
      }
      target[i] = k;
    }
    columns.line.set(obs.line.subarray(0, n));
    columns.hour.set(obs.hour.subarray(0, n));
    columns.stamp.set(obs.stamp.subarray(0, n));
    columns.value.set(obs.value.subarray(0, n));
    columns.quantile.set(obs.quantile.subarray(0, n));
    post({ type: 'batch', bad: takeBad(), names, length: n, buffer }, [buffer]);
    if (++posted >= AHEAD) while (posted >= AHEAD) await woken();
  }
  post({ type: 'done', bad: takeBad() });
} catch (e) {
  const error =
    e instanceof IngestError
      ? { message: e.message, problems: e.problems, totalProblems: e.totalProblems, option: e.option, position: e.position }
      : { message: (e as Error).message ?? String(e) };
  post({ type: 'error', bad: takeBad(), ingestError: e instanceof IngestError, ...error });
}
