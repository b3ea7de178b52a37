/**
 * The life of one request, from its first byte to its end — however it ends. A response can
 * finish, the client can go away mid-way (an aborted download, a client time-out), the socket can
 * fail, or the server's own time-outs can cut it. Fastify's onResponse hook runs only when a
 * response *finishes*, so anything released there leaks when a client aborts: a heavy-request
 * slot held for ever locks every all-target request out with 503s. Here the end is the
 * response's `close` event, which Node emits exactly once in every case, and everything taken
 * for the request is given back there: the in-flight gauges, the heavy slot, the latency
 * observation and the usage record. A client that has gone also aborts the request's
 * AbortSignal, so computation for it stops.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Admission, HeavyBudget, HeavyRequest } from './heavyBudget.ts';
import type { Metrics } from './metrics.ts';

/** Status recorded in metrics for a request whose client went away before the end (nginx's convention). */
export const CLIENT_CLOSED_STATUS = 499;

export interface RequestState {
  startedAt: bigint;
  /** Aborted when the client goes away before the response is complete. */
  readonly abort: AbortController;
  /** The key's public id, once authenticated. */
  keyId?: string;
  /** The route's path template, for usage metering. */
  endpoint?: string;
  /** Values the response carries (rows × columns, or records), for usage metering. */
  values?: number;
  /** Admitted to the heavy-request budget (heavyBudget.ts), until it ends. */
  heavy?: HeavyRequest;
  /** Why the server ended the request before its response was complete (a send time-out, a failed worker). */
  serverEnded?: string;
  /** How the request ended, once it has (its response finished, or its client went away). */
  ended?: { status: number; completed: boolean };
}

/** What the end of a request reports to: usage metering. */
export interface RequestEndListener {
  (state: RequestState, outcome: { status: number; completed: boolean }): void;
}

/**
 * Counts requests in flight and the heavy ones among them. A heavy request is admitted to the
 * budget by `tryTakeHeavy` and leaves it when the request ends.
 */
export class RequestTracker {
  private readonly states = new WeakMap<FastifyRequest, RequestState>();

  constructor(
    private readonly metrics: Metrics,
    readonly heavy: HeavyBudget,
    private readonly onEnd: RequestEndListener,
  ) {}

  /** Starts tracking a request; its end (finish, abort, error, time-out) is handled once. */
  begin(req: FastifyRequest, reply: FastifyReply): RequestState {
    const state: RequestState = { startedAt: process.hrtime.bigint(), abort: new AbortController() };
    this.states.set(req, state);
    this.metrics.inFlight++;
    reply.raw.once('close', () => this.end(req, reply, state));
    return state;
  }

  /** The public id of the request's key, once known (for log lines). */
  keyIdOf(req: FastifyRequest): string | undefined {
    return this.states.get(req)?.keyId;
  }

  stateOf(req: FastifyRequest): RequestState {
    const state = this.states.get(req);
    if (!state) throw new Error('request not tracked');
    return state;
  }

  /**
   * Admits the request to the heavy budget, or says why not. A request that has already ended
   * (its client left meanwhile) is not admitted: nothing would give its place back.
   */
  tryTakeHeavy(state: RequestState, request: HeavyRequest): Admission {
    if (state.ended) return 'busy';
    const admission = this.heavy.tryAdmit(request);
    if (admission !== 'admitted') {
      this.metrics.heavyRejected++;
      return admission;
    }
    this.metrics.heavyInFlight++;
    state.heavy = request;
    return admission;
  }

  private end(req: FastifyRequest, reply: FastifyReply, state: RequestState): void {
    const completed = reply.raw.writableFinished;
    if (!completed) state.abort.abort();
    this.metrics.inFlight--;
    if (state.heavy) {
      this.heavy.release(state.heavy);
      state.heavy = undefined;
      this.metrics.heavyInFlight--;
    }
    const byServer = !completed && state.serverEnded !== undefined;
    const status = completed || byServer ? reply.statusCode : CLIENT_CLOSED_STATUS;
    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
    this.metrics.observe(req.routeOptions.url ?? 'unmatched', req.method, status, seconds);
    // One log line per request, at its end, however it ended (the URL redacted by the serializer).
    req.log.info(
      { req, res: { statusCode: status }, responseTime: Math.round(seconds * 1e5) / 100, keyId: state.keyId },
      completed ? 'request completed' : byServer ? `request ended by the server: ${state.serverEnded}` : 'request abandoned by the client',
    );
    state.ended = { status: reply.statusCode, completed };
    if (state.keyId) this.onEnd(state, state.ended);
  }

  /**
   * The request's key (and route) are known: its usage is recorded when it ends — at once if
   * it already has (its client left while the key was being looked up).
   */
  identify(state: RequestState, keyId: string, endpoint: string): void {
    state.keyId = keyId;
    state.endpoint = endpoint;
    if (state.ended) this.onEnd(state, state.ended);
  }
}
