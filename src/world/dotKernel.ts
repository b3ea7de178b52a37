/**
 * The weather fields' hot loop (field.ts `dotAllRows`) in WebAssembly SIMD: out[i] += Σm
 * point[m]·time[m·n + i], two rows per instruction (f64x2 lanes run along the rows).
 *
 * Each lane does exactly the arithmetic the scalar loop does, in the same order — coefficients
 * four at a time as ((w0·t0 + w1·t1) + (w2·t2 + w3·t3)), a remaining pair as (w0·t0 + w1·t1),
 * each added to out[i] — and WebAssembly's f64 lanes are IEEE binary64 with round-to-nearest and
 * no fused multiply-add, so the values are bit for bit those of the scalar loop (test/dotKernel.test.ts).
 *
 * A second function, `scale`, writes out[i] = weight[i]·source[i] on a range of rows, two rows
 * per instruction: a forecast's truth part, α·(truth at the row's instant) (weather/groups.ts).
 *
 * The module is assembled here from its instructions (a few hundred bytes, no toolchain): it
 * imports its memory, and the arrays it reads and writes are views into that memory, allocated
 * by a DotArena sized once for what a prepared group holds (a memory that grows would detach
 * every view into it).
 */

/** The part of WebAssembly's JavaScript API used here (the project's `lib` does not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number; maximum?: number; shared?: boolean }) => { buffer: ArrayBuffer };
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const I32 = 0x7f;
const V128 = 0x7b;

/** Opcodes used below (WebAssembly core and SIMD binary encodings). */
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  i32Const: 0x41,
  i32GtS: 0x4a,
  i32LtS: 0x48,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  f64Load: 0x2b,
  f64Store: 0x39,
  f64Add: 0xa0,
  f64Mul: 0xa2,
  simd: 0xfd,
} as const;
/** SIMD sub-opcodes (after the 0xfd prefix, as unsigned LEB128). */
const SIMD = { v128Load: 0x00, v128Store: 0x0b, load64Splat: 0x0a, f64x2Add: 0xf0, f64x2Mul: 0xf2 } as const;
const EMPTY_BLOCK = 0x40;

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** A vector: its length, then its items. */
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const utf8 = (s: string) => vec([...Buffer.from(s, 'utf8')].map((b) => [b]));

// The function's locals, by index: its parameters first.
const POINT = 0; // byte address of the coefficients
const COUNT = 1; // how many coefficients (even)
const TIME = 2; // byte address of the component-major basis
const ROW_BYTES = 3; // n · 8: the distance between two coefficients' rows
const OUT = 4; // byte address of out
const FROM = 5; // first row
const TO = 6; // end row
const M = 7; // the coefficient the pass starts at
const I = 8; // the row
const AT = 9; // byte offset of row I (I · 8)
const ROW0 = 10; // byte addresses of the pass's coefficients' rows: ROW0 … ROW0 + 3
const W0 = 14; // the pass's coefficients splatted: W0 … W0 + 3
const PARAMS = 7;

const get = (local: number) => [OP.localGet, local];
const set = (local: number) => [OP.localSet, local];
const i32 = (value: number) => [OP.i32Const, ...sleb(value)];
const simd = (op: number, ...immediates: number[]) => [OP.simd, ...uleb(op), ...immediates];
/** memarg: alignment exponent, offset 0. */
const memarg = (alignLog2: number) => [alignLog2, 0];

/**
 * The sum of a pass's products at the row (byte offset AT), as the scalar loop groups them:
 * ((p0 + p1) + (p2 + p3)) for four coefficients, (p0 + p1) for two. `vector`: two rows at once.
 */
