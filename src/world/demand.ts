/**
 * Regional weather-driven quantities — population-weighted temperature ("poptemp") and
 * demand — for a set of rows, truth or as a forecast run saw them.
 *
 * poptemp (°C) of a zone is Σ weight × temperature over its load centres (catalog/regions.ts);
 * the ISO total's is the population-weighted mean of its zones' poptemps.
 *
 * Demand (MW) of a zone, at hour h of local day D (docs/realism-targets.md §6, §7):
 *
 *   load = share · [ base · shape(h) + Σc wc · ( heat(Tc) · heatShape(h) + cool(Tc) · coolShape(h) ) ]
 *          · calendar(D, h) · (1 + noise(h))
 *
 * - share: the zone's population share in its ISO; base, slopes: the ISO's DEMAND_PARAMS.
 * - Tc: the effective temperature at load centre c, a blend of the smoothed daily mean
 *   0.5·mean(D) + 0.3·mean(D−1) + 0.2·mean(D−2) (thermal mass, multi-day heat build-up) and the
 *   hourly temperature (intraday shape). Degree days are taken per centre and then weighted
 *   (a zone spanning climates is not averaged into mildness).
 * - heat(T) = heatSlope·(HDD + heatConvex·max(0, HEAT_CONVEX_BELOW_C − T)), HDD = max(0, heatBase − T):
 *   steeper below −5 °C (resistance heat).
 * - cool(T) = coolSlope·(CDD + coolCurve·CDD²), CDD = max(0, T − coolBase): steeper when hot.
 * - shape: hourly profile by season (winter: morning ~8 h and evening ~18–19 h peaks; summer:
 *   one afternoon peak 15–18 h), flatter mornings on weekends; CAISO and ISO-NE lose some load at
 *   midday to behind-the-meter solar.
 * - calendar: Saturday and Sunday lower than weekdays, NERC holidays (New Year, Memorial Day,
 *   Independence Day, Labor Day, Thanksgiving, Christmas; Sunday → Monday) like Sundays. The
 *   true depth of each holiday varies a little from year to year; forecasts assume the nominal one.
 * - noise: smooth multiplicative load noise (ISO-wide parts over days and over hours, and a zone
 *   part over a few hours), the truth's alone: a forecast made at lead L knows each part only as
 *   part·exp(−L·errorScale/τ), τ = 96 h, 16 h, 6 h — like the local weather terms, what it cannot
 *   foresee is the day-scale part, and the ISO model (errorScale 1.25) forgets faster. The
 *   `normal` model (climatology) knows none of it; an ensemble member draws what its run does
 *   not know (a part shared by the ensemble and one of its own, weather/skill.ts memberWeights).
 *
 * The ISO total's demand is exactly the sum of its zones' demand.
 *
 * Lags are evaluated at earlier hours of the same run, never taken from the requested window,
 * so a value depends only on (region, valid hour, run) and not on the window asked for. Hours
 * already past when a run was made (valid < created) are observed: the run sees the truth there
 * (climatology excepted: it sees the climatological weather everywhere).
 */
import { isoTable, type IsoCode } from '../catalog/isos.ts';
import type { DemandParams } from '../catalog/isos/profile.ts';
import { loadCentres, populationShare, zoneRegionsOf, type Region } from '../catalog/regions.ts';
import { localDateOfHour, localDayStartHour, localHourOfDay, type CivilDate } from '../time/zones.ts';
import { VALUE_NOISE1_SD, VALUE_NOISE2_SD, ValueNoise1Walker, ValueNoise2Walker, seedOf, signedUnit } from './hash.ts';
import { memberSeedName, memberWeights, type WeatherSkill } from './weather/skill.ts';
import { newWeatherSeries, WeatherBatch, type WeatherRows, type WeatherSeries } from './weather/batch.ts';
import { pointClimate } from './climate.ts';
import type { WeatherWorld } from './weather/world.ts';

// ---------------------------------------------------------------------------------------------
// Parameters

/**
 * Per-ISO parameters (docs/realism-targets.md §2a, §6, §8). Round 2 recalibrated them by hand
 * with the weather extremes in the truth, against: every year's peak at or below the ISO's
 * record; the worst winter day in an outbreak (ERCOT 72–80 GW once, PJM 140–147 GW); minimum
 * loads (PJM 55–60, MISO 50–55, ERCOT 35–40, CAISO 18–21, SPP 20–22, NYISO 11–13, ISO-NE
 * 8–10 GW); ERCOT's mean ~50 / 52 / 54.5 GW in 2023 / 2024 / 2025 (growthPerYear). Truth of
 * `<iso>_total`, 2023-01-01..2026-10-31, default seed (GW; peak range over the four years):
 *
 *   ISO    peaks        DJF peak max  mean 2025  mins
 *   pjm    147–160      142           91         54–57
 *   miso   114–128      118           80         48–52
 *   spp     51–54       49            32         20–22
 *   ercot   75–80       79            54         35–39
 *   caiso   47–51       37            27         18–20
 *   nyiso   28–32       26            18         11–12
 *   isone   25–27       23            14          9
 *
 * The slopes sit at 0.4–1.3 × the cooling slopes (steeper heating than §6 suggests), and
 * shapeFlatten lifts the night minima where the common shapes dig too deep.
 */
export const DEMAND_PARAMS: Readonly<Record<IsoCode, Readonly<DemandParams>>> = isoTable((p) => p.demand);

