/**
 * Forecast skill as records: the continuous series of each model at each days_ahead, scored
 * against the actual series of the same window (query/skillScores.ts), bucketed by lead day,
 * month, local hour of day, day of week, not at all, or as a rolling window of local days.
 *
 * The inputs are the values the `continuous` and `actual` requests return, rounded as they
 * are written, so every figure can be reproduced from those two responses. Rows are aligned by
 * their hour; a row missing from either series, or null in it, does not count.
 */
import { addDays, compareDates, formatDate, localDateOfHour, localHourOfDay, parseDate, type CivilDate } from '../time/zones.ts';
import { decimalsOf, metricSpec, type MetricName, type MetricSpec } from '../catalog/metrics.ts';
import { valuesAt } from './frame.ts';
import {
  PRICE_MAPE_SKIP_FRACTION,
  scoreRows,
  type PairedSeries,
  type QuantileSeries,
  type ScoreRules,
  type Scores,
} from './skillScores.ts';

export const SKILL_BY = ['lead_day', 'month', 'hour_of_day', 'day_of_week', 'none'] as const;
export type SkillBy = (typeof SKILL_BY)[number];

/** How a metric is scored: its rules (solar: daylight hours; prices: their MAPE rule) and the decimals its values are served with. */
export function scoringOf(metric: MetricName): { rules: ScoreRules; decimals: number } {
  const spec: MetricSpec = metricSpec(metric);
  const rules: ScoreRules = { daylightOnly: spec.errorMeasure === 'nmae_daylight' };
  if (spec.groups.includes('lmp')) rules.mapeSkipFraction = PRICE_MAPE_SKIP_FRACTION;
  return { rules, decimals: decimalsOf(metric) };
}

/** A series as a request returns it: period-beginning epoch hours and their values (NaN = null). */
export interface HourSeries {
  hours: ArrayLike<number>;
  values: Float64Array;
}

/** One model's continuous series at one days_ahead. */
export interface ForecastSeries extends HourSeries {
  model: string;
  daysAhead: number;
  /** Quantile series on the same rows, when the forecast has them (coverage and pinball). */
  quantiles?: readonly QuantileSeries[];
  /** Ensemble members on the same rows, for CRPS. */
  members?: readonly Float64Array[];
}

export interface SkillInput {
  /** The ISO's (or the gas day's) zone: buckets are local months, hours and days. */
  timezone: string;
  actual: HourSeries;
  /** In the order the records should follow (model, then days_ahead). */
  forecasts: readonly ForecastSeries[];
  /** The model every other is compared with (skill_vs_normal), when the group has it. */
  baselineModel?: string;
  /** Capacity in operation at an hour (MW), for nMAE; absent for metrics without one. */
  capacityAt?: (hour: number) => number;
  rules: ScoreRules;
  /** Decimal places the served values have (they are scored as written). */
  decimals: number;
  by: SkillBy;
  /** A rolling window of this many local days: one record per day (`date`), by lead day. */
  windowDays?: number;
  /** The first local day of the request's window: a rolling record needs its whole window inside it. */
  firstDay?: CivilDate;
}

export type SkillRecord = {
  model: string;
  month?: string;
  hour_of_day?: number;
  day_of_week?: number;
  date?: string;
  days_ahead: number | null;
} & Scores;

const DAY_NAMES_ISO = [7, 1, 2, 3, 4, 5, 6] as const;

/** ISO 8601 day of week of a civil date: 1 Monday … 7 Sunday. */
export function isoDayOfWeek(d: CivilDate): number {
  return DAY_NAMES_ISO[new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay()];
}

/** Rounds as the writers round a value with `decimals` places (NaN stays NaN). */
function rounder(decimals: number): (x: number) => number {
  const f = 10 ** decimals;
  return (x) => (Number.isFinite(x) ? Math.round(x * f) / f : Number.NaN);
}

/**
 * Where each hour of a series is (its last row with that hour, as a map would keep it): an array
 * over the series' span of whole epoch hours, read without hashing — a skill request aligns each
 * of its ~24 series of a year with the actual and the baseline. A series whose hours are not whole
 * or are too sparse for an array over their span keeps a map.
 */
class HourIndex {
  private readonly first: number;
  private readonly rows: Int32Array | null;
  private readonly map: Map<number, number> | null;

  constructor(hours: ArrayLike<number>) {
    let min = Infinity;
    let max = -Infinity;
    let whole = true;
    for (let i = 0; i < hours.length; i++) {
      const h = hours[i];
      if (h < min) min = h;
      if (h > max) max = h;
      if (!Number.isInteger(h)) whole = false;
    }
    this.first = min;
    if (hours.length > 0 && whole && max - min < 4 * hours.length + 48) {
      this.rows = new Int32Array(max - min + 1).fill(-1);
      this.map = null;
      for (let i = 0; i < hours.length; i++) this.rows[hours[i] - min] = i;
    } else {
      this.rows = null;
      this.map = new Map();
      for (let i = 0; i < hours.length; i++) this.map.set(hours[i], i);
    }
  }

