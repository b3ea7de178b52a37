/**
 * Time bases shared by the two workers a large body is shared out between (api/compute/pool.ts
 * trySplit). Both halves prepare the same weather batch — the same rows, groups and model — and
 * its time bases were ~30 % of each half's CPU, computed twice. With an exchange, whichever worker
 * comes first to a basis claims it and computes it into a shared WebAssembly memory, which the
 * dot kernel of either worker reads in place (no copy, and its pages are written once: on this
 * kind of machine the first write to fresh memory costs as much as computing it); the other
 * worker goes on to the next basis and reads this one once it is done. Each basis is keyed by
 * everything it is computed from (the field, the kind of basis, the rows, the weights folded in),
 * so a value never depends on which worker computed it.
 *
 * The memory is the pool's for one split job (SHARED_KERNEL_PAGES of address space; only what is
 * written becomes resident) and is freed with the job. A worker waits for a basis the other one
 * is computing at most WAIT_MS (a basis takes ~5–20 ms); after that, or if the exchange is full,
 * it computes its own copy: sharing changes the cost, never a value.
 */
import { mix32 } from '../util/mix32.ts';
import { DotArena, kernelOnShared, type KernelMemory, type SharedRegion } from './dotKernel.ts';

/** The first page: the directory. Int32 slots: */
const HEADER_BYTES = 65536;
/** the next free byte, */
const BUMP = 0;
/** the number of entries, */
const COUNT = 1;
/** a lock around the directory's changes, */
const LOCK = 2;
/** then the entries from FIRST_ENTRY on, ENTRY_INTS each: key hash (2), state, byte offset. */
const FIRST_ENTRY = 8;
const ENTRY_INTS = 4;
const MAX_ENTRIES = Math.floor((HEADER_BYTES / 4 - FIRST_ENTRY) / ENTRY_INTS);

const COMPUTING = 1;
const DONE = 2;
const FAILED = 3;

/** Longest a worker waits for a basis the other one is computing. */
const WAIT_MS = 2000;
/** Longest a worker waits for the directory's lock. */
const LOCK_WAIT_MS = 100;

/** A shared WebAssembly memory, as posted between threads. */
export interface SharedKernelMemory {
  buffer: ArrayBufferLike;
}

/** A basis from the exchange: its array, final once settle() has returned. */
export interface SharedBasis {
  array: Float64Array;
  /** Waits until the array holds the basis (computing a copy of its own if the other worker did not deliver). */
  settle(): Float64Array;
}

/** Two independent 32-bit hashes of a string. */
function hashPair(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [mix32(a) | 0, mix32(b ^ s.length) | 0];
}

/** A fingerprint of arrays of doubles (every bit of every value, and their lengths), for a key. */
export function fingerprint(arrays: readonly (Float64Array | null)[]): string {
  let a = 0x811c9dc5;
  let b = 0x2545f491;
  for (const array of arrays) {
    if (!array) {
      a = Math.imul(a ^ 0xffff, 0x01000193);
      continue;
    }
    const words = new Uint32Array(array.buffer, array.byteOffset, array.length * 2);
    for (let i = 0; i < words.length; i++) {
      a = Math.imul(a ^ words[i], 0x01000193);
      b = Math.imul(b ^ words[i], 0x5bd1e995) ^ (b >>> 15);
    }
    a = Math.imul(a ^ array.length, 0x01000193);
  }
  return `${(mix32(a) >>> 0).toString(36)}.${(mix32(b) >>> 0).toString(36)}`;
}

const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

export class BasisExchange {
  private readonly kernel: KernelMemory;
  private readonly header: Int32Array;
  /** Bases this thread asked for, and those it computed (the rest the other worker did): for the tests and profiles. */
  asked = 0;
  computed = 0;
  /** The lock stayed taken once: this thread stops using the exchange (each later basis is its own). */
  private lockLost = false;

  /** `memory`: made by dotKernel.ts sharedKernelMemory (in this thread or another). */
  constructor(private readonly memory: SharedKernelMemory) {
    this.kernel = kernelOnShared(memory);
    this.header = new Int32Array(memory.buffer, 0, HEADER_BYTES / 4);
    // The first thread to see the memory starts the bump pointer after the directory.
    Atomics.compareExchange(this.header, BUMP, 0, HEADER_BYTES);
  }

