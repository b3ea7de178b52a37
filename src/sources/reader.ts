/**
 * What a stored source asks the store, as one narrow interface (store/sources.ts implements it).
 *
 * Queries run in compute workers (api/compute), but the store lives on the HTTP thread: the
 * embedded PGlite database may be opened once per process, so a worker cannot open its own. A
 * worker's reader therefore forwards each call to the HTTP thread as a message and gets the rows
 * back (remoteReader / serveRead). The HTTP thread only runs the SQL; decoding the packed values
 * and all the semantics happen in the worker. On PostgreSQL the same path is used, so there is
 * one code path, and the database sees one connection pool per process.
 */
import type { SourceStore } from '../store/sources.ts';

export type SourceReader = Pick<
  SourceStore,
  'names' | 'forecastSources' | 'kindsOf' | 'series' | 'catalog' | 'runs' | 'runValues' | 'actuals' | 'actualSpan' | 'status'
>;
export type ReadMethod = keyof SourceReader;
export const READ_METHODS: readonly ReadMethod[] = [
  'names',
  'forecastSources',
  'kindsOf',
  'series',
  'catalog',
  'runs',
  'runValues',
  'actuals',
  'actualSpan',
  'status',
];

/** A call from a worker's reader (protocol of compute/pool.ts ↔ worker.ts). */
export interface ReadCall {
  type: 'read';
  call: number;
  method: ReadMethod;
  args: unknown[];
}

export type ReadReply = { type: 'readResult'; call: number; result: unknown } | { type: 'readError'; call: number; message: string };

export function isReadCall(message: unknown): message is ReadCall {
  return (message as { type?: string } | null)?.type === 'read';
}

export function isReadReply(message: unknown): message is ReadReply {
  const type = (message as { type?: string } | null)?.type;
  return type === 'readResult' || type === 'readError';
}

/** Answers a worker's call from the store (on the HTTP thread). */
export async function serveRead(reader: SourceReader, call: ReadCall): Promise<ReadReply> {
  try {
    if (!READ_METHODS.includes(call.method)) throw new Error(`no read method ${call.method}`);
    const fn = reader[call.method] as (...args: unknown[]) => Promise<unknown>;
    return { type: 'readResult', call: call.call, result: await fn.apply(reader, call.args) };
  } catch (e) {
    return { type: 'readError', call: call.call, message: (e as Error).message };
  }
}

/** A reader that forwards its calls through `post` and is answered through `receive`. */
export function remoteReader(post: (call: ReadCall) => void): { reader: SourceReader; receive(reply: ReadReply): void } {
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const call =
    (method: ReadMethod) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        post({ type: 'read', call: id, method, args });
      });
  const reader = Object.fromEntries(READ_METHODS.map((m) => [m, call(m)])) as unknown as SourceReader;
  return {
    reader,
    receive(reply) {
      const w = waiting.get(reply.call);
      if (!w) return;
      waiting.delete(reply.call);
      if (reply.type === 'readResult') w.resolve(reply.result);
      else w.reject(new Error(`store read failed: ${reply.message}`));
    },
  };
}