  /** The row of `hour`, or -1. */
  rowOf(hour: number): number {
    if (this.rows === null) return this.map!.get(hour) ?? -1;
    const at = hour - this.first;
    return at >= 0 && at < this.rows.length && Number.isInteger(at) ? this.rows[at] : -1;
  }
}

/** The row of `index`'s series at each of `hours` (−1 where it has none). */
function rowsAt(index: HourIndex, hours: ArrayLike<number>): Int32Array {
  const rows = new Int32Array(hours.length);
  for (let i = 0; i < hours.length; i++) rows[i] = index.rowOf(hours[i]);
  return rows;
}

/** `values` rounded as they are written. */
function roundedValues(values: ArrayLike<number>, round: (x: number) => number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = round(values[i]);
  return out;
}

/** A series every forecast is aligned with (the actual, a lead's baseline): where each hour is, and its values as written. */
interface AlignedSeries {
  index: HourIndex;
  rounded: Float64Array;
}

/**
 * A forecast paired with the actual (and the baseline and capacity) over the forecast's rows.
 * `capacity`: the capacity in operation at each of the actual's rows (a row without an actual
 * is never scored, so its capacity is not needed).
 */
function paired(
  f: ForecastSeries,
  round: (x: number) => number,
  actual: AlignedSeries,
  baseline: AlignedSeries | undefined,
  capacity: Float64Array | undefined,
): PairedSeries {
  const hours = f.hours;
  const actualRows = rowsAt(actual.index, hours);
  return {
    forecast: roundedValues(f.values, round),
    actual: valuesAt(actual.rounded, actualRows),
    capacity: capacity && valuesAt(capacity, actualRows),
    baseline: baseline ? valuesAt(baseline.rounded, rowsAt(baseline.index, hours)) : undefined,
    quantiles: f.quantiles?.map((q) => ({ p: q.p, values: roundedValues(q.values, round) })),
    members: f.members?.map((m) => roundedValues(m, round)),
  };
}

/** Several pairings as one (for `by=none`, which pools the lead days of a model). */
function concatenated(parts: readonly PairedSeries[]): PairedSeries {
  const cat = (pick: (p: PairedSeries) => Float64Array | undefined) => {
    const arrays = parts.map(pick);
    if (arrays.some((a) => a === undefined)) return undefined;
    const out = new Float64Array(arrays.reduce((n, a) => n + a!.length, 0));
    let at = 0;
    for (const a of arrays) {
      out.set(a!, at);
      at += a!.length;
    }
    return out;
  };
  // Quantile levels and members are pooled where every part has them.
  const levels = parts[0]?.quantiles?.map((q) => q.p) ?? [];
  const quantiles = levels.map((p) => ({ p, values: cat((s) => s.quantiles?.find((q) => q.p === p)?.values) }));
  const memberCount = parts[0]?.members?.length ?? 0;
  const members = Array.from({ length: memberCount }, (_, m) => cat((s) => s.members?.[m]));
  return {
    forecast: cat((p) => p.forecast)!,
    actual: cat((p) => p.actual)!,
    capacity: cat((p) => p.capacity),
    baseline: cat((p) => p.baseline),
    quantiles: quantiles.every((q) => q.values) && levels.length > 0 ? quantiles.map((q) => ({ p: q.p, values: q.values! })) : undefined,
    members: members.every(Boolean) && memberCount > 0 ? (members as Float64Array[]) : undefined,
  };
}

/** Rounds a record's scores for the response: unit scores to two places more than the values, the rest to 4. */
function rounded(scores: Scores, decimals: number): Scores {
  const inUnit = rounder(decimals + 2);
  const fine = rounder(4);
  const r = (x: number | null, f: (x: number) => number) => (x === null ? null : f(x));
  return {
    n: scores.n,
    mae: r(scores.mae, inUnit),
    rmse: r(scores.rmse, inUnit),
    bias: r(scores.bias, inUnit),
    mape: r(scores.mape, fine),
    mape_skipped: scores.mape_skipped,
    nmae_pct_capacity: r(scores.nmae_pct_capacity, fine),
    skill_vs_normal: r(scores.skill_vs_normal, fine),
    coverage_p10_p90: r(scores.coverage_p10_p90, fine),
    pinball: r(scores.pinball, inUnit),
    crps: r(scores.crps, inUnit),
  };
}

type BucketKey = Pick<SkillRecord, 'month' | 'hour_of_day' | 'day_of_week'>;

/** The bucket an hour falls in, by its name (the key as JSON), remembered for the request's other series (the same hours). */
type BucketOfHour = (hour: number) => { name: string; key: BucketKey };

function bucketOfHour(by: SkillBy, timezone: string): BucketOfHour {
  const known = new Map<number, { name: string; key: BucketKey }>();
  return (hour) => {
    let bucket = known.get(hour);
    if (!bucket) {
      let key: BucketKey = {};
      if (by === 'month') key = { month: formatDate(localDateOfHour(timezone, hour)).slice(0, 7) };
      else if (by === 'hour_of_day') key = { hour_of_day: localHourOfDay(timezone, hour) };
      else if (by === 'day_of_week') key = { day_of_week: isoDayOfWeek(localDateOfHour(timezone, hour)) };
      known.set(hour, (bucket = { name: JSON.stringify(key), key }));
    }
    return bucket;
  };
}