/** Below this effective temperature heating steepens (°C). */
const HEAT_CONVEX_BELOW_C = -5;
/** Weight of the smoothed daily mean in the effective temperature (the rest is the hourly value). */
const SMOOTH_WEIGHT = 0.6;
/** Weights of today's, yesterday's and the day before's mean temperature. */
const LAG_WEIGHTS = [0.5, 0.3, 0.2] as const;
/**
 * Day-type effects (the calendar factor, and the day's smoothed temperature) reach a local day
 * through its night: from midnight the load carries the day before's factor and moves to the new
 * day's over the first NIGHT_TRANSITION_HOURS (a smoothstep), as real load shapes do — Saturday's
 * small hours look like a weekday night, and a holiday shows in its morning, never as a jump at
 * 00:00. The weight of the new day at local hour h.
 */
const NIGHT_TRANSITION_HOURS = 6;
export const NEW_DAY_WEIGHT = Float64Array.from({ length: 24 }, (_, h) => {
  if (h >= NIGHT_TRANSITION_HOURS) return 1;
  const x = (h + 1) / (NIGHT_TRANSITION_HOURS + 1);
  return x * x * (3 - 2 * x);
});
/** Calendar factors: Saturday, Sunday (and holidays). */
const SATURDAY = 0.94;
const SUNDAY = 0.905;
/** Year-to-year spread of a holiday's true depth (relative, uniform ±). */
const HOLIDAY_SPREAD = 0.03;
/**
 * Bridge days: weekdays many take off (the Friday after Thanksgiving, Dec 24, Dec 26, Dec 31,
 * the Friday after a Thursday Independence Day, the Monday before a Tuesday one, Jan 2 on a
 * Friday) load ~5 % under a normal weekday of similar weather (ISO load forecasting manuals
 * treat them as special days; e.g. PJM Manual 19 and ERCOT's holiday load reports).
 */
const BRIDGE_DAY = 0.95;
/** Reference instant of the ISOs' growth rates (DemandParams.growthPerYear): mid-2025, loads as calibrated. */
const GROWTH_REFERENCE_HOUR = Date.UTC(2025, 6, 1) / 3_600_000;
const HOURS_PER_YEAR = 8766;
/**
 * Parts of the load noise: an ISO-wide slow part (level shifts over days), an ISO-wide part
 * over hours and a zone part. `hours` is the lattice spacing of the value noise, `weight` its
 * share (squares sum to about 1), `memoryHours` the e-folding lead time over which a forecast
 * still knows it (divided by the skill's errorScale: the ISO forgets faster). The ISO-wide parts
 * come first: a zone's noise is the ISO's sum (computed once for all zones) plus its own parts.
 */
const NOISE_PARTS = [
  { stream: 1, scope: 'iso', hours: 72, weight: 0.75, memoryHours: 96 },
  { stream: 2, scope: 'iso', hours: 16, weight: 0.55, memoryHours: 16 },
  { stream: 3, scope: 'zone', hours: 6, weight: 0.35, memoryHours: 6 },
] as const;
/**
 * Slow drift of load that no weather explains (industrial runs, large customers' schedules,
 * data centres ramping, the economy): ISO-wide swings of DemandParams.driftSd over ~DRIFT_HOURS. A run knows
 * the drift only as it stood when the run was made, and trusts it less the further ahead
 * (persistence damped as exp(−lead/DRIFT_PERSIST_HOURS)), so load errors keep growing past day 5
 * and the `normal` model (which knows none of it) is worse than any run: docs/realism-targets.md
 * §1a working ladder, day 7 5–6.5 %, days 10–15 6–9 %, normal 7–10 %, while day 1 hardly moves.
 */
const DRIFT_HOURS = 360;
/**
 * A forecast's own load-model error (not in the truth): how it maps weather to load beyond what
 * the weather explains, wrong by DemandParams.modelErrorSd (default LOAD_MODEL_ERROR_SD)·(1 − exp(−lead/τ))·errorScale (small on day 1), smooth in
 * valid time and in run time (consecutive runs differ little). The `normal` model (a climatology
 * built from a few past years) carries DemandParams.normalErrorSd (default NORMAL_LOAD_ERROR_SD) at every lead. Sized with the drift
 * for docs/realism-targets.md §1a (day 7 5–6.5 %, days 10–15 6–9 %, normal 7–10 %).
 */
const LOAD_MODEL_ERROR_SD = 0.05;
const LOAD_MODEL_ERROR_TAU_HOURS = 110;
const NORMAL_LOAD_ERROR_SD = 0.076;
const LOAD_ERROR_VALID_HOURS = 72;
const LOAD_ERROR_RUN_HOURS = 48;
const LOAD_ERROR_STREAM = 5;
const DRIFT_PERSIST_HOURS = 240;
const DRIFT_STREAM = 4;

/**
 * Share of a cooling degree beyond DemandParams.coolSaturationC that still adds load: in a
 * heat wave most air conditioners already run continuously, so load rises much more slowly
 * with the last degrees (ERCOT's peaks: 85.5 GW in the record heat of August 2023 and about the
 * same in the milder summer of 2024).
 */
const AC_SATURATED_SHARE = 0.3;

/** Cooling degrees after saturation (see AC_SATURATED_SHARE); `saturation` undefined: none. */
function saturatedCoolingDegrees(cdd: number, saturation: number | undefined): number {
  if (saturation === undefined || cdd <= saturation) return cdd;
  return saturation + AC_SATURATED_SHARE * (cdd - saturation);
}

