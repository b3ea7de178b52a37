/**
 * A CSV's observations, parsed on a worker thread while this thread assembles and writes what it
 * parsed before (parseWorker.ts). Splitting lines and reading times and values is about half of an
 * ingest's work in one thread; on two cores the two halves run side by side.
 *
 * A file of up to PARSE_WORKER_BYTES is parsed here, as before: starting a worker costs more
 * than such a file takes to parse. So is a CSV in another layout than the long one (read record
 * by record, they are not the files of millions of values this is for). Both ways give the same observations and the same bad rows
 * in the same order (the worker's bad rows of a batch come before the batch, as they do here).
 * Memory stays flat: the worker asks for a chunk when it takes one, and runs at most a few
 * batches ahead of the assembly.
 */
import { INPUT_FORMATS } from './formats.ts';
import type { IngestOptions } from './ingest.ts';
import { layoutOf, observations } from './layouts.ts';
import { IngestError, Observations, type LayoutContext, type Position } from './observations.ts';
import { startModuleWorker } from '../util/moduleWorker.ts';
import { batchColumns } from './batchBuffer.ts';

const LF = 0x0a;
const QUOTE = 0x22;

/** Files larger than this are parsed on a worker thread (GRIDCAST_INGEST_WORKER_BYTES; tests lower it). */
export const PARSE_WORKER_BYTES = 8 * 1024 * 1024;

const workerBytes = () => Number(process.env.GRIDCAST_INGEST_WORKER_BYTES ?? PARSE_WORKER_BYTES);

/** What a parse worker is started with: the ingest's options (the catalog stays here). */
export interface ParseRequest {
  options: Omit<IngestOptions, 'catalog'>;
  /** The series' local-day zone when the metric is daily (SeriesDays.dayZone): when an actual became known. */
  dayZone?: string;
}

/** Bad rows found before a message: the first ones (at most MAX_LISTED), and how many more. */
export interface BadRows {
  lines: number[];
  reasons: string[];
  more: number;
}

export type ToParser = { type: 'chunk'; bytes: ArrayBuffer } | { type: 'end' } | { type: 'ack'; buffer: ArrayBuffer };

export type FromParser =
  | { type: 'pull' }
  | { type: 'kind'; kind: 'forecast' | 'actual' }
  | {
      type: 'batch';
      bad: BadRows;
      /** Target names new in this batch (indexes go on from the batches before). */
      names: string[];
      length: number;
      /** The observations' columns (batchBuffer.ts). */
      buffer: ArrayBuffer;
    }
  | { type: 'done'; bad: BadRows }
  | {
      type: 'error';
      bad: BadRows;
      ingestError: boolean;
      message: string;
      problems?: { line: number; reason: string }[];
      totalProblems?: number;
      option?: string;
      position?: Position;
    };

/** `head`, then the rest of `iterator`. */
async function* replayed(head: Uint8Array[], iterator: AsyncIterator<Uint8Array>, done: boolean): AsyncGenerator<Uint8Array> {
  try {
    yield* head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}

/**
 * The observations of a CSV's bytes (as layouts.ts reads them), parsed on a worker thread when the
 * file is larger than PARSE_WORKER_BYTES and in the long layout. `extraBad` takes the count of bad rows the worker did
 * not list (beyond MAX_LISTED in one batch).
 */
export async function* csvObservations(
  bytes: AsyncIterable<Uint8Array>,
  ctx: LayoutContext,
  options: IngestOptions,
  dayZone: string | undefined,
  extraBad: (n: number) => void,
): AsyncGenerator<Observations> {
  const iterator = bytes[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let size = 0;
  let done = false;
  const limit = workerBytes();
  while (size <= limit) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    size += next.value.byteLength;
  }
  const all = replayed(head, iterator, done);
  const csv = INPUT_FORMATS.find((f) => f.name === 'csv')!;
  const names = done ? null : headerNames(head);
  if (names && layoutOf(names, ctx).name === 'long') yield* inWorker(all, ctx, options, dayZone, extraBad);
  else yield* observations(csv.read(all, ctx), ctx);
}

/** The column names of a CSV's first line, or null when it is not plain (quoted, or longer than the head read). */
function headerNames(head: readonly Uint8Array[]): string[] | null {
  const parts: Buffer[] = [];
  for (const chunk of head) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lf = bytes.indexOf(LF);
    parts.push(lf < 0 ? bytes : bytes.subarray(0, lf));
    if (lf >= 0) {
      let line = Buffer.concat(parts);
      if (line.indexOf(QUOTE) >= 0) return null;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
      return line
        .toString('utf8')
        .replace(/\r$/, '')
        .split(',')
        .map((n) => n.trim());
    }
  }
  return null;
}

