/**
 * Weather extremes: a catalogue of regional, multi-day temperature events fixed by the world
 * seed — Arctic outbreaks in winter, heat domes in summer — added to the temperature on top of
 * the Gaussian spectral anomalies (which alone have thin tails: winter excess kurtosis < 0, no
 * Uri, no Elliott). Every event has an onset, a build-up / plateau / decay envelope over 3–10
 * days, a centre that drifts (outbreaks south and east, domes slowly east), a Gaussian
 * footprint of σ 450–950 km and an amplitude at the centre drawn from a fat-tailed
 * distribution (outbreaks −8 to −22 °C, domes +3 to +8 °C). docs/physics.md §Extremes.
 *
 * The catalogue holds a few events anchored to history (Uri, Elliott, the January 2024 and
 * January 2025 cold waves, the June 2025 eastern heat dome; dates and areas from NOAA/NWS event
 * summaries) and seeded random ones: per winter a Poisson number of outbreaks with mean
 * WINTER_RATE less the season's anchored outbreaks, per summer likewise (SUMMER_RATE) of domes.
 *
 * How a forecast run sees an event (like the skill model, skill.ts): the run made at C knows,
 * for valid hour V at lead L = V − C, the fraction known(L) = 1 / (1 + (L / KNOWN_HALF_HOURS)⁴)
 * of it (≈ 0.98 at 2 days, 0.6 at 5, 0.3 at 7, < 0.1 beyond 10), and sees that fraction with an
 * amplitude error and a timing error growing with lead, drawn per run (smooth in the run time,
 * so consecutive runs differ little). For the rest, the events it does not know, a run expects
 * their climate: (1 − known(L)) times the mean anomaly the seeded events bring to the point at
 * that time of the season (extremeClimateAt); the `normal` model sees no event and all of their
 * climate. An ensemble member draws its errors from a part shared by the ensemble and one of its own.
 */
import { VALUE_NOISE1_SD, seedOf, unit, valueNoise1 } from '../hash.ts';
import { memberSeedName, type WeatherSkill } from './skill.ts';
import { exp } from '../../util/math.ts';

export type ExtremeKind = 'cold' | 'heat';

export interface ExtremeEvent {
  /** Unique within the catalogue (names the event's forecast error streams). */
  id: number;
  kind: ExtremeKind;
  /** Name for anchored events ('uri', …); '' for seeded ones. */
  name: string;
  /** Epoch hours: the envelope rises from 0 at onset to 1 at onset + buildHours, holds, and falls to 0 at end. */
  onset: number;
  buildHours: number;
  decayHours: number;
  end: number;
  /** Centre at onset (degrees) and its drift (degrees per hour). */
  lat: number;
  lon: number;
  latPerHour: number;
  lonPerHour: number;
  /** Gaussian footprint σ (km). */
  sigmaKm: number;
  /** Anomaly at the centre at full strength (°C; negative for outbreaks). */
  amplitudeC: number;
}

/** Mean number of Arctic outbreaks per winter (Dec–Feb) and of heat domes per summer (Jun–Aug). */
export const WINTER_RATE = 3.4;
export const SUMMER_RATE = 1.6;
const SEASON_RATE: Readonly<Record<ExtremeKind, number>> = { cold: WINTER_RATE, heat: SUMMER_RATE };
/** Lead (hours) at which a run knows half of an event; the exponent of the fall-off. */
export const KNOWN_HALF_HOURS = 132;
const KNOWN_POWER = 4;
/** Amplitude error (relative SD) and timing error (SD, hours) of a run's view, at a lead of one week. */
const AMPLITUDE_ERROR_AT_WEEK = 0.35;
const TIMING_ERROR_AT_WEEK_HOURS = 24;
/** Largest lead factor of the errors (× their size at one week) and largest |z| of a unit value noise (3 / VALUE_NOISE1_SD). */
const MAX_LEAD_FACTOR = 1.5;
const MAX_TIMING_SHIFT_HOURS = TIMING_ERROR_AT_WEEK_HOURS * MAX_LEAD_FACTOR * Math.ceil(3 / VALUE_NOISE1_SD);
/** Error streams vary over this many hours of run time (consecutive runs differ little). */
const ERROR_RUN_HOURS = 36;

