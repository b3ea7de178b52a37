import { test } from 'node:test';
import assert from 'node:assert/strict';

import { mix32 } from '../src/util/mix32.ts';
import { ValueNoise1Walker, ValueNoise2Walker, gaussianish, hash4, valueNoise1, valueNoise2 } from '../src/world/hash.ts';

/** hash4 as first written (the golden digests pin every value derived from it): the four integers mixed in one at a time. */
function hash4Reference(a: number, b: number, c: number, d: number): number {
  let h = mix32((a | 0) ^ 0x9e3779b9);
  h = mix32(h ^ Math.imul(b | 0, 0x27d4eb2f));
  h = mix32(h ^ Math.imul(c | 0, 0x165667b1));
  return mix32(h ^ Math.imul(d | 0, 0x61c88647));
}

const signed = (h: number) => h / 2147483648 - 1;
/** gaussianish as first written: three signed uniforms of hash4 summed. */
function gaussianishReference(a: number, b: number, c: number, d: number): number {
  return (
    signed(hash4Reference(a, b, c, d)) + signed(hash4Reference(a, b, c, d ^ 0x5bd1e995)) + signed(hash4Reference(a, b, c, d ^ 0x1b873593))
  );
}

test('hash4 and gaussianish (computed from shared hash prefixes) are bit for bit their first definitions', () => {
  for (let k = 0; k < 2000; k++) {
    const a = hash4Reference(k, 1, 2, 3);
    const b = (k * 7919) % 4096;
    const c = k - 1000;
    const d = (k * 31) ^ 0x5555;
    assert.equal(hash4(a, b, c, d), hash4Reference(a, b, c, d));
    assert.equal(gaussianish(a, b, c, d), gaussianishReference(a, b, c, d));
    assert.equal(gaussianish(a, b, c), gaussianishReference(a, b, c, 0));
  }
});

test('the noise walkers give exactly valueNoise1/valueNoise2 along walks with steps, jumps and turns back', () => {
  const seed = 20260101;
  const one = new ValueNoise1Walker(seed, 7);
  const two = new ValueNoise2Walker(seed, 3007);
  let x = -5.3;
  let y = 400.2;
  for (let k = 0; k < 5000; k++) {
    // Mostly small steps forward in x (the rows of a series), sometimes a jump or a step back, y in runs.
    x += k % 97 === 0 ? -3.7 : k % 131 === 0 ? 11.2 : 0.13;
    if (k % 40 === 0) y += k % 3 === 0 ? -1.4 : 0.55;
    assert.equal(one.at(x), valueNoise1(seed, 7, x));
    assert.equal(two.at(x, y), valueNoise2(seed, 3007, x, y));
  }
});
