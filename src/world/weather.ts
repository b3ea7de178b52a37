/**
 * The weather of the synthetic world at points and hours — truth, or as a forecast run
 * saw it. Each variable is climatology plus anomalies from spectral fields at two
 * scales (synoptic: continent-wide, days; meso: regional, hours) and a point-local part.
 *
 * A forecast made at `created` for hour `valid` sees each anomaly S as
 *   α·S + β·E,  α = 1 − e²/2,  β = √(1 − α²),
 * where E is an independent error field of the same scale and e = e(lead) the model's
 * error fraction, growing from e0 towards 1 with lead time. The error then has variance
 * exactly e² (of the climatological anomaly variance), and the forecast keeps the full
 * variance of the weather: forecast wind and cloud go through non-linear physics
 * (power curves, clipping), and a damped forecast would bias output low. At the longest
 * leads the error equals that of climatology. Error fields vary smoothly with the run
 * time, so consecutive runs differ little.
 *
 * Two more kinds of skill (WeatherSkill.climatology, WeatherSkill.member):
 * - Climatology (the `normal` model): every anomaly and every point-local part is 0, so the
 *   weather is the seasonal and diurnal normal of the point (no skill beyond it).
 * - Ensemble member m: with e = e(lead) the ensemble's error fraction (capped at
 *   maxErrorFraction), member m sees
 *     (1 − e²)·S + e·√(1 − e²)·C + e·M_m,
 *   where C is an error field shared by the members ("what the ensemble as a whole got
 *   wrong") and M_m the member's own, independent of the other members'. Every member keeps
 *   the full variance; the truth is, given C, distributed like one more member, so the
 *   ensemble is calibrated: the ensemble mean's error variance is e² (like a deterministic
 *   forecast with the same e) and the spread of the members about their mean is e as well
 *   (spread/skill ≈ 1), while a single member's error variance is 2e². Point-local parts and
 *   the load noise (demand.ts) follow the same rule with 1 − e² = what the run still knows of
 *   them.
 */
import { dotAllRows, dotRow, SpectralField, type FieldSpec } from './field.ts';
import { hourPhase, pointClimate, type HourPhase, type PointClimate } from './climate.ts';
import { VALUE_NOISE1_SD, ValueNoise1Walker, hash4, seedOf } from './hash.ts';

/** Error fraction of a forecast: e(L) = √(e0² + (1 − e0²)(1 − exp(−L/τ))), capped at 1. */
export interface ErrorGrowth {
  e0: number;
  tauHours: number;
}

export interface WeatherSkill {
  /** Names the model's error fields: two models never share errors. */
  errorSeedName: string;
  /** Multiplies every error fraction (the ISO's own forecast is worse than ours). */
  errorScale: number;
  temp: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  wind: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  cloud: { synoptic: ErrorGrowth; meso: ErrorGrowth };
  /** e-folding time (hours) of the forecast's knowledge of point-local weather. */
  localMemoryHours: number;
  /**
   * The climatological weather (the `normal` model): all anomalies and point-local parts
   * are 0 and nothing above is used. Non-linear consumers (plant output) take expectations
   * over the climatological distribution instead (plantOutput.ts).
   */
  climatology?: boolean;
  /** An ensemble member (0-based): see the header. Members of one ensemble share errorSeedName. */
  member?: number;
  /** Ensemble members only: cap on e (1 − cap² is the skill left at the longest leads). */
  maxErrorFraction?: number;
  /**
   * Ensemble members only: work the members of one request share (their truth and shared-error
   * parts are identical). Optional; it changes no number, only the cost.
   */
  share?: EnsembleShare;
}

/** Fraction of a predictable quantity a member knows (1 − e²), and the weights of the shared and own perturbations. */
export interface MemberWeights {
  known: number;
  shared: number;
  own: number;
}