const KM_PER_DEG = 111.2;
/** (4σ)² / 2σ²: points farther from an event's centre are left alone. */
const FAR_Q = 8;
const HOUR_MS = 3_600_000;

function epochHour(iso: string): number {
  return Date.parse(iso) / HOUR_MS;
}

/** Anchored events (same in every world): onset / end UTC, centre path start → end, σ, amplitude. */
interface Anchor {
  name: string;
  kind: ExtremeKind;
  onset: string;
  end: string;
  from: [number, number];
  to: [number, number];
  sigmaKm: number;
  amplitudeC: number;
}

const ANCHORS: Anchor[] = [
  // Winter Storm Uri: Arctic air over the Plains to the Gulf coast, coldest Feb 14–16 2021.
  {
    name: 'uri',
    kind: 'cold',
    onset: '2021-02-10T12:00Z',
    end: '2021-02-20T00:00Z',
    from: [44, -101],
    to: [32.5, -97],
    sigmaKm: 950,
    amplitudeC: -22,
  },
  // Winter Storm Elliott: a flash freeze from the Plains to the East, Dec 22–26 2022.
  {
    name: 'elliott',
    kind: 'cold',
    onset: '2022-12-21T06:00Z',
    end: '2022-12-27T12:00Z',
    from: [46, -97],
    to: [38.5, -80],
    sigmaKm: 950,
    amplitudeC: -20,
  },
  // February 3–4 2023: a short, brutal Arctic blast over New England and New York (Boston −23 °C).
  {
    name: 'feb2023ne',
    kind: 'cold',
    onset: '2023-02-02T06:00Z',
    end: '2023-02-06T00:00Z',
    from: [47, -74],
    to: [42.5, -70.5],
    sigmaKm: 650,
    amplitudeC: -9,
  },
  // Late February 2023: an unusually cold trough over California (snow in the Los Angeles hills).
  {
    name: 'feb2023west',
    kind: 'cold',
    onset: '2023-02-21T00:00Z',
    end: '2023-02-28T00:00Z',
    from: [41, -121],
    to: [35, -118],
    sigmaKm: 700,
    amplitudeC: -13,
  },
  // Mid-January 2024: Arctic air into the Plains and Texas (ERCOT winter peak record Jan 16; Texas
  // population-weighted daily mean near −4 to −5 °C, short of Uri's −8 °C).
  {
    name: 'jan2024',
    kind: 'cold',
    onset: '2024-01-12T00:00Z',
    end: '2024-01-19T00:00Z',
    from: [45, -103],
    to: [31.5, -97],
    sigmaKm: 900,
    amplitudeC: -21,
  },
  // January 20–23 2025: Arctic outbreak over the East and the Gulf coast (PJM winter peak record Jan 22).
  {
    name: 'jan2025',
    kind: 'cold',
    onset: '2025-01-18T12:00Z',
    end: '2025-01-24T12:00Z',
    from: [46, -92],
    to: [37, -80],
    sigmaKm: 950,
    amplitudeC: -14,
  },
  // Summer 2023: the long Texas heat dome (late July – August; ERCOT's all-time peak 85.4 GW on
  // Aug 10 2023, scarcity pricing on August evenings).
  {
    name: 'aug2023',
    kind: 'heat',
    onset: '2023-07-18T00:00Z',
    end: '2023-08-30T00:00Z',
    from: [30.5, -99],
    to: [31.5, -97.5],
    sigmaKm: 750,
    amplitudeC: 6.5,
  },
  // Late June 2025: heat dome over the Ohio Valley and the Eastern Seaboard.
  {
    name: 'jun2025',
    kind: 'heat',
    onset: '2025-06-20T00:00Z',
    end: '2025-06-27T00:00Z',
    from: [39.5, -83],
    to: [40.5, -75],
    sigmaKm: 750,
    amplitudeC: 5,
  },
];

function anchorEvent(a: Anchor, id: number): ExtremeEvent {
  const onset = epochHour(a.onset);
  const end = epochHour(a.end);
  const hours = end - onset;
  return {
    id,
    kind: a.kind,
    name: a.name,
    onset,
    end,
    buildHours: 0.35 * hours,
    decayHours: 0.3 * hours,
    lat: a.from[0],
    lon: a.from[1],
    latPerHour: (a.to[0] - a.from[0]) / hours,
    lonPerHour: (a.to[1] - a.from[1]) / hours,
    sigmaKm: a.sigmaKm,
    amplitudeC: a.amplitudeC,
  };
}