/**
 * The chunk's bytes as an ArrayBuffer of their own, to transfer: the chunk's own buffer when it is
 * all of it (a file stream reads each chunk into a buffer of its own: no copy; a copy was a tenth
 * of this thread, mostly faulting in fresh pages), else a copy (a chunk may be a view of a larger,
 * shared buffer, as a Buffer's slice is). Once transferred, the chunk is empty here: it is read
 * once, by the worker.
 */
function ownBuffer(chunk: Uint8Array): ArrayBuffer {
  const buffer = chunk.buffer;
  if (buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) return buffer;
  const copy = new Uint8Array(chunk.byteLength);
  copy.set(chunk);
  return copy.buffer;
}

async function* inWorker(
  bytes: AsyncGenerator<Uint8Array>,
  ctx: LayoutContext,
  options: IngestOptions,
  dayZone: string | undefined,
  extraBad: (n: number) => void,
): AsyncGenerator<Observations> {
  const { catalog: _catalog, ...rest } = options;
  const worker = startModuleWorker(import.meta.url, 'parseWorker', { workerData: { options: rest, dayZone } satisfies ParseRequest });
  const inbox: (FromParser | { type: 'failed'; error: unknown })[] = [];
  let wake: (() => void) | undefined;
  const deliver = (m: FromParser | { type: 'failed'; error: unknown }) => {
    inbox.push(m);
    wake?.();
  };
  // Chunks are read one at a time, when the worker asks (it asks once per chunk it takes).
  let feeding: Promise<void> = Promise.resolve();
  let finished = false;
  const feed = () => {
    feeding = feeding.then(async () => {
      if (finished) return;
      try {
        const next = await bytes.next();
        if (next.done) {
          finished = true;
          worker.postMessage({ type: 'end' } satisfies ToParser);
          return;
        }
        const chunk = ownBuffer(next.value);
        worker.postMessage({ type: 'chunk', bytes: chunk } satisfies ToParser, [chunk]);
      } catch (error) {
        finished = true;
        deliver({ type: 'failed', error });
      }
    });
  };
  worker.on('message', (m: FromParser) => (m.type === 'pull' ? feed() : deliver(m)));
  worker.on('error', (error) => deliver({ type: 'failed', error }));
  worker.on('exit', (code) => deliver({ type: 'failed', error: new Error(`the CSV parse worker exited (${code})`) }));
  // Two chunks ahead to start with: the worker parses one while the next is read.
  feed();
  feed();
  const names: string[] = [];
  const take = (bad: BadRows) => {
    for (let i = 0; i < bad.lines.length; i++) ctx.bad(bad.lines[i], bad.reasons[i]);
    if (bad.more) extraBad(bad.more);
  };
  // One Observations refilled per batch (its reader takes a batch whole before asking for the next).
  const obs = new Observations(0);
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const m = inbox.shift()!;
      if (m.type === 'failed') throw m.error;
      if (m.type === 'kind') ctx.kind(m.kind);
      else if (m.type === 'batch') {
        take(m.bad);
        names.push(...m.names);
        const n = m.length;
        const columns = batchColumns(m.buffer, n);
        obs.length = n;
        // A plain loop into the same array (Array.from with a mapping function was a tenth of this thread).
        if (obs.target.length < n) obs.target = new Array<string>(Math.ceil(n * 1.25)).fill('');
        for (let i = 0; i < n; i++) obs.target[i] = names[columns.target[i]];
        obs.line = columns.line;
        obs.hour = columns.hour;
        obs.stamp = columns.stamp;
        obs.value = columns.value;
        obs.quantile = columns.quantile;
        yield obs;
        // Read: the buffer goes back to be refilled.
        worker.postMessage({ type: 'ack', buffer: m.buffer } satisfies ToParser, [m.buffer]);
      } else if (m.type === 'done') {
        take(m.bad);
        return;
      } else if (m.type === 'error') {
        take(m.bad);
        if (!m.ingestError) throw new Error(m.message);
        throw new IngestError(m.message, m.problems, m.totalProblems, m.option, m.position);
      }
    }
  } finally {
    finished = true;
    worker.removeAllListeners('exit');
    await worker.terminate();
    await bytes.return(undefined);
  }
}