/** Weights of truth, shared and member perturbation for a member whose run knows `known` (0..1) of a quantity. */
export function memberWeights(known: number): MemberWeights {
  const k = Math.min(1, Math.max(0, known));
  return { known: k, shared: Math.sqrt(k * (1 - k)), own: Math.sqrt(1 - k) };
}

/** Name of the error fields of ensemble member `member` (the shared ones are named errorSeedName). */
export function memberSeedName(errorSeedName: string, member: number): string {
  return `${errorSeedName}:m${member}`;
}

/** Standard deviation of the hub-height wind's point-local (turbulent) relative variability. */
export const LOCAL_WIND_REL_SD = 0.08;
/** Standard deviation of the point-local cloud logit (sub-grid cloud patches). */
export const LOCAL_CLOUD_LOGIT_SD = 0.7;
/** Gain of the (unit-variance) cloud anomaly in the cloud-cover logit. */
export const CLOUD_LOGIT_GAIN = 1.7;

/**
 * Which variables a computation needs; temperature is always computed. Humidity,
 * precipitation and the 24-hour trailing values serve only icing and snow, which cannot
 * happen in warm air, so they are computed only on rows colder than COLD_ROW_MAX_C and
 * left at 0 elsewhere.
 */
export interface WeatherNeeds {
  wind?: boolean;
  cloud?: boolean;
  /** humidity and precipitation on cold rows (needs cloud) */
  moisture?: boolean;
  /** 24-hour trailing temperature and storminess on cold rows, for snow lying on panels */
  trailing?: boolean;
}

/** Above this 2 m temperature (°C) icing and snow cover are impossible in this world. */
export const COLD_ROW_MAX_C = 10;

/** Hourly weather at one point. Values are hour averages (evaluated at mid-hour). */
export interface WeatherSeries {
  tempC: Float64Array;
  wind100Ms: Float64Array;
  cloudCover: Float64Array;
  /** Only on cold rows (see WeatherNeeds); 0 elsewhere. */
  precipMmH: Float64Array;
  relHumidity: Float64Array;
  tempTrail24C: Float64Array;
  /** 24-hour mean of the cloud anomaly: high after a stormy day. */
  stormTrail24: Float64Array;
}

export function newWeatherSeries(n: number): WeatherSeries {
  return {
    tempC: new Float64Array(n),
    wind100Ms: new Float64Array(n),
    cloudCover: new Float64Array(n),
    precipMmH: new Float64Array(n),
    relHumidity: new Float64Array(n),
    tempTrail24C: new Float64Array(n),
    stormTrail24: new Float64Array(n),
  };
}

type GroupName =
  | 'temp.synoptic'
  | 'temp.meso'
  | 'windU.synoptic'
  | 'windU.meso'
  | 'windV.synoptic'
  | 'windV.meso'
  | 'cloud.synoptic'
  | 'cloud.meso'
  | 'precip.meso';