/** Seeded outbreaks drift no further south than this latitude and no further east than this longitude. */
const LOWEST_LAT = 29;
const EASTMOST_LON = -68;

/** Number of events with Poisson mean `rate` from a uniform u. */
function poisson(rate: number, u: number): number {
  let k = 0;
  let p = Math.exp(-rate);
  let cdf = p;
  while (u > cdf && k < 8) {
    k++;
    p *= rate / k;
    cdf += p;
  }
  return k;
}

/** Seeded onsets: outbreaks over this many days from December 1, domes from June 1. */
const ONSET_WINDOW_DAYS: Readonly<Record<ExtremeKind, number>> = { cold: 86, heat: 88 };
/** Seeded events last SEEDED_MIN_HOURS + SEEDED_SPAN_HOURS · u^1.3 hours (3–10 days). */
const SEEDED_MIN_HOURS = 72;
const SEEDED_SPAN_HOURS = 168;

/** First hour of a season's onset window: December 1 of year − 1 for winter `year`, June 1 for summer `year`. */
function seasonStart(kind: ExtremeKind, year: number): number {
  return (kind === 'cold' ? Date.UTC(year - 1, 11, 1) : Date.UTC(year, 5, 1)) / HOUR_MS;
}

/** One seeded event of a season whose onset window opens at `start`, from its uniforms u(1..10). */
function seededEvent(kind: ExtremeKind, id: number, start: number, u: (j: number) => number): ExtremeEvent {
  const hours = SEEDED_MIN_HOURS + SEEDED_SPAN_HOURS * u(1) ** 1.3;
  const onset = start + 24 * ONSET_WINDOW_DAYS[kind] * u(2);
  const common = { id, kind, name: '', onset, end: onset + hours, buildHours: (0.3 + 0.1 * u(3)) * hours };
  if (kind === 'cold') {
    // Origin in the north: over the Plains and the Midwest, some into the West, many down the
    // East (Canadian highs). South at 1–3.5 °/day and east at 0–3 °/day, but never beyond the
    // Gulf coast or out to sea.
    const lat = 42 + 8 * u(5);
    const lon = -118 + 48 * u(6);
    return {
      ...common,
      decayHours: (0.25 + 0.1 * u(4)) * hours,
      lat,
      lon,
      latPerHour: Math.max(-(1 + 2.5 * u(7)) / 24, (LOWEST_LAT - lat) / hours),
      lonPerHour: Math.min((3 * u(8)) / 24, Math.max(0, (EASTMOST_LON - lon) / hours)),
      sigmaKm: 450 + 500 * u(9),
      // Fat tail: most outbreaks −8..−13 °C at the centre, one in seven beyond −18.
      amplitudeC: -(8 + 14 * u(10) ** 2),
    };
  }
  // Domes sit over the South and the Midwest and creep east.
  return {
    ...common,
    decayHours: (0.3 + 0.1 * u(4)) * hours,
    lat: 32 + 12 * u(5),
    lon: -116 + 40 * u(6),
    latPerHour: (u(7) - 0.5) / 24,
    lonPerHour: (1.5 * u(8)) / 24,
    sigmaKm: 450 + 450 * u(9),
    amplitudeC: 3 + 5 * u(10) ** 2,
  };
}

/** The seeded events of one season: winter `year` (Dec year−1 .. Feb year) or summer `year`. */
function seasonEvents(seed: number, kind: ExtremeKind, year: number, anchored: number): ExtremeEvent[] {
  const stream = kind === 'cold' ? 1 : 2;
  const count = poisson(Math.max(0, SEASON_RATE[kind] - anchored), unit(seed, stream, year, 0));
  const out: ExtremeEvent[] = [];
  for (let k = 0; k < count; k++) {
    const id = (kind === 'cold' ? 1 : 2) * 1_000_000 + year * 10 + k;
    out.push(seededEvent(kind, id, seasonStart(kind, year), (j) => unit(seed, stream, year, 1 + 16 * k + j)));
  }
  return out;
}

/** Envelope of an event at hour t (0 outside, smooth rise, plateau 1, smooth decay). */
export function envelope(e: ExtremeEvent, t: number): number {
  if (t <= e.onset || t >= e.end) return 0;
  const rise = (t - e.onset) / e.buildHours;
  const fall = (e.end - t) / e.decayHours;
  const x = Math.min(1, rise, fall);
  return x * x * (3 - 2 * x);
}