function passSum(width: 2 | 4, vector: boolean): number[] {
  const add = vector ? simd(SIMD.f64x2Add) : [OP.f64Add];
  const product = (k: number) => [
    ...get(W0 + k),
    // The scalar path takes lane 0 of the splatted weight back out of it (f64x2.extract_lane 0).
    ...(vector ? [] : simd(0x21, 0)),
    ...get(ROW0 + k),
    ...get(AT),
    OP.i32Add,
    ...(vector ? simd(SIMD.v128Load, ...memarg(3)) : [OP.f64Load, ...memarg(3)]),
    ...(vector ? simd(SIMD.f64x2Mul) : [OP.f64Mul]),
  ];
  const pair = (k: number) => [...product(k), ...product(k + 1), ...add];
  return width === 4 ? [...pair(0), ...pair(2), ...add] : pair(0);
}

/** out[AT] += the pass's sum, for two rows (vector) or one. */
function accumulate(width: 2 | 4, vector: boolean): number[] {
  const address = [...get(OUT), ...get(AT), OP.i32Add];
  const load = vector ? simd(SIMD.v128Load, ...memarg(3)) : [OP.f64Load, ...memarg(3)];
  const store = vector ? simd(SIMD.v128Store, ...memarg(3)) : [OP.f64Store, ...memarg(3)];
  return [...address, ...address, ...load, ...passSum(width, vector), ...(vector ? simd(SIMD.f64x2Add) : [OP.f64Add]), ...store];
}

/** Passes of `width` coefficients while at least `width` remain (M advances). */
function passes(width: 2 | 4): number[] {
  const setUp: number[] = [];
  for (let k = 0; k < width; k++) {
    // W_k = splat(point[M + k]); ROW_k = TIME + (M + k) · ROW_BYTES
    setUp.push(...get(POINT), ...get(M), ...i32(3), OP.i32Shl, OP.i32Add, ...simd(SIMD.load64Splat, 3, 8 * k), ...set(W0 + k));
    setUp.push(...get(TIME), ...get(M), ...i32(k), OP.i32Add, ...get(ROW_BYTES), OP.i32Mul, OP.i32Add, ...set(ROW0 + k));
  }
  const atOfI = [...get(I), ...i32(3), OP.i32Shl, ...set(AT)];
  const twoRows = [...atOfI, ...accumulate(width, true), ...get(I), ...i32(2), OP.i32Add, ...set(I)];
  const lastOddRow = [...get(I), ...get(TO), OP.i32LtS, OP.if, EMPTY_BLOCK, ...atOfI, ...accumulate(width, false), OP.end];
  const pass = [...setUp, ...get(FROM), ...set(I), ...whileNotAbove(I, 2, TO, twoRows), ...lastOddRow];
  return whileNotAbove(M, width, COUNT, [...pass, ...get(M), ...i32(width), OP.i32Add, ...set(M)]);
}

/** `while (local + step <= limit) body` */
function whileNotAbove(local: number, step: number, limit: number, body: number[]): number[] {
  const exitIfAbove = [...get(local), ...i32(step), OP.i32Add, ...get(limit), OP.i32GtS, OP.brIf, 1];
  return [OP.block, EMPTY_BLOCK, OP.loop, EMPTY_BLOCK, ...exitIfAbove, ...body, OP.br, 0, OP.end, OP.end];
}

// scale's locals: its parameters (byte addresses of out, weight and source, then rows from and to), the row and its byte offset.
const S_OUT = 0;
const S_WEIGHT = 1;
const S_SOURCE = 2;
const S_FROM = 3;
const S_TO = 4;
const S_I = 5;
const S_AT = 6;

/** out[AT] = weight[AT]·source[AT], for two rows (vector) or one. */
function scaleRow(vector: boolean): number[] {
  const at = (base: number) => [...get(base), ...get(S_AT), OP.i32Add];
  const load = vector ? simd(SIMD.v128Load, ...memarg(3)) : [OP.f64Load, ...memarg(3)];
  const store = vector ? simd(SIMD.v128Store, ...memarg(3)) : [OP.f64Store, ...memarg(3)];
  const mul = vector ? simd(SIMD.f64x2Mul) : [OP.f64Mul];
  return [...at(S_OUT), ...at(S_WEIGHT), ...load, ...at(S_SOURCE), ...load, ...mul, ...store];
}

