/**
 * Anomaly groups prepared for a set of rows: the time bases of a group's truth field and of
 * the error fields a run blends in, so that each point then costs a few dot products; and
 * the work the members of one ensemble request share.
 */
import { currentBasisExchange, fingerprint, type BasisExchange, type SharedBasis } from '../basisExchange.ts';
import { DotArena, scopedArray } from '../dotKernel.ts';
import { distinctInstants, dotRow, rowInstants, type DistinctInstants, type RowInstants, type SpectralField } from '../field.ts';
import { ERROR_RUN_TAU_HOURS, ERROR_VALID_TAU_HOURS, synopticCellCentre } from './fields.ts';

/** Multiplies row i of a component-major basis (n rows) by weights[i]. */
export function scaleRows(basis: Float64Array, weights: Float64Array): void {
  const n = weights.length;
  for (let at = 0; at < basis.length; at += n) {
    for (let i = 0; i < n; i++) basis[at + i] *= weights[i];
  }
}

/** An error field's part of a prepared group: its time basis (blend weights folded in) and a point buffer. */
interface ErrorPart {
  field: SpectralField;
  time: Float64Array;
  point: Float64Array;
}

/** An error field as a run blends it in: the field, its per-row weight and its stream. */
export interface ErrorView {
  field: SpectralField;
  weight: Float64Array;
  stream: number;
}

/**
 * How a group's anomaly is seen on each row: α·S + Σ weight·E over the error parts. Null
 * arrays mean truth (α = 1, no error parts); `zero` means climatology (no anomaly at all).
 */
export interface GroupView {
  zero: boolean;
  alpha: Float64Array | null;
  errors: ErrorView[];
}

/** An error field's time basis over the rows, with its blend weights folded in. */
function errorTime(e: ErrorView, mid: Float64Array, created: Float64Array, out: Float64Array, distinct?: DistinctInstants): void {
  e.field.errorBasis(mid, created, out, ERROR_VALID_TAU_HOURS, ERROR_RUN_TAU_HOURS, e.stream, distinct);
  scaleRows(out, e.weight);
}

/** An error part in `arena`: its time basis over the rows with the blend weights folded in, and a point buffer. */
function errorPart(arena: DotArena, e: ErrorView, mid: Float64Array, created: Float64Array): ErrorPart {
  const time = arena.alloc(mid.length * 2 * e.field.k);
  errorTime(e, mid, created, time);
  return { field: e.field, time, point: arena.alloc(2 * e.field.k) };
}

/**
 * A truth field's time basis over the rows (as SpectralField.timeBasis writes it), computed once
 * per distinct instant: the rows of several runs (a skill's leads, a run's lagged days) share
 * their valid hours, and the truth at an instant is the same for every run. Each entry is the
 * one timeBasis computes for that instant, so no value changes.
 */
export function sharedTimeBasis(field: SpectralField, mid: Float64Array, out: Float64Array, trailingHours = 0): void {
  // The precomputed hours, when they hold every row: a copy per row, whatever the runs.
  if (trailingHours === 0 && field.fromTable(mid, out)) return;
  const n = mid.length;
  const { instants, slot } = distinctInstants(mid);
  if (instants.length === n) {
    field.timeBasis(mid, out, trailingHours);
    return;
  }
  const u = instants.length;
  const distinct = new Float64Array(u * 2 * field.k);
  field.timeBasis(instants, distinct, trailingHours);
  for (let m = 0; m < 2 * field.k; m++) {
    const from = m * u;
    const to = m * n;
    for (let i = 0; i < n; i++) out[to + i] = distinct[from + slot[i]];
  }
}

/**
 * Arena room for a point buffer and time basis of each field, and a sum over n rows; with
 * `instants`, the first field's (the truth's) basis is over that many distinct instants, with a
 * value per instant; `weighted`: room for a weight per row (the truth's α).
 */
function arenaFor(n: number, fields: readonly SpectralField[], instants?: number, weighted = false): DotArena {
  const bases = fields.flatMap((f, i) => [2 * f.k, (i === 0 && instants !== undefined ? instants : n) * 2 * f.k]);
  return new DotArena(DotArena.doublesFor([n, ...(instants !== undefined ? [instants] : []), ...(weighted ? [n] : []), ...bases]));
}

