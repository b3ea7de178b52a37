/**
 * The weather of the synthetic world at points and hours — truth, or as a forecast run
 * saw it (skill.ts). Each variable is climatology plus anomalies from spectral fields at two
 * scales (synoptic: continent-wide, days; meso: regional, hours; fields.ts) and a
 * point-local part. A WeatherBatch prepares everything about a set of rows that does not
 * depend on the point once, then samples any number of points.
 */
import { hourPhase, type HourPhase, type PointClimate } from '../climate.ts';
import { VALUE_NOISE1_SD, ValueNoise1Walker, hash4, seedOf } from '../hash.ts';
import { logistic } from '../../util/math.ts';
import {
  CLOUD_LOGIT_GAIN,
  CLOUD_W,
  LOCAL_CLOUD_HOURS,
  LOCAL_CLOUD_SD,
  LOCAL_WIND_HOURS,
  LOCAL_WIND_SD,
  RICE_MEAN,
  TEMP_W,
  WIND_SPREAD,
  WIND_W,
  isSynoptic,
  type GroupName,
} from './fields.ts';
import { CellSharedGroup, MemberGroup, PreparedGroup, rowsKey, type AnomalyGroup, type EnsembleShare, type GroupView } from './groups.ts';
import { ExtremeRows } from './extremes.ts';
import { rowInstants, type RowInstants } from '../field.ts';
import { scopedArray } from '../dotKernel.ts';
import { errorFraction, memberSeedName, memberWeights, type ErrorGrowth, type WeatherSkill } from './skill.ts';
import type { WeatherWorld } from './world.ts';

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
  /**
   * The synoptic anomalies at the centre of each point's synoptic cell (fields.ts
   * SYNOPTIC_CELL_DEG), computed once per cell: for many nearby points (plants). Meso, local
   * and climatological parts stay the point's own.
   */
  synopticCells?: boolean;
}

/** Cold spans of a point's rows beyond which sampleColdRows computes its anomalies on every row. */
const WHOLE_SERIES_ABOVE_SPANS = 16;

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

/** `count` arrays of n doubles, parts of one array (scopedArray: pooled inside withPooledArenas). */
function scopedArrays(count: number, n: number): Float64Array[] {
  const block = scopedArray(count * n);
  return Array.from({ length: count }, (_, k) => block.subarray(k * n, (k + 1) * n));
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

/**
 * Contiguous [from, to) row ranges where the temperature is below COLD_ROW_MAX_C, or null when
 * there are more than `most` of them (then every row is taken, and the ranges are not needed).
 */
function coldSpans(tempC: Float64Array, most: number): [number, number][] | null {
  const spans: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= tempC.length; i++) {
    const cold = i < tempC.length && tempC[i] < COLD_ROW_MAX_C;
    if (cold && start < 0) start = i;
    else if (!cold && start >= 0) {
      if (spans.length === most) return null;
      spans.push([start, i]);
      start = -1;
    }
  }
  return spans;
}

/**
 * Rows of a computation: valid hours and, for a forecast, the creation hour of the run
 * that each row comes from (several runs may be stitched, one per row).
 */
export interface WeatherRows {
  valid: ArrayLike<number>;
  created: ArrayLike<number> | null;
}

/** An ensemble member's point-local parts: per-row weights of the shared and own perturbations, and their seeds. */
interface MemberLocal {
  shared: Float64Array;
  own: Float64Array;
  sharedSeed: number;
  memberSeed: number;
}

/**
 * A member knows the local parts as a deterministic run does (weight `memory`) and draws the
 * rest: a part shared by the ensemble and one of its own.
 */
function memberLocalOf(memory: Float64Array, errorSeedName: string, member: number): MemberLocal {
  const shared = new Float64Array(memory.length);
  const own = new Float64Array(memory.length);
  for (let i = 0; i < memory.length; i++) {
    const w = memberWeights(memory[i]);
    shared[i] = w.shared;
    own[i] = w.own;
  }
  return { shared, own, sharedSeed: seedOf(errorSeedName), memberSeed: seedOf(memberSeedName(errorSeedName, member)) };
}