// ---------------------------------------------------------------------------------------------
// Daily shapes (local clock hour 0–23; each normalised to mean 1)

function normalised(values: number[]): Float64Array {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Float64Array.from(values, (v) => v / mean);
}

const WINTER_WEEKDAY = normalised([
  0.9, 0.875, 0.865, 0.865, 0.88, 0.925, 0.995, 1.05, 1.07, 1.06, 1.04, 1.03, 1.01, 1.0, 0.99, 0.99, 1.02, 1.09, 1.12, 1.11, 1.08, 1.04,
  0.99, 0.94,
]);
const SUMMER_WEEKDAY = normalised([
  0.91, 0.88, 0.855, 0.84, 0.84, 0.855, 0.89, 0.93, 0.965, 1.0, 1.03, 1.06, 1.08, 1.1, 1.12, 1.13, 1.14, 1.14, 1.12, 1.09, 1.07, 1.04, 0.99,
  0.94,
]);
/** Weekends and holidays: later, softer morning ramp (relative change by hour). */
const WEEKEND_MORNING = Float64Array.from({ length: 24 }, (_, h) => 1 - 0.05 * Math.exp(-(((h - 7.5) / 2.2) ** 2)));
/** Air conditioning runs hardest late afternoon; heating mornings and evenings. */
const COOL_SHAPE = Float64Array.from({ length: 24 }, (_, h) => 1 + 0.3 * Math.cos((2 * Math.PI * (h - 17)) / 24));
const HEAT_SHAPE = Float64Array.from(
  { length: 24 },
  (_, h) => 0.9 + 0.12 * Math.exp(-(((h - 8) / 2.5) ** 2)) + 0.12 * Math.exp(-(((h - 19) / 2.5) ** 2)),
);
/** Behind-the-meter solar by local hour (a bell around 13 h), peak 1. */
const BTM_SHAPE = Float64Array.from({ length: 24 }, (_, h) => Math.exp(-(((h + 0.5 - 13) / 2.6) ** 2)));

// ---------------------------------------------------------------------------------------------
// Calendar

function dayNumber(d: CivilDate): number {
  return Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;
}

function weekdayOf(d: CivilDate): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

