/**
 * The weather of the synthetic world at points and hours — truth, or as a forecast run
 * saw it. Each variable is climatology plus anomalies from spectral fields at two
 * scales (synoptic: continent-wide, days; meso: regional, hours) and a point-local part.
 *
 * A forecast made at `created` for hour `valid` sees each anomaly S as
 *   α·S + β·E,  α = 1 − e²,  β = e·√(1 − e²),
 * where E is an independent error field of the same scale and e = e(lead) the model's
 * error fraction, growing from e0 towards 1 with lead time. That is the structure of an
 * ideal forecast: its error (variance e²) is uncorrelated with the forecast itself, so
 * long leads fade to climatology instead of becoming noisier than it. Error fields vary
 * smoothly with the run time, so consecutive runs differ little.
 */
import { dotRow, SpectralField, type FieldSpec } from './field.ts';
import { hourPhase, pointClimate, type HourPhase, type PointClimate } from './climate.ts';
import { VALUE_NOISE1_SD, valueNoise1 } from './hash.ts';

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
}

/** Which variables a computation needs; temperature is always computed. */
export interface WeatherNeeds {
  wind?: boolean;
  cloud?: boolean;
  /** humidity and precipitation (needs cloud) */
  moisture?: boolean;
  /** 24-hour trailing temperature and cloudiness, for snow lying on panels */
  trailing?: boolean;
}

/** Hourly weather at one point. Values are hour averages (evaluated at mid-hour). */
export interface WeatherSeries {
  tempC: Float64Array;
  wind100Ms: Float64Array;
  cloudCover: Float64Array;
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
  'temp.synoptic': { components: 12, minWavelengthKm: 1500, maxWavelengthKm: 5000, driftKmPerHour: 30, lifetimeHours: 96 },
  'temp.meso': { components: 8, minWavelengthKm: 250, maxWavelengthKm: 900, driftKmPerHour: 35, lifetimeHours: 30 },
  'windU.synoptic': { components: 12, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windU.meso': { components: 8, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'windV.synoptic': { components: 12, minWavelengthKm: 1000, maxWavelengthKm: 4000, driftKmPerHour: 30, lifetimeHours: 72 },
  'windV.meso': { components: 8, minWavelengthKm: 150, maxWavelengthKm: 600, driftKmPerHour: 35, lifetimeHours: 18 },
  'cloud.synoptic': { components: 10, minWavelengthKm: 800, maxWavelengthKm: 3000, driftKmPerHour: 30, lifetimeHours: 48 },
  'cloud.meso': { components: 10, minWavelengthKm: 80, maxWavelengthKm: 400, driftKmPerHour: 30, lifetimeHours: 8 },
  'precip.meso': { components: 8, minWavelengthKm: 60, maxWavelengthKm: 300, driftKmPerHour: 30, lifetimeHours: 6 },
};

/** Weights of the synoptic and meso parts of each anomaly (squares sum to 1). */
const TEMP_W = [0.93, 0.37] as const;
const WIND_W = [0.85, 0.53] as const;
const CLOUD_W = [0.75, 0.66] as const;

/** Hub-height wind: speed = mean · |(1, 0) + WIND_SPREAD·(u, v)| / RICE_MEAN. */
const WIND_SPREAD = 0.6;
/** Point-local (turbulent, sub-grid) relative wind variability and its time scale. */
const LOCAL_WIND_SD = 0.08;
const LOCAL_WIND_HOURS = 3;
const LOCAL_CLOUD_SD = 0.7;
const LOCAL_CLOUD_HOURS = 2;
/** Time scales of the forecast error fields in valid time and in run time. */
const ERROR_VALID_TAU_HOURS = 18;
const ERROR_RUN_TAU_HOURS = 36;

/** Mean of |(1,0) + s(a,b)| for independent standard normal a, b (computed once by quadrature). */
const RICE_MEAN = (() => {
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
      f = new SpectralField({ name: `error:${key}`, ...GROUP_SPECS[group] }, this.seed);
      this.errors.set(key, f);
    }
    return f;
  }
}

/** One anomaly group prepared for a set of rows. */
class PreparedGroup {
  readonly k2: number;
  readonly truthTime: Float64Array;
  readonly errorTime: Float64Array | null;
  readonly alpha: Float64Array | null;
  readonly beta: Float64Array | null;
  readonly trailTime: Float64Array | null;
  private readonly pointTruth: Float64Array;
  private readonly pointError: Float64Array;