/** The anomaly groups a batch prepares, in order (the order fixes each group's error stream): name, error growth, trailing mean wanted. */
function wantedGroups(skill: WeatherSkill | null, needs: WeatherNeeds): [GroupName, ErrorGrowth | undefined, boolean][] {
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
  return want;
}

/** The phases of each row's mid-hour (climate.ts hourPhase), as arrays, and the temperature anomaly's winter factor. */
interface RowPhases {
  seasonCos: Float64Array;
  seasonSin: Float64Array;
  dayCos: Float64Array;
  daySin: Float64Array;
  /** 1 + 0.4 · winter: the temperature anomaly's standard deviation is larger in winter (peak mid-January). */
  winterFactor: Float64Array;
}

function rowPhases(mid: Float64Array): RowPhases {
  const n = mid.length;
  const [seasonCos, seasonSin, dayCos, daySin, winterFactor] = scopedArrays(5, n);
  const out: RowPhases = { seasonCos, seasonSin, dayCos, daySin, winterFactor };
  const p: HourPhase = { seasonCos: 0, seasonSin: 0, dayCos: 0, daySin: 0 };
  for (let i = 0; i < n; i++) {
    hourPhase(mid[i], p);
    out.seasonCos[i] = p.seasonCos;
    out.seasonSin[i] = p.seasonSin;
    out.dayCos[i] = p.dayCos;
    out.daySin[i] = p.daySin;
    const winter = 0.97 * p.seasonCos + 0.25 * p.seasonSin;
    out.winterFactor[i] = 1 + 0.4 * winter;
  }
  return out;
}

/** The distinct instants of a batch's rows, where each row's is among them, and a buffer of one value per instant. */
class RepeatedInstants {
  private constructor(
    readonly instants: Float64Array,
    /** Runs of rows with consecutive instants (field.ts RowInstants). */
    private readonly runs: Int32Array,
    readonly values: Float64Array,
  ) {}

  /** For rows (their instants, of `n` rows) with at most half as many distinct instants as rows (a skill's lead days); null otherwise. */
  static of({ times, runs }: RowInstants, n: number): RepeatedInstants | null {
    return times.length * 2 <= n ? new RepeatedInstants(times, runs, new Float64Array(times.length)) : null;
  }

  /** Each row's instant's value: a copy per run of rows (a forecast run's hours), not a lookup per row. */
  spread(out: Float64Array): void {
    const { runs, values } = this;
    for (let r = 0; r < runs.length; r += 3) {
      const shift = runs[r + 2];
      out.set(values.subarray(runs[r] + shift, runs[r + 1] + shift), runs[r]);
    }
  }
}

/**
 * Everything about a set of rows that does not depend on the point, prepared once per
 * request and then applied to any number of points.
 */
export class WeatherBatch {
  readonly n: number;
  private readonly mid: Float64Array;
  private readonly created: Float64Array | null;
  /** Per row: the season's and the day's phase, and the temperature anomaly's winter factor (tempSd). */
  private readonly phases: RowPhases;
  private readonly groups = new Map<GroupName, AnomalyGroup>();
  private readonly localMemory: Float64Array | null;
  /** localMemory, or 1 on every row (the truth): what sample() weighs the point-local parts with. */
  private readonly localWeight: Float64Array;
  private readonly climatology: boolean;
  /** Ensemble members: per-row weights of the shared and own local parts, and their seeds. */
  private readonly memberLocal: MemberLocal | null;
  /** Ensemble members with a share: the share and the key of these rows in it. */
  private readonly share: EnsembleShare | undefined;
  private readonly shareKey: string;
  /** The weather extremes as these rows see them (ExtremeRows.NONE: none touches them). */
  private readonly extremes: ExtremeRows;
  /** Per-row work buffers reused for every point. */
  private readonly scratch: Float64Array[];
  /** The rows' distinct instants when they repeat (walkLocal), else null. */
  private readonly repeated: RepeatedInstants | null;

