/**
 * Anomaly groups prepared for a set of rows: the time bases of a group's truth field and of
 * the error fields a run blends in, so that each point then costs a few dot products; and
 * the work the members of one ensemble request share.
 */
import { dotAllRows, dotRow, type SpectralField } from '../field.ts';
import { ERROR_RUN_TAU_HOURS, ERROR_VALID_TAU_HOURS } from './fields.ts';

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

/**
 * How a group's anomaly is seen on each row: α·S + Σ weight·E over the error parts. Null
 * arrays mean truth (α = 1, no error parts); `zero` means climatology (no anomaly at all).
 */
export interface GroupView {
  zero: boolean;
  alpha: Float64Array | null;
  errors: { field: SpectralField; weight: Float64Array; stream: number }[];
}

/** One anomaly group prepared for a set of rows. */
export class PreparedGroup implements AnomalyGroup {
  readonly k2: number;
  readonly truthTime: Float64Array;
  readonly alpha: Float64Array | null;
  readonly trailTime: Float64Array | null;
  private readonly zero: boolean;
  private readonly n: number;
  private readonly errors: ErrorPart[];
  private readonly pointTruth: Float64Array;

  constructor(
    private readonly truthField: SpectralField,
    mid: Float64Array,
    created: Float64Array | null,
    view: GroupView,
    trailing: boolean,
  ) {
    const n = mid.length;
    this.n = n;
    this.zero = view.zero;
    this.k2 = 2 * truthField.k;
    this.pointTruth = new Float64Array(this.k2);
    if (view.zero) {
      this.truthTime = new Float64Array(0);
      this.trailTime = null;
      this.alpha = null;
      this.errors = [];
      return;
    }
    this.truthTime = new Float64Array(n * this.k2);
    truthField.timeBasis(mid, this.truthTime);
    this.trailTime = trailing ? new Float64Array(n * this.k2) : null;
    if (this.trailTime) truthField.timeBasis(mid, this.trailTime, 24);
    this.alpha = view.alpha;
    this.errors = [];
    if (view.alpha && created) {
      // Fold the blend weights into the shared bases once, so each point needs only one
      // dot product per basis and row: α·(p·T) + β·(q·E) = p·(αT) + q·(βE).
      scaleRows(this.truthTime, view.alpha);
      for (const e of view.errors) {
        const time = new Float64Array(n * 2 * e.field.k);
        e.field.errorBasis(mid, created, time, ERROR_VALID_TAU_HOURS, ERROR_RUN_TAU_HOURS, e.stream);
        scaleRows(time, e.weight);
        this.errors.push({ field: e.field, time, point: new Float64Array(2 * e.field.k) });
      }
    }
  }

  setPoint(lat: number, lon: number): void {
    if (this.zero) return;
    this.truthField.pointBasis(lat, lon, this.pointTruth);
    for (const e of this.errors) e.field.pointBasis(lat, lon, e.point);
  }

  /** The anomaly (unit variance) on rows [from, to), as the truth or the forecast sees it. */
  fill(out: Float64Array, from = 0, to = out.length): void {
    if (this.zero) {
      out.fill(0, from, to);
      return;
    }
    dotAllRows(this.pointTruth, this.truthTime, out, false, from, to);
    for (const e of this.errors) dotAllRows(e.point, e.time, out, true, from, to);
  }

  /** The anomaly on one row (for variables needed on a few rows only). */
  valueAt(i: number): number {
    if (this.zero) return 0;
    let s = dotRow(this.pointTruth, this.truthTime, i, this.n);
    for (const e of this.errors) s += dotRow(e.point, e.time, i, this.n);
    return s;
  }

  /** The 24-hour trailing mean of the anomaly on one row (forecasts scale it like the anomaly). */
  trailingAt(i: number): number {
    if (this.zero) return 0;
    const s = dotRow(this.pointTruth, this.trailTime!, i, this.n);
    return this.alpha ? this.alpha[i] * s : s;
  }
}

/** What sample() needs of an anomaly group. */
export interface AnomalyGroup {
  setPoint(lat: number, lon: number): void;
  fill(out: Float64Array, from?: number, to?: number): void;
  valueAt(i: number): number;
  trailingAt(i: number): number;
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
  private readonly point: Float64Array;
  private lat = Number.NaN;
  private lon = Number.NaN;
  private current: Float64Array | null = null;
  private sharedAtPoint = false;

  constructor(
    private readonly shared: PreparedGroup,
    private readonly seriesCache: Map<string, Float64Array>,
    private readonly field: SpectralField,
    private readonly time: Float64Array,
    private readonly n: number,
  ) {
    this.point = new Float64Array(2 * field.k);
  }

  setPoint(lat: number, lon: number): void {
    this.lat = lat;
    this.lon = lon;
    this.current = null;
    this.sharedAtPoint = false;
    this.field.pointBasis(lat, lon, this.point);
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

  fill(out: Float64Array, from = 0, to = out.length): void {
    out.set(this.sharedSeries().subarray(from, to), from);
    dotAllRows(this.point, this.time, out, true, from, to);
  }

  valueAt(i: number): number {
    return this.sharedSeries()[i] + dotRow(this.point, this.time, i, this.n);
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
