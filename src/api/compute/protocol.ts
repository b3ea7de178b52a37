/**
 * What the HTTP thread and a compute worker say to each other (compute/pool.ts ↔ runner.ts).
 *
 * The HTTP thread sends a job: a route, its validated parameters and the key, as structured
 * clones. The worker answers with the response body as bytes: a list (records), a small frame
 * in one piece, or a large frame as a stream of chunks it sends only while it holds credit,
 * which the HTTP thread grants as the client reads (so a slow client slows its own job, not
 * the worker's other jobs, and memory stays bounded). Errors travel as data and are rebuilt
 * as the errors the app's error handler answers in the public shapes.
 */
import type { Cell } from '../../catalog/cells.ts';
import type { IsoCode } from '../../catalog/isos.ts';
import { QueryError, type QueryErrorItem } from '../../query/errors.ts';
import type { KeyInfo } from '../../store/keys.ts';
import { HttpError } from '../errors.ts';
import type { ParamValue } from '../params.ts';
import type { BodyPart } from '../writer.ts';
import type { SharedKernelMemory } from '../../world/basisExchange.ts';
import type { OutputOptions } from '../writers/registry.ts';

export interface Job {
  id: number;
  /** The route's OpenAPI path (routes/index.ts ROUTE_BY_PATH). */
  path: string;
  params: Record<string, ParamValue>;
  raw: Record<string, string | string[] | undefined>;
  key: KeyInfo;
  nowMs: number;
  /** HEAD: check that the answer exists (ids, window) without computing values. */
  head: boolean;
  /** The body's format, layout and reshaping (writers/registry.ts). */
  output: OutputOptions;
  /** Only this part of a large body (its other parts are computed by another worker). */
  part?: BodyPart;
  /** Chunks the job may send before the HTTP thread grants more (default INITIAL_CREDIT). */
  credit?: number;
  /** A body shared out between two workers: the memory where they share their time bases (world/basisExchange.ts). */
  bases?: SharedKernelMemory;
}

/**
 * Part of a job that another runner computes for it while it computes the rest (RouteContext.helper):
 * the job's route and request, and what the route asks of the other runner (its `help`).
 */
export interface HelpJob {
  path: string;
  params: Record<string, ParamValue>;
  raw: Record<string, string | string[] | undefined>;
  key: KeyInfo;
  nowMs: number;
  task: unknown;
}

/**
 * A failure the tests make happen in a worker, on the jobs of one route (its OpenAPI path):
 * `exhaust-heap` allocates until the worker's heap limit ends it, `throw` fails the job with an
 * internal error. Set only through buildApp's options, never from the environment or a request.
 */
export interface TestFault {
  path: string;
  fault: 'exhaust-heap' | 'throw';
}

export type ToWorker =
  | { type: 'run'; job: Job }
  /** The HTTP thread has room for `n` more chunks of job `id`. */
  | { type: 'credit'; id: number; n: number }
  /** The client has gone: stop computing job `id`. */
  | { type: 'cancel'; id: number }
  /** Stop job `id` before part `to` (another worker computes the rest), and leave out the close. */
  | { type: 'limit'; id: number; to: number; bases?: SharedKernelMemory }
  /** What the part before job `id`'s part returned at its end (writers/table.ts Work.earlier). */
  | { type: 'earlier'; id: number; summary: unknown }
  /** Compute part of another runner's job (its route's `help`); answer 'helped' or 'error' with this id. */
  | { type: 'help'; id: number; job: HelpJob };

/**
 * Besides jobs: a stopping pool asks each worker to finish its disk writes (query/diskBlocks.ts),
 * and waits for 'settled'; a worker asks for a set of cell geometry (kept once per process, on
 * the HTTP thread: catalog/cellCatalog.ts) and is answered with it.
 */
export type WorkerControl =
  | { type: 'settle' }
  /** Warm-up done: finish its disk writes and collect its garbage (util/collectGarbage.ts), then say 'collected'. */
  | { type: 'collect' }
  | { type: 'cellsResult'; call: number; cells: readonly Cell[] }
  | { type: 'cellsError'; call: number; message: string }
  /** The answer to a 'help' notice: the other runner's result, or null when no runner was idle (compute it here). */
  | { type: 'helpResult'; call: number; result: unknown }
  | { type: 'helpError'; call: number; message: string };
/** 'warm': the worker has built its catalogs and served its warm-up requests (warmUp.ts); `error` if one failed. */
export type WorkerNotice =
  | { type: 'warm'; error?: string }
  | { type: 'settled' }
  | { type: 'collected' }
  | { type: 'cells'; call: number; iso: IsoCode; resolution: number }
  /** A job asks for another runner to compute part of it (answered 'helpResult' or 'helpError'). */
  | { type: 'help'; call: number; job: HelpJob };

export type SerializedError =
  | { kind: 'http'; status: number; body: unknown; headers: Record<string, string> }
  | { kind: 'query'; items: QueryErrorItem[] }
  | { kind: 'internal'; message: string; stack?: string };

export type FromWorker =
  /** A list response, whole; `count` records. */
  | { type: 'records'; id: number; body: Uint8Array; count: number }
  /** A small time series, whole; `values` = rows × columns. */
  | { type: 'body'; id: number; body: Uint8Array; values: number }
  /** A large time series whose body can be written in `parts` parts apart (writers/registry.ts Body): chunks follow, then 'end'. */
  | { type: 'start'; id: number; values: number; parts: number }
  | { type: 'chunk'; id: number; data: Uint8Array }
  /** The body is out; `summary`: what a part that does not close returned, for the part after it. */
  | { type: 'end'; id: number; summary?: unknown }
  /** HEAD: the time series exists. */
  | { type: 'head'; id: number; values: number }
  /** The result of a 'help' job. */
  | { type: 'helped'; id: number; result: unknown }
  | { type: 'error'; id: number; error: SerializedError };

export function serializeError(e: unknown): SerializedError {
  if (e instanceof HttpError) return { kind: 'http', status: e.status, body: e.body, headers: e.headers };
  if (e instanceof QueryError) return { kind: 'query', items: e.items };
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: 'internal', message: err.message, stack: err.stack };
}

export function deserializeError(e: SerializedError): Error {
  if (e.kind === 'http') return new HttpError(e.status, e.body, e.headers);
  if (e.kind === 'query') return new QueryError(e.items);
  const err = new Error(`compute worker: ${e.message}`);
  if (e.stack) err.stack = e.stack;
  return err;
}