/** The events of a world: anchored and seeded, by season, generated on demand and kept. */
export class ExtremeCatalogue {
  private readonly seed: number;
  private readonly anchors: ExtremeEvent[];
  private readonly byYear = new Map<number, ExtremeEvent[]>();

  constructor(worldSeed: number) {
    this.seed = seedOf(`${worldSeed}:extremes`);
    this.anchors = ANCHORS.map((a, i) => anchorEvent(a, 1 + i));
  }

  /** Every event of calendar year `year`'s winter (ending in February) and summer. */
  private eventsOfYear(year: number): ExtremeEvent[] {
    let list = this.byYear.get(year);
    if (list) return list;
    const winterStart = epochHour(`${year - 1}-11-25T00:00Z`);
    const summerStart = epochHour(`${year}-05-25T00:00Z`);
    const winterEnd = epochHour(`${year}-03-15T00:00Z`);
    const summerEnd = epochHour(`${year}-09-15T00:00Z`);
    const anchored = this.anchors.filter(
      (e) => (e.onset >= winterStart && e.onset < winterEnd) || (e.onset >= summerStart && e.onset < summerEnd),
    );
    // Anchored events count towards their season's expected number: seeded ones fill the rest.
    const count = (kind: ExtremeKind) => anchored.filter((e) => e.kind === kind).length;
    list = [...anchored, ...seasonEvents(this.seed, 'cold', year, count('cold')), ...seasonEvents(this.seed, 'heat', year, count('heat'))];
    this.byYear.set(year, list);
    return list;
  }

  /** Events active at some hour of [from, to] (epoch hours). */
  eventsBetween(from: number, to: number): ExtremeEvent[] {
    const y0 = new Date(from * HOUR_MS).getUTCFullYear();
    const y1 = new Date(to * HOUR_MS).getUTCFullYear() + 1;
    const out: ExtremeEvent[] = [];
    for (let y = y0; y <= y1; y++) for (const e of this.eventsOfYear(y)) if (e.end > from && e.onset < to) out.push(e);
    return out;
  }

  /** Every event with onset in [from, to) (for reports and tests). */
  eventsStarting(from: number, to: number): ExtremeEvent[] {
    return this.eventsBetween(from, to).filter((e) => e.onset >= from && e.onset < to);
  }
}

/** Fraction of an event a run knows at a lead (hours): 1 at 0, ½ at KNOWN_HALF_HOURS, → 0. */
export function knownFraction(leadHours: number): number {
  if (leadHours <= 0) return 1;
  return 1 / (1 + (leadHours / KNOWN_HALF_HOURS) ** KNOWN_POWER);
}

// ---------------------------------------------------------------------------------------------
// What a forecast expects of the events it does not know

/**
 * A run sees known(L) of each event and, without more, nothing of the rest: then every forecast
 * beyond a few days is warmer than the climate in winter and cooler in summer, by (1 − known(L))
 * times the mean anomaly of the outbreaks and domes of the season: over five worlds of 20 years,
 * PJM's and ISO-NE's poptemp ran +0.3…+0.6 °C warm in December–February at days_ahead 7 (up to
 * +0.75 °C at 12) and their demand 0.6–1.3 % low (up to 1.7 %) (README, Realism report, round 10;
 * scripts/demand-bias.ts). A forecast is unbiased: where it
 * does not know the weather it expects the climate, and the climate holds the outbreaks and domes
 * at their seasonal rate. So a run adds (1 − known(L)) · climate(p, t) and the `normal` model
 * (which knows no event) all of it, where climate(p, t) is the expected anomaly of the seeded
 * events at point p and time t of their season, over the catalogue's own distribution
 * (seededEvent, SEASON_RATE and the uniform onsets of ONSET_WINDOW_DAYS):
 *
 *   climate(p, τ) = rate / W · E_e[ ∫ A · env(u) · exp(−d(p, c(u))² / 2σ²) du over the ages u of
 *                   the event whose onset τ − u lies in [0, W) ],  τ = hours since the window opened.
 *
 * The onset is integrated exactly (a box of width W over the summed age profile); the other
 * parameters by a fixed sample of CLIMATE_SAMPLES events per kind, the same in every world (the
 * distribution is). Computed on a CLIMATE_GRID_DEG grid (the field is as smooth as the events'
 * footprints, σ ≥ 450 km) in steps of CLIMATE_STEP_HOURS, then interpolated bilinearly in space
 * and linearly in time. Only the mean is restored, not the variance of the unknown events: a run
 * does not invent outbreaks.
 */