  constructor(
    private readonly truthField: SpectralField,
    private readonly errorField: SpectralField | null,
    mid: Float64Array,
    created: Float64Array | null,
    growth: ErrorGrowth | null,
    errorScale: number,
    trailing: boolean,
    stream: number,
  ) {
    const n = mid.length;
    this.k2 = 2 * truthField.k;
    this.truthTime = new Float64Array(n * this.k2);
    truthField.timeBasis(mid, this.truthTime);
    this.trailTime = trailing ? new Float64Array(n * this.k2) : null;
    if (this.trailTime) truthField.timeBasis(mid, this.trailTime, 24);
    this.pointTruth = new Float64Array(this.k2);
    this.pointError = new Float64Array(this.k2);
    if (errorField && created && growth) {
      this.errorTime = new Float64Array(n * this.k2);
      errorField.errorBasis(mid, created, this.errorTime, ERROR_VALID_TAU_HOURS, ERROR_RUN_TAU_HOURS, stream);
      this.alpha = new Float64Array(n);
      this.beta = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const e = errorFraction(growth, errorScale, mid[i] - created[i]);
        this.alpha[i] = 1 - e * e;
        this.beta[i] = e * Math.sqrt(1 - e * e);
      }
    } else {
      this.errorTime = null;
      this.alpha = null;
      this.beta = null;
    }
  }

  setPoint(lat: number, lon: number): void {
    this.truthField.pointBasis(lat, lon, this.pointTruth);
    if (this.errorField) this.errorField.pointBasis(lat, lon, this.pointError);
  }

  /** The anomaly (unit variance) at row i as the truth or the forecast sees it. */
  value(i: number): number {
    const s = dotRow(this.pointTruth, this.truthTime, i, this.k2);
    if (!this.errorTime) return s;
    return this.alpha![i] * s + this.beta![i] * dotRow(this.pointError, this.errorTime, i, this.k2);
  }

  /** The 24-hour trailing mean of the anomaly at row i (forecasts damp it like the anomaly). */
  trailing(i: number): number {
    const s = dotRow(this.pointTruth, this.trailTime!, i, this.k2);
    return this.alpha ? this.alpha[i] * s : s;
  }
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
  private readonly groups = new Map<GroupName, PreparedGroup>();
  private readonly localMemory: Float64Array | null;

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
    this.localMemory = this.created ? new Float64Array(n) : null;
    if (this.localMemory && skill) {
      for (let i = 0; i < n; i++) this.localMemory[i] = Math.exp(-Math.max(0, this.mid[i] - this.created![i]) / skill.localMemoryHours);
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
    for (const [name, growth, trailing] of want) {
      const errorField = skill && this.created ? world.errorField(name, skill.errorSeedName) : null;
      this.groups.set(
        name,
        new PreparedGroup(world.truthField(name), errorField, this.mid, this.created, growth ?? null, skill?.errorScale ?? 1, trailing, stream++),
      );
    }
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
    const tSyn = this.groups.get('temp.synoptic')!;
    const tMeso = this.groups.get('temp.meso')!;
    const uSyn = this.groups.get('windU.synoptic');
    const uMeso = this.groups.get('windU.meso');
    const vSyn = this.groups.get('windV.synoptic');
    const vMeso = this.groups.get('windV.meso');
    const cSyn = this.groups.get('cloud.synoptic');
    const cMeso = this.groups.get('cloud.meso');
    const pMeso = this.groups.get('precip.meso');
    const c = climate;
    for (let i = 0; i < n; i++) {
      const ph = this.phases[i];
      const season = c.tempSeasonCos * ph.seasonCos + c.tempSeasonSin * ph.seasonSin;
      const diurnal = c.diurnalCos * ph.dayCos + c.diurnalSin * ph.daySin;
      // Anomalies are larger in winter (peak mid-January).
      const winter = 0.97 * ph.seasonCos + 0.25 * ph.seasonSin;
      const sd = c.tempAnomalySd * (1 + 0.4 * winter);
      const tempNormal = c.tempMean + season + c.tempDiurnalHalfRange * diurnal;
      out.tempC[i] = tempNormal + sd * (TEMP_W[0] * tSyn.value(i) + TEMP_W[1] * tMeso.value(i));
      const memory = this.localMemory ? this.localMemory[i] : 1;

      if (uSyn && uMeso && vSyn && vMeso) {
        const a = WIND_W[0] * uSyn.value(i) + WIND_W[1] * uMeso.value(i);
        const b = WIND_W[0] * vSyn.value(i) + WIND_W[1] * vMeso.value(i);
        const seasonal = 1 + c.windSeasonCos * ph.seasonCos + c.windSeasonSin * ph.seasonSin;
        const dayNight = 1 + c.windDiurnalCos * ph.dayCos + c.windDiurnalSin * ph.daySin;
        const local = 1 + LOCAL_WIND_SD * memory * (valueNoise1(localSeed, 1, this.mid[i] / LOCAL_WIND_HOURS) / VALUE_NOISE1_SD);
        const rice = Math.hypot(1 + WIND_SPREAD * a, WIND_SPREAD * b) / RICE_MEAN;
        out.wind100Ms[i] = Math.max(0, c.windMean * seasonal * dayNight * rice * local);
      }

      if (cSyn && cMeso) {
        const z = CLOUD_W[0] * cSyn.value(i) + CLOUD_W[1] * cMeso.value(i);
        const local = LOCAL_CLOUD_SD * memory * (valueNoise1(localSeed, 2, this.mid[i] / LOCAL_CLOUD_HOURS) / VALUE_NOISE1_SD);
        const seasonal = c.cloudSeasonCos * ph.seasonCos + c.cloudSeasonSin * ph.seasonSin;
        out.cloudCover[i] = logistic(c.cloudLogit + seasonal + 1.7 * z + local);
        if (pMeso) {
          const potential = 0.75 * z + 0.66 * pMeso.value(i);
          const precip = Math.max(0, potential - 1.35) * 1.6;
          out.precipMmH[i] = precip;
          const rh = 62 + 22 * z - 10 * diurnal + 25 * Math.min(1, precip / 0.5);
          out.relHumidity[i] = Math.min(100, Math.max(8, rh));
        }
        if (this.needs.trailing) {
          // Daily-mean temperature (no diurnal term) plus the trailing synoptic anomaly.
          out.tempTrail24C[i] = c.tempMean + season + sd * TEMP_W[0] * tSyn.trailing(i);
          out.stormTrail24[i] = CLOUD_W[0] * cSyn.trailing(i);
        }
      }
    }
  }
}

export { pointClimate };