/** scale's body: two rows at a time while two remain, then the last odd one. */
function scaleBody(): number[] {
  const atOfI = [...get(S_I), ...i32(3), OP.i32Shl, ...set(S_AT)];
  const twoRows = [...atOfI, ...scaleRow(true), ...get(S_I), ...i32(2), OP.i32Add, ...set(S_I)];
  const lastOddRow = [...get(S_I), ...get(S_TO), OP.i32LtS, OP.if, EMPTY_BLOCK, ...atOfI, ...scaleRow(false), OP.end];
  const locals = vec([[...uleb(2), I32]]);
  return [...locals, ...get(S_FROM), ...set(S_I), ...whileNotAbove(S_I, 2, S_TO, twoRows), ...lastOddRow, OP.end];
}

/** The kernel's module; `sharedPages`: importing a shared memory of exactly that many pages (basisExchange.ts). */
function kernelModule(sharedPages?: number): Uint8Array {
  const functionType = (params: number) => [0x60, ...vec(Array.from({ length: params }, () => [I32])), ...vec([])];
  // Locals after the parameters: M, I, AT, ROW0..3 (i32), W0..3 (v128).
  const locals = vec([
    [...uleb(W0 - PARAMS), I32],
    [...uleb(4), V128],
  ]);
  const dotBody = [...locals, ...i32(0), ...set(M), ...passes(4), ...passes(2), OP.end];
  const scale = scaleBody();
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([functionType(PARAMS), functionType(5)])),
    // import env.memory: a memory of at least 0 pages, or a shared one (limits flag 3: shared, with a maximum)
    ...section(
      2,
      vec([
        [...utf8('env'), ...utf8('memory'), 0x02, ...(sharedPages === undefined ? [0x00, 0x00] : [0x03, ...uleb(0), ...uleb(sharedPages)])],
      ]),
    ),
    // function 0 (dot) of type 0, function 1 (scale) of type 1
    ...section(3, vec([[0x00], [0x01]])),
    ...section(
      7,
      vec([
        [...utf8('dot'), 0x00, 0x00],
        [...utf8('scale'), 0x00, 0x01],
      ]),
    ),
    ...section(
      10,
      vec([
        [...uleb(dotBody.length), ...dotBody],
        [...uleb(scale.length), ...scale],
      ]),
    ),
  ];
  return new Uint8Array(bytes);
}

const KERNEL = new wasm.Module(kernelModule());

/** Pages of a shared kernel memory (basisExchange.ts): its size is fixed, so no thread ever sees it grow. */
export const SHARED_KERNEL_PAGES = 2048;
let sharedKernel: object | undefined;

/** A shared memory of SHARED_KERNEL_PAGES (128 MB of address space; only the pages written become resident), for several threads' kernels. */
export function sharedKernelMemory(): { buffer: ArrayBuffer } {
  return new wasm.Memory({ initial: SHARED_KERNEL_PAGES, maximum: SHARED_KERNEL_PAGES, shared: true });
}

/** This thread's kernel on a shared memory made by sharedKernelMemory (possibly in another thread). */
export function kernelOnShared(memory: { buffer: ArrayBufferLike }): KernelMemory {
  sharedKernel ??= new wasm.Module(kernelModule(SHARED_KERNEL_PAGES));
  return kernelOf(new wasm.Instance(sharedKernel, { env: { memory } }), memory);
}

type DotFn = (point: number, count: number, time: number, rowBytes: number, out: number, from: number, to: number) => void;
type ScaleFn = (out: number, weight: number, source: number, from: number, to: number) => void;

/** The kernel's functions of an instance on `memory`. */
function kernelOf(instance: { exports: Record<string, unknown> }, memory: { buffer: ArrayBufferLike }): KernelMemory {
  return { memory, dot: instance.exports.dot as DotFn, scale: instance.exports.scale as ScaleFn };
}

const PAGE_BYTES = 65536;
/** Arrays start on 16-byte boundaries. */
const ALIGN_DOUBLES = 2;