const CLIMATE_STEP_HOURS = 6;
const CLIMATE_SAMPLES = 1000;
const CLIMATE_GRID_DEG = 2;
const CLIMATE_SEED = seedOf('extremes:climate');
/** Bins of a kind's table (its onset window and the longest event after it), and where its bins start in a point's table. */
const CLIMATE_WINDOW_BINS: Readonly<Record<ExtremeKind, number>> = {
  cold: (24 * ONSET_WINDOW_DAYS.cold) / CLIMATE_STEP_HOURS,
  heat: (24 * ONSET_WINDOW_DAYS.heat) / CLIMATE_STEP_HOURS,
};
const CLIMATE_AGE_BINS = Math.ceil((SEEDED_MIN_HOURS + SEEDED_SPAN_HOURS) / CLIMATE_STEP_HOURS);
const CLIMATE_BINS: Readonly<Record<ExtremeKind, number>> = {
  cold: CLIMATE_WINDOW_BINS.cold + CLIMATE_AGE_BINS,
  heat: CLIMATE_WINDOW_BINS.heat + CLIMATE_AGE_BINS,
};
const CLIMATE_OFFSET: Readonly<Record<ExtremeKind, number>> = { cold: 0, heat: CLIMATE_BINS.cold };
const CLIMATE_TABLE_LENGTH = CLIMATE_BINS.cold + CLIMATE_BINS.heat;

/** The sampled events of a kind at every age step: age bin, anomaly at the centre, centre, 1 / 2σ². */
interface AgeSamples {
  bin: Int32Array;
  amplitude: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  invTwoSigma2: Float64Array;
}

let ageSamples: Record<ExtremeKind, AgeSamples> | null = null;

function ageSamplesOf(kind: ExtremeKind): AgeSamples {
  const stream = kind === 'cold' ? 1 : 2;
  const bin: number[] = [];
  const amplitude: number[] = [];
  const lat: number[] = [];
  const lon: number[] = [];
  const invTwoSigma2: number[] = [];
  for (let k = 0; k < CLIMATE_SAMPLES; k++) {
    const e = seededEvent(kind, k, 0, (j) => unit(CLIMATE_SEED, stream, k, j));
    for (let j = 0; (j + 0.5) * CLIMATE_STEP_HOURS < e.end - e.onset; j++) {
      const t = e.onset + (j + 0.5) * CLIMATE_STEP_HOURS;
      bin.push(j);
      amplitude.push(e.amplitudeC * envelope(e, t));
      lat.push(e.lat + e.latPerHour * (t - e.onset));
      lon.push(e.lon + e.lonPerHour * (t - e.onset));
      invTwoSigma2.push(1 / (2 * e.sigmaKm * e.sigmaKm));
    }
  }
  return {
    bin: Int32Array.from(bin),
    amplitude: Float64Array.from(amplitude),
    lat: Float64Array.from(lat),
    lon: Float64Array.from(lon),
    invTwoSigma2: Float64Array.from(invTwoSigma2),
  };
}