const GROUP_SPECS: Record<GroupName, Omit<FieldSpec, 'name'>> = {
  'temp.synoptic': { components: 10, minWavelengthKm: 1500, maxWavelengthKm: 5000, driftKmPerHour: 30, lifetimeHours: 96 },
  'temp.meso': { components: 6, minWavelengthKm: 250, maxWavelengthKm: 900, driftKmPerHour: 35, lifetimeHours: 30 },
  'windU.synoptic': { components: 10, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windU.meso': { components: 6, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'windV.synoptic': { components: 10, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windV.meso': { components: 6, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'cloud.synoptic': { components: 10, minWavelengthKm: 800, maxWavelengthKm: 3000, driftKmPerHour: 30, lifetimeHours: 48 },
  'cloud.meso': { components: 8, minWavelengthKm: 80, maxWavelengthKm: 400, driftKmPerHour: 30, lifetimeHours: 8 },
  'precip.meso': { components: 6, minWavelengthKm: 60, maxWavelengthKm: 300, driftKmPerHour: 30, lifetimeHours: 6 },
};

/** Weights of the synoptic and meso parts of each anomaly (squares sum to 1). */
const TEMP_W = [0.93, 0.37] as const;
const WIND_W = [0.85, 0.53] as const;
const CLOUD_W = [0.75, 0.66] as const;

/** Hub-height wind: speed = mean · |(1, 0) + WIND_SPREAD·(u, v)| / RICE_MEAN. */
export const WIND_SPREAD = 0.6;
/** Point-local (turbulent, sub-grid) relative wind variability and its time scale. */
const LOCAL_WIND_SD = LOCAL_WIND_REL_SD;
const LOCAL_WIND_HOURS = 3;
const LOCAL_CLOUD_SD = LOCAL_CLOUD_LOGIT_SD;
const LOCAL_CLOUD_HOURS = 2;
/** Time scales of the forecast error fields in valid time and in run time. */
const ERROR_VALID_TAU_HOURS = 18;
const ERROR_RUN_TAU_HOURS = 36;

/** Mean of |(1,0) + s(a,b)| for independent standard normal a, b (computed once by quadrature). */
export const RICE_MEAN = (() => {
  const n = 48;
  let sum = 0;
  let wsum = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = -4 + (8 * (i + 0.5)) / n;
      const b = -4 + (8 * (j + 0.5)) / n;
      const w = Math.exp(-(a * a + b * b) / 2);
      sum += w * Math.hypot(1 + WIND_SPREAD * a, WIND_SPREAD * b);
      wsum += w;
    }
  }
  return sum / wsum;
})();

/** Contiguous [from, to) row ranges where the temperature is below COLD_ROW_MAX_C. */
function coldSpans(tempC: Float64Array): [number, number][] {
  const spans: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= tempC.length; i++) {
    const cold = i < tempC.length && tempC[i] < COLD_ROW_MAX_C;
    if (cold && start < 0) start = i;
    else if (!cold && start >= 0) {
      spans.push([start, i]);
      start = -1;
    }
  }
  return spans;
}

/** Multiplies row i of a component-major basis (n rows) by weights[i]. */
function scaleRows(basis: Float64Array, weights: Float64Array): void {
  const n = weights.length;
  for (let at = 0; at < basis.length; at += n) {
    for (let i = 0; i < n; i++) basis[at + i] *= weights[i];
  }
}

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function errorFraction(g: ErrorGrowth, scale: number, leadHours: number): number {
  const lead = Math.max(0, leadHours);
  const e2 = g.e0 * g.e0 + (1 - g.e0 * g.e0) * (1 - Math.exp(-lead / g.tauHours));
  return Math.min(1, Math.sqrt(e2) * scale);
}

/** The world: its fields are fixed by the seed. One instance serves the whole process. */
export class WeatherWorld {
  readonly seed: number;
  private readonly truth = new Map<GroupName, SpectralField>();
  private readonly errors = new Map<string, SpectralField>();

  constructor(seed = 20260101) {
    this.seed = seed;
    for (const [name, spec] of Object.entries(GROUP_SPECS) as [GroupName, Omit<FieldSpec, 'name'>][]) {
      this.truth.set(name, new SpectralField({ name, ...spec }, seed));
    }
  }

  truthField(group: GroupName): SpectralField {
    return this.truth.get(group)!;
  }

