/**
 * Spectral weather fields: a field is a sum of K travelling plane waves over the
 * continent, each drifting eastward with the westerlies and waxing, waning and wandering
 * over days. Its value at a point and hour is the dot product of a per-point vector
 * (cos θ, sin θ of each wave's spatial phase) with a per-hour vector (the waves'
 * amplitude times cos/sin of their temporal phase). Per-hour vectors are shared by every
 * point of a request, so a field over thousands of plants and hours costs a small matrix
 * product, and every value is exactly reproducible whatever window it is computed in.
 *
 * Time bases are stored component-major: entry (row i, basis element m) lives at
 * m·n + i, so a point's series is a sum of 2K long contiguous axpy loops (dotKernel.ts, in
 * WebAssembly SIMD).
 */
import { VALUE_NOISE1_SD, VALUE_NOISE2_SD, ValueNoise1Walker, ValueNoise2Walker, seedOf, unit } from './hash.ts';
import { scopedArray } from './dotKernel.ts';

export interface FieldSpec {
  /** Names the field; with the world seed it fixes every component. */
  name: string;
  components: number;
  minWavelengthKm: number;
  maxWavelengthKm: number;
  /** Mean eastward drift of the wave pattern. */
  driftKmPerHour: number;
  /** Time scale over which a wave's amplitude and phase wander. */
  lifetimeHours: number;
}

const KM_PER_DEG_LAT = 110.57;
/** Longitude degrees are taken at 38°N, the middle of the service area. */
const KM_PER_DEG_LON = 111.32 * Math.cos((38 * Math.PI) / 180);

/** Relative amplitude wander of a wave (1 ± this × noise). */
const AMPLITUDE_WANDER = 0.5;
/** Radians of phase wander of a wave. */
const PHASE_WANDER = 1.5;

/**
 * What a field computes per instant, precomputed at the mid-hours of [firstHour, firstHour + hours):
 * component-major (element m of hour h at m·hours + h − firstHour), each entry the one the
 * field's own code computes for that instant — a truth field's time basis (timeBasis), an error
 * field's wave phases (errorBasis). Held in shared memory by the compute pool, so that every
 * worker reads the same copy (world.ts HourTables).
 */
export interface HourTable {
  kind: 'truth' | 'error';
  firstHour: number;
  hours: number;
  values: Float64Array;
}

/**
 * Where the table holds each of these instants (its hour's index in the table), or null when it is
 * not of this kind or does not hold them all (mid-hours in its span).
 */
function tableRows(table: HourTable | null, kind: HourTable['kind'], hours: ArrayLike<number>): Int32Array | null {
  if (table?.kind !== kind) return null;
  const rows = new Int32Array(hours.length);
  for (let i = 0; i < hours.length; i++) {
    const h = hours[i] - 0.5 - table.firstHour;
    if (!(h >= 0 && h < table.hours && h === Math.floor(h))) return null;
    rows[i] = h;
  }
  return rows;
}

/** The mid-hours of [firstHour, firstHour + hours). */
function midHoursOf(firstHour: number, hours: number): Float64Array {
  const mid = new Float64Array(hours);
  for (let h = 0; h < hours; h++) mid[h] = firstHour + h + 0.5;
  return mid;
}

export class SpectralField {
  readonly k: number;
  /** Everything the field is made from (the world seed and its spec): two fields with one id are the same field. */
  readonly id: string;
  private readonly kx: Float64Array;
  private readonly ky: Float64Array;
  private readonly phase: Float64Array;
  private readonly omega: Float64Array;
  private readonly seed: number;
  private readonly lifetime: number;
  /** Per-wave amplitude that makes the truth field's variance about 1. */
  private readonly truthAmp: number;
  /** Per-wave amplitude that makes an error field's variance about 1. */
  private readonly errorAmp: number;

