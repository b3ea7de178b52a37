/**
 * Deterministic pseudo-randomness for the synthetic world. Every random number is a
 * pure function of integer coordinates (a counter-based hash), never of call order, so
 * any value can be recomputed alone and is the same on every machine.
 */
import { mix32 } from '../util/mix32.ts';

/*
 * hash4 mixes its integers in one at a time, so the state after the first two (or three) is a
 * prefix that every hash sharing them shares: the noise walkers below compute it once per stream
 * (or lattice column) instead of once per lattice value. Each step is written once, here.
 */
/** hash4's state after a and b. */
function hashPrefix2(a: number, b: number): number {
  return mix32(mix32((a | 0) ^ 0x9e3779b9) ^ Math.imul(b | 0, 0x27d4eb2f));
}

/** hash4's state after a, b and c, from the state after a and b. */
function hashPrefix3(prefix2: number, c: number): number {
  return mix32(prefix2 ^ Math.imul(c | 0, 0x165667b1));
}

/** hash4 from its state after a, b and c. */
function hashFinal(prefix3: number, d: number): number {
  return mix32(prefix3 ^ Math.imul(d | 0, 0x61c88647));
}

/** Hash of up to four integers (each folded to 32 bits) to an unsigned 32-bit integer. */
export function hash4(a: number, b: number, c = 0, d = 0): number {
  return hashFinal(hashPrefix3(hashPrefix2(a, b), c), d);
}

/** Uniform in [0, 1). */
export function unit(a: number, b: number, c = 0, d = 0): number {
  return hash4(a, b, c, d) / 4294967296;
}

/** Uniform in [-1, 1). */
export function signedUnit(a: number, b: number, c = 0, d = 0): number {
  return hash4(a, b, c, d) / 2147483648 - 1;
}

/** Roughly standard normal: the sum of three uniforms, rescaled (cheap and bounded at ±3). */
export function gaussianish(a: number, b: number, c = 0, d = 0): number {
  return gaussianishFrom(hashPrefix3(hashPrefix2(a, b), c), d);
}

/** gaussianish(a, b, c, d) from hash4's state after a, b and c (its three uniforms share it). */
function gaussianishFrom(prefix3: number, d: number): number {
  const u1 = hashFinal(prefix3, d) / 2147483648 - 1;
  const u2 = hashFinal(prefix3, d ^ 0x5bd1e995) / 2147483648 - 1;
  const u3 = hashFinal(prefix3, d ^ 0x1b873593) / 2147483648 - 1;
  return (u1 + u2 + u3) * 1.0;
}

/** A stable 32-bit seed from a name, so streams can be named instead of numbered. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** Smooth interpolation weight with zero slope at the lattice points. */
function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

/**
 * 1-D value noise: smooth in `x`, lattice spacing 1, values roughly N(0, 0.55²)
 * (interpolation between independent lattice values shrinks the variance).
 */
export function valueNoise1(seed: number, stream: number, x: number): number {
  const i = Math.floor(x);
  const t = smooth(x - i);
  const a = gaussianish(seed, stream, i);
  const b = gaussianish(seed, stream, i + 1);
  return a + (b - a) * t;
}

/** 2-D value noise over (x, y), lattice spacing 1 in both. */
export function valueNoise2(seed: number, stream: number, x: number, y: number): number {
  const i = Math.floor(x);
  const j = Math.floor(y);
  const tx = smooth(x - i);
  const ty = smooth(y - j);
  const a = gaussianish(seed, stream, i, j);
  const b = gaussianish(seed, stream, i + 1, j);
  const c = gaussianish(seed, stream, i, j + 1);
  const d = gaussianish(seed, stream, i + 1, j + 1);
  const top = a + (b - a) * tx;
  const bottom = c + (d - c) * tx;
  return top + (bottom - top) * ty;
}

/*
 * The walkers keep their state in a Float64Array, not in fields: V8 boxes a double stored in an
 * object field (a new heap number per store), and a walk stores at every lattice cell of every
 * point's series — tens of MB of garbage per large request.
 */
