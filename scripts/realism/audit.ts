/**
 * The realism audit's figures (ids and bands in targets.ts), computed from series the realism
 * report already holds: hourly actuals of an ISO's total (demand, wind, solar, poptemp), its
 * daily outages, the truth of RT and DA prices at its hubs, the demand error by lead of its
 * models, the DA price forecast error and Henry Hub's daily prices. Pure statistics: nothing
 * here queries the world, so test/realism.test.ts can audit a sample the same way.
 */
import type { IsoCode } from '../../src/catalog/isos.ts';
import { LMP_PARAMS } from '../../src/world/lmp.ts';
import { nercHolidayOf } from '../../src/world/demand.ts';
import { addDays, localDateOfHour, localHourOfDay, type CivilDate } from '../../src/time/zones.ts';
import { DEMAND_FIGURES, MAIN_NODE, RECORD_PEAK_GW, demandFigureId, type DemandFigure } from './targets.ts';

/** Hourly (or daily, at local midnight) values keyed by epoch hour. */
export interface HourlySeries {
  hours: readonly number[];
  values: readonly number[];
}

/** Truth of RT and DA prices at nodes over the same hours. */
export interface PriceTruth {
  hours: readonly number[];
  nodes: readonly string[];
  rt: readonly Float64Array[];
  da: readonly Float64Array[];
}

export interface IsoAuditInput {
  iso: IsoCode;
  timezone: string;
  demand?: HourlySeries;
  wind?: HourlySeries;
  solar?: HourlySeries;
  poptemp?: HourlySeries;
  /** Daily outages (MW), one value per local day. */
  outage?: HourlySeries;
  /** Operating wind capacity (MW) at an hour. */
  windCapacityAt: (hour: number) => number;
  /** Demand MAPE (%) by lead day, per model. */
  demandMape: ReadonlyMap<string, ReadonlyMap<number, number>>;
  prices?: PriceTruth;
  /** DA price forecast MAPE (%) at MAIN_NODE by days_ahead. */
  daForecastMape?: ReadonlyMap<number, number>;
}

/** On-peak: weekdays, local hours beginning 07 to 22 (the 5×16 block; holidays not excluded). */
export const ON_PEAK_FIRST = 7;
export const ON_PEAK_LAST = 22;

// ---------------------------------------------------------------------------------------------
// Statistics

export function meanOf(xs: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i])) continue;
    s += xs[i];
    n++;
  }
  return n ? s / n : Number.NaN;
}

/** Sample skewness and excess kurtosis (moment estimators). */
export function shapeOf(xs: readonly number[]): { skew: number; excessKurtosis: number } {
  const m = meanOf(xs);
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const x of xs) {
    const d = x - m;
    m2 += d * d;
    m3 += d * d * d;
    m4 += d * d * d * d;
  }
  const n = xs.length;
  if (n < 4 || m2 === 0) return { skew: Number.NaN, excessKurtosis: Number.NaN };
  m2 /= n;
  m3 /= n;
  m4 /= n;
  return { skew: m3 / m2 ** 1.5, excessKurtosis: m4 / (m2 * m2) - 3 };
}

/** Lag-1 autocorrelation over pairs of consecutive hours (gaps break pairs). */
export function lag1Autocorrelation(hours: readonly number[], xs: ArrayLike<number>): number {
  const m = meanOf(xs);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i])) continue;
    const d = xs[i] - m;
    den += d * d;
    if (i > 0 && hours[i] === hours[i - 1] + 1 && Number.isFinite(xs[i - 1])) num += d * (xs[i - 1] - m);
  }
  return den ? num / den : Number.NaN;
}

/** How many of the largest values make up half of their (positive) sum. */
export function hoursForHalf(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => b - a);
  const total = sorted.reduce((s, v) => s + v, 0);
  let acc = 0;
  for (let i = 0; i < sorted.length; i++) {
    acc += sorted[i];
    if (acc >= total / 2) return i + 1;
  }
  return Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Calendar