  /**
   * `skill` null means truth; `rows.created` is ignored for truth. The batch keeps `world` and
   * `skill`, so a consumer can prepare more rows seen the same way (demand's lagged days).
   */
  constructor(
    readonly world: WeatherWorld,
    rows: WeatherRows,
    readonly skill: WeatherSkill | null,
    readonly needs: WeatherNeeds,
  ) {
    const n = rows.valid.length;
    this.n = n;
    this.mid = new Float64Array(n);
    for (let i = 0; i < n; i++) this.mid[i] = rows.valid[i] + 0.5;
    this.created = skill && rows.created ? Float64Array.from(rows.created) : null;
    this.phases = rowPhases(this.mid);
    // Only the wind and cloud variables walk a local noise (walkLocal).
    // The rows' distinct instants, once for every group (their truth and error bases) and the local noise.
    const distinct = rowInstants(this.mid);
    this.repeated = needs.wind || needs.cloud ? RepeatedInstants.of(distinct, n) : null;
    this.scratch = scopedArrays(4, n);
    this.climatology = !!skill?.climatology;
    const member = skill && this.created && !this.climatology && skill.member !== undefined ? skill.member : null;
    this.localMemory = this.localMemoryOf(skill);
    this.localWeight = this.localMemory ?? new Float64Array(n).fill(1);
    this.memberLocal = member !== null && this.localMemory ? memberLocalOf(this.localMemory, skill!.errorSeedName, member) : null;
    this.share = member !== null ? skill!.share : undefined;
    this.shareKey = this.share ? rowsKey(this.mid, this.created!) : '';
    this.extremes = ExtremeRows.prepare(world.extremes, this.mid, this.created, skill) ?? ExtremeRows.NONE;
    let stream = 1;
    for (const [name, growth, trailing] of wantedGroups(skill, needs)) {
      const view = this.viewOf(name, growth ?? null, member, stream);
      const group =
        this.share && view.errors.length === 2
          ? this.memberGroup(name, view, trailing, stream)
          : new PreparedGroup(world.truthField(name), this.mid, this.created, view, trailing, distinct);
      this.groups.set(name, needs.synopticCells && isSynoptic(name) ? new CellSharedGroup(group, n) : group);
      stream++;
    }
  }

  /** Creation hour of each row's run, or null for truth. */
  get createdHours(): Float64Array | null {
    return this.created;
  }