/** A WebAssembly memory and the kernel instantiated on it. */
export interface KernelMemory {
  memory: { buffer: ArrayBufferLike };
  dot: DotFn;
  scale: ScaleFn;
}

/** Where an arena lies in a shared kernel memory (basisExchange.ts) instead of a memory of its own. */
export interface SharedRegion {
  kernel: KernelMemory;
  /** Its first byte (16-byte aligned) and its size in doubles. */
  byteOffset: number;
  doubles: number;
}

/**
 * Memories of arenas whose scope has ended (withPooledArenas), for the next arenas made in a
 * scope: a fresh memory costs a page fault per 4 KB written (~10 % of a cold skill request's CPU),
 * a reused one a fill with zeros. At most POOL_MAX_BYTES are kept.
 */
const pool: KernelMemory[] = [];
const POOL_MAX_BYTES = 32 * 1024 * 1024;
let pooledBytes = 0;
/** The arenas made in the innermost open scope (null: none open, arenas are not pooled). */
let scope: DotArena[] | null = null;

/**
 * Runs `fn`; the arenas made during it are released when it returns and their memories reused by
 * later arenas. Whatever `fn` computes must not keep a prepared group (a weather batch) beyond
 * it: a released arena's group throws if used again.
 */
export function withPooledArenas<X>(fn: () => X): X {
  const outer = scope;
  const outerArrays = arrayScope;
  const mine: DotArena[] = [];
  const myArrays: ArrayBuffer[] = [];
  scope = mine;
  arrayScope = myArrays;
  try {
    return fn();
  } finally {
    scope = outer;
    arrayScope = outerArrays;
    for (const arena of mine) arena.release();
    for (const buffer of myArrays) releaseBuffer(buffer);
  }
}

/** Pooled arrays' capacities are multiples of this many doubles (a skill's chunks of rows differ by a few hours). */
const ARRAY_STEP = 1024;
/** Buffers of arrays whose scope has ended, by capacity in doubles; at most ARRAY_POOL_MAX_BYTES in all. */
const freeBuffers = new Map<number, ArrayBuffer[]>();
const ARRAY_POOL_MAX_BYTES = 64 * 1024 * 1024;
let freeBufferBytes = 0;
/** The buffers of scopedArray's arrays made in the innermost open scope (null: none open). */
let arrayScope: ArrayBuffer[] | null = null;

function releaseBuffer(buffer: ArrayBuffer): void {
  if (freeBufferBytes + buffer.byteLength > ARRAY_POOL_MAX_BYTES) return;
  const capacity = buffer.byteLength / 8;
  let list = freeBuffers.get(capacity);
  if (!list) freeBuffers.set(capacity, (list = []));
  list.push(buffer);
  freeBufferBytes += buffer.byteLength;
}

/**
 * A zeroed array of `length` doubles for a computation that drops it when the withPooledArenas
 * scope it is made in ends (a weather batch's per-row buffers, its synoptic cells' series, a
 * chunk's plant sums): its memory is an earlier scope's when one of its size is free. A cold year
 * of skill leads made ~100 such arrays of ~6,000 rows per chunk of rows, fresh each time, memory
 * V8 counts towards starting a full collection. Outside a scope, a new array.
 */
export function scopedArray(length: number): Float64Array {
  if (!arrayScope) return new Float64Array(length);
  const capacity = Math.ceil(length / ARRAY_STEP) * ARRAY_STEP;
  const buffer = freeBuffers.get(capacity)?.pop();
  let array: Float64Array;
  if (buffer) {
    freeBufferBytes -= buffer.byteLength;
    array = new Float64Array(buffer, 0, length).fill(0);
  } else array = new Float64Array(new ArrayBuffer(8 * capacity), 0, length);
  arrayScope.push(array.buffer as ArrayBuffer);
  return array;
}