/** climate(p, τ) of both kinds at one point (°C), in bins of CLIMATE_STEP_HOURS: cold from CLIMATE_OFFSET.cold, heat from CLIMATE_OFFSET.heat. */
function climateTableAt(lat: number, lon: number): Float64Array {
  ageSamples ??= { cold: ageSamplesOf('cold'), heat: ageSamplesOf('heat') };
  const out = new Float64Array(CLIMATE_TABLE_LENGTH);
  const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
  for (const kind of ['cold', 'heat'] as const) {
    const s = ageSamples[kind];
    // The mean age profile of an event at the point (°C·hours per age step)…
    const profile = new Float64Array(CLIMATE_AGE_BINS);
    for (let i = 0; i < s.bin.length; i++) {
      const dx = (lon - s.lon[i]) * kx;
      const dy = (lat - s.lat[i]) * KM_PER_DEG;
      const q = (dx * dx + dy * dy) * s.invTwoSigma2[i];
      if (q < FAR_Q) profile[s.bin[i]] += s.amplitude[i] * Math.exp(-q);
    }
    // …summed over the onsets in the window: bin b holds the ages a with 0 ≤ b − a < W.
    // rate / W · Σ profile · step, with W = window bins · step and the sample mean over CLIMATE_SAMPLES.
    const scale = SEASON_RATE[kind] / (CLIMATE_SAMPLES * CLIMATE_WINDOW_BINS[kind]);
    const prefix = new Float64Array(CLIMATE_AGE_BINS + 1);
    for (let a = 0; a < CLIMATE_AGE_BINS; a++) prefix[a + 1] = prefix[a] + profile[a];
    for (let b = 0; b < CLIMATE_BINS[kind]; b++) {
      const hi = Math.min(b, CLIMATE_AGE_BINS - 1) + 1;
      const lo = Math.max(0, b - CLIMATE_WINDOW_BINS[kind] + 1);
      if (hi > lo) out[CLIMATE_OFFSET[kind] + b] = scale * (prefix[hi] - prefix[lo]);
    }
  }
  return out;
}

/** Grid nodes' tables, computed when first needed (the same in every world). */
const climateNodes = new Map<number, Float64Array>();

function climateNode(iy: number, ix: number): Float64Array {
  const key = iy * 1000 + ix;
  let t = climateNodes.get(key);
  if (!t) climateNodes.set(key, (t = climateTableAt(iy * CLIMATE_GRID_DEG - 90, ix * CLIMATE_GRID_DEG - 180)));
  return t;
}

/** The table of climate(p, ·) at a point, interpolated bilinearly between the grid nodes around it. */
/**
 * Computes the climate tables of the grid nodes around these points now (each node once per
 * thread): ~3 ms a node, which the first request in an extreme season would otherwise pay for
 * every node its points touch (the warm-up's days, late in the year, touch none).
 */
export function prepareExtremeClimate(points: Iterable<{ lat: number; lon: number }>): void {
  for (const { lat, lon } of points) {
    const iy = Math.floor((lat + 90) / CLIMATE_GRID_DEG);
    const ix = Math.floor((lon + 180) / CLIMATE_GRID_DEG);
    for (const [dy, dx] of NODE_CORNERS) climateNode(iy + dy, ix + dx);
  }
}

const NODE_CORNERS = [
  [0, 0],
  [0, 1],
  [1, 0],
  [1, 1],
] as const;

/** Points' climate tables as last computed, at most CLIMATE_POINTS_KEPT (6 kB each): a request of many batches (a skill's) asks for its load centres in each. */
const climateAtPoint = new Map<string, Float64Array>();
const CLIMATE_POINTS_KEPT = 256;

/** extremeClimateAt of a point, kept (the same table every time: a pure function of the point). */
function keptClimateAt(lat: number, lon: number): Float64Array {
  const key = `${lat},${lon}`;
  let table = climateAtPoint.get(key);
  if (!table) {
    if (climateAtPoint.size >= CLIMATE_POINTS_KEPT) climateAtPoint.clear();
    climateAtPoint.set(key, (table = extremeClimateAt(lat, lon)));
  }
  return table;
}

function extremeClimateAt(lat: number, lon: number): Float64Array {
  const y = (lat + 90) / CLIMATE_GRID_DEG;
  const x = (lon + 180) / CLIMATE_GRID_DEG;
  const iy = Math.floor(y);
  const ix = Math.floor(x);
  const fy = y - iy;
  const fx = x - ix;
  const out = new Float64Array(CLIMATE_TABLE_LENGTH);
  const corners: [number, number, number][] = [
    [iy, ix, (1 - fy) * (1 - fx)],
    [iy, ix + 1, (1 - fy) * fx],
    [iy + 1, ix, fy * (1 - fx)],
    [iy + 1, ix + 1, fy * fx],
  ];
  for (const [cy, cx, w] of corners) {
    if (w === 0) continue;
    const t = climateNode(cy, cx);
    for (let b = 0; b < out.length; b++) out[b] += w * t[b];
  }
  return out;
}

/**
 * Where an hour falls in a point's climate table: the bins either side of it (−1: outside) and
 * the weight of the upper one, appended to `rows` with the row and its weight (false: outside both
 * seasons, nothing appended). `day` caches the instant's UTC year and month by day (rows run in
 * order: a Date per day, not per row).
 */