/**
 * A group's time bases from the current job's basis exchange (basisExchange.ts): each computed by
 * whichever worker comes first, the group's own arrays in a region of the exchange's memory.
 */
class ExchangedBases {
  readonly arena: DotArena;
  private readonly pending: { basis: SharedBasis; use: (array: Float64Array) => void }[] = [];

  private constructor(
    private readonly exchange: BasisExchange,
    region: NonNullable<ReturnType<BasisExchange['region']>>,
    /** What the rows are: the part of every key that names them. */
    private readonly rowsKey: string,
  ) {
    this.arena = new DotArena(0, region);
  }

  /**
   * For a group over `n` rows of these fields (truth first) with `bases` time bases of these
   * lengths, or null without an exchange or room in it. The region holds the group's own arrays
   * and room for a copy of each basis (used only if the other worker does not deliver one).
   */
  static forGroup(n: number, fields: readonly SpectralField[], bases: readonly number[], rowsKey: () => string): ExchangedBases | null {
    const exchange = currentBasisExchange();
    if (!exchange) return null;
    const region = exchange.region(DotArena.doublesFor([n, ...fields.map((f) => 2 * f.k), ...bases]));
    return region ? new ExchangedBases(exchange, region, rowsKey()) : null;
  }

  /** The basis `key` (over these rows) of `length` doubles; `use` gets its array, now or once settled. Null: no room, compute it yourself. */
  basis(key: string, length: number, compute: (out: Float64Array) => void, use: (array: Float64Array) => void): boolean {
    const basis = this.exchange.basis(`${key}|${this.rowsKey}`, length, compute, this.arena);
    if (!basis) return false;
    use(basis.array);
    this.pending.push({ basis, use });
    return true;
  }

  /** Waits for the bases other workers compute. */
  settle(): void {
    for (const { basis, use } of this.pending) use(basis.settle());
    this.pending.length = 0;
  }
}

/**
 * One anomaly group prepared for a set of rows: on row i, α_i·(p·T(t_i)) + Σ q·(β·E)_i over the
 * error parts, p·T the truth field at the point and the row's instant. The truth is a dot product
 * per distinct instant, not per row: the rows of several runs (a skill's eight lead days, a run's
 * lagged days) share their valid hours, and the truth at an instant is the same for every run.
 * The blend weight α multiplies the truth's value, so each row's number is the same whatever
 * other rows a batch holds (a value cached by day must not depend on the request that made it).
 */
export class PreparedGroup implements AnomalyGroup {
  /** The truth's blend weight per row (null: 1, the truth itself), in the arena (sumRows). */
  readonly alpha: Float64Array | null;
  private trailTime: Float64Array | null;
  private readonly zero: boolean;
  private readonly n: number;
  /** The arrays the dot products read and write (dotKernel.ts); null for climatology. */
  private readonly arena: DotArena | null;
  /** The truth's time basis over the distinct instants (component-major, `instantCount` rows). */
  private truthTime: Float64Array;
  /** Runs of rows whose instants are consecutive: (from, to, shift) triples, row i's instant i + shift (RowInstants). */
  private readonly runs: Int32Array;
  private readonly instantCount: number;
  /** The truth at the point at each distinct instant (truthAtPoint), valid while truthReady. */
  private readonly truthAt: Float64Array;
  private truthReady = false;
  private readonly pointTruth: Float64Array;
  private readonly errors: ErrorPart[];
  /** The anomaly being summed for fill(). */
  private readonly sum: Float64Array;
  /** Bases from a basis exchange that another worker may still be computing (settled on first use). */
  private exchanged: ExchangedBases | null = null;
  /** Climatology's series (series()), made on first use. */
  private zeros: Float64Array | null = null;