  constructor(spec: FieldSpec, worldSeed: number) {
    const k = spec.components;
    this.k = k;
    this.id = [worldSeed, spec.name, k, spec.minWavelengthKm, spec.maxWavelengthKm, spec.driftKmPerHour, spec.lifetimeHours].join(':');
    this.seed = seedOf(`${worldSeed}:${spec.name}`);
    this.lifetime = spec.lifetimeHours;
    this.kx = new Float64Array(k);
    this.ky = new Float64Array(k);
    this.phase = new Float64Array(k);
    this.omega = new Float64Array(k);
    const logMin = Math.log(spec.minWavelengthKm);
    const logMax = Math.log(spec.maxWavelengthKm);
    for (let j = 0; j < k; j++) {
      const wavelength = Math.exp(logMin + (logMax - logMin) * unit(this.seed, 1, j));
      const direction = Math.PI * unit(this.seed, 2, j);
      const wavenumber = (2 * Math.PI) / wavelength;
      this.kx[j] = wavenumber * Math.cos(direction);
      this.ky[j] = wavenumber * Math.sin(direction);
      this.phase[j] = 2 * Math.PI * unit(this.seed, 3, j);
      const drift = spec.driftKmPerHour * (0.7 + 0.6 * unit(this.seed, 4, j));
      // phase kx(x - drift t): the crests move east whatever the sign of kx.
      this.omega[j] = this.kx[j] * drift;
    }
    const meanSquareModulation = 1 + (AMPLITUDE_WANDER * VALUE_NOISE1_SD) ** 2;
    this.truthAmp = Math.sqrt(2 / (k * meanSquareModulation));
    this.errorAmp = Math.sqrt(2 / k);
  }

  /** Precomputed per-instant values (HourTable): a truth field's time basis, an error field's wave phases; null: none. */
  private table: HourTable | null = null;

  /**
   * The table of this field's per-instant values over [firstHour, firstHour + hours), in `buffer`
   * (a SharedArrayBuffer to share it) or a new one: `kind` 'truth' its time basis, 'error' its waves' phases.
   */
  hourTable(kind: 'truth' | 'error', firstHour: number, hours: number, buffer?: ArrayBufferLike): HourTable {
    const values = new Float64Array(buffer ?? new ArrayBuffer(8 * 2 * this.k * hours));
    const mid = midHoursOf(firstHour, hours);
    if (kind === 'truth') this.computeTimeBasis(mid, values, 0);
    else {
      for (let j = 0; j < this.k; j++) {
        const cos = values.subarray(2 * j * hours, (2 * j + 1) * hours);
        const sin = values.subarray((2 * j + 1) * hours, (2 * j + 2) * hours);
        this.errorPhases(j, mid, cos, sin);
      }
    }
    return { kind, firstHour, hours, values };
  }

  /** From now on timeBasis or errorBasis (as the table was made for) read `table` where it holds their instants. */
  useTable(table: HourTable): void {
    if (table.values.length !== 2 * this.k * table.hours)
      throw new Error(`hour table of ${table.values.length} values for ${this.k} waves`);
    this.table = table;
  }

  /** Copies the rows' time basis from the table when it holds every row; false, writing nothing, otherwise. */
  fromTable(hours: ArrayLike<number>, out: Float64Array): boolean {
    const table = this.table;
    const rows = tableRows(table, 'truth', hours);
    if (!table || !rows) return false;
    const n = rows.length;
    const span = table.hours;
    const values = table.values;
    // Consecutive hours (a continuous series): each element's row is one block of the table.
    const first = n > 0 ? rows[0] : 0;
    const consecutive = n > 0 && rows[n - 1] - first === n - 1 && rows.every((r, i) => r === first + i);
    for (let m = 0; m < 2 * this.k; m++) {
      const from = m * span;
      const to = m * n;
      if (consecutive) out.set(values.subarray(from + first, from + first + n), to);
      else for (let i = 0; i < n; i++) out[to + i] = values[from + rows[i]];
    }
    return true;
  }