function pushClimateBins(
  t: number,
  row: number,
  weight: number,
  rows: ClimateRowLists,
  day: { number: number; year: number; december: boolean },
): boolean {
  const dayNumber = Math.floor(t / 24);
  if (dayNumber !== day.number) {
    const date = new Date(dayNumber * 24 * HOUR_MS);
    day.number = dayNumber;
    day.year = date.getUTCFullYear();
    day.december = date.getUTCMonth() === 11;
  }
  for (const kind of CLIMATE_KINDS) {
    // A December instant belongs to the next year's winter.
    const start = seasonStart(kind, kind === 'cold' && day.december ? day.year + 1 : day.year);
    const x = (t - start) / CLIMATE_STEP_HOURS - 0.5;
    if (x < -1 || x >= CLIMATE_BINS[kind]) continue;
    const b = Math.floor(x);
    rows.row.push(row);
    rows.weight.push(weight);
    rows.lower.push(b >= 0 ? CLIMATE_OFFSET[kind] + b : -1);
    rows.upper.push(b + 1 < CLIMATE_BINS[kind] ? CLIMATE_OFFSET[kind] + b + 1 : -1);
    rows.frac.push(x - b);
    return true;
  }
  return false;
}

const CLIMATE_KINDS = ['cold', 'heat'] as const;

/** ClimateRows as they are gathered. */
interface ClimateRowLists {
  row: number[];
  weight: number[];
  lower: number[];
  upper: number[];
  frac: number[];
}

/** Unit-variance error of a run's view of an event (stream 0 amplitude, 1 timing), smooth in the run time. */
function runError(seedName: string, eventId: number, stream: number, created: number): number {
  return valueNoise1(seedOf(`extreme:${seedName}`), 2 * (eventId % 100_000_000) + stream, created / ERROR_RUN_HOURS) / VALUE_NOISE1_SD;
}

/** One event as rows see it: per row, the centre and the anomaly at the centre (0 where inactive), on rows [from, to). */
interface EventRows {
  from: number;
  to: number;
  lat: Float64Array;
  lon: Float64Array;
  amplitude: Float64Array;
  invTwoSigma2: number;
}

/** The rows that expect some of the climate of the extremes: row, weight (1 − known), and where the hour lies in the climate table. */
interface ClimateRows {
  row: Int32Array;
  weight: Float64Array;
  lower: Int32Array;
  upper: Int32Array;
  frac: Float64Array;
}

/**
 * Rows of a run (or of the `normal` model) that expect the climate of the events they do not
 * know (see extremeClimateAt): weight 1 − known(lead), 1 for the normal model; null for truth or
 * when no row lies in a season.
 */
function climateRowsOf(mid: Float64Array, created: Float64Array | null, skill: WeatherSkill | null): ClimateRows | null {
  if (!skill || (!created && !skill.climatology)) return null;
  const lists: ClimateRowLists = { row: [], weight: [], lower: [], upper: [], frac: [] };
  const day = { number: Number.NaN, year: 0, december: false };
  for (let i = 0; i < mid.length; i++) {
    const w = skill.climatology ? 1 : 1 - knownFraction(mid[i] - created![i]);
    if (w !== 0) pushClimateBins(mid[i], i, w, lists, day);
  }
  if (lists.row.length === 0) return null;
  return {
    row: Int32Array.from(lists.row),
    weight: Float64Array.from(lists.weight),
    lower: Int32Array.from(lists.lower),
    upper: Int32Array.from(lists.upper),
    frac: Float64Array.from(lists.frac),
  };
}

/**
 * The extremes as a batch of rows sees them (truth or a run's view), prepared once per batch;
 * `add` adds them to the temperature of a point. `prepare` gives null when no event touches the
 * rows and none expects the climate of the events.
 */
export class ExtremeRows {
  /**
   * Rows no event touches: adds nothing. A batch holds this rather than null so that the hot
   * per-point code (batch.ts sample) always sees an ExtremeRows. V8 optimises that call for the
   * kinds of value it has seen, and forgets a kind (its hidden class) in a garbage collection
   * that finds no object of it: with null in every batch of the days before now, the first
   * request whose days an extreme touches threw the optimised code away. This instance lives
   * as long as the thread and keeps the kind known.
   */
  static readonly NONE = new ExtremeRows([], null);