  constructor(
    private readonly truthField: SpectralField,
    mid: Float64Array,
    created: Float64Array | null,
    view: GroupView,
    trailing: boolean,
    /** The instants of `mid`, when the caller has them (a weather batch: the same for each of its groups). */
    given?: RowInstants,
  ) {
    const n = mid.length;
    this.n = n;
    this.zero = view.zero;
    this.alpha = view.zero ? null : view.alpha;
    this.errors = [];
    if (view.zero) {
      this.arena = null;
      this.truthTime = this.pointTruth = this.sum = this.truthAt = new Float64Array(0);
      this.runs = new Int32Array(0);
      this.instantCount = 0;
      this.trailTime = null;
      return;
    }
    const errors = view.alpha && created ? view.errors : [];
    const alpha = created ? view.alpha : null;
    this.alpha = alpha;
    const distinct = given ?? rowInstants(mid);
    const instants = distinct.times;
    this.runs = distinct.runs;
    const u = (this.instantCount = instants.length);
    const truthLength = u * 2 * truthField.k;
    const rowsLength = n * 2 * truthField.k;
    const exchanged = ExchangedBases.forGroup(
      n,
      [truthField, ...errors.map((e) => e.field)],
      [u, ...(alpha ? [n] : []), truthLength, ...(trailing ? [rowsLength] : []), ...errors.map((e) => n * 2 * e.field.k)],
      () => fingerprint([mid, created]),
    );
    const arena = exchanged?.arena ?? arenaFor(n, [truthField, ...errors.map((e) => e.field)], u, alpha !== null);
    this.arena = arena;
    this.sum = arena.alloc(n);
    this.truthAt = arena.alloc(u);
    this.pointTruth = arena.alloc(2 * truthField.k);
    // The kernel reads α from the arena's memory.
    if (alpha) (this.alpha = arena.alloc(n)).set(alpha);
    const truth = (out: Float64Array) => sharedTimeBasis(truthField, instants, out);
    this.truthTime = this.trailTime = null!;
    if (!exchanged?.basis(`truth|${truthField.id}`, truthLength, truth, (a) => (this.truthTime = a)))
      truth((this.truthTime = arena.alloc(truthLength)));
    this.trailTime = null;
    if (trailing) {
      const trail = (out: Float64Array) => sharedTimeBasis(truthField, mid, out, 24);
      if (!exchanged?.basis(`trail24|${truthField.id}`, rowsLength, trail, (a) => (this.trailTime = a)))
        trail((this.trailTime = new Float64Array(rowsLength)));
    }
    if (alpha && created) {
      for (const e of errors) {
        const part = { field: e.field, time: null! as Float64Array, point: arena.alloc(2 * e.field.k) };
        const error = (out: Float64Array) => errorTime(e, mid, created, out, distinct);
        const key = `error|${e.field.id}|${e.stream}|${fingerprint([e.weight])}`;
        if (!exchanged?.basis(key, n * 2 * e.field.k, error, (a) => (part.time = a))) error((part.time = arena.alloc(n * 2 * e.field.k)));
        this.errors.push(part);
      }
    }
    this.exchanged = exchanged;
  }

  /** The bases another worker computes, once (basisExchange.ts). */
  private settle(): void {
    if (!this.exchanged) return;
    this.exchanged.settle();
    this.exchanged = null;
  }

  setPoint(lat: number, lon: number): void {
    if (this.zero) return;
    this.arena!.check();
    this.truthField.pointBasis(lat, lon, this.pointTruth);
    for (const e of this.errors) e.field.pointBasis(lat, lon, e.point);
    this.truthReady = false;
  }

  /** The truth at the point at every distinct instant, once per point. */
  private truthAtPoint(): Float64Array {
    if (!this.truthReady) {
      this.truthAt.fill(0);
      this.arena!.dotAllRows(this.pointTruth, this.truthTime, this.truthAt, 0, this.instantCount);
      this.truthReady = true;
    }
    return this.truthAt;
  }