const dateKey = (d: CivilDate) => d.year * 10000 + d.month * 100 + d.day;
const weekday = (d: CivilDate) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
const isWeekday = (d: CivilDate) => weekday(d) >= 1 && weekday(d) <= 5;

export function isOnPeak(date: CivilDate, localHour: number): boolean {
  return isWeekday(date) && localHour >= ON_PEAK_FIRST && localHour <= ON_PEAK_LAST;
}

/** Thanksgiving: the fourth Thursday of November. */
function thanksgiving(year: number): CivilDate {
  const first = weekday({ year, month: 11, day: 1 });
  return { year, month: 11, day: 1 + ((4 - first + 7) % 7) + 21 };
}

/** Bridge days of a year: the Friday after Thanksgiving, and Dec 24, 26 and 31 when they are working weekdays. */
export function bridgeDays(year: number): CivilDate[] {
  const candidates = [addDays(thanksgiving(year), 1), ...[24, 26, 31].map((day) => ({ year, month: 12, day }))];
  return candidates.filter((d) => isWeekday(d) && nercHolidayOf(d) < 0);
}

interface Day {
  date: CivilDate;
  mean: number;
  max: number;
  hours: number;
}

/** Daily mean and max of an hourly series by local day. */
function dailyOf(timezone: string, s: HourlySeries): Map<number, Day> {
  const days = new Map<number, Day & { sum: number }>();
  for (let i = 0; i < s.hours.length; i++) {
    const v = s.values[i];
    if (!Number.isFinite(v)) continue;
    const date = localDateOfHour(timezone, s.hours[i]);
    const k = dateKey(date);
    let d = days.get(k);
    if (!d) days.set(k, (d = { date, mean: 0, max: -Infinity, hours: 0, sum: 0 }));
    d.sum += v;
    d.hours++;
    if (v > d.max) d.max = v;
  }
  for (const d of days.values()) d.mean = d.sum / d.hours;
  return days;
}

/** Day-of-year (1–366) of a civil date. */
function dayOfYear(d: CivilDate): number {
  return Math.round((Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(d.year, 0, 1)) / 86_400_000) + 1;
}

/** Daily anomalies against a climatology: the mean of every year's days within ±15 days of the same day of year. */
function dailyAnomalies(days: Map<number, Day>): { date: CivilDate; anomaly: number }[] {
  const byDoy = new Array<{ sum: number; n: number }>(367).fill({ sum: 0, n: 0 }).map(() => ({ sum: 0, n: 0 }));
  for (const d of days.values()) {
    const b = byDoy[dayOfYear(d.date)];
    b.sum += d.mean;
    b.n++;
  }
  const climate = (doy: number) => {
    let sum = 0;
    let n = 0;
    for (let k = -15; k <= 15; k++) {
      const b = byDoy[((doy - 1 + k + 366) % 366) + 1];
      sum += b.sum;
      n += b.n;
    }
    return n ? sum / n : Number.NaN;
  };
  return [...days.values()].map((d) => ({ date: d.date, anomaly: d.mean - climate(dayOfYear(d.date)) }));
}