const CELL = 0;
const A = 1;
const B = 2;
const C = 3;
const D = 4;
const CJ = 5;

/**
 * Value noise along a monotone sequence of positions: the lattice values of the current
 * cell are kept between calls, so a long series costs one hash per lattice cell instead of
 * several per point. Gives exactly the same numbers as valueNoise1.
 */
export class ValueNoise1Walker {
  /** The current cell, and its two lattice values. */
  private readonly state = Float64Array.of(Number.NaN, 0, 0);
  /** hash4's state after the seed and stream, shared by every lattice value of the walk. */
  private readonly prefix: number;
  constructor(seed: number, stream: number) {
    this.prefix = hashPrefix2(seed, stream);
  }

  /** state[slot] = gaussianish(seed, stream, i): written, not returned (a double returned by a call V8 does not inline is a heap object). */
  private setLattice(slot: number, i: number): void {
    this.state[slot] = gaussianishFrom(hashPrefix3(this.prefix, i), 0);
  }

  /** Moves to lattice cell i (its two values in the state). */
  private enter(i: number): void {
    const state = this.state;
    if (i === state[CELL] + 1) state[A] = state[B];
    else this.setLattice(A, i);
    this.setLattice(B, i + 1);
    state[CELL] = i;
  }

  at(x: number): number {
    const i = Math.floor(x);
    if (i !== this.state[CELL]) this.enter(i);
    return this.between(x - i);
  }

  /** The value at fraction t of the current cell. */
  private between(t: number): number {
    const state = this.state;
    return state[A] + (state[B] - state[A]) * smooth(t);
  }

  /**
   * out[i] = at(positions[i] / spacing) for each i, in order: the walk over a series in one call,
   * its cells entered by a call that returns nothing (a double returned by a call V8 does not
   * inline, as `at` in a long loop, is a heap object).
   */
  walk(positions: ArrayLike<number>, spacing: number, out: Float64Array): void {
    const state = this.state;
    for (let k = 0; k < out.length; k++) {
      const x = positions[k] / spacing;
      const i = Math.floor(x);
      if (i !== state[CELL]) this.enter(i);
      out[k] = this.between(x - i);
    }
  }
}

/** Same as valueNoise2, remembering the four corner values of the last cell used. */
export class ValueNoise2Walker {
  /** The current cell (x and y) and its corners: a, b along x at y, c, d along x at y + 1. */
  private readonly state = Float64Array.of(Number.NaN, 0, 0, 0, 0, Number.NaN);
  /** hash4's state after the seed and stream (see ValueNoise1Walker). */
  private readonly prefix: number;
  constructor(seed: number, stream: number) {
    this.prefix = hashPrefix2(seed, stream);
  }

  at(x: number, y: number): number {
    const state = this.state;
    const i = Math.floor(x);
    const j = Math.floor(y);
    if (i !== state[CELL] || j !== state[CJ]) {
      if (j === state[CJ] && i === state[CELL] + 1) {
        // One cell along x: the old right corners are the new left ones.
        state[A] = state[B];
        state[C] = state[D];
      } else {
        const left = hashPrefix3(this.prefix, i);
        state[A] = gaussianishFrom(left, j);
        state[C] = gaussianishFrom(left, j + 1);
      }
      const right = hashPrefix3(this.prefix, i + 1);
      state[B] = gaussianishFrom(right, j);
      state[D] = gaussianishFrom(right, j + 1);
      state[CELL] = i;
      state[CJ] = j;
    }
    const tx = smooth(x - i);
    const top = state[A] + (state[B] - state[A]) * tx;
    const bottom = state[C] + (state[D] - state[C]) * tx;
    return top + (bottom - top) * smooth(y - j);
  }
}

/** Standard deviation of valueNoise1/valueNoise2 averaged over positions (measured once). */
export const VALUE_NOISE1_SD = 0.86;
export const VALUE_NOISE2_SD = 0.75;