  /** The anomaly on rows [from, to) in `sum`: α·truth, then each error part added. */
  private sumRows(from: number, to: number): Float64Array {
    this.settle();
    const { sum, alpha } = this;
    const truth = this.truthAtPoint();
    const runs = this.runs;
    // Run by run of rows whose instants follow each other (a forecast run's hours): row i reads
    // the truth at instant i + shift, a copy or a product by α in the kernel, no lookup per row.
    for (let r = 0; r < runs.length; r += 3) {
      const a = Math.max(from, runs[r]);
      const b = Math.min(to, runs[r + 1]);
      if (a >= b) continue;
      const shift = runs[r + 2];
      if (alpha) this.arena!.scaleRows(sum, alpha, truth, shift, a, b);
      else sum.set(truth.subarray(a + shift, b + shift), a);
    }
    for (const e of this.errors) this.arena!.dotAllRows(e.point, e.time, sum, from, to);
    return sum;
  }

  /** The anomaly (unit variance) on rows [from, to), as the truth or the forecast sees it. */
  fill(out: Float64Array, from = 0, to = out.length): void {
    if (!this.arena) {
      out.fill(0, from, to);
      return;
    }
    const sum = this.sumRows(from, to);
    // An element loop, not set(subarray): a view per call (per cold span of every point) is an allocation.
    for (let i = from; i < to; i++) out[i] = sum[i];
  }

  /**
   * The anomaly on every row, in the group's own buffer (no copy): read it before the group is
   * asked again. Climatology's is all zeros.
   */
  series(): Float64Array {
    if (!this.arena) return (this.zeros ??= new Float64Array(this.n));
    return this.sumRows(0, this.n);
  }

  /** The anomaly on one row (for variables needed on a few rows only). */
  valueAt(i: number): number {
    if (this.zero) return 0;
    this.arena!.check();
    return this.sumRows(i, i + 1)[i];
  }

  /** The 24-hour trailing mean of the anomaly on one row (forecasts scale it like the anomaly). */
  trailingAt(i: number): number {
    if (this.zero) return 0;
    this.arena!.check();
    this.settle();
    const s = dotRow(this.pointTruth, this.trailTime!, i, this.n);
    return this.alpha ? this.alpha[i] * s : s;
  }
}

/** What sample() needs of an anomaly group. */
export interface AnomalyGroup {
  setPoint(lat: number, lon: number): void;
  /** The anomaly at the point on every row: the group's own array, to read before it is asked again. */
  series(): Float64Array;
  fill(out: Float64Array, from?: number, to?: number): void;
  valueAt(i: number): number;
  trailingAt(i: number): number;
}

/** A cell's series of a CellSharedGroup: the anomaly, and its trailing mean (NaN where not computed yet). */
interface CellSeries {
  values: Float64Array;
  trailing: Float64Array | null;
}

/**
 * A group seen at the centre of each point's synoptic cell (fields.ts synopticCellCentre): its
 * series over all rows is computed once per cell and kept, and every point of the cell reads it.
 * For the slowly varying synoptic groups of many nearby points (the plants of an ISO: ~8 per
 * cell), so each point pays only for its own meso and local weather. Holds one series of n rows
 * per cell met (two with the trailing mean), for the life of the batch.
 */
export class CellSharedGroup implements AnomalyGroup {
  private readonly cells = new Map<string, CellSeries>();
  private current: CellSeries | null = null;
  private cellLat = Number.NaN;
  private cellLon = Number.NaN;
  private cellKey = '';
  /** The cell the inner group's point is set to. */
  private innerKey = '';

  constructor(
    private readonly inner: AnomalyGroup,
    private readonly n: number,
  ) {}

  setPoint(lat: number, lon: number): void {
    const cell = synopticCellCentre(lat, lon);
    this.cellLat = cell.lat;
    this.cellLon = cell.lon;
    this.cellKey = `${cell.lat},${cell.lon}`;
    this.current = null;
  }

  private innerAtCell(): AnomalyGroup {
    if (this.innerKey !== this.cellKey) {
      this.inner.setPoint(this.cellLat, this.cellLon);
      this.innerKey = this.cellKey;
    }
    return this.inner;
  }

  private cell(): CellSeries {
    if (this.current) return this.current;
    let series = this.cells.get(this.cellKey);
    if (!series) {
      const values = scopedArray(this.n);
      this.innerAtCell().fill(values);
      series = { values, trailing: null };
      this.cells.set(this.cellKey, series);
    }
    this.current = series;
    return series;
  }

  series(): Float64Array {
    return this.cell().values;
  }