/** Years of which the series covers at least `share` of the days. */
function fullYears(days: Map<number, Day>, share = 0.95): number[] {
  const count = new Map<number, number>();
  for (const d of days.values()) count.set(d.date.year, (count.get(d.date.year) ?? 0) + 1);
  return [...count]
    .filter(([, n]) => n >= share * 365)
    .map(([y]) => y)
    .sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Per ISO

export function auditIso(x: IsoAuditInput): Map<string, number> {
  const out = new Map<string, number>();
  const { iso } = x;
  const set = (id: string, v: number) => out.set(id, v);

  // Demand error by lead (item 5; day 1 kept in band).
  const optimized = x.demandMape.get('optimized');
  if (optimized) {
    set(`load.mape.d1.${iso}`, optimized.get(1) ?? Number.NaN);
    set(`load.mape.d7.${iso}`, optimized.get(7) ?? Number.NaN);
    set(`load.mape.d10to14.${iso}`, ((optimized.get(10) ?? Number.NaN) + (optimized.get(14) ?? Number.NaN)) / 2);
  }
  const normal = x.demandMape.get('normal');
  if (normal) set(`load.mape.normal.${iso}`, normal.get(1) ?? Number.NaN);

  if (x.demand) auditLoad(x, x.demand, set);
  if (x.poptemp) auditWeather(x, x.poptemp, set);
  if (x.outage && (iso === 'ercot' || iso === 'pjm')) {
    // Winter days only: the figure is about cold events, not spring maintenance.
    const winter = x.outage.values.filter((v, i) => {
      const month = localDateOfHour(x.timezone, x.outage!.hours[i]).month;
      return Number.isFinite(v) && (month === 12 || month <= 2);
    });
    if (winter.length) set(`outage.${iso}Max`, Math.max(...winter) / 1000);
  }
  if (x.wind) auditWind(x, x.wind, set);
  if (x.prices) auditPrices(x, x.prices, set);
  if (x.daForecastMape) {
    const d1 = x.daForecastMape.get(1) ?? Number.NaN;
    set(`price.daForecastMape.d1.${iso}`, d1);
    set(`price.daForecastGrowth.${iso}`, (x.daForecastMape.get(7) ?? Number.NaN) / d1);
  }
  return out;
}

type Setter = (id: string, v: number) => void;

function auditLoad(x: IsoAuditInput, demand: HourlySeries, set: Setter): void {
  const { iso, timezone: tz } = x;
  const days = dailyOf(tz, demand);
  const peakByYear = new Map<number, number>();
  let winterPeak = -Infinity;
  let summerPeak = -Infinity;
  let min = Infinity;
  for (const d of days.values()) {
    peakByYear.set(d.date.year, Math.max(peakByYear.get(d.date.year) ?? -Infinity, d.max));
    if (d.date.month === 12 || d.date.month <= 2) winterPeak = Math.max(winterPeak, d.max);
    if (d.date.month >= 6 && d.date.month <= 8) summerPeak = Math.max(summerPeak, d.max);
  }
  for (const v of demand.values) if (Number.isFinite(v)) min = Math.min(min, v);
  set(`load.yearsAboveRecord.${iso}`, [...peakByYear.values()].filter((p) => p / 1000 > RECORD_PEAK_GW[iso]).length);
  set(`load.min.${iso}`, min / 1000);
  if (iso === 'ercot' && winterPeak > -Infinity) set('load.ercotWinterPeak', winterPeak / 1000);
  if (iso === 'isone' && summerPeak > -Infinity) set('load.isoneSummerPeak', summerPeak / 1000);

  const years = fullYears(days);
  if (years.length >= 2) {
    const annual = (y: number) => meanOf([...days.values()].filter((d) => d.date.year === y).map((d) => d.mean));
    const first = years[0];
    const last = years[years.length - 1];
    set(`load.growth.${iso}`, 100 * ((annual(last) / annual(first)) ** (1 / (last - first)) - 1));
  }

  // Bridge days against the same weekday one and two weeks around (working days only).
  const effects: number[] = [];
  const yearsInData = [...new Set([...days.values()].map((d) => d.date.year))];
  const bridges = yearsInData.flatMap(bridgeDays);
  const bridgeKeys = new Set(bridges.map(dateKey));
  for (const b of bridges) {
    const day = days.get(dateKey(b));
    if (!day || day.hours < 23) continue;
    const refs = [-14, -7, 7, 14]
      .map((k) => addDays(b, k))
      .filter((d) => nercHolidayOf(d) < 0 && !bridgeKeys.has(dateKey(d)))
      .map((d) => days.get(dateKey(d))?.mean)
      .filter((v): v is number => v !== undefined);
    if (refs.length >= 2) effects.push(100 * (day.mean / meanOf(refs) - 1));
  }
  if (effects.length) set(`load.bridgeDays.${iso}`, meanOf(effects));

  auditMidnight(tz, demand, years, (id, v) => set(`${id}.${iso}`, v));
  for (const f of DEMAND_FIGURES) {
    if (f.iso !== iso) continue;
    const v = demandFigureValue(f, days);
    if (v !== undefined) set(demandFigureId(f), v);
  }
}

/** The months (year, month) a demand figure's period spans. */
export function monthsOf(period: string): { year: number; month: number }[] {
  const [from, to = from] = period.split('..');
  const parse = (p: string, end: boolean) => {
    const [y, m] = p.split('-').map(Number);
    return { year: y, month: m ?? (end ? 12 : 1) };
  };
  const a = parse(from, false);
  const b = parse(to, true);
  const out: { year: number; month: number }[] = [];
  for (let y = a.year, m = a.month; y < b.year || (y === b.year && m <= b.month); m === 12 ? (y++, (m = 1)) : m++)
    out.push({ year: y, month: m });
  return out;
}

/**
 * A demand figure's value (GW) from the daily summaries: the peak hour of the year, or the mean
 * over every hour of the months; undefined unless the series holds every day of the period.
 */
function demandFigureValue(f: DemandFigure, days: Map<number, Day>): number | undefined {
  let sum = 0;
  let hours = 0;
  let peak = -Infinity;
  for (const { year, month } of monthsOf(f.period)) {
    const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
    for (let day = 1; day <= length; day++) {
      const d = days.get(dateKey({ year, month, day }));
      if (!d || d.hours < 23) return undefined;
      sum += d.mean * d.hours;
      hours += d.hours;
      peak = Math.max(peak, d.max);
    }
  }
  return (f.stat === 'peak' ? peak : sum / hours) / 1000;
}

/**
 * Steps at local midnight (issue 22): day types must reach the load through the night's shape,
 * never as a jump at 00:00. Over each full year (or the whole series when it holds none):
 * - `load.midnightTop40`: how many of the 40 largest hour-to-hour changes fall at 00:00 local
 *   (the most of any year);
 * - `load.midnightStep`: the largest step at 00:00 beyond the night's own movement (|Δ 00:00| −
 *   the larger of |Δ 23:00| and |Δ 01:00|) ÷ the ISO's typical morning pickup (the median over
 *   days of the largest rise into 05:00–10:00). A night that falls steadily (a hot evening's
 *   decline, ~5 %/h) has no such excess; a calendar or temperature jump has.
 */
function auditMidnight(tz: string, demand: HourlySeries, years: number[], set: Setter): void {
  const n = demand.hours.length;
  const localHour = demand.hours.map((h) => localHourOfDay(tz, h));
  const year = demand.hours.map((h) => localDateOfHour(tz, h).year);
  // Δ into hour i (NaN where the hour before is not in the series).
  const change = Array.from({ length: n }, (_, i) =>
    i > 0 && demand.hours[i] === demand.hours[i - 1] + 1 ? demand.values[i] - demand.values[i - 1] : Number.NaN,
  );
  const groups = years.length > 0 ? years.map((y) => (i: number) => year[i] === y) : [() => true];
  let top40AtMidnight = 0;
  for (const inGroup of groups) {
    const ranked = change
      .map((c, i) => ({ c: Math.abs(c), i }))
      .filter(({ c, i }) => Number.isFinite(c) && inGroup(i))
      .sort((a, b) => b.c - a.c)
      .slice(0, 40);
    top40AtMidnight = Math.max(top40AtMidnight, ranked.filter(({ i }) => localHour[i] === 0).length);
  }
  set('load.midnightTop40', top40AtMidnight);

  const pickupByDay = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (localHour[i] < 5 || localHour[i] > 10 || !Number.isFinite(change[i])) continue;
    const key = dateKey(localDateOfHour(tz, demand.hours[i]));
    pickupByDay.set(key, Math.max(pickupByDay.get(key) ?? -Infinity, change[i]));
  }
  const pickups = [...pickupByDay.values()].sort((a, b) => a - b);
  if (pickups.length === 0) return;
  const typicalPickup = pickups[Math.floor((pickups.length - 1) / 2)];
  let worstStep = -Infinity;
  for (let i = 1; i + 1 < n; i++) {
    if (localHour[i] !== 0 || ![change[i - 1], change[i], change[i + 1]].every(Number.isFinite)) continue;
    worstStep = Math.max(worstStep, Math.abs(change[i]) - Math.max(Math.abs(change[i - 1]), Math.abs(change[i + 1])));
  }
  if (worstStep > -Infinity) set('load.midnightStep', worstStep / typicalPickup);
}

