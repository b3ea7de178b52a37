import { test } from 'node:test';
import assert from 'node:assert/strict';

import { DotArena, withPooledArenas } from '../src/world/dotKernel.ts';
import { seedOf, unit } from '../src/world/hash.ts';

/**
 * The arithmetic the weather fields have always done (and the golden digests pin): coefficients
 * four at a time, ((w0·t0 + w1·t1) + (w2·t2 + w3·t3)), then a remaining pair, each added to out[i].
 */
function scalarReference(point: Float64Array, time: Float64Array, out: Float64Array, from: number, to: number): void {
  const n = out.length;
  const m4 = point.length - (point.length % 4);
  for (let m = 0; m < m4; m += 4) {
    for (let i = from; i < to; i++) {
      out[i] +=
        point[m] * time[m * n + i] +
        point[m + 1] * time[(m + 1) * n + i] +
        (point[m + 2] * time[(m + 2) * n + i] + point[m + 3] * time[(m + 3) * n + i]);
    }
  }
  for (let m = m4; m < point.length; m += 2) {
    for (let i = from; i < to; i++) out[i] += point[m] * time[m * n + i] + point[m + 1] * time[(m + 1) * n + i];
  }
}

test('the WebAssembly SIMD dot products are bit for bit the scalar ones, for any basis length and row range', () => {
  const seed = seedOf('dotKernel test');
  let draw = 0;
  const value = () => 2 * unit(seed, 1, draw++) - 1;
  // [coefficients, rows, from, to]: multiples of 4 and not, odd and even ranges, a one-row range, an empty one.
  const cases: [number, number, number, number][] = [
    [20, 101, 0, 101],
    [12, 100, 3, 98],
    [2, 7, 1, 6],
    [6, 50, 0, 50],
    [34, 8760, 17, 8001],
    [18, 5, 2, 3],
    [16, 9, 4, 4],
  ];
  for (const [count, n, from, to] of cases) {
    const arena = new DotArena(DotArena.doublesFor([count, count * n, n]));
    const point = arena.alloc(count);
    const time = arena.alloc(count * n);
    const out = arena.alloc(n);
    for (let i = 0; i < point.length; i++) point[i] = value();
    // Magnitudes over many orders, so that any change of rounding order would show.
    for (let i = 0; i < time.length; i++) time[i] = value() * 10 ** Math.round(6 * value());
    for (let i = 0; i < n; i++) out[i] = value();
    const expected = Float64Array.from(out);
    scalarReference(point, time, expected, from, to);
    arena.dotAllRows(point, time, out, from, to);
    assert.deepEqual(
      new Uint8Array(out.buffer, out.byteOffset, out.byteLength),
      new Uint8Array(expected.buffer),
      `${count} coefficients, rows ${from}..${to} of ${n}`,
    );
  }
});

test('an arena refuses arrays beyond the room it was sized for', () => {
  const arena = new DotArena(DotArena.doublesFor([3]));
  arena.alloc(3);
  assert.throws(() => arena.alloc(1 << 20), /do not fit/);
});

test('an arena made in a scope after another ended reuses its memory zeroed, and an ended arena refuses to be used', () => {
  const doubles = DotArena.doublesFor([4, 4 * 1000, 1000]);
  let first: { arena: DotArena; time: Float64Array } | undefined;
  withPooledArenas(() => {
    const arena = new DotArena(doubles);
    const time = arena.alloc(4 * 1000);
    time.fill(7);
    first = { arena, time };
  });
  assert.throws(() => first!.arena.alloc(1), /used after the withPooledArenas scope/);
  assert.throws(() => first!.arena.dotAllRows(new Float64Array(2), new Float64Array(2), new Float64Array(1), 0, 1), /used after/);
  withPooledArenas(() => {
    const arena = new DotArena(doubles);
    const point = arena.alloc(4);
    const time = arena.alloc(4 * 1000);
    // The same memory as the ended arena's (its 7s are gone: every array starts at zero).
    assert.equal(time.buffer, first!.time.buffer);
    assert.ok(time.every((x) => x === 0) && point.every((x) => x === 0));
    const out = arena.alloc(1000);
    point.set([1, 2, 3, 4]);
    time.fill(1);
    arena.dotAllRows(point, time, out, 0, 1000);
    assert.ok(out.every((x) => x === 10));
  });
  // Outside a scope an arena has a memory of its own.
  assert.notEqual(new DotArena(doubles).alloc(1).buffer, first!.time.buffer);
});
