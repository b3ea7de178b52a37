/**
 * Which large requests may compute at once. A request is heavy by its size — values (rows ×
 * series) at or above `heavyValues` — not by having no id: eighteen gas hubs for a week are a few
 * hundred values, every MISO cell over a year is 46 million.
 *
 * The budget bounds *computation*, not transmission. A streamed response computes a block only
 * when its client has read the previous ones (compute/pool.ts grants credit as the client reads),
 * so a heavy request whose client is slow spends almost all its life waiting, holding no CPU and
 * no block; it counts against the budget only while it has a block being computed. A new heavy
 * request is admitted when fewer than `max` heavy requests are computing, and fewer than
 * `perKey` of its own key's are (half the budget, rounded up): one key cannot take all of it, so
 * another key's large request always finds room. Small requests are never counted.
 */

export interface HeavyRequest {
  keyId: string;
  /** Is a block of it being computed now (rather than waiting for its client to read)? */
  computing(): boolean;
}

export type Admission = 'admitted' | 'busy' | 'key-share';

export class HeavyBudget {
  private readonly admitted = new Set<HeavyRequest>();
  readonly perKey: number;

  constructor(
    /** Heavy requests computing at once. */
    readonly max: number,
    /** Values from which a request is heavy. */
    readonly heavyValues: number,
  ) {
    this.perKey = Math.max(1, Math.ceil(max / 2));
  }

  isHeavy(values: number): boolean {
    return values >= this.heavyValues;
  }

  /** Heavy requests admitted and not yet ended (computing or waiting for their clients). */
  get inFlight(): number {
    return this.admitted.size;
  }

  /** Heavy requests with a block being computed now. */
  get computing(): number {
    let n = 0;
    for (const r of this.admitted) if (r.computing()) n++;
    return n;
  }

  tryAdmit(request: HeavyRequest): Admission {
    let all = 0;
    let own = 0;
    for (const r of this.admitted) {
      if (!r.computing()) continue;
      all++;
      if (r.keyId === request.keyId) own++;
    }
    if (all >= this.max) return 'busy';
    if (own >= this.perKey) return 'key-share';
    this.admitted.add(request);
    return 'admitted';
  }

  release(request: HeavyRequest): void {
    this.admitted.delete(request);
  }
}