/** The bucket of each row of `hours` for `by` (lead_day and none: one bucket). */
function bucketsOf(by: SkillBy, bucketOf: BucketOfHour, hours: ArrayLike<number>): Map<string, { key: BucketKey; rows: number[] }> {
  const buckets = new Map<string, { key: BucketKey; rows: number[] }>();
  if (by === 'lead_day') {
    // A lead day is one bucket even when it has no row (a horizon that stops before it): n = 0.
    const rows = new Array<number>(hours.length);
    for (let i = 0; i < rows.length; i++) rows[i] = i;
    buckets.set('{}', { key: {}, rows });
  } else {
    for (let i = 0; i < hours.length; i++) {
      const { name, key } = bucketOf(hours[i]);
      let bucket = buckets.get(name);
      if (!bucket) buckets.set(name, (bucket = { key, rows: [] }));
      bucket.rows.push(i);
    }
  }
  const order = (k: BucketKey) => k.month ?? k.hour_of_day ?? k.day_of_week ?? 0;
  return new Map([...buckets].sort(([, a], [, b]) => (order(a.key) < order(b.key) ? -1 : order(a.key) > order(b.key) ? 1 : 0)));
}

/** One record per local day D with the scores over D − windowDays + 1 … D (whole window inside the request's). */
function rollingRecords(input: SkillInput, f: ForecastSeries, s: PairedSeries, windowDays: number): SkillRecord[] {
  const days = Array.from({ length: f.hours.length }, (_, i) => formatDate(localDateOfHour(input.timezone, f.hours[i])));
  const rowsOfDay = new Map<string, number[]>();
  days.forEach((d, i) => {
    let rows = rowsOfDay.get(d);
    if (!rows) rowsOfDay.set(d, (rows = []));
    rows.push(i);
  });
  const first = input.firstDay ?? localDateOfHour(input.timezone, f.hours[0]);
  const out: SkillRecord[] = [];
  for (const day of rowsOfDay.keys()) {
    const end = parseDate(day);
    const start = addDays(end, -(windowDays - 1));
    if (compareDates(start, first) < 0) continue;
    const rows: number[] = [];
    for (let d = start; compareDates(d, end) <= 0; d = addDays(d, 1)) rows.push(...(rowsOfDay.get(formatDate(d)) ?? []));
    out.push({ model: f.model, date: day, days_ahead: f.daysAhead, ...rounded(scoreRows(s, rows, input.rules), input.decimals) });
  }
  return out;
}

/** The skill records of every forecast series, in input order. */
export function skillRecords(input: SkillInput): SkillRecord[] {
  const baselineOf = (f: ForecastSeries) =>
    input.baselineModel === undefined
      ? undefined
      : input.forecasts.find((b) => b.model === input.baselineModel && b.daysAhead === f.daysAhead);
  // The actual is aligned with every forecast, each baseline with the forecasts of its lead: indexed and rounded once each.
  const round = rounder(input.decimals);
  const aligned = new Map<HourSeries, AlignedSeries>();
  const alignedOf = (series: HourSeries) => {
    let out = aligned.get(series);
    if (!out) aligned.set(series, (out = { index: new HourIndex(series.hours), rounded: roundedValues(series.values, round) }));
    return out;
  };
  const capacityAt = input.capacityAt;
  const capacity = capacityAt && Float64Array.from(input.actual.hours, (hour) => capacityAt(hour));
  const pairs = input.forecasts.map((f) => {
    const baseline = baselineOf(f);
    return { f, s: paired(f, round, alignedOf(input.actual), baseline && alignedOf(baseline), capacity) };
  });
  const out: SkillRecord[] = [];
  if (input.by === 'none') {
    for (const model of new Set(input.forecasts.map((f) => f.model))) {
      const mine = pairs.filter((p) => p.f.model === model);
      const s = concatenated(mine.map((p) => p.s));
      const all = Array.from({ length: s.forecast.length }, (_, i) => i);
      const daysAhead = mine.length === 1 ? mine[0].f.daysAhead : null;
      out.push({ model, days_ahead: daysAhead, ...rounded(scoreRows(s, all, input.rules), input.decimals) });
    }
    return out;
  }
  const bucketOf = bucketOfHour(input.by, input.timezone);
  for (const { f, s } of pairs) {
    if (input.windowDays !== undefined) {
      out.push(...rollingRecords(input, f, s, input.windowDays));
      continue;
    }
    for (const { key, rows } of bucketsOf(input.by, bucketOf, f.hours).values()) {
      out.push({ model: f.model, ...key, days_ahead: f.daysAhead, ...rounded(scoreRows(s, rows, input.rules), input.decimals) });
    }
  }
  return out;
}