/** The smallest pooled memory of at least `bytes` (taken out of the pool), or undefined. */
function pooledMemory(bytes: number): KernelMemory | undefined {
  let best = -1;
  for (let i = 0; i < pool.length; i++) {
    const size = pool[i].memory.buffer.byteLength;
    if (size >= bytes && (best < 0 || size < pool[best].memory.buffer.byteLength)) best = i;
  }
  if (best < 0) return undefined;
  const [taken] = pool.splice(best, 1);
  pooledBytes -= taken.memory.buffer.byteLength;
  return taken;
}

/**
 * A block of WebAssembly memory holding a prepared group's arrays (coefficients, time bases,
 * a sum buffer), sized once: `doubles` is the total of the lengths it will hand out. Made inside
 * withPooledArenas, it may reuse the memory of an arena released before.
 */
export class DotArena {
  private readonly kernel: KernelMemory;
  private readonly reused: boolean;
  /** In doubles from the memory's start: the next free one, and the end of the arena. */
  private used = 0;
  private readonly capacity: number;
  /** Lies in a shared memory (never pooled: the memory is the exchange's). */
  private readonly shared: boolean;
  private released = false;

  /** `region`: in a shared memory's region (basisExchange.ts), else in a memory of its own (or a pooled one). */
  constructor(doubles: number, region?: SharedRegion) {
    this.shared = region !== undefined;
    if (region) {
      this.kernel = region.kernel;
      this.reused = false;
      this.used = region.byteOffset / 8;
      this.capacity = this.used + region.doubles;
      return;
    }
    const bytes = 8 * (doubles + 16 * ALIGN_DOUBLES);
    const reused = scope ? pooledMemory(bytes) : undefined;
    this.reused = reused !== undefined;
    if (reused) {
      this.kernel = reused;
    } else {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE_BYTES)) });
      this.kernel = kernelOf(new wasm.Instance(KERNEL, { env: { memory } }), memory);
    }
    this.capacity = this.kernel.memory.buffer.byteLength / 8;
    scope?.push(this);
  }

  /** Room for the arrays of these lengths (each rounded up to the alignment). */
  static doublesFor(lengths: readonly number[]): number {
    return lengths.reduce((sum, length) => sum + Math.ceil(length / ALIGN_DOUBLES) * ALIGN_DOUBLES, 0);
  }

  /** A zeroed array of `length` doubles in this arena. */
  alloc(length: number): Float64Array {
    this.check();
    if (this.used + length > this.capacity)
      throw new Error(`DotArena: ${length} doubles do not fit (${this.used} of ${this.capacity} used)`);
    const array = new Float64Array(this.kernel.memory.buffer, 8 * this.used, length);
    if (this.reused) array.fill(0);
    this.used += Math.ceil(length / ALIGN_DOUBLES) * ALIGN_DOUBLES;
    return array;
  }

  /** Throws when the arena's scope has ended (its memory may hold another arena's arrays now). */
  check(): void {
    if (this.released) throw new Error('DotArena: used after the withPooledArenas scope that made it ended');
  }

  /** Ends the arena: its memory goes back to the pool (if there is room). */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.shared) return;
    const bytes = this.kernel.memory.buffer.byteLength;
    if (pooledBytes + bytes > POOL_MAX_BYTES) return;
    pool.push(this.kernel);
    pooledBytes += bytes;
  }

  /**
   * out[i] += Σm point[m]·time[m·n + i] on rows [from, to), where n = out.length and the three
   * arrays are this arena's; point.length is even (a field's basis is cos/sin pairs).
   */
  dotAllRows(point: Float64Array, time: Float64Array, out: Float64Array, from: number, to: number): void {
    this.check();
    this.kernel.dot(point.byteOffset, point.length, time.byteOffset, 8 * out.length, out.byteOffset, from, to);
  }

  /**
   * out[i] = weight[i]·source[i + shift] on rows [from, to): the three arrays are this arena's,
   * and source holds every row it is read at.
   */
  scaleRows(out: Float64Array, weight: Float64Array, source: Float64Array, shift: number, from: number, to: number): void {
    this.check();
    this.kernel.scale(out.byteOffset, weight.byteOffset, source.byteOffset + 8 * shift, from, to);
  }
}