  fill(out: Float64Array, from = 0, to = out.length): void {
    const values = this.cell().values;
    for (let i = from; i < to; i++) out[i] = values[i];
  }

  valueAt(i: number): number {
    return this.cell().values[i];
  }

  /**
   * Kept per cell and row as first asked for, so the cell's other points read it instead of
   * each computing it at the cell centre again (rows: the cold ones, where snow is possible).
   */
  trailingAt(i: number): number {
    const series = this.cell();
    const trailing = (series.trailing ??= new Float64Array(this.n).fill(Number.NaN));
    let value = trailing[i];
    if (value !== value) value = trailing[i] = this.innerAtCell().trailingAt(i);
    return value;
  }
}

/**
 * Work that the members of one ensemble request share: for each set of rows and group, the
 * part of the anomaly every member has in common, (1 − e²)·S + e·√(1 − e²)·C, prepared once,
 * and its series at each point computed once. Make one per request and put it in every
 * member's skill (WeatherSkill.share); it holds memory until dropped.
 */
export class EnsembleShare {
  readonly groups = new Map<string, { group: PreparedGroup; series: Map<string, Float64Array> }>();
  /** The shared part of point-local perturbations, per rows, point and variable. */
  readonly locals = new Map<string, Float64Array>();
}

/** A member's view of a group: the shared part (from an EnsembleShare) plus the member's own error. */
export class MemberGroup implements AnomalyGroup {
  private readonly arena: DotArena;
  private readonly own: ErrorPart;
  /** The anomaly being summed for fill(). */
  private readonly sum: Float64Array;
  private readonly n: number;
  private lat = Number.NaN;
  private lon = Number.NaN;
  private current: Float64Array | null = null;
  private sharedAtPoint = false;

  constructor(
    private readonly shared: PreparedGroup,
    private readonly seriesCache: Map<string, Float64Array>,
    own: ErrorView,
    mid: Float64Array,
    created: Float64Array,
  ) {
    this.n = mid.length;
    this.arena = arenaFor(this.n, [own.field]);
    this.sum = this.arena.alloc(this.n);
    this.own = errorPart(this.arena, own, mid, created);
  }

  setPoint(lat: number, lon: number): void {
    this.lat = lat;
    this.lon = lon;
    this.current = null;
    this.sharedAtPoint = false;
    this.arena.check();
    this.own.field.pointBasis(lat, lon, this.own.point);
  }

  private sharedSeries(): Float64Array {
    if (this.current) return this.current;
    const key = `${this.lat},${this.lon}`;
    let series = this.seriesCache.get(key);
    if (!series) {
      series = new Float64Array(this.n);
      this.atPoint().fill(series);
      this.seriesCache.set(key, series);
    }
    this.current = series;
    return series;
  }

  private atPoint(): PreparedGroup {
    if (!this.sharedAtPoint) {
      this.shared.setPoint(this.lat, this.lon);
      this.sharedAtPoint = true;
    }
    return this.shared;
  }

  series(): Float64Array {
    this.sum.set(this.sharedSeries());
    this.arena.dotAllRows(this.own.point, this.own.time, this.sum, 0, this.n);
    return this.sum;
  }

  fill(out: Float64Array, from = 0, to = out.length): void {
    this.sum.set(this.sharedSeries().subarray(from, to), from);
    this.arena.dotAllRows(this.own.point, this.own.time, this.sum, from, to);
    out.set(this.sum.subarray(from, to), from);
  }

  valueAt(i: number): number {
    this.arena.check();
    return this.sharedSeries()[i] + dotRow(this.own.point, this.own.time, i, this.n);
  }

  trailingAt(i: number): number {
    return this.atPoint().trailingAt(i);
  }
}

/** A cheap fingerprint of a set of rows (row count and a hash of every instant). */
export function rowsKey(mid: Float64Array, created: Float64Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < mid.length; i++) {
    h = Math.imul(h ^ Math.round(mid[i] * 2), 0x01000193);
    h = Math.imul(h ^ created[i], 0x01000193);
  }
  return `${mid.length}:${h >>> 0}:${mid[0]}:${created[0]}`;
}