  /** Writes (cos θj, sin θj) for every wave at a point into out[0 .. 2K). */
  pointBasis(latDeg: number, lonDeg: number, out: Float64Array): void {
    const x = lonDeg * KM_PER_DEG_LON;
    const y = latDeg * KM_PER_DEG_LAT;
    for (let j = 0; j < this.k; j++) {
      const theta = this.kx[j] * x + this.ky[j] * y + this.phase[j];
      out[2 * j] = Math.cos(theta);
      out[2 * j + 1] = Math.sin(theta);
    }
  }

  /**
   * Truth time basis: row i (2K values, component-major, see above) for the instant hours[i] (epoch hours,
   * fractional allowed). With `trailingHours` W > 0 it is the mean over the W hours before
   * the instant instead (each wave averaged analytically: its phase moved back W/2 and its
   * amplitude scaled by sinc(ωW/2)).
   */
  timeBasis(hours: ArrayLike<number>, out: Float64Array, trailingHours = 0): void {
    if (trailingHours === 0 && this.fromTable(hours, out)) return;
    this.computeTimeBasis(hours, out, trailingHours);
  }

  private computeTimeBasis(hours: ArrayLike<number>, out: Float64Array, trailingHours: number): void {
    const k = this.k;
    const n = hours.length;
    // Wave by wave, so the slowly varying modulation noise walks along its lattice.
    for (let j = 0; j < k; j++) {
      const ampNoise = new ValueNoise1Walker(this.seed, 10 + 2 * j);
      const phaseNoise = new ValueNoise1Walker(this.seed, 11 + 2 * j);
      const damping = this.truthAmp * sincOf(this.omega[j] * trailingHours * 0.5);
      const omega = this.omega[j];
      for (let i = 0; i < n; i++) {
        const t = hours[i] - trailingHours / 2;
        const slow = t / this.lifetime;
        const amplitude = damping * (1 + AMPLITUDE_WANDER * ampNoise.at(slow));
        const angle = omega * t + PHASE_WANDER * phaseNoise.at(slow);
        out[2 * j * n + i] = amplitude * Math.cos(angle);
        out[(2 * j + 1) * n + i] = amplitude * Math.sin(angle);
      }
    }
  }

  /**
   * Error time basis for forecast runs: row i describes the error pattern of the run
   * created at created[i] for the valid hour valid[i]. Each wave's amplitude is smooth
   * noise over (valid, created) with time scales validTau and runTau, so the error of
   * consecutive runs differs little while runs days apart have independent errors. `distinct`:
   * the distinct instants of `valid`, when the caller has them.
   */
  errorBasis(
    valid: ArrayLike<number>,
    created: ArrayLike<number>,
    out: Float64Array,
    validTau: number,
    runTau: number,
    stream: number,
    distinct: DistinctInstants = distinctInstants(valid),
  ): void {
    const k = this.k;
    const n = valid.length;
    const amp = this.errorAmp / VALUE_NOISE2_SD;
    // A wave's phase depends on the valid hour alone: its cosine and sine are computed once per
    // instant (the rows of several runs share their valid hours), the amplitude per row.
    const { instants, slot } = distinct;
    const u = instants.length;
    const cos = scopedArray(u);
    const sin = scopedArray(u);
    const table = this.table;
    const tabled = tableRows(table, 'error', instants);
    for (let j = 0; j < k; j++) {
      const ampNoise = new ValueNoise2Walker(this.seed, 1000 * stream + j);
      if (table && tabled) {
        const cosAt = 2 * j * table.hours;
        const sinAt = cosAt + table.hours;
        for (let q = 0; q < u; q++) {
          cos[q] = table.values[cosAt + tabled[q]];
          sin[q] = table.values[sinAt + tabled[q]];
        }
      } else this.errorPhases(j, instants, cos, sin);
      for (let i = 0; i < n; i++) {
        const amplitude = amp * ampNoise.at(valid[i] / validTau, created[i] / runTau);
        out[2 * j * n + i] = amplitude * cos[slot[i]];
        out[(2 * j + 1) * n + i] = amplitude * sin[slot[i]];
      }
    }
  }