  errorField(group: GroupName, errorSeedName: string): SpectralField {
    const key = `${errorSeedName}:${group}`;
    let f = this.errors.get(key);
    if (!f) {
      // Errors need less spatial detail than the weather itself: about half the waves.
      const spec = GROUP_SPECS[group];
      f = new SpectralField({ name: `error:${key}`, ...spec, components: Math.ceil(spec.components / 2) + 1 }, this.seed);
      this.errors.set(key, f);
    }
    return f;
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
interface GroupView {
  zero: boolean;
  alpha: Float64Array | null;
  errors: { field: SpectralField; weight: Float64Array; stream: number }[];
}

/** One anomaly group prepared for a set of rows. */
class PreparedGroup implements AnomalyGroup {
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
interface AnomalyGroup {
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
class MemberGroup implements AnomalyGroup {
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
function rowsKey(mid: Float64Array, created: Float64Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < mid.length; i++) {
    h = Math.imul(h ^ Math.round(mid[i] * 2), 0x01000193);
    h = Math.imul(h ^ created[i], 0x01000193);
  }
  return `${mid.length}:${h >>> 0}:${mid[0]}:${created[0]}`;
}

/**
 * Rows of a computation: valid hours and, for a forecast, the creation hour of the run
 * that each row comes from (several runs may be stitched, one per row).
 */
export interface WeatherRows {
  valid: ArrayLike<number>;
  created: ArrayLike<number> | null;
}

/**
 * Everything about a set of rows that does not depend on the point, prepared once per
 * request and then applied to any number of points.
 */
export class WeatherBatch {
  readonly n: number;
  private readonly mid: Float64Array;
  private readonly created: Float64Array | null;
  private readonly phases: HourPhase[];
  private readonly groups = new Map<GroupName, AnomalyGroup>();
  private readonly localMemory: Float64Array | null;
  private readonly climatology: boolean;
  /** Ensemble members: per-row weights of the shared and own local parts, and their seeds. */
  private readonly localShared: Float64Array | null = null;
  private readonly localOwn: Float64Array | null = null;
  private readonly sharedLocalSeed: number = 0;
  private readonly memberLocalSeed: number = 0;
  /** Ensemble members with a share: the share and the key of these rows in it. */
  private readonly share: EnsembleShare | undefined;
  private readonly shareKey: string = '';
  /** Per-row work buffers reused for every point. */
  private readonly scratch: Float64Array[];

  constructor(world: WeatherWorld, rows: WeatherRows, skill: WeatherSkill | null, readonly needs: WeatherNeeds) {
    const n = rows.valid.length;
    this.n = n;
    this.mid = new Float64Array(n);
    for (let i = 0; i < n; i++) this.mid[i] = rows.valid[i] + 0.5;
    this.created = skill && rows.created ? Float64Array.from(rows.created) : null;
    this.phases = Array.from({ length: n }, (_, i) => {
      const p: HourPhase = { seasonCos: 0, seasonSin: 0, dayCos: 0, daySin: 0 };
      hourPhase(this.mid[i], p);
      return p;
    });
    this.scratch = [0, 1, 2, 3].map(() => new Float64Array(n));
    this.climatology = !!skill?.climatology;
    const member = skill && this.created && !this.climatology && skill.member !== undefined ? skill.member : null;
    this.localMemory = this.climatology ? new Float64Array(n) : this.created ? new Float64Array(n) : null;
    if (this.localMemory && skill && !this.climatology) {
      for (let i = 0; i < n; i++) this.localMemory[i] = Math.exp(-Math.max(0, this.mid[i] - this.created![i]) / skill.localMemoryHours);
    }
    if (member !== null && this.localMemory) {
      // A member knows the local parts as a deterministic run does (weight `memory`) and
      // draws the rest: a part shared by the ensemble and one of its own.
      this.localShared = new Float64Array(n);
      this.localOwn = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const w = memberWeights(this.localMemory[i]);
        this.localShared[i] = w.shared;
        this.localOwn[i] = w.own;
      }
      this.sharedLocalSeed = seedOf(skill!.errorSeedName);
      this.memberLocalSeed = seedOf(memberSeedName(skill!.errorSeedName, member));
    }
    const want: [GroupName, ErrorGrowth | undefined, boolean][] = [
      ['temp.synoptic', skill?.temp.synoptic, !!needs.trailing],
      ['temp.meso', skill?.temp.meso, false],
    ];
    if (needs.wind) {
      want.push(['windU.synoptic', skill?.wind.synoptic, false], ['windU.meso', skill?.wind.meso, false]);
      want.push(['windV.synoptic', skill?.wind.synoptic, false], ['windV.meso', skill?.wind.meso, false]);
    }
    if (needs.cloud || needs.moisture || needs.trailing) {
      want.push(['cloud.synoptic', skill?.cloud.synoptic, !!needs.trailing], ['cloud.meso', skill?.cloud.meso, false]);
    }
    if (needs.moisture) want.push(['precip.meso', skill?.cloud.meso, false]);
    let stream = 1;
    const share = member !== null ? skill!.share : undefined;
    const key = share ? rowsKey(this.mid, this.created!) : '';
    this.share = share;
    this.shareKey = key;
    for (const [name, growth, trailing] of want) {
      const view = this.viewOf(world, name, skill, growth ?? null, member, stream);
      if (share && view.errors.length === 2) {
        // The shared part (truth and the ensemble's common error) once per request; the member's
        // own error here. (The error stream of a group depends on the variables a batch needs.)
        const sharedKey = `${key}:${name}:${trailing}:${stream}`;
        let entry = share.groups.get(sharedKey);
        if (!entry) {
          const group = new PreparedGroup(world.truthField(name), this.mid, this.created, { ...view, errors: [view.errors[0]] }, trailing);
          entry = { group, series: new Map() };
          share.groups.set(sharedKey, entry);
        }
        const own = view.errors[1];
        const time = new Float64Array(n * 2 * own.field.k);
        own.field.errorBasis(this.mid, this.created!, time, ERROR_VALID_TAU_HOURS, ERROR_RUN_TAU_HOURS, own.stream);
        scaleRows(time, own.weight);
        this.groups.set(name, new MemberGroup(entry.group, entry.series, own.field, time, n));
      } else {
        this.groups.set(name, new PreparedGroup(world.truthField(name), this.mid, this.created, view, trailing));
      }
      stream++;
    }
  }

  /** How the rows' runs see one group: truth, climatology, a deterministic forecast or an ensemble member. */
  private viewOf(world: WeatherWorld, name: GroupName, skill: WeatherSkill | null, growth: ErrorGrowth | null, member: number | null, stream: number): GroupView {
    if (this.climatology) return { zero: true, alpha: null, errors: [] };
    if (!skill || !this.created || !growth) return { zero: false, alpha: null, errors: [] };
    const n = this.n;
    const alpha = new Float64Array(n);
    if (member === null) {
      const beta = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const e = errorFraction(growth, skill.errorScale, this.mid[i] - this.created[i]);
        const a = 1 - (e * e) / 2;
        alpha[i] = a;
        beta[i] = Math.sqrt(1 - a * a);
      }
      return { zero: false, alpha, errors: [{ field: world.errorField(name, skill.errorSeedName), weight: beta, stream }] };
    }
    const shared = new Float64Array(n);
    const own = new Float64Array(n);
    const cap = skill.maxErrorFraction ?? 1;
    for (let i = 0; i < n; i++) {
      const e = Math.min(cap, errorFraction(growth, skill.errorScale, this.mid[i] - this.created[i]));
      const w = memberWeights(1 - e * e);
      alpha[i] = w.known;
      shared[i] = w.shared;
      own[i] = w.own;
    }
    return {
      zero: false,
      alpha,
      errors: [
        { field: world.errorField(name, skill.errorSeedName), weight: shared, stream },
        { field: world.errorField(name, memberSeedName(skill.errorSeedName, member)), weight: own, stream },
      ],
    };
  }

  /** True for the climatological weather (the `normal` model): no anomalies at all. */
  get isClimatology(): boolean {
    return this.climatology;
  }

  /** Mid-hour instants of the rows (epoch hours + 0.5). */
  get midHours(): Float64Array {
    return this.mid;
  }

  /**
   * Fills `out` with the weather at a point. `localSeed` identifies the point for its
   * local (sub-grid) variability, e.g. the plant id.
   */
  sample(climate: PointClimate, localSeed: number, out: WeatherSeries): void {
    for (const g of this.groups.values()) g.setPoint(climate.lat, climate.lon);
    const n = this.n;
    const c = climate;
    const a1 = this.scratch[0];
    const a2 = this.scratch[1];
    const a3 = this.scratch[2];
    const a4 = this.scratch[3];

    this.group('temp.synoptic').fill(a1);
    this.group('temp.meso').fill(a2);
    for (let i = 0; i < n; i++) {
      const ph = this.phases[i];
      const season = c.tempSeasonCos * ph.seasonCos + c.tempSeasonSin * ph.seasonSin;
      const diurnal = c.diurnalCos * ph.dayCos + c.diurnalSin * ph.daySin;
      out.tempC[i] = c.tempMean + season + c.tempDiurnalHalfRange * diurnal + this.tempSd(c, ph) * (TEMP_W[0] * a1[i] + TEMP_W[1] * a2[i]);
    }

    if (this.needs.wind) {
      this.group('windU.synoptic').fill(a1);
      this.group('windU.meso').fill(a2);
      this.group('windV.synoptic').fill(a3);
      this.group('windV.meso').fill(a4);
      const local = new ValueNoise1Walker(localSeed, 1);
      const perturb = this.localPerturbation(localSeed, 1, LOCAL_WIND_HOURS);
      for (let i = 0; i < n; i++) {
        const ph = this.phases[i];
        const a = WIND_W[0] * a1[i] + WIND_W[1] * a2[i];
        const b = WIND_W[0] * a3[i] + WIND_W[1] * a4[i];
        const seasonal = 1 + c.windSeasonCos * ph.seasonCos + c.windSeasonSin * ph.seasonSin;
        const dayNight = 1 + c.windDiurnalCos * ph.dayCos + c.windDiurnalSin * ph.daySin;
        let gust = 1 + LOCAL_WIND_SD * this.memory(i) * (local.at(this.mid[i] / LOCAL_WIND_HOURS) / VALUE_NOISE1_SD);
        if (perturb) gust += LOCAL_WIND_SD * perturb(i);
        const x = 1 + WIND_SPREAD * a;
        const y = WIND_SPREAD * b;
        out.wind100Ms[i] = Math.max(0, (c.windMean * seasonal * dayNight * Math.sqrt(x * x + y * y) * gust) / RICE_MEAN);
      }
    }

    if (this.needs.cloud) {
      this.group('cloud.synoptic').fill(a1);
      this.group('cloud.meso').fill(a2);
      const local = new ValueNoise1Walker(localSeed, 2);
      const perturb = this.localPerturbation(localSeed, 2, LOCAL_CLOUD_HOURS);
      for (let i = 0; i < n; i++) {
        const ph = this.phases[i];
        const z = CLOUD_W[0] * a1[i] + CLOUD_W[1] * a2[i];
        a3[i] = z;
        let patch = LOCAL_CLOUD_SD * this.memory(i) * (local.at(this.mid[i] / LOCAL_CLOUD_HOURS) / VALUE_NOISE1_SD);
        if (perturb) patch += LOCAL_CLOUD_SD * perturb(i);
        out.cloudCover[i] = this.cloudCover(c, ph, z, patch);
      }
    }

    if (this.needs.moisture || this.needs.trailing) {
      const precip = this.groups.get('precip.meso');
      const tSyn = this.group('temp.synoptic');
      const cSyn = this.group('cloud.synoptic');
      const cloudFilled = !!this.needs.cloud;
      // Range fills are far cheaper per row than single-row lookups, so the cloud anomaly
      // (when no cloud series was made, e.g. for wind plants) and the precipitation anomaly
      // are filled over each contiguous span of cold rows.
      for (const [from, to] of coldSpans(out.tempC)) {
        if (!cloudFilled) {
          this.group('cloud.synoptic').fill(a1, from, to);
          this.group('cloud.meso').fill(a2, from, to);
          for (let i = from; i < to; i++) a3[i] = CLOUD_W[0] * a1[i] + CLOUD_W[1] * a2[i];
        }
        if (precip) precip.fill(a4, from, to);
      }
      for (let i = 0; i < n; i++) {
        out.precipMmH[i] = 0;
        out.relHumidity[i] = 0;
        out.tempTrail24C[i] = 0;
        out.stormTrail24[i] = 0;
        if (!cloudFilled) out.cloudCover[i] = 0;
        if (out.tempC[i] >= COLD_ROW_MAX_C) continue;
        const ph = this.phases[i];
        const z = a3[i];
        if (!cloudFilled) out.cloudCover[i] = this.cloudCover(c, ph, z, 0);
        if (precip) {
          const potential = 0.75 * z + 0.66 * a4[i];
          const rate = Math.max(0, potential - 1.35) * 1.6;
          const diurnal = c.diurnalCos * ph.dayCos + c.diurnalSin * ph.daySin;
          out.precipMmH[i] = rate;
          out.relHumidity[i] = Math.min(100, Math.max(8, 62 + 22 * z - 10 * diurnal + 25 * Math.min(1, rate / 0.5)));
        }
        if (this.needs.trailing) {
          // Daily-mean temperature (no diurnal term) plus the trailing synoptic anomaly.
          const season = c.tempSeasonCos * ph.seasonCos + c.tempSeasonSin * ph.seasonSin;
          out.tempTrail24C[i] = c.tempMean + season + this.tempSd(c, ph) * TEMP_W[0] * tSyn.trailingAt(i);
          out.stormTrail24[i] = CLOUD_W[0] * cSyn.trailingAt(i);
        }
      }
    }
  }

  private cloudCover(c: PointClimate, ph: HourPhase, z: number, patch: number): number {
    const seasonal = c.cloudSeasonCos * ph.seasonCos + c.cloudSeasonSin * ph.seasonSin;
    return logistic(c.cloudLogit + seasonal + CLOUD_LOGIT_GAIN * z + patch);
  }

  private group(name: GroupName): AnomalyGroup {
    return this.groups.get(name)!;
  }

  /** Standard deviation of temperature anomalies: larger in winter (peak mid-January). */
  private tempSd(c: PointClimate, ph: HourPhase): number {
    const winter = 0.97 * ph.seasonCos + 0.25 * ph.seasonSin;
    return c.tempAnomalySd * (1 + 0.4 * winter);
  }

  /**
   * Ensemble members only: the unit-variance perturbation of a point-local part on row i
   * (shared·L_c + own·L_m, walked in row order); null for every other kind of batch.
   */
  private localPerturbation(localSeed: number, stream: number, hours: number): ((i: number) => number) | null {
    const shared = this.localShared;
    const own = this.localOwn;
    if (!shared || !own) return null;
    // The shared part is the same for every member: computed once per request when there is a share.
    const key = `${this.shareKey}:local:${localSeed}:${stream}`;
    let common = this.share?.locals.get(key);
    if (!common) {
      const c = new ValueNoise1Walker(hash4(localSeed, this.sharedLocalSeed), stream);
      common = Float64Array.from(this.mid, (t, i) => (shared[i] * c.at(t / hours)) / VALUE_NOISE1_SD);
      this.share?.locals.set(key, common);
    }
    const m = new ValueNoise1Walker(hash4(localSeed, this.memberLocalSeed), stream);
    const series = common;
    return (i) => series[i] + (own[i] * m.at(this.mid[i] / hours)) / VALUE_NOISE1_SD;
  }

  /** How much of the point-local weather a forecast still knows at this row (1 for truth). */
  private memory(i: number): number {
    return this.localMemory ? this.localMemory[i] : 1;
  }
}

export { pointClimate };