function auditWeather(x: IsoAuditInput, poptemp: HourlySeries, set: Setter): void {
  const days = dailyOf(x.timezone, poptemp);
  const winter = dailyAnomalies(days)
    .filter((d) => d.date.month === 12 || d.date.month <= 2)
    .map((d) => d.anomaly)
    .filter(Number.isFinite);
  if (winter.length >= 60) {
    const shape = shapeOf(winter);
    set(`weather.winterKurtosis.${x.iso}`, shape.excessKurtosis);
    set(`weather.winterSkew.${x.iso}`, shape.skew);
  }
  if (x.iso === 'ercot') set('weather.ercotColdestDay', Math.min(...[...days.values()].map((d) => d.mean)));
}

function auditWind(x: IsoAuditInput, wind: HourlySeries, set: Setter): void {
  const { iso, timezone: tz } = x;
  const cf: number[] = [];
  const winter: number[] = [];
  const byMonth = Array.from({ length: 12 }, () => [] as number[]);
  let over80 = 0;
  for (let i = 0; i < wind.hours.length; i++) {
    const cap = x.windCapacityAt(wind.hours[i]);
    if (!(cap > 0) || !Number.isFinite(wind.values[i])) continue;
    const c = wind.values[i] / cap;
    cf.push(c);
    if (c > 0.8) over80++;
    const month = localDateOfHour(tz, wind.hours[i]).month;
    byMonth[month - 1].push(c);
    if (month === 12 || month <= 2) winter.push(c);
  }
  if (!cf.length) return;
  set(`wind.cf.${iso}`, 100 * meanOf(cf));
  if (winter.length) set(`wind.winterCf.${iso}`, 100 * meanOf(winter));
  set(`wind.hoursOver80.${iso}`, (over80 * 8766) / cf.length);
  if (byMonth.every((m) => m.length)) {
    const means = byMonth.map(meanOf);
    set(`wind.peakMonth.${iso}`, means.indexOf(Math.max(...means)) + 1);
  }
}