  /** Per row, how much of the point-local weather the run still knows (null for truth; 0 for climatology). */
  private localMemoryOf(skill: WeatherSkill | null): Float64Array | null {
    if (this.climatology) return new Float64Array(this.n);
    if (!this.created || !skill) return null;
    const memory = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) memory[i] = Math.exp(-Math.max(0, this.mid[i] - this.created[i]) / skill.localMemoryHours);
    return memory;
  }

  /**
   * An ensemble member's group with a share: the shared part (truth and the ensemble's common
   * error) prepared once per request, the member's own error here. (The error stream of a
   * group depends on the variables a batch needs.)
   */
  private memberGroup(name: GroupName, view: GroupView, trailing: boolean, stream: number): AnomalyGroup {
    const share = this.share!;
    const sharedKey = `${this.shareKey}:${name}:${trailing}:${stream}`;
    let entry = share.groups.get(sharedKey);
    if (!entry) {
      const group = new PreparedGroup(this.world.truthField(name), this.mid, this.created, { ...view, errors: [view.errors[0]] }, trailing);
      entry = { group, series: new Map() };
      share.groups.set(sharedKey, entry);
    }
    return new MemberGroup(entry.group, entry.series, view.errors[1], this.mid, this.created!);
  }

  /** How the rows' runs see one group: truth, climatology, a deterministic forecast or an ensemble member. */
  private viewOf(name: GroupName, growth: ErrorGrowth | null, member: number | null, stream: number): GroupView {
    const { world, skill } = this;
    if (this.climatology) return { zero: true, alpha: null, errors: [] };
    if (!skill || !this.created || !growth) return { zero: false, alpha: null, errors: [] };
    const n = this.n;
    const alpha = scopedArray(n);
    if (member === null) {
      const beta = scopedArray(n);
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

  /**
   * The point-local noise of stream `stream` (time scale `hours`) on every row: it depends on the
   * instant alone, so rows that repeat instants (a skill's lead days: each valid hour from eight
   * runs) walk it once per instant and copy it — the same numbers, the walk being a function of
   * the instant.
   */
  private walkLocal(localSeed: number, stream: number, hours: number, out: Float64Array): void {
    // The climatology knows nothing of the point-local weather (its weight is 0 on every row).
    if (this.climatology) {
      out.fill(0);
      return;
    }
    const walker = new ValueNoise1Walker(localSeed, stream);
    const repeated = this.repeated;
    if (!repeated) walker.walk(this.mid, hours, out);
    else {
      walker.walk(repeated.instants, hours, repeated.values);
      repeated.spread(out);
    }
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
    const { seasonCos, seasonSin, dayCos, daySin, winterFactor } = this.phases;
    const n = this.n;
    const c = climate;
    // Per-row weight of the point-local parts (1 on every row for the truth).
    const localWeight = this.localWeight;

    // Each group's anomaly is read where the group keeps it (series()): no copy per point.
    {
      const synoptic = this.group('temp.synoptic').series();
      const meso = this.group('temp.meso').series();
      // Module constants read once, not per row (an imported binding may be a getter).
      const [tempSynoptic, tempMeso] = TEMP_W;
      const tempC = out.tempC;
      for (let i = 0; i < n; i++) {
        const season = c.tempSeasonCos * seasonCos[i] + c.tempSeasonSin * seasonSin[i];
        const diurnal = c.diurnalCos * dayCos[i] + c.diurnalSin * daySin[i];
        tempC[i] =
          c.tempMean +
          season +
          c.tempDiurnalHalfRange * diurnal +
          c.tempAnomalySd * winterFactor[i] * (tempSynoptic * synoptic[i] + tempMeso * meso[i]);
      }
    }
    this.extremes.add(c.lat, c.lon, out.tempC);

    if (this.needs.wind) {
      const u1 = this.group('windU.synoptic').series();
      const u2 = this.group('windU.meso').series();
      const v1 = this.group('windV.synoptic').series();
      const v2 = this.group('windV.meso').series();
      const local = this.scratch[0];
      this.walkLocal(localSeed, 1, LOCAL_WIND_HOURS, local);
      const perturb = this.localPerturbation(localSeed, 1, LOCAL_WIND_HOURS);
      const [wSynoptic, wMeso] = WIND_W;
      const wind100Ms = out.wind100Ms;
      // Per-point factors and the constant divisors as products, outside the loop over rows.
      const speedScale = c.windMean / RICE_MEAN;
      const gustPerLocal = LOCAL_WIND_SD / VALUE_NOISE1_SD;
      const { windSeasonCos, windSeasonSin, windDiurnalCos, windDiurnalSin } = c;
      for (let i = 0; i < n; i++) {
        const a = wSynoptic * u1[i] + wMeso * u2[i];
        const b = wSynoptic * v1[i] + wMeso * v2[i];
        const seasonal = 1 + windSeasonCos * seasonCos[i] + windSeasonSin * seasonSin[i];
        const dayNight = 1 + windDiurnalCos * dayCos[i] + windDiurnalSin * daySin[i];
        let gust = 1 + gustPerLocal * localWeight[i] * local[i];
        if (perturb) gust += LOCAL_WIND_SD * perturb(i);
        const x = 1 + WIND_SPREAD * a;
        const y = WIND_SPREAD * b;
        wind100Ms[i] = Math.max(0, speedScale * seasonal * dayNight * Math.sqrt(x * x + y * y) * gust);
      }
    }

    if (this.needs.cloud) {
      const synoptic = this.group('cloud.synoptic').series();
      const meso = this.group('cloud.meso').series();
      const local = this.scratch[0];
      this.walkLocal(localSeed, 2, LOCAL_CLOUD_HOURS, local);
      const perturb = this.localPerturbation(localSeed, 2, LOCAL_CLOUD_HOURS);
      const [wSynoptic, wMeso] = CLOUD_W;
      const z = this.scratch[2];
      const patchPerLocal = LOCAL_CLOUD_SD / VALUE_NOISE1_SD;
      for (let i = 0; i < n; i++) {
        const anomaly = wSynoptic * synoptic[i] + wMeso * meso[i];
        z[i] = anomaly;
        let patch = patchPerLocal * localWeight[i] * local[i];
        if (perturb) patch += LOCAL_CLOUD_SD * perturb(i);
        out.cloudCover[i] = this.cloudCover(c, i, anomaly, patch);
      }
    }

    if (this.needs.moisture || this.needs.trailing) this.sampleColdRows(c, out);
  }

  /**
   * Humidity, precipitation and the trailing values (WeatherNeeds) on the rows colder than
   * COLD_ROW_MAX_C, 0 on the others; without a cloud series (wind plants) the cloud cover too,
   * on the same rows. Range fills are far cheaper per row than single-row lookups, so the cloud
   * anomaly (when no cloud series was made) and the precipitation anomaly are filled over each
   * contiguous span of cold rows.
   */
  private sampleColdRows(c: PointClimate, out: WeatherSeries): void {
    const [a1, a2, , a4] = this.scratch;
    const precip = this.groups.get('precip.meso');
    const cloudFilled = !!this.needs.cloud;
    const spans = coldSpans(out.tempC, WHOLE_SERIES_ABOVE_SPANS);
    if (!spans) {
      // Many cold spans (nights of the cold months) cost a call into the dot kernel each, ~1 µs,
      // more than the whole series (~7 coefficient-rows a ns): then the anomalies are computed on
      // every row, once, and read on the cold ones (the same numbers either way).
      const cloudSynoptic = cloudFilled ? a1 : this.group('cloud.synoptic').series();
      const cloudMeso = cloudFilled ? a2 : this.group('cloud.meso').series();
      this.coldRows(c, out, 0, this.n, cloudSynoptic, cloudMeso, precip ? precip.series() : a4);
      return;
    }
    out.precipMmH.fill(0);
    out.relHumidity.fill(0);
    // Read only with needs.trailing: otherwise never written, so still zero.
    if (this.needs.trailing) {
      out.tempTrail24C.fill(0);
      out.stormTrail24.fill(0);
    }
    if (!cloudFilled) out.cloudCover.fill(0);
    for (const [from, to] of spans) {
      if (!cloudFilled) {
        this.group('cloud.synoptic').fill(a1, from, to);
        this.group('cloud.meso').fill(a2, from, to);
      }
      if (precip) precip.fill(a4, from, to);
      this.coldRows(c, out, from, to, a1, a2, a4);
    }
  }

  /**
   * The cold-row values of rows [from, to) (sampleColdRows), from the cloud anomalies (when the
   * batch made no cloud series: else sample()'s) and the precipitation anomaly on those rows; a row not colder
   * than COLD_ROW_MAX_C gets zeros.
   */
  private coldRows(
    c: PointClimate,
    out: WeatherSeries,
    from: number,
    to: number,
    cloudSynoptic: Float64Array,
    cloudMeso: Float64Array,
    precipAnomaly: Float64Array,
  ): void {
    const { seasonCos, seasonSin, dayCos, daySin } = this.phases;
    const { tempC, cloudCover, precipMmH, relHumidity, tempTrail24C, stormTrail24 } = out;
    const cloudFilled = !!this.needs.cloud;
    const precip = this.groups.has('precip.meso');
    const trailing = !!this.needs.trailing;
    const tSyn = this.group('temp.synoptic');
    const cSyn = this.group('cloud.synoptic');
    const [cloudW1, cloudW2] = CLOUD_W;
    const tempW1 = TEMP_W[0];
    // With a cloud series, sample() left its anomaly in scratch[2].
    const cloudAnomaly = this.scratch[2];
    for (let i = from; i < to; i++) {
      if (!(tempC[i] < COLD_ROW_MAX_C)) {
        if (!cloudFilled) cloudCover[i] = 0;
        precipMmH[i] = 0;
        relHumidity[i] = 0;
        if (trailing) tempTrail24C[i] = stormTrail24[i] = 0;
        continue;
      }
      const z = cloudFilled ? cloudAnomaly[i] : cloudW1 * cloudSynoptic[i] + cloudW2 * cloudMeso[i];
      if (!cloudFilled) cloudCover[i] = this.cloudCover(c, i, z, 0);
      if (precip) {
        const potential = 0.75 * z + 0.66 * precipAnomaly[i];
        const rate = Math.max(0, potential - 1.35) * 1.6;
        const diurnal = c.diurnalCos * dayCos[i] + c.diurnalSin * daySin[i];
        precipMmH[i] = rate;
        relHumidity[i] = Math.min(100, Math.max(8, 62 + 22 * z - 10 * diurnal + 25 * Math.min(1, rate * 2)));
      }
      if (trailing) {
        // Daily-mean temperature (no diurnal term) plus the trailing synoptic anomaly.
        const season = c.tempSeasonCos * seasonCos[i] + c.tempSeasonSin * seasonSin[i];
        tempTrail24C[i] = c.tempMean + season + this.tempSd(c, i) * tempW1 * tSyn.trailingAt(i);
        stormTrail24[i] = cloudW1 * cSyn.trailingAt(i);
      }
    }
  }

  private cloudCover(c: PointClimate, i: number, z: number, patch: number): number {
    const seasonal = c.cloudSeasonCos * this.phases.seasonCos[i] + c.cloudSeasonSin * this.phases.seasonSin[i];
    return logistic(c.cloudLogit + seasonal + CLOUD_LOGIT_GAIN * z + patch);
  }

  private group(name: GroupName): AnomalyGroup {
    return this.groups.get(name)!;
  }

  /** Standard deviation of temperature anomalies on row i: larger in winter (peak mid-January; rowPhases). */
  private tempSd(c: PointClimate, i: number): number {
    return c.tempAnomalySd * this.phases.winterFactor[i];
  }

  /**
   * Ensemble members only: the unit-variance perturbation of a point-local part on row i
   * (shared·L_c + own·L_m, walked in row order); null for every other kind of batch.
   */
  private localPerturbation(localSeed: number, stream: number, hours: number): ((i: number) => number) | null {
    if (!this.memberLocal) return null;
    const { shared, own, sharedSeed, memberSeed } = this.memberLocal;
    // The shared part is the same for every member: computed once per request when there is a share.
    const key = `${this.shareKey}:local:${localSeed}:${stream}`;
    let common = this.share?.locals.get(key);
    if (!common) {
      const c = new ValueNoise1Walker(hash4(localSeed, sharedSeed), stream);
      common = Float64Array.from(this.mid, (t, i) => (shared[i] * c.at(t / hours)) / VALUE_NOISE1_SD);
      this.share?.locals.set(key, common);
    }
    const m = new ValueNoise1Walker(hash4(localSeed, memberSeed), stream);
    const series = common;
    return (i) => series[i] + (own[i] * m.at(this.mid[i] / hours)) / VALUE_NOISE1_SD;
  }
}