/** n-th (1-based) weekday `wd` of a month, or the last one for n = −1. */
function nthWeekday(year: number, month: number, wd: number, n: number): number {
  if (n > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((wd - first + 7) % 7) + 7 * (n - 1);
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return lastDay - ((last - wd + 7) % 7);
}

/**
 * The NERC holidays of a year as observed (a holiday on Sunday is observed on Monday; one on
 * Saturday stays on Saturday): New Year's Day, Memorial Day, Independence Day, Labor Day,
 * Thanksgiving Day, Christmas Day. Index in the list = holiday id 0..5.
 */
export function nercHolidays(year: number): CivilDate[] {
  const fixed = (month: number, day: number): CivilDate => {
    const d = { year, month, day };
    if (weekdayOf(d) === 0) {
      const next = new Date(Date.UTC(year, month - 1, day + 1));
      return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
    }
    return d;
  };
  return [
    fixed(1, 1),
    { year, month: 5, day: nthWeekday(year, 5, 1, -1) },
    fixed(7, 4),
    { year, month: 9, day: nthWeekday(year, 9, 1, 1) },
    { year, month: 11, day: nthWeekday(year, 11, 4, 4) },
    fixed(12, 25),
  ];
}

const holidayCache = new Map<number, Map<number, number>>();

/** Holiday id (0..5) of a civil date, or −1. */
export function nercHolidayOf(d: CivilDate): number {
  let m = holidayCache.get(d.year);
  if (!m) {
    m = new Map(nercHolidays(d.year).map((h, i) => [dayNumber(h), i]));
    holidayCache.set(d.year, m);
  }
  return m.get(dayNumber(d)) ?? -1;
}

/** True for a weekday bridge day (see BRIDGE_DAY), which is no NERC holiday itself. */
export function isBridgeDay(d: CivilDate): boolean {
  const wd = weekdayOf(d);
  if (wd === 0 || wd === 6 || nercHolidayOf(d) >= 0) return false;
  if (d.month === 12 && (d.day === 24 || d.day === 26 || d.day === 31)) return true;
  if (d.month === 1 && d.day === 2 && wd === 5) return true;
  if (d.month === 11 && wd === 5 && d.day === nthWeekday(d.year, 11, 4, 4) + 1) return true;
  if (d.month === 7 && ((d.day === 5 && wd === 5) || (d.day === 3 && wd === 1))) return true;
  return false;
}

/** Calendar factor of a day, nominal (what forecasts, the `normal` too, assume) and true. */
export function calendarFactors(d: CivilDate): { nominal: number; truth: number; weekendLike: boolean } {
  const holiday = nercHolidayOf(d);
  if (holiday >= 0) {
    const spread = HOLIDAY_SPREAD * signedUnit(seedOf('demand:holiday'), d.year, holiday);
    return { nominal: SUNDAY, truth: SUNDAY * (1 + spread), weekendLike: true };
  }
  if (isBridgeDay(d)) return { nominal: BRIDGE_DAY, truth: BRIDGE_DAY, weekendLike: true };
  const wd = weekdayOf(d);
  const f = wd === 0 ? SUNDAY : wd === 6 ? SATURDAY : 1;
  return { nominal: f, truth: f, weekendLike: wd === 0 || wd === 6 };
}

/**
 * Load growth factor of an ISO at an hour: (1 + growthPerYear)^(years from mid-2025), a pure
 * function of the valid hour (so issued forecasts never change; every model knows it).
 */
export function growthFactor(iso: IsoCode, hour: number): number {
  const g = DEMAND_PARAMS[iso].growthPerYear;
  return g === 0 ? 1 : (1 + g) ** ((hour - GROWTH_REFERENCE_HOUR) / HOURS_PER_YEAR);
}

/** Summer weight of a day (0 mid-January → 1 mid-July), from the day of the year. */
function summerWeight(d: CivilDate): number {
  const doy = dayNumber(d) - Date.UTC(d.year, 0, 1) / 86_400_000;
  return 0.5 - 0.5 * Math.cos((2 * Math.PI * (doy - 15)) / 365.25);
}

/** Temperature has no point-local part, so a load centre's local seed only names the point. */
function centreSeed(lat: number, lon: number): number {
  return seedOf(`centre:${lat.toFixed(4)},${lon.toFixed(4)}`);
}

/**
 * Population-weighted temperature of a region on arbitrary rows (no lagged days needed), for
 * consumers that want a few sample hours rather than demand's whole days (gas prices). The
 * same numbers RegionWeatherComputer.poptemp gives for those rows. `skill` null means truth;
 * forecast rows must not lie before their run.
 */
export function poptempOnRows(world: WeatherWorld, rows: WeatherRows, skill: WeatherSkill | null, region: Region): Float64Array {
  const batch = new WeatherBatch(world, rows, skill, {});
  const series = newWeatherSeries(batch.n);
  const out = new Float64Array(batch.n);
  for (const c of loadCentres(region)) {
    batch.sample(pointClimate(c.lat, c.lon), centreSeed(c.lat, c.lon), series);
    for (let i = 0; i < out.length; i++) out[i] += c.weight * series.tempC[i];
  }
  return out;
}

/** Region-independent terms of each requested row, and its local day number. */
interface RowTerms {
  localHour: Uint8Array;
  summer: Float64Array;
  calendar: Float64Array;
  weekendLike: Uint8Array;
  /** Per noise part, how much of it the rows' run knows (1 for truth and for observed hours). */
  noiseMemory: Float64Array[];
  rowDayNumber: Float64Array;
}

function rowTerms(batch: WeatherBatch, validHours: ArrayLike<number>, timezone: string): RowTerms {
  const n = validHours.length;
  const created = batch.createdHours;
  const localHour = new Uint8Array(n);
  const summer = new Float64Array(n);
  const calendar = new Float64Array(n);
  const weekendLike = new Uint8Array(n);
  const noiseMemory = NOISE_PARTS.map(() => new Float64Array(n).fill(1));
  const rowDayNumber = new Float64Array(n);
  const calendarCache = new Map<number, ReturnType<typeof calendarFactors>>();
  const errorScale = batch.skill?.errorScale ?? 1;
  for (let i = 0; i < n; i++) {
    const h = validHours[i];
    const date = localDateOfHour(timezone, h);
    const k = dayNumber(date);
    rowDayNumber[i] = k;
    localHour[i] = localHourOfDay(timezone, h);
    const calendarOf = (day: number) => {
      let cal = calendarCache.get(day);
      if (!cal) {
        const d = new Date(day * 86_400_000);
        cal = calendarFactors({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
        calendarCache.set(day, cal);
      }
      return cal;
    };
    const today = calendarOf(k);
    const yesterday = calendarOf(k - 1);
    const factor = (cal: ReturnType<typeof calendarFactors>) => (created ? cal.nominal : cal.truth);
    calendar[i] = factor(yesterday) + (factor(today) - factor(yesterday)) * NEW_DAY_WEIGHT[localHour[i]];
    weekendLike[i] = today.weekendLike ? 1 : 0;
    summer[i] = summerWeight(date);
    if (created) {
      const lead = Math.max(0, h + 0.5 - created[i]);
      // Climatology (the `normal` model) knows none of the noise, at any lead.
      const climatology = batch.skill?.climatology === true;
      NOISE_PARTS.forEach((part, k) => (noiseMemory[k][i] = climatology ? 0 : Math.exp((-lead * errorScale) / part.memoryHours)));
    }
  }
  return { localHour, summer, calendar, weekendLike, noiseMemory, rowDayNumber };
}

/** Local day starts of one timezone, cached per day number. */
function dayStarts(timezone: string): (k: number) => number {
  const dayStart = new Map<number, number>();
  return (k) => {
    let s = dayStart.get(k);
    if (s === undefined) {
      const d = new Date(k * 86_400_000);
      s = localDayStartHour(timezone, { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
      dayStart.set(k, s);
    }
    return s;
  };
}

/** The extended rows and, per requested row, where its hour and its four day blocks lie in them. */
interface ExtendedRows {
  valid: number[];
  /** The run of each extended row (NaN for truth). */
  created: number[];
  blocks: DayBlock[];
  rowExt: Int32Array;
  rowDay: Int32Array;
  rowDay1: Int32Array;
  rowDay2: Int32Array;
  rowDay3: Int32Array;
}

/**
 * Extended rows: for each group of consecutive rows of one run, every hour of the local days
 * D−3..D of its rows (the smoothed temperature of D and, for the night's blend, of D−1).
 */
function extendRows(
  validHours: ArrayLike<number>,
  created: Float64Array | null,
  rowDayNumber: Float64Array,
  timezone: string,
): ExtendedRows {
  const n = validHours.length;
  const startOfDay = dayStarts(timezone);
  const extValid: number[] = [];
  const extCreated: number[] = [];
  const blocks: DayBlock[] = [];
  const rowExt = new Int32Array(n);
  const rowDay = new Int32Array(n);
  const rowDay1 = new Int32Array(n);
  const rowDay2 = new Int32Array(n);
  const rowDay3 = new Int32Array(n);
  for (let g0 = 0; g0 < n;) {
    let g1 = g0 + 1;
    while (g1 < n && (created ? created[g1] === created[g0] : true)) g1++;
    const run = created ? created[g0] : Number.NaN;
    const days = new Set<number>();
    for (let i = g0; i < g1; i++) for (let lag = 0; lag <= 3; lag++) days.add(rowDayNumber[i] - lag);
    const blockOf = new Map<number, number>();
    for (const k of [...days].sort((a, b) => a - b)) {
      const from = extValid.length;
      const s = startOfDay(k);
      const e = startOfDay(k + 1);
      for (let h = s; h < e; h++) {
        extValid.push(h);
        extCreated.push(run);
      }
      blockOf.set(k, blocks.length);
      blocks.push({ from, to: extValid.length });
    }
    for (let i = g0; i < g1; i++) {
      const k = rowDayNumber[i];
      const b = blockOf.get(k)!;
      rowDay[i] = b;
      rowDay1[i] = blockOf.get(k - 1)!;
      rowDay2[i] = blockOf.get(k - 2)!;
      rowDay3[i] = blockOf.get(k - 3)!;
      rowExt[i] = blocks[b].from + (validHours[i] - startOfDay(k));
    }
    g0 = g1;
  }
  return { valid: extValid, created: extCreated, blocks, rowExt, rowDay, rowDay1, rowDay2, rowDay3 };
}

/**
 * Where each extended row's temperature comes from: the caller's batch for the requested
 * rows themselves, a batch of the run for its other not-yet-past hours, and one truth batch
 * (one row per hour) for hours already past when the run was made and for truth. A row's
 * value does not depend on the batch that computes it, so this changes no number.
 */
function extendedSources(
  batch: WeatherBatch,
  validHours: ArrayLike<number>,
  ext: ExtendedRows,
): { extSource: Uint8Array; extIndex: Int32Array; batches: (WeatherBatch | null)[] } {
  const created = batch.createdHours;
  const m = ext.valid.length;
  const extSource = new Uint8Array(m);
  const extIndex = new Int32Array(m).fill(-1);
  for (let i = 0; i < validHours.length; i++) {
    if (!created || validHours[i] >= created[i]) extIndex[ext.rowExt[i]] = i;
  }
  const fValid: number[] = [];
  const fCreated: number[] = [];
  const tValid: number[] = [];
  const truthRowOf = new Map<number, number>();
  for (let j = 0; j < m; j++) {
    if (extIndex[j] >= 0) {
      extSource[j] = 0;
    } else if (created && ext.valid[j] >= ext.created[j]) {
      extSource[j] = 1;
      extIndex[j] = fValid.length;
      fValid.push(ext.valid[j]);
      fCreated.push(ext.created[j]);
    } else {
      extSource[j] = 2;
      let t = truthRowOf.get(ext.valid[j]);
      if (t === undefined) {
        t = tValid.length;
        truthRowOf.set(ext.valid[j], t);
        tValid.push(ext.valid[j]);
      }
      extIndex[j] = t;
    }
  }
  const { world, skill } = batch;
  // Climatology sees no observations either: its past hours are climatology too.
  const pastSkill = skill?.climatology ? skill : null;
  return {
    extSource,
    extIndex,
    batches: [
      batch,
      fValid.length > 0 ? new WeatherBatch(world, { valid: fValid, created: fCreated }, skill, {}) : null,
      tValid.length > 0 ? new WeatherBatch(world, { valid: tValid, created: null }, pastSkill, {}) : null,
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// The computer

/** A local day of one run inside the extended rows: ext rows [from, to). */
interface DayBlock {
  from: number;
  to: number;
}

/** Per load centre: hourly temperature on the requested rows and the smoothed daily temperature (blended over the night). */
interface CentreSeries {
  hourly: Float64Array;
  smooth: Float64Array;
}

/**
 * Computes poptemp and demand of any region of one ISO over a set of rows. Build it once per
 * request and ask for as many regions as needed: zone results are shared (the total reuses its
 * zones); each load centre belongs to one zone, so its temperatures are not kept.
 */
export class RegionWeatherComputer {
  readonly n: number;
  /** The caller's batch: its world and skill also compute the lagged hours. */
  private readonly batch: WeatherBatch;
  /** Per requested row: index of its own hour in the extended rows, and its day's block. */
  private readonly rowExt: Int32Array;
  private readonly rowDay: Int32Array;
  private readonly blocks: DayBlock[];
  /** The day blocks of requested rows: those of the three days before (the same run's), in `dayBlocks`' order. */
  private readonly dayBlocks: Int32Array;
  private readonly dayLags: [Int32Array, Int32Array, Int32Array];
  /**
   * The batches: 0 the caller's (requested rows), 1 other hours of the runs, 2 truth. Their
   * temperatures at a centre are written one after the other into `temps`.
   */
  private readonly sources: ({ batch: WeatherBatch; series: WeatherSeries } | null)[];
  private readonly temps: Float64Array;
  /** Where each extended row's and each requested row's temperature lies in `temps`. */
  private readonly extAt: Int32Array;
  private readonly rowAt: Int32Array;
  /** Region-independent per-row terms. */
  private readonly localHour: Uint8Array;
  private readonly summer: Float64Array;
  private readonly calendar: Float64Array;
  private readonly weekendLike: Uint8Array;
  /** Per noise part, how much of it the rows' run knows (1 for truth and for observed hours). */
  private readonly noiseMemory: Float64Array[];
  /** Ensemble members: per noise part, the weights of the shared and own perturbations (memberWeights). */
  private readonly noiseShared: Float64Array[] | null = null;
  private readonly noiseOwn: Float64Array[] | null = null;
  /** The last centre's temperatures (centre()): read before the next centre is asked for. */
  private readonly centreSeries: CentreSeries;
  private readonly poptempCache = new Map<string, Float64Array>();
  private readonly demandCache = new Map<string, Float64Array>();
  private readonly growthCache = new Map<IsoCode, Float64Array>();
  private readonly isoNoiseCache = new Map<IsoCode, Float64Array>();

  constructor(
    batch: WeatherBatch,
    private readonly validHours: ArrayLike<number>,
    readonly timezone: string,
  ) {
    const n = validHours.length;
    this.n = n;
    if (batch.n !== n) throw new Error(`RegionWeatherComputer: batch has ${batch.n} rows, validHours ${n}`);
    this.batch = batch;
    const terms = rowTerms(batch, validHours, timezone);
    this.localHour = terms.localHour;
    this.summer = terms.summer;
    this.calendar = terms.calendar;
    this.weekendLike = terms.weekendLike;
    this.noiseMemory = terms.noiseMemory;
    if (batch.createdHours && batch.skill?.member !== undefined) {
      this.noiseShared = this.noiseMemory.map((m) => Float64Array.from(m, (k) => memberWeights(k).shared));
      this.noiseOwn = this.noiseMemory.map((m) => Float64Array.from(m, (k) => memberWeights(k).own));
    }
    const ext = extendRows(validHours, batch.createdHours, terms.rowDayNumber, timezone);
    this.blocks = ext.blocks;
    this.rowExt = ext.rowExt;
    this.rowDay = ext.rowDay;
    // A day block's lagged days are the same for every row of it: its smoothed temperature is computed once per block.
    const lagsOf = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      if (!lagsOf.has(ext.rowDay[i])) lagsOf.set(ext.rowDay[i], [ext.rowDay1[i], ext.rowDay2[i], ext.rowDay3[i]]);
    }
    this.dayBlocks = Int32Array.from(lagsOf.keys());
    this.dayLags = [0, 1, 2].map((lag) => Int32Array.from(lagsOf.values(), (l) => l[lag])) as [Int32Array, Int32Array, Int32Array];
    const sources = extendedSources(batch, validHours, ext);
    const offsets: number[] = [];
    let total = 0;
    for (const b of sources.batches) {
      offsets.push(total);
      total += b ? b.n : 0;
    }
    this.temps = new Float64Array(total);
    this.sources = sources.batches.map((b, k) =>
      b ? { batch: b, series: { ...newWeatherSeries(b.n), tempC: this.temps.subarray(offsets[k], offsets[k] + b.n) } } : null,
    );
    this.extAt = Int32Array.from(sources.extIndex, (index, j) => offsets[sources.extSource[j]] + index);
    this.rowAt = Int32Array.from(this.rowExt, (j) => this.extAt[j]);
    this.centreSeries = { hourly: new Float64Array(n), smooth: new Float64Array(n) };
  }

  /** Population-weighted temperature (°C) of the region on every row. */
  poptemp(region: Region, out: Float64Array): void {
    out.set(this.poptempOf(region));
  }

  /** Demand (MW) of the region on every row; the ISO total is the sum of its zones. */
  demand(region: Region, out: Float64Array): void {
    if (region.region_type === 'iso') {
      out.fill(0);
      for (const z of zoneRegionsOf(region.iso)) {
        const d = this.zoneDemand(z);
        for (let i = 0; i < this.n; i++) out[i] += d[i];
      }
      return;
    }
    out.set(this.zoneDemand(region));
  }

  // -------------------------------------------------------------------------------------------

  private poptempOf(region: Region): Float64Array {
    let p = this.poptempCache.get(region.id);
    if (p) return p;
    p = new Float64Array(this.n);
    if (region.region_type === 'iso') {
      for (const z of zoneRegionsOf(region.iso)) {
        const share = populationShare(z);
        const zp = this.poptempOf(z);
        for (let i = 0; i < this.n; i++) p[i] += share * zp[i];
      }
    } else {
      for (const c of loadCentres(region)) {
        const s = this.centre(c.lat, c.lon);
        for (let i = 0; i < this.n; i++) p[i] += c.weight * s.hourly[i];
      }
    }
    this.poptempCache.set(region.id, p);
    return p;
  }

  /**
   * Temperatures at one load centre: hourly on the rows and the smoothed daily mean, in arrays
   * the next call overwrites (each centre belongs to one zone, whose results are kept).
   */
  private centre(lat: number, lon: number): CentreSeries {
    const climate = pointClimate(lat, lon);
    const localSeed = centreSeed(lat, lon);
    for (const src of this.sources) if (src) src.batch.sample(climate, localSeed, src.series);
    const t = this.temps;
    const at = this.extAt;
    const means = new Float64Array(this.blocks.length);
    for (let b = 0; b < this.blocks.length; b++) {
      const { from, to } = this.blocks[b];
      let sum = 0;
      for (let j = from; j < to; j++) sum += t[at[j]];
      means[b] = sum / (to - from);
    }
    // Per day block of the rows: the smoothed daily temperature of its day and of the day before.
    const today = new Float64Array(this.blocks.length);
    const yesterday = new Float64Array(this.blocks.length);
    const [lag1, lag2, lag3] = this.dayLags;
    for (let d = 0; d < this.dayBlocks.length; d++) {
      const b = this.dayBlocks[d];
      today[b] = LAG_WEIGHTS[0] * means[b] + LAG_WEIGHTS[1] * means[lag1[d]] + LAG_WEIGHTS[2] * means[lag2[d]];
      yesterday[b] = LAG_WEIGHTS[0] * means[lag1[d]] + LAG_WEIGHTS[1] * means[lag2[d]] + LAG_WEIGHTS[2] * means[lag3[d]];
    }
    const { hourly, smooth } = this.centreSeries;
    const rowAt = this.rowAt;
    const rowDay = this.rowDay;
    const localHour = this.localHour;
    for (let i = 0; i < this.n; i++) {
      hourly[i] = t[rowAt[i]];
      const b = rowDay[i];
      smooth[i] = yesterday[b] + (today[b] - yesterday[b]) * NEW_DAY_WEIGHT[localHour[i]];
    }
    return this.centreSeries;
  }

  private zoneDemand(region: Region): Float64Array {
    let d = this.demandCache.get(region.id);
    if (d) return d;
    const p = DEMAND_PARAMS[region.iso];
    const share = populationShare(region);
    const n = this.n;
    // Weather-sensitive load per row, degree days weighted over the centres.
    const heat = new Float64Array(n);
    const cool = new Float64Array(n);
    for (const c of loadCentres(region)) {
      const s = this.centre(c.lat, c.lon);
      for (let i = 0; i < n; i++) {
        const te = SMOOTH_WEIGHT * s.smooth[i] + (1 - SMOOTH_WEIGHT) * s.hourly[i];
        const hdd = Math.max(0, p.heatBaseC - te) + p.heatConvex * Math.max(0, HEAT_CONVEX_BELOW_C - te);
        const cdd = saturatedCoolingDegrees(Math.max(0, te - p.coolBaseC), p.coolSaturationC);
        heat[i] += c.weight * hdd;
        cool[i] += c.weight * (cdd + p.coolCurve * cdd * cdd);
      }
    }
    const noise = this.noise(region);
    const growth = this.growthOf(region.iso);
    d = new Float64Array(n);
    const depth = 1 - p.shapeFlatten;
    for (let i = 0; i < n; i++) {
      const h = this.localHour[i];
      const s = this.summer[i];
      let shape = 1 + depth * ((1 - s) * WINTER_WEEKDAY[h] + s * SUMMER_WEEKDAY[h] - 1);
      if (this.weekendLike[i]) shape *= WEEKEND_MORNING[h];
      shape -= p.btmSolar * (0.5 + 0.5 * s) * BTM_SHAPE[h];
      const weather = p.heatSlopeMwPerC * heat[i] * HEAT_SHAPE[h] + p.coolSlopeMwPerC * cool[i] * COOL_SHAPE[h];
      // Growth is in the weather-free load (large flat loads: industry, data centres): energy
      // grows while the air-conditioning peak follows the weather (ERCOT: +5 % energy in 2025,
      // peaks ~85.5 GW in both 2023 and 2024).
      const base = p.baseMw * shape * growth[i];
      d[i] = share * (base + weather) * this.calendar[i] * (1 + noise[i]);
    }
    this.demandCache.set(region.id, d);
    return d;
  }

  /** growthFactor of the ISO on every row, computed once for all its zones. */
  private growthOf(iso: IsoCode): Float64Array {
    let g = this.growthCache.get(iso);
    if (!g) this.growthCache.set(iso, (g = Float64Array.from(this.validHours, (h) => growthFactor(iso, h))));
    return g;
  }

  /**
   * Relative load noise of a zone on every row, as the rows' run knows it (all of it for truth):
   * the ISO-wide terms (isoNoise, shared by the zones) plus the zone's own parts, added in the
   * order of NOISE_PARTS (its ISO-wide parts come first), so every zone's sum is the one it
   * would get adding each term itself.
   */
  private noise(region: Region): Float64Array {
    const out = Float64Array.from(this.isoNoise(region.iso));
    NOISE_PARTS.forEach((part, k) => {
      if (part.scope === 'zone') this.addNoisePart(k, `load-noise:${region.id}`, region.iso, out);
    });
    return out;
  }

  /** The ISO-wide part of every zone's load noise: drift, the run's model error and the ISO-wide noise parts. */
  private isoNoise(iso: IsoCode): Float64Array {
    let out = this.isoNoiseCache.get(iso);
    if (out) return out;
    out = new Float64Array(this.n);
    this.addDrift(iso, out);
    this.addModelError(iso, out);
    NOISE_PARTS.forEach((part, k) => {
      if (part.scope === 'iso') this.addNoisePart(k, `load-noise:${iso}`, iso, out);
    });
    this.isoNoiseCache.set(iso, out);
    return out;
  }

  /** Adds noise part k of the series `name` (an ISO's or a zone's) as the rows' run knows it. */
  private addNoisePart(k: number, name: string, iso: IsoCode, out: Float64Array): void {
    const part = NOISE_PARTS[k];
    const noiseSd = DEMAND_PARAMS[iso].noiseSd;
    const skill = this.batch.skill;
    const member = this.batch.createdHours && skill?.member !== undefined ? skill.member : null;
    const walker = new ValueNoise1Walker(seedOf(name), part.stream);
    const memory = this.noiseMemory[k];
    const w = (noiseSd * part.weight) / VALUE_NOISE1_SD;
    for (let i = 0; i < this.n; i++) out[i] += w * memory[i] * walker.at((this.validHours[i] + 0.5) / part.hours);
    if (member === null) return;
    // An ensemble member draws what its run does not know of the noise: a part shared by
    // the ensemble and one of its own (weather/skill.ts, memberWeights).
    const shared = new ValueNoise1Walker(seedOf(`${name}:${skill!.errorSeedName}`), part.stream);
    const own = new ValueNoise1Walker(seedOf(`${name}:${memberSeedName(skill!.errorSeedName, member)}`), part.stream);
    const ws = this.noiseShared![k];
    const wo = this.noiseOwn![k];
    for (let i = 0; i < this.n; i++) {
      const x = (this.validHours[i] + 0.5) / part.hours;
      out[i] += w * (ws[i] * shared.at(x) + wo[i] * own.at(x));
    }
  }

  /**
   * Adds the run's own load-model error (none for truth and observed hours); ensemble members add
   * a shared and an own part. The `normal` model's error depends on the valid hour only (its
   * climatology is the same in every run).
   */
  private addModelError(iso: IsoCode, out: Float64Array): void {
    const skill = this.batch.skill;
    const created = this.batch.createdHours;
    if (!skill || !created) return;
    if (skill.climatology) {
      const walker = new ValueNoise1Walker(seedOf(`load-error:${iso}:${skill.errorSeedName}`), LOAD_ERROR_STREAM);
      const normalErrorSd = DEMAND_PARAMS[iso].normalErrorSd ?? NORMAL_LOAD_ERROR_SD;
      for (let i = 0; i < this.n; i++) {
        const valid = this.validHours[i] + 0.5;
        if (valid > created[i]) out[i] += (normalErrorSd / VALUE_NOISE1_SD) * walker.at(valid / LOAD_ERROR_VALID_HOURS);
      }
      return;
    }
    const names =
      skill.member !== undefined ? [skill.errorSeedName, memberSeedName(skill.errorSeedName, skill.member)] : [skill.errorSeedName];
    const walkers = names.map((name) => new ValueNoise2Walker(seedOf(`load-error:${iso}:${name}`), LOAD_ERROR_STREAM));
    const unit = 1 / (VALUE_NOISE2_SD * Math.sqrt(names.length));
    const modelErrorSd = DEMAND_PARAMS[iso].modelErrorSd ?? LOAD_MODEL_ERROR_SD;
    for (let i = 0; i < this.n; i++) {
      const valid = this.validHours[i] + 0.5;
      const lead = valid - created[i];
      if (lead <= 0) continue;
      const sd = Math.min(1, skill.errorScale * (1 - Math.exp(-lead / LOAD_MODEL_ERROR_TAU_HOURS))) * modelErrorSd;
      let e = 0;
      for (const w of walkers) e += w.at(valid / LOAD_ERROR_VALID_HOURS, created[i] / LOAD_ERROR_RUN_HOURS);
      out[i] += sd * unit * e;
    }
  }

  /** Adds the slow load drift (driftSd) as the rows' run knows it: truth, persistence of its value at the run's hour, or nothing (climatology). */
  private addDrift(iso: IsoCode, out: Float64Array): void {
    const skill = this.batch.skill;
    if (skill?.climatology) return;
    const name = `load-drift:${iso}`;
    const drift = new ValueNoise1Walker(seedOf(name), DRIFT_STREAM);
    const atRun = new ValueNoise1Walker(seedOf(name), DRIFT_STREAM);
    const created = this.batch.createdHours;
    const member = created && skill?.member !== undefined ? skill.member : null;
    const shared = member !== null ? new ValueNoise1Walker(seedOf(`${name}:${skill!.errorSeedName}`), DRIFT_STREAM) : null;
    const own =
      member !== null ? new ValueNoise1Walker(seedOf(`${name}:${memberSeedName(skill!.errorSeedName, member)}`), DRIFT_STREAM) : null;
    const scale = DEMAND_PARAMS[iso].driftSd / VALUE_NOISE1_SD;
    for (let i = 0; i < this.n; i++) {
      const valid = this.validHours[i] + 0.5;
      const lead = created ? valid - created[i] : 0;
      if (lead <= 0) {
        out[i] += scale * drift.at(valid / DRIFT_HOURS);
        continue;
      }
      const persist = Math.exp(-lead / DRIFT_PERSIST_HOURS);
      out[i] += scale * persist * atRun.at(created![i] / DRIFT_HOURS);
      if (shared && own) {
        // An ensemble member draws what persistence does not know (weather/skill.ts memberWeights).
        const w = memberWeights(persist * persist);
        out[i] += scale * (w.shared * shared.at(valid / DRIFT_HOURS) + w.own * own.at(valid / DRIFT_HOURS));
      }
    }
  }
}