  /** `bytes` of the memory for this thread alone (a byte offset), or -1 when it is full. */
  private allocate(bytes: number): number {
    const size = align(bytes);
    const limit = this.memory.buffer.byteLength;
    for (;;) {
      const at = Atomics.load(this.header, BUMP);
      if (at + size > limit) return -1;
      if (Atomics.compareExchange(this.header, BUMP, at, at + size) === at) return at;
    }
  }

  /** A region of `doubles` for an arena of this thread (DotArena's region), or null when the exchange is full. */
  region(doubles: number): SharedRegion | null {
    const byteOffset = this.allocate(8 * doubles);
    return byteOffset < 0 ? null : { kernel: this.kernel, byteOffset, doubles };
  }

  /**
   * Takes the directory's lock, held by either thread for a few hundred instructions at most; false
   * after LOCK_WAIT_MS without it (a worker terminated while holding it), and the caller then
   * computes its own copy instead of spinning for ever.
   */
  private lock(): boolean {
    if (this.lockLost) return false;
    if (Atomics.compareExchange(this.header, LOCK, 0, 1) === 0) return true;
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    while (Atomics.compareExchange(this.header, LOCK, 0, 1) !== 0) {
      if (Date.now() > giveUpAt) {
        this.lockLost = true;
        return false;
      }
    }
    return true;
  }

  private unlock(): void {
    Atomics.store(this.header, LOCK, 0);
  }

  /**
   * The basis named `key` (everything it is computed from) of `length` doubles: computed here by
   * `compute` if no worker has claimed it yet, else the other worker's (settle() waits for it).
   * Null when the exchange has no room for it or its lock stays taken. `fallback`: where a copy of its own goes if the
   * other worker does not deliver.
   */
  basis(key: string, length: number, compute: (out: Float64Array) => void, fallback: DotArena): SharedBasis | null {
    const [ha, hb] = hashPair(`${key}#${length}`);
    const h = this.header;
    if (!this.lock()) return null;
    let entry = -1;
    const count = Atomics.load(h, COUNT);
    for (let e = 0; e < count; e++) {
      const at = FIRST_ENTRY + e * ENTRY_INTS;
      if (h[at] === ha && h[at + 1] === hb) {
        entry = at;
        break;
      }
    }
    let mine = false;
    if (entry < 0) {
      const offset = count < MAX_ENTRIES ? this.allocate(8 * length) : -1;
      if (offset < 0) {
        this.unlock();
        return null;
      }
      entry = FIRST_ENTRY + count * ENTRY_INTS;
      h[entry] = ha;
      h[entry + 1] = hb;
      h[entry + 3] = offset;
      Atomics.store(h, entry + 2, COMPUTING);
      Atomics.store(h, COUNT, count + 1);
      mine = true;
    }
    this.unlock();
    const array = new Float64Array(this.memory.buffer, h[entry + 3], length);
    const state = entry + 2;
    this.asked++;
    const counted = () => this.computed++;
    if (mine) {
      counted();
      try {
        compute(array);
      } catch (e) {
        Atomics.store(h, state, FAILED);
        Atomics.notify(h, state);
        throw e;
      }
      Atomics.store(h, state, DONE);
      Atomics.notify(h, state);
    }
    const basis: SharedBasis = {
      array,
      settle() {
        if (Atomics.load(h, state) === COMPUTING) Atomics.wait(h, state, COMPUTING, WAIT_MS);
        if (Atomics.load(h, state) !== DONE) {
          basis.array = fallback.alloc(length);
          compute(basis.array);
          counted();
        }
        basis.settle = () => basis.array;
        return basis.array;
      },
    };
    return basis;
  }
}

/** The exchange of the job whose piece is being computed (null: none, each batch computes its own bases). */
let current: BasisExchange | null = null;

/** Runs `fn` (synchronous work of one job) with `exchange` as the current one. */
export function withBasisExchange<X>(exchange: BasisExchange | undefined, fn: () => X): X {
  if (!exchange) return fn();
  const outer = current;
  current = exchange;
  try {
    return fn();
  } finally {
    current = outer;
  }
}

export function currentBasisExchange(): BasisExchange | null {
  return current;
}