function auditPrices(x: IsoAuditInput, p: PriceTruth, set: Setter): void {
  const { iso, timezone: tz } = x;
  const node = p.nodes.indexOf(MAIN_NODE[iso]);
  const dates = p.hours.map((h) => localDateOfHour(tz, h));
  const localHour = p.hours.map((h) => localHourOfDay(tz, h));
  /** True when the prices cover at least 90 % of the year's hours. */
  const inYear = (y: number) => dates.filter((d) => d.year === y).length >= 0.9 * 8760;
  const meanWhere = (xs: Float64Array, keep: (i: number) => boolean) => meanOf(Array.from(xs).filter((_, i) => keep(i)));

  // Floors and caps at every reported node.
  const bounds = LMP_PARAMS[iso];
  let inside = 0;
  let total = 0;
  for (const series of [...p.rt, ...p.da]) {
    for (const v of series) {
      if (!Number.isFinite(v)) continue;
      total++;
      if (v >= bounds.floor - 1e-9 && v <= bounds.cap + 1e-9) inside++;
    }
  }
  if (total) set(`price.withinFloorCap.${iso}`, (100 * inside) / total);
  if (node < 0) return;
  const rt = p.rt[node];
  const da = p.da[node];

  set(`price.daMinusRt.${iso}`, meanOf(Array.from(rt, (r, i) => da[i] - r)));
  const onPeak = (i: number) => isOnPeak(dates[i], localHour[i]);
  set(`price.onOffPeak.${iso}`, meanWhere(rt, onPeak) / meanWhere(rt, (i) => !onPeak(i)));
  set(
    `price.rtDaLag1.${iso}`,
    lag1Autocorrelation(
      p.hours,
      Array.from(rt, (r, i) => r - da[i]),
    ),
  );

  // Load-linked figures need the hourly demand (and wind/solar for net load) on the price hours.
  const valueAt = (s: HourlySeries | undefined) => {
    const m = new Map<number, number>();
    if (s) for (let i = 0; i < s.hours.length; i++) m.set(s.hours[i], s.values[i]);
    return p.hours.map((h) => m.get(h) ?? Number.NaN);
  };
  const load = valueAt(x.demand);
  const wind = valueAt(x.wind);
  const solar = valueAt(x.solar);
  const net = load.map((l, i) => l - (wind[i] || 0) - (solar[i] || 0));
  const ramp = net.map((v, i) => (i > 0 && p.hours[i] === p.hours[i - 1] + 1 ? v - net[i - 1] : Number.NaN));
  const threshold = (xs: number[], q: number) => {
    const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return s.length ? s[Math.floor(q * (s.length - 1))] : Number.NaN;
  };
  const tightNet = threshold(net, 0.85);
  const steepRamp = threshold(ramp, 0.9);
  let spikes = 0;
  let tightSpikes = 0;
  for (let i = 0; i < rt.length; i++) {
    if (!(rt[i] > da[i] + Math.max(50, da[i]))) continue;
    spikes++;
    if (net[i] >= tightNet || ramp[i] >= steepRamp) tightSpikes++;
  }
  if (spikes) set(`price.spikesInTightHours.${iso}`, (100 * tightSpikes) / spikes);

  // Days with any DA hour ≥ $1,000, a year (issue 22).
  const fullPriceYears = [...new Set(dates.map((d) => d.year))].filter(inYear);
  if (fullPriceYears.length && (iso === 'pjm' || iso === 'miso' || iso === 'spp' || iso === 'ercot')) {
    const scarceDays = new Set<number>();
    for (let i = 0; i < da.length; i++) if (da[i] >= 1000) scarceDays.add(dateKey(dates[i]));
    const perYear = fullPriceYears.map((y) => [...scarceDays].filter((k) => Math.floor(k / 10000) === y).length);
    set(`price.daysDaOver1000.${iso}`, meanOf(perYear));
  }

  if (iso === 'nyiso' || iso === 'isone') {
    const top = threshold(load, 0.99);
    set(`price.topLoadRatio.${iso}`, meanWhere(rt, (i) => load[i] >= top) / meanOf(rt));
  }

  if (iso === 'ercot') {
    for (const y of [2023, 2024])
      if (inYear(y))
        set(
          `price.ercotDaMean.${y}`,
          meanWhere(da, (i) => dates[i].year === y),
        );
    const years = [...new Set(dates.map((d) => d.year))].filter(inYear);
    if (years.length) {
      set('price.ercotHalfCostHours', meanOf(years.map((y) => hoursForHalf(load.map((l, i) => (dates[i].year === y ? l * rt[i] : NaN))))));
      set('price.ercotHoursOver1000', meanOf(years.map((y) => Array.from(rt).filter((r, i) => dates[i].year === y && r >= 1000).length)));
    }
    set('price.ercotRtMax', Math.max(...rt));
    // October–November of each year the prices cover whole: no scarcity in a mild autumn (issue 22).
    const autumn = [...new Set(dates.map((d) => d.year))]
      .map((y) => p.hours.map((_, i) => i).filter((i) => dates[i].year === y && (dates[i].month === 10 || dates[i].month === 11)))
      .filter((ix) => ix.length >= 0.95 * 61 * 24);
    if (autumn.length) {
      set('price.ercotAutumnDaMean', Math.max(...autumn.map((ix) => meanOf(ix.map((i) => da[i])))));
      set('price.ercotAutumnDaHoursOver500', Math.max(...autumn.map((ix) => ix.filter((i) => da[i] > 500).length)));
    }
    const byMonth = Array.from({ length: 12 }, (_, m) => meanWhere(rt, (i) => dates[i].month === m + 1));
    if (byMonth.every(Number.isFinite)) set('price.ercotTopMonth', byMonth.indexOf(Math.max(...byMonth)) + 1);
    const west = p.nodes.indexOf('HB_WEST');
    if (west >= 0 && inYear(2024)) {
      const in2024 = (i: number) => dates[i].year === 2024;
      set('price.ercotWestToNorth.2024', meanWhere(p.rt[west], in2024) / meanWhere(rt, in2024));
    }
  }
  if (iso === 'caiso') {
    const years = [...new Set(dates.map((d) => d.year))];
    const negIn = (months: number[]) =>
      years
        .filter((y) => months.every((m) => dates.some((d) => d.year === y && d.month === m)))
        .map((y) => Array.from(rt).filter((r, i) => r < 0 && dates[i].year === y && months.includes(dates[i].month)).length);
    const march = negIn([3]);
    const spring = negIn([3, 4, 5]);
    if (march.length) set('price.caisoNegativeMarch', meanOf(march));
    if (spring.length) set('price.caisoNegativeSpring', meanOf(spring));
    // DA maximum on each summer's highest-load day; the figure is the highest of them (the tightest summer).
    const peakDayMax: number[] = [];
    for (const y of years) {
      if (!dates.some((d) => d.year === y && d.month === 9)) continue;
      let best = -1;
      for (let i = 0; i < load.length; i++) if (dates[i].year === y && (best < 0 || load[i] > load[best])) best = i;
      if (best < 0 || !Number.isFinite(load[best])) continue;
      const key = dateKey(dates[best]);
      peakDayMax.push(Math.max(...Array.from(da).filter((_, i) => dateKey(dates[i]) === key)));
    }
    if (peakDayMax.length) set('price.caisoPeakDayDaMax', Math.max(...peakDayMax));
  }
  if (iso === 'spp') {
    set('price.sppRtNegative', (100 * Array.from(rt).filter((r) => r < 0).length) / rt.length);
    set('price.sppDaNegative', (100 * Array.from(da).filter((r) => r < 0).length) / da.length);
  }
  if (iso === 'isone' && inYear(2024)) {
    set(
      'price.isoneSummer.2024',
      meanWhere(rt, (i) => dates[i].year === 2024 && dates[i].month >= 6 && dates[i].month <= 8),
    );
  }
  if (iso === 'miso' && inYear(2024)) {
    const shoulder = new Set([4, 5, 9, 10, 11]);
    set(
      'price.misoShoulder.2024',
      meanWhere(rt, (i) => dates[i].year === 2024 && shoulder.has(dates[i].month)),
    );
  }
  if (iso === 'pjm' && inYear(2024))
    set(
      'price.pjmWest.2024',
      meanWhere(rt, (i) => dates[i].year === 2024),
    );
}

/** Henry Hub's maximum over the gas days given. */
export function auditGas(henry: ArrayLike<number>): Map<string, number> {
  const values = Array.from(henry).filter(Number.isFinite);
  return new Map(values.length ? [['gas.henryMax', Math.max(...values)]] : []);
}