  private constructor(
    private readonly events: EventRows[],
    private readonly climate: ClimateRows | null,
  ) {}

  static prepare(
    catalogue: ExtremeCatalogue,
    mid: Float64Array,
    created: Float64Array | null,
    skill: WeatherSkill | null,
  ): ExtremeRows | null {
    const n = mid.length;
    if (n === 0) return null;
    const climate = climateRowsOf(mid, created, skill);
    // The normal model knows no event, only their climate.
    if (skill?.climatology) return climate ? new ExtremeRows([], climate) : null;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, mid[i]);
      hi = Math.max(hi, mid[i]);
    }
    // A run's timing error may shift an event by a few days: every event it could bring into the rows.
    const margin = created ? MAX_TIMING_SHIFT_HOURS : 0;
    const events = catalogue.eventsBetween(lo - margin, hi + margin);
    const forecast = skill && created ? skill : null;
    const seeds = forecast
      ? forecast.member !== undefined
        ? [forecast.errorSeedName, memberSeedName(forecast.errorSeedName, forecast.member)]
        : [forecast.errorSeedName]
      : [];
    const rows: EventRows[] = [];
    for (const e of events) {
      const lat = new Float64Array(n);
      const lon = new Float64Array(n);
      const amplitude = new Float64Array(n);
      let from = n;
      let to = 0;
      let lastRun = Number.NaN;
      let zAmp = 0;
      let zTime = 0;
      for (let i = 0; i < n; i++) {
        let t = mid[i];
        let a = e.amplitudeC;
        if (forecast) {
          const lead = t - created![i];
          if (lead > 0) {
            if (created![i] !== lastRun) {
              lastRun = created![i];
              zAmp = 0;
              zTime = 0;
              for (const s of seeds) {
                zAmp += runError(s, e.id, 0, lastRun) / Math.sqrt(seeds.length);
                zTime += runError(s, e.id, 1, lastRun) / Math.sqrt(seeds.length);
              }
            }
            const g = Math.min(MAX_LEAD_FACTOR, lead / 168);
            a *= knownFraction(lead) * Math.max(0, 1 + AMPLITUDE_ERROR_AT_WEEK * g * zAmp);
            t += TIMING_ERROR_AT_WEEK_HOURS * g * zTime;
          }
        }
        const env = envelope(e, t);
        if (env === 0 || a === 0) continue;
        amplitude[i] = a * env;
        lat[i] = e.lat + e.latPerHour * (t - e.onset);
        lon[i] = e.lon + e.lonPerHour * (t - e.onset);
        from = Math.min(from, i);
        to = i + 1;
      }
      if (to > from) rows.push({ from, to, lat, lon, amplitude, invTwoSigma2: 1 / (2 * e.sigmaKm * e.sigmaKm) });
    }
    return rows.length > 0 || climate ? new ExtremeRows(rows, climate) : null;
  }

  /** Adds the events' anomaly at (lat, lon) to `tempC` on every row, and the climate of those a run does not know. */
  add(lat: number, lon: number, tempC: Float64Array): void {
    if (this.climate) {
      const { row, weight, lower, upper, frac } = this.climate;
      const table = keptClimateAt(lat, lon);
      for (let k = 0; k < row.length; k++) {
        const a = lower[k] >= 0 ? table[lower[k]] : 0;
        const b = upper[k] >= 0 ? table[upper[k]] : 0;
        tempC[row[k]] += weight[k] * (a + (b - a) * frac[k]);
      }
    }
    // NONE's empty array is of another elements kind than prepare's: not iterated, so the loop below sees one kind.
    if (this.events.length === 0) return;
    const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
    for (const ev of this.events) {
      // util/math.ts exp, not Math.exp: a call into the runtime cost this loop its registers.
      const { amplitude, invTwoSigma2 } = ev;
      for (let i = ev.from; i < ev.to; i++) {
        const dx = (lon - ev.lon[i]) * kx;
        const dy = (lat - ev.lat[i]) * KM_PER_DEG;
        // Beyond 4σ (FAR_Q) the event adds under 0.01 °C, and where it is inactive nothing: skipped.
        const q = (dx * dx + dy * dy) * invTwoSigma2;
        if (amplitude[i] !== 0 && q < FAR_Q) tempC[i] += amplitude[i] * exp(-q);
      }
    }
  }
}