  /** Wave j's phase at each instant, as an error basis turns it (its cosine and sine): it depends on the valid instant alone. */
  private errorPhases(j: number, instants: ArrayLike<number>, cos: Float64Array, sin: Float64Array): void {
    const phaseNoise = new ValueNoise1Walker(this.seed, 500 + j);
    const omega = this.omega[j];
    for (let q = 0; q < instants.length; q++) {
      const v = instants[q];
      const angle = omega * v + PHASE_WANDER * phaseNoise.at(v / this.lifetime);
      cos[q] = Math.cos(angle);
      sin[q] = Math.sin(angle);
    }
  }
}

/** Distinct instants of rows in order of first appearance, and each row's index among them. */
export interface DistinctInstants {
  instants: number[];
  slot: Int32Array;
}

/**
 * The distinct instants of `mid` in order of first appearance, and each row's index among them.
 * Mid-hour instants over a span of a few times the rows (the usual case) are looked up in an
 * array by hour, others in a map.
 */
export function distinctInstants(mid: ArrayLike<number>): DistinctInstants {
  const n = mid.length;
  const slot = new Int32Array(n);
  const instants: number[] = [];
  let lo = Infinity;
  let hi = -Infinity;
  let midHours = true;
  for (let i = 0; i < n; i++) {
    lo = Math.min(lo, mid[i]);
    hi = Math.max(hi, mid[i]);
    if (mid[i] - Math.floor(mid[i]) !== 0.5) midHours = false;
  }
  if (n > 0 && midHours && hi - lo < 4 * n + 1024) {
    const slotOfHour = new Int32Array(hi - lo + 1).fill(-1);
    for (let i = 0; i < n; i++) {
      const h = mid[i] - lo;
      if (slotOfHour[h] < 0) {
        slotOfHour[h] = instants.length;
        instants.push(mid[i]);
      }
      slot[i] = slotOfHour[h];
    }
    return { instants, slot };
  }
  const slotOf = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    let at = slotOf.get(mid[i]);
    if (at === undefined) {
      at = instants.length;
      slotOf.set(mid[i], at);
      instants.push(mid[i]);
    }
    slot[i] = at;
  }
  return { instants, slot };
}

/** Runs of rows whose instants follow each other (slot[i + 1] = slot[i] + 1), as (from, to, slot[from] − from) triples. */
function rowRuns(slot: Int32Array): Int32Array {
  const runs: number[] = [];
  for (let from = 0; from < slot.length;) {
    let to = from + 1;
    while (to < slot.length && slot[to] === slot[to - 1] + 1) to++;
    runs.push(from, to, slot[from] - from);
    from = to;
  }
  return Int32Array.from(runs);
}

/**
 * A set of rows' distinct instants (distinctInstants), also as an array of doubles (`times`), and
 * the runs of rows whose instants follow each other (a forecast run's hours: `runs`, (from, to,
 * shift) triples, row i's instant times[i + shift]): made once per weather batch for all its
 * groups and its local noise.
 */
export interface RowInstants extends DistinctInstants {
  times: Float64Array;
  runs: Int32Array;
}

export function rowInstants(mid: ArrayLike<number>): RowInstants {
  const distinct = distinctInstants(mid);
  return { ...distinct, times: Float64Array.from(distinct.instants), runs: rowRuns(distinct.slot) };
}

function sincOf(x: number): number {
  return x === 0 ? 1 : Math.sin(x) / x;
}

/** Value of a field at one point and one row of a component-major time basis of n rows. */
export function dotRow(point: Float64Array, time: Float64Array, row: number, n: number): number {
  let s = 0;
  for (let m = 0, at = row; m < point.length; m++, at += n) s += point[m] * time[at];
  return s;
}
