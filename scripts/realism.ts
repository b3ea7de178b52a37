/**
 * Realism report: what the synthetic world and its forecast models yield over a period,
 * to compare with docs/realism-targets.md (§1 forecast accuracy, §2 load
 * levels and capacity factors, §3 prices, §4 gas hubs). Calls the query layer directly (no
 * HTTP), as the API would:
 *
 *   1. error by lead day of every model against actuals for `<iso>_total`: continuous
 *      queries (days_ahead = lead, latest_hour 10) vs actuals over the same days — demand
 *      MAPE %, wind/solar NMAE % of operating capacity (solar: daylight hours only),
 *      poptemp MAE °C, any other metric MAE in its unit. Models only available as single
 *      runs (e.g. `normal`) are scored from the run made at 10:00 local of day D − lead;
 *   2. wind and solar capacity factors (mean actual / capacity), by month and for the year;
 *   3. demand peak (with its local time), mean and minimum;
 *   4. monthly mean population-weighted temperature;
 *   5. prices (USD/MWh) at the ISO's hubs (NYISO, which has none: zones WEST, CAPITL, N.Y.C.,
 *      LONGIL; any other ISO without hubs: its zones), from the truth of rtlmp and dalmp
 *      (query/lmp.ts lmpSource, model null) over every hour of the period: RT mean, p5 / p50 /
 *      p95 / max, share of negative hours, DA mean and negative share, mean DA − RT, on-peak
 *      (weekdays, hours beginning 07–22 local) vs off-peak RT, and RT mean by month;
 *   and once, not per ISO: 6. gas hub prices (query/gas.ts gasPrices, truth) on the gas days of
 *   the period — mean per calendar year, January mean, min / max, share of negative days and
 *   mean basis vs Henry Hub.
 *
 * Sections 1–5 of each ISO are computed in a worker thread (--jobs); section 6 on the main thread.
 * Like the actuals, prices end at the local day of the last hour before now.
 *
 *   npm run realism -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--iso pjm,ercot] [--every N] [--now ISO] [--jobs N]
 *
 * `--help` explains the options. Metrics and models are read at run time from REGION_METRICS
 * and FORECAST_MODEL_NAMES, so new ones show up without changes here.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { IsoCode } from '../src/catalog/isos.ts';
import type { SkillRecord } from '../src/query/skill.ts';
import type { RegionMetric } from '../src/query/regions.ts';
import type { PriceNode } from '../src/catalog/priceNodes.ts';
import type { Frame } from '../src/query/frame.ts';
import type { RequestInstant } from '../src/query/window.ts';
import type { CivilDate } from '../src/time/zones.ts';
import type { PriceTruth } from './realism/audit.ts';

// The plant block cache (src/query/blockCache.ts) would only fill up here: every frame of this
// report is computed once. It reads GRIDCAST_CACHE_MB when first imported, so it is turned off
// (unless the caller set it) before the query layer is loaded.
process.env.GRIDCAST_CACHE_MB ??= '0';
const { GAS_HUBS, GAS_TIMEZONE } = await import('../src/catalog/gasHubs.ts');
const { ISOS, ISO_CODES, isIsoCode } = await import('../src/catalog/isos.ts');
const { metricSpec } = await import('../src/catalog/metrics.ts');
const forecastModels = await import('../src/models/forecastModels.ts');
const { FORECAST_MODEL_NAMES } = forecastModels;
const { gasPrices } = await import('../src/query/gas.ts');
const { FORECAST_HISTORY_START } = await import('../src/query/kinds.ts');
const { ON_PEAK_FIRST, ON_PEAK_LAST, auditGas, auditIso, isOnPeak } = await import('./realism/audit.ts');
const { MAIN_NODE, TARGETS, formatBand, verdictOf } = await import('./realism/targets.ts');
const { capacityAt, consecutiveRuns, dayInstant, daForecastMape, priceTruth, reportedNodes, skillByLead } =
  await import('./realism/sample.ts');
const { REGION_METRICS, regionQueries } = await import('../src/query/regions.ts');
const { HOUR_MS } = await import('../src/time/hours.ts');
const { addDays, compareDates, daysBetween, formatDate, formatLocalHour, localDateOfHour, localDayStartHour, localHourOfDay, parseDate } =
  await import('../src/time/zones.ts');
const { WeatherWorld } = await import('../src/world/weather/world.ts');

// ---------------------------------------------------------------------------------------------
// Options

const HELP = `npm run realism -- [options]

Prints, per ISO, forecast error by lead day of every model against actuals of <iso>_total,
wind/solar capacity factors by month, demand peak/mean/min, monthly poptemp, and price
statistics at its hubs (NYISO: zones WEST, CAPITL, N.Y.C., LONGIL) from the rtlmp and dalmp
truth over every hour of the period; then, once, gas hub prices over the period's gas days —
for comparison with docs/realism-targets.md (§1, §2, §3, §4).

Options
  --from YYYY-MM-DD   first local day of the period (default 2026-01-01)
  --to YYYY-MM-DD     last local day of the period (default 2026-06-30)
  --iso a,b           ISOs to report (default all: ${ISO_CODES.join(',')})
  --every N           score forecasts on every N-th local day of the period only (default 1).
                      Actual and price statistics always use every day of the period; months
                      of the calendar year outside the period (for the annual capacity
                      factor) are sampled every N-th day.
  --now ISO-INSTANT   the fixed "now" (default 2026-12-31T18:00:00Z)
  --jobs N            ISOs computed in parallel worker threads (default min(2, cores))
  --help              this text

Run time, all 7 ISOs over the default half-year, 2 worker threads on 2 idle cores: about
2 minutes with --every 1, about 70 s with --every 3 (use it for quick checks), about 45 s with
--every 7; twice that with --jobs 1 or busy cores. Longer periods take proportionally longer.
The price statistics cost 30–45 s of CPU for all 7 ISOs over 10 months (2–13 s per ISO),
spread over the workers: all 7 ISOs over 2026-01-01..2026-10-31 with --every 7 took 72 s on
2 idle cores (142 s on busy ones).`;

interface Options {
  from: CivilDate;
  to: CivilDate;
  isos: IsoCode[];
  every: number;
  nowMs: number;
  jobs: number;
}

function fail(message: string): never {
  console.error(`realism: ${message}\n\n${HELP}`);
  process.exit(2);
}

function parseDay(flag: string, s: string | undefined): CivilDate {
  if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) fail(`${flag} needs a date YYYY-MM-DD (got '${s ?? ''}')`);
  const d = parseDate(s);
  if (formatDate(addDays(d, 0)) !== s) fail(`${flag}: '${s}' is not a valid date`);
  return d;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    from: { year: 2026, month: 1, day: 1 },
    to: { year: 2026, month: 6, day: 30 },
    isos: [...ISO_CODES],
    every: 1,
    nowMs: Date.parse('2026-12-31T18:00:00Z'),
    jobs: Math.min(2, availableParallelism()),
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=')
      ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)]
      : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--help':
      case '-h':
        console.log(HELP);
        return process.exit(0);
      case '--from':
        o.from = parseDay(flag, value());
        break;
      case '--to':
        o.to = parseDay(flag, value());
        break;
      case '--iso': {
        const list = (value() ?? '')
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean);
        const bad = list.filter((s) => !isIsoCode(s));
        if (list.length === 0 || bad.length) fail(`--iso: unknown ISO ${bad.join(', ') || '(none given)'}; known: ${ISO_CODES.join(',')}`);
        o.isos = list as IsoCode[];
        break;
      }
      case '--every': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) fail('--every needs a whole number ≥ 1');
        o.every = n;
        break;
      }
      case '--jobs': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) fail('--jobs needs a whole number ≥ 1');
        o.jobs = n;
        break;
      }
      case '--now': {
        const v = value() ?? '';
        const ms = Date.parse(v);
        if (!/(Z|[+-]\d{2}:?\d{2})$/.test(v) || !Number.isFinite(ms)) fail(`--now needs an ISO 8601 instant with a zone (got '${v}')`);
        o.nowMs = ms;
        break;
      }
      default:
        fail(`unknown argument '${argv[i]}'`);
    }
  }
  if (compareDates(o.to, o.from) < 0) fail('--to is before --from');
  return o;
}

// ---------------------------------------------------------------------------------------------
// Query access: the region group's queries, typed by the query layer (metrics from the registry,
// models from models/forecastModels.ts), so a new metric or model shows up here by itself.

const queries = regionQueries;
const LEADS = [1, 2, 3, 5, 7, 10, 14] as const;
const LATEST_HOUR = 10;
/** Actual and continuous windows are queried in chunks of at most this many days. */
const CHUNK_DAYS = 92;
/** Prices are computed in chunks of at most this many days (their inputs are hourly per plant and zone). */
const PRICE_CHUNK_DAYS = 31;

const world = new WeatherWorld();

function daysFrom(from: CivilDate, to: CivilDate, step = 1): CivilDate[] {
  const out: CivilDate[] = [];
  for (let d = from; compareDates(d, to) <= 0; d = addDays(d, step)) out.push(d);
  return out;
}

/** Runs of consecutive days, each at most `maxDays` (CHUNK_DAYS) long. */
function chunks(days: CivilDate[], maxDays = CHUNK_DAYS): [CivilDate, CivilDate][] {
  return consecutiveRuns(days, maxDays);
}

/** Values of the `<iso>_total` column of a frame (only that column is computed). */
function totalColumn(frame: Frame, iso: IsoCode): Float64Array {
  const col = frame.columns.find((c) => c.label[0] === `${iso}_total`) ?? frame.columns[0];
  const out = new Float64Array(frame.hours.length);
  col.fill(out);
  return out;
}

/** A series keyed by epoch hour (row start: an hour, or local midnight for daily series). */
interface Series {
  hours: number[];
  values: number[];
  units: string;
}

function emptySeries(): Series {
  return { hours: [], values: [], units: '' };
}

function append(s: Series, frame: Frame, values: Float64Array): void {
  s.units = frame.units;
  for (let i = 0; i < values.length; i++) {
    s.hours.push(frame.hours[i]);
    s.values.push(values[i]);
  }
}

/**
 * One query per chunk of consecutive days; `query` returns the frame of a chunk. Chunks
 * without data (e.g. after now) are left out; if none has data, the first error is thrown.
 */
function seriesOver(iso: IsoCode, days: CivilDate[], query: (start: RequestInstant, end: RequestInstant) => Frame): Series {
  const s = emptySeries();
  let firstError: unknown;
  let ok = 0;
  for (const [a, b] of chunks(days)) {
    let frame: Frame;
    try {
      frame = query(dayInstant(a), dayInstant(b));
    } catch (e) {
      firstError ??= e;
      continue;
    }
    append(s, frame, totalColumn(frame, iso));
    ok++;
  }
  if (ok === 0 && firstError !== undefined) throw firstError;
  return s;
}

/** "every day", "every 2nd day", "every 3rd day", "every 7th day". */
function everyNth(n: number): string {
  if (n === 1) return 'every day';
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `every ${n}${suffix} day`;
}

function message(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m
    .replace(/^Value error, /, '')
    .split('\n')[0]
    .slice(0, 200);
}

// ---------------------------------------------------------------------------------------------
// Error measures

type Measure = 'mape' | 'nmae' | 'mae';

interface MetricSpec {
  metric: RegionMetric;
  measure: Measure;
  /** Label of the measure, with its unit. */
  label: (units: string) => string;
  daylightOnly: boolean;
}

/** How the registry (catalog/metrics.ts) says a regional metric is scored. */
function specOf(metric: RegionMetric): MetricSpec {
  const measure = metricSpec(metric).errorMeasure ?? 'mae';
  if (measure === 'mape') return { metric, measure, label: () => 'MAPE %', daylightOnly: false };
  if (measure === 'nmae' || measure === 'nmae_daylight') {
    const daylightOnly = measure === 'nmae_daylight';
    return { metric, measure: 'nmae', label: () => (daylightOnly ? 'NMAE %cap, daylight' : 'NMAE %cap'), daylightOnly };
  }
  return { metric, measure: 'mae', label: (units) => `MAE ${units || '?'}`, daylightOnly: false };
}

/** Capacity (MW) of an ISO's plants of a type that operate at an epoch hour. */
interface Capacity {
  at(hour: number): number;
}

/** The measure `spec` reports, from a skill record of the API's /skill (src/query/skill.ts). */
function measured(spec: MetricSpec, r: SkillRecord): number {
  const value = spec.measure === 'mape' ? r.mape : spec.measure === 'nmae' ? r.nmae_pct_capacity : r.mae;
  return value ?? Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Formatting

function table(header: string[], rows: string[][], alignLeft = 1): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c < alignLeft ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function fmt(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '—';
  return x.toFixed(digits);
}

function signed(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '—';
  return (x >= 0 ? '+' : '') + x.toFixed(digits);
}

// ---------------------------------------------------------------------------------------------
// Per ISO

interface IsoSummary {
  iso: IsoCode;
  peakGw: number;
  meanGw: number;
  minGw: number;
  windCf: number;
  solarCf: number;
  windCfYear: number;
  solarCfYear: number;
  demandMape1: Map<string, number>;
  /** Price statistics of the reported nodes (empty if none). */
  prices: PriceStats[];
  /** Audit figures (scripts/realism/targets.ts ids) of the ISO. */
  audit: Map<string, number>;
}

interface IsoReport extends IsoSummary {
  /** The printed section of the ISO. */
  text: string;
}

const monthKey = (d: CivilDate) => d.year * 100 + d.month;

/** Mean per local month of a series (optionally divided by a capacity per hour). */
function monthlyMeans(tz: string, s: Series, cap: Capacity | null): Map<number, { sum: number; n: number }> {
  const by = new Map<number, { sum: number; n: number }>();
  for (let i = 0; i < s.hours.length; i++) {
    const v = s.values[i];
    if (!Number.isFinite(v)) continue;
    let x = v;
    if (cap) {
      const c = cap.at(s.hours[i]);
      if (c <= 0) continue;
      x = v / c;
    }
    const k = monthKey(localDateOfHour(tz, s.hours[i]));
    const m = by.get(k) ?? { sum: 0, n: 0 };
    m.sum += x;
    m.n++;
    by.set(k, m);
  }
  return by;
}

/** Mean of a series (over hours with a value), optionally per capacity. */
function meanOf(s: Series, cap: Capacity | null): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < s.hours.length; i++) {
    const v = s.values[i];
    if (!Number.isFinite(v)) continue;
    if (cap) {
      const c = cap.at(s.hours[i]);
      if (c <= 0) continue;
      sum += v / c;
    } else sum += v;
    n++;
  }
  return n ? sum / n : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Prices (docs/realism-targets.md §3) and gas hubs (§4)

/** Price statistics of one node over every hour of the period (USD/MWh; shares in %). */
interface PriceStats {
  node: string;
  nodeType: string;
  hours: number;
  rtMean: number;
  rtP5: number;
  rtP50: number;
  rtP95: number;
  rtMax: number;
  rtNegPct: number;
  daMean: number;
  daNegPct: number;
  /** Mean of dalmp − rtlmp over hours with both. */
  daMinusRt: number;
  onPeakRt: number;
  offPeakRt: number;
  /** Per local month (year·100 + month): RT mean and share of negative RT hours. */
  monthly: Map<number, { mean: number; negPct: number }>;
}

/** Quantile (linear between closest ranks) of sorted values. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  return lo + 1 < sorted.length ? sorted[lo] + (sorted[lo + 1] - sorted[lo]) * (pos - lo) : sorted[lo];
}

function summarizePrices(node: PriceNode, rt: Float64Array, da: Float64Array, onPeak: Uint8Array, month: Int32Array): PriceStats {
  const sorted = rt.filter(Number.isFinite).sort();
  let rtSum = 0,
    rtNeg = 0,
    daSum = 0,
    daNeg = 0,
    daN = 0,
    spreadSum = 0,
    spreadN = 0;
  const peak = [
    { sum: 0, n: 0 },
    { sum: 0, n: 0 },
  ];
  const byMonth = new Map<number, { sum: number; neg: number; n: number }>();
  for (let i = 0; i < rt.length; i++) {
    const r = rt[i];
    const d = da[i];
    if (Number.isFinite(d)) {
      daSum += d;
      daN++;
      if (d < 0) daNeg++;
    }
    if (!Number.isFinite(r)) continue;
    rtSum += r;
    if (r < 0) rtNeg++;
    if (Number.isFinite(d)) {
      spreadSum += d - r;
      spreadN++;
    }
    const p = peak[onPeak[i]];
    p.sum += r;
    p.n++;
    let m = byMonth.get(month[i]);
    if (!m) byMonth.set(month[i], (m = { sum: 0, neg: 0, n: 0 }));
    m.sum += r;
    m.n++;
    if (r < 0) m.neg++;
  }
  const n = sorted.length;
  const ratio = (a: number, b: number, scale = 1) => (b ? (scale * a) / b : Number.NaN);
  return {
    node: node.id,
    nodeType: node.node_type,
    hours: rt.length,
    rtMean: ratio(rtSum, n),
    rtP5: quantile(sorted, 0.05),
    rtP50: quantile(sorted, 0.5),
    rtP95: quantile(sorted, 0.95),
    rtMax: n ? sorted[n - 1] : Number.NaN,
    rtNegPct: ratio(rtNeg, n, 100),
    daMean: ratio(daSum, daN),
    daNegPct: ratio(daNeg, daN, 100),
    daMinusRt: ratio(spreadSum, spreadN),
    onPeakRt: ratio(peak[1].sum, peak[1].n),
    offPeakRt: ratio(peak[0].sum, peak[0].n),
    monthly: new Map([...byMonth].map(([k, m]) => [k, { mean: m.sum / m.n, negPct: (100 * m.neg) / m.n }])),
  };
}

/**
 * rtlmp and dalmp truth of the reported nodes over every hour of the days (local to the ISO),
 * in chunks of at most PRICE_CHUNK_DAYS consecutive days.
 */
function priceStats(iso: IsoCode, days: CivilDate[]): { stats: PriceStats[]; truth: PriceTruth } {
  const tz = ISOS[iso].timezone;
  const nodes = reportedNodes(iso);
  const truth = priceTruth(world, iso, days, PRICE_CHUNK_DAYS);
  const dates = truth.hours.map((h) => localDateOfHour(tz, h));
  const onPeak = Uint8Array.from(truth.hours, (h, i) => (isOnPeak(dates[i], localHourOfDay(tz, h)) ? 1 : 0));
  const month = Int32Array.from(dates, monthKey);
  return { stats: nodes.map((node, j) => summarizePrices(node, truth.rt[j], truth.da[j], onPeak, month)), truth };
}

/** The price section of an ISO (section 5). */
function priceSection(
  iso: IsoCode,
  from: CivilDate,
  to: CivilDate,
  requestedTo: CivilDate,
  nowMs: number,
): { lines: string[]; stats: PriceStats[]; truth?: PriceTruth } {
  const t0 = performance.now();
  const period = `${formatDate(from)}..${formatDate(to)}`;
  const lines = [''];
  if (compareDates(to, from) < 0) {
    lines.push(`Prices: no day of the period is before now (${new Date(nowMs).toISOString()})`);
    return { lines, stats: [] };
  }
  let stats: PriceStats[];
  let truth: PriceTruth;
  try {
    ({ stats, truth } = priceStats(iso, daysFrom(from, to)));
  } catch (e) {
    lines.push(`Prices: not available (${message(e)})`);
    return { lines, stats: [] };
  }
  const hubs = stats.every((s) => s.nodeType === 'hub');
  lines.push(
    `Prices, truth of rtlmp (RT) and dalmp (DA), USD/MWh, every hour of ${period} (${stats[0]?.hours ?? 0} hours), at ` +
      (hubs ? 'the hubs' : `zones ${stats.map((s) => s.node).join(', ')} (${iso} has no hubs)`),
  );
  if (compareDates(to, requestedTo) !== 0)
    lines.push(`  (truth ends at now, ${new Date(nowMs).toISOString()}: days after ${formatDate(to)} are left out)`);
  const rows = stats.map((s) => [
    s.node,
    fmt(s.rtMean, 2),
    fmt(s.rtP5),
    fmt(s.rtP50),
    fmt(s.rtP95),
    fmt(s.rtMax, 0),
    fmt(s.rtNegPct),
    fmt(s.daMean, 2),
    fmt(s.daNegPct),
    signed(s.daMinusRt, 2),
    fmt(s.onPeakRt, 2),
    fmt(s.offPeakRt, 2),
  ]);
  lines.push(
    ...table(
      ['node', 'RT mean', 'RT p5', 'RT p50', 'RT p95', 'RT max', 'RT<0 %', 'DA mean', 'DA<0 %', 'DA−RT', 'RT on-peak', 'RT off-peak'],
      rows,
    ).map((l) => '  ' + l),
  );
  lines.push(
    `  RT<0 % = share of negative hours;  DA−RT = mean(dalmp − rtlmp);  on-peak = Mon–Fri, hours beginning ` +
      `${String(ON_PEAK_FIRST).padStart(2, '0')}–${ON_PEAK_LAST} local (holidays not excluded), off-peak = the other hours`,
  );
  // RT mean and negative share by local month.
  const months = [...new Set(stats.flatMap((s) => [...s.monthly.keys()]))].sort((a, b) => a - b);
  const monthRows = months.map((k) => [
    `${Math.floor(k / 100)}-${String(k % 100).padStart(2, '0')}`,
    ...stats.map((s) => {
      const m = s.monthly.get(k);
      return m ? `${fmt(m.mean)} ${fmt(m.negPct, 0).padStart(3)}%` : '—';
    }),
  ]);
  lines.push('', `  RT mean by local month, USD/MWh, and share of negative hours`);
  lines.push(...table(['month', ...stats.map((s) => s.node)], monthRows).map((l) => '  ' + l));
  lines.push(`  (prices computed in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return { lines, stats, truth };
}

/** Gas hub prices (truth) on every gas day of the period up to now (section 6, once). */
function gasSection(o: Options): { text: string; audit: Map<string, number> } {
  const t0 = performance.now();
  const lastDay = localDateOfHour(GAS_TIMEZONE, Math.floor(o.nowMs / HOUR_MS) - 1);
  const to = compareDates(o.to, lastDay) <= 0 ? o.to : lastDay;
  const out = ['', `=== Gas hubs — truth, $/MMBtu, every gas day of ${formatDate(o.from)}..${formatDate(to)} (${GAS_TIMEZONE}) ===`];
  if (compareDates(to, o.to) !== 0)
    out.push(`  (truth ends at now, ${new Date(o.nowMs).toISOString()}: gas days after ${formatDate(to)} are left out)`);
  if (compareDates(to, o.from) < 0) return { text: out.join('\n'), audit: new Map() };
  const days = daysFrom(o.from, to);
  let pricesOf: (hub: (typeof GAS_HUBS)[number]) => Float64Array;
  try {
    pricesOf = gasPrices(
      world,
      { days, dayStart: days.map((d) => localDayStartHour(GAS_TIMEZONE, d)), created: days.map(() => Number.NaN) },
      null,
    );
  } catch (e) {
    out.push(`  not available (${message(e)})`);
    return { text: out.join('\n'), audit: new Map() };
  }
  const years: number[] = [];
  for (let y = o.from.year; y <= to.year; y++) years.push(y);
  const daysIn = (y: number) => days.filter((d) => d.year === y).length;
  const yearDays = (y: number) => daysBetween({ year: y, month: 1, day: 1 }, { year: y + 1, month: 1, day: 1 });
  const henry = GAS_HUBS.find((h) => h.id === 'henry_hub');
  const henryPrices = henry ? pricesOf(henry) : null;
  const mean = (values: Float64Array, keep: (i: number) => boolean) => {
    let sum = 0,
      n = 0;
    for (let i = 0; i < values.length; i++) {
      if (!keep(i) || !Number.isFinite(values[i])) continue;
      sum += values[i];
      n++;
    }
    return n ? sum / n : Number.NaN;
  };
  const rows = GAS_HUBS.map((hub) => {
    const p = hub === henry ? henryPrices! : pricesOf(hub);
    const finite = p.filter(Number.isFinite);
    const basis =
      henryPrices && hub !== henry
        ? mean(
            Float64Array.from(p, (v, i) => v - henryPrices[i]),
            () => true,
          )
        : Number.NaN;
    return [
      hub.id,
      ...years.map((y) =>
        fmt(
          mean(p, (i) => days[i].year === y),
          2,
        ),
      ),
      fmt(
        mean(p, (i) => days[i].month === 1),
        2,
      ),
      fmt(finite.length ? Math.min(...finite) : Number.NaN, 2),
      fmt(finite.length ? Math.max(...finite) : Number.NaN, 2),
      fmt(finite.length ? (100 * finite.filter((v) => v < 0).length) / finite.length : Number.NaN),
      hub === henry ? '' : signed(basis, 2),
    ];
  });
  const yearHeader = (y: number) => (daysIn(y) < yearDays(y) ? `${y} (${daysIn(y)}d)` : `${y}`);
  out.push(...table(['hub', ...years.map(yearHeader), 'Jan', 'min', 'max', '<0 days %', 'basis vs HH'], rows).map((l) => '  ' + l));
  out.push(
    `  year = mean over the year's gas days in the period (Nd: only N days of it);  Jan = mean over the period's January days;  ` +
      `basis = mean(hub − Henry Hub)`,
  );
  out.push(`  (gas done in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return { text: out.join('\n'), audit: henryPrices ? auditGas(henryPrices) : new Map() };
}

/** One row per reported price node of every ISO (when more than one ISO is reported). */
function printPriceSummary(summaries: IsoSummary[], options: Options): void {
  if (summaries.length < 2 || summaries.every((s) => s.prices.length === 0)) return;
  console.log(
    `\nPrices, ${formatDate(options.from)}..${formatDate(options.to)} (truth, USD/MWh; RT<0 % = share of negative real-time hours; DA−RT = mean(dalmp − rtlmp))`,
  );
  const rows = summaries.flatMap((s) =>
    s.prices.map((p, i) => [
      i === 0 ? s.iso : '',
      p.node,
      fmt(p.rtMean, 2),
      fmt(p.rtP5),
      fmt(p.rtP95),
      fmt(p.rtNegPct),
      fmt(p.daMean, 2),
      signed(p.daMinusRt, 2),
      fmt(p.onPeakRt / p.offPeakRt, 2),
    ]),
  );
  console.log(
    table(['iso', 'node', 'RT mean', 'RT p5', 'RT p95', 'RT<0 %', 'DA mean', 'DA−RT', 'on/off-peak'], rows, 2)
      .map((l) => '  ' + l)
      .join('\n'),
  );
}

function reportIso(iso: IsoCode, o: Options): IsoReport {
  const t0 = performance.now();
  const tz = ISOS[iso].timezone;
  const periodDays = daysFrom(o.from, o.to);
  // Forecasts are scored only on days with actuals: up to the local day of the last published hour.
  const lastActualDay = localDateOfHour(tz, Math.floor(o.nowMs / HOUR_MS) - 1);
  const scoredTo = compareDates(o.to, lastActualDay) <= 0 ? o.to : lastActualDay;
  const sampled = daysFrom(o.from, scoredTo, o.every);
  const metrics = [...REGION_METRICS];
  const models = [...FORECAST_MODEL_NAMES];
  if (!models.includes('normal')) models.push('normal');
  const out: string[] = [];
  const period = `${formatDate(o.from)}..${formatDate(o.to)}`;
  out.push('', `=== ${iso.toUpperCase()} (${ISOS[iso].name}, ${tz}) — ${iso}_total, period ${period} ===`);

  // Actuals over the whole period, once per metric; and over the rest of the period's
  // calendar years (every N-th day) for the monthly and annual figures.
  const yearDays: CivilDate[] = [];
  for (let y = o.from.year; y <= o.to.year; y++) {
    for (const d of daysFrom({ year: y, month: 1, day: 1 }, { year: y, month: 12, day: 31 }, o.every)) {
      if (compareDates(d, o.from) < 0 || compareDates(d, o.to) > 0) yearDays.push(d);
    }
  }
  const actualOf = (metric: RegionMetric, days: CivilDate[]): Series | string => {
    if (days.length === 0) return emptySeries();
    try {
      return seriesOver(iso, days, (start, end) => queries.actual(world, { iso, metric, id: `${iso}_total`, start, end, nowMs: o.nowMs }));
    } catch (e) {
      return message(e);
    }
  };
  const caps: Record<string, Capacity> = { wind: { at: capacityAt(iso, 'wind') }, solar: { at: capacityAt(iso, 'solar') } };

  // 1. Forecast error by lead.
  const errorRows: string[][] = [];
  const notes: string[] = [];
  /** "model: reason" → metrics it was skipped for. */
  const unavailable = new Map<string, string[]>();
  const periodActuals = new Map<string, Series>();
  const demandMape1 = new Map<string, number>();
  const demandMape = new Map<string, Map<number, number>>();
  for (const metric of metrics) {
    const spec = specOf(metric);
    const actual = actualOf(metric, periodDays);
    if (typeof actual === 'string') {
      notes.push(`${metric}: no actuals (${actual})`);
      continue;
    }
    periodActuals.set(metric, actual);
    let first = true;
    for (const model of models) {
      if (sampled.length === 0) break;
      // The API's skill code: continuous at each lead (latest_hour 10) against the actuals.
      const byLead = skillByLead(world, iso, metric, model, sampled, LEADS, actual, o.nowMs);
      const reached = LEADS.filter((l) => byLead.get(l)!.n > 0);
      if (reached.length === 0) {
        const key = `${model}: no continuous series scored in the period`;
        unavailable.set(key, [...(unavailable.get(key) ?? []), metric]);
        continue;
      }
      const digits = spec.measure === 'mae' && actual.units === 'MW' ? 0 : 2;
      const cells = LEADS.map((l) => (byLead.get(l)!.n > 0 ? fmt(measured(spec, byLead.get(l)!), digits) : '—'));
      const bias = byLead.get(1)!.n > 0 ? signed(byLead.get(1)!.bias ?? Number.NaN, actual.units === 'MW' ? 0 : 2) : '—';
      const n = Math.max(...LEADS.map((l) => byLead.get(l)!.n));
      errorRows.push([first ? metric : '', first ? spec.label(actual.units) : '', model, ...cells, bias, String(n)]);
      first = false;
      if (metric === 'demand') {
        demandMape1.set(model, measured(spec, byLead.get(1)!));
        demandMape.set(model, new Map(reached.map((l) => [l, measured(spec, byLead.get(l)!)])));
      }
    }
  }
  const everyText = o.every === 1 ? 'every day' : `${everyNth(o.every)} (${sampled.length} days)`;
  const scoredPeriod = `${formatDate(o.from)}..${formatDate(scoredTo)}`;
  out.push(`Forecast error vs actuals by lead day (days_ahead, latest_hour ${LATEST_HOUR} local), ${everyText} of ${scoredPeriod}`);
  if (sampled.length === 0) out.push('  (no day of the period has actuals yet: nothing to score)');
  else if (scoredTo !== o.to)
    out.push(`  (actuals end at now, ${new Date(o.nowMs).toISOString()}: days after ${formatDate(scoredTo)} are not scored)`);
  out.push(...table(['metric', 'measure', 'model', ...LEADS.map((l) => `d${l}`), 'bias d1', 'rows'], errorRows, 3).map((l) => '  ' + l));
  out.push(
    "  — = beyond the model's horizon or no data;  NMAE = |error| / operating capacity;  bias = mean(forecast − actual), in the unit;" +
      '  scored by the code of GET …/skill (values as served)',
  );
  for (const [key, ms] of unavailable) {
    const colon = key.indexOf(': ');
    out.push(
      `  skipped ${key.slice(0, colon)} for ${ms.length === metrics.length ? 'all metrics' : ms.join(', ')}: ${key.slice(colon + 2)}`,
    );
  }
  for (const n of notes) out.push(`  note: ${n}`);

  // 2 & 4. Monthly capacity factors, poptemp and demand; annual from the calendar year(s).
  const yearSeries = (metric: RegionMetric): Series => {
    const p = periodActuals.get(metric) ?? emptySeries();
    const rest = actualOf(metric, yearDays);
    if (typeof rest === 'string') return p;
    return { hours: [...p.hours, ...rest.hours], values: [...p.values, ...rest.values], units: p.units || rest.units };
  };
  const monthly = {
    wind: monthlyMeans(tz, yearSeries('wind'), caps.wind),
    solar: monthlyMeans(tz, yearSeries('solar'), caps.solar),
    poptemp: monthlyMeans(tz, yearSeries('poptemp'), null),
    demand: monthlyMeans(tz, yearSeries('demand'), null),
  };
  const mean = (m: Map<number, { sum: number; n: number }>, k: number) => {
    const v = m.get(k);
    return v && v.n ? v.sum / v.n : Number.NaN;
  };
  const monthRows: string[][] = [];
  const yearMean: Record<string, Map<number, number>> = {};
  for (let y = o.from.year; y <= o.to.year; y++) {
    const acc: Record<string, { sum: number; w: number; months: number }> = {};
    for (let m = 1; m <= 12; m++) {
      const k = y * 100 + m;
      const first: CivilDate = { year: y, month: m, day: 1 };
      const last: CivilDate = { year: y, month: m, day: daysInMonth(y, m) };
      const inPeriod = compareDates(first, o.to) <= 0 && compareDates(last, o.from) >= 0;
      const hoursInMonth = localDayStartHour(tz, addDays({ year: y, month: m, day: 1 }, daysInMonth(y, m))) - localDayStartHour(tz, first);
      const row = [`${y}-${String(m).padStart(2, '0')}${inPeriod ? ' ' : '~'}`];
      for (const [name, scale, digits] of [
        ['wind', 100, 1],
        ['solar', 100, 1],
        ['poptemp', 1, 1],
        ['demand', 1e-3, 1],
      ] as const) {
        const v = mean(monthly[name], k) * scale;
        row.push(fmt(v, digits));
        if (Number.isFinite(v)) {
          const a = (acc[name] ??= { sum: 0, w: 0, months: 0 });
          a.sum += v * hoursInMonth;
          a.w += hoursInMonth;
          a.months++;
        }
      }
      monthRows.push(row);
    }
    const row = [`${y} year`];
    for (const name of ['wind', 'solar', 'poptemp', 'demand']) {
      const a = acc[name];
      const v = a && a.w ? a.sum / a.w : Number.NaN;
      (yearMean[name] ??= new Map()).set(y, v);
      row.push(fmt(v, 1) + (a && a.months < 12 ? ` (${a.months}m)` : ''));
    }
    monthRows.push(row);
  }
  const pw = periodActuals.get('wind');
  const ps = periodActuals.get('solar');
  const pt = periodActuals.get('poptemp');
  const pd = periodActuals.get('demand');
  monthRows.push([
    'period',
    fmt(pw ? 100 * meanOf(pw, caps.wind) : Number.NaN),
    fmt(ps ? 100 * meanOf(ps, caps.solar) : Number.NaN),
    fmt(pt ? meanOf(pt, null) : Number.NaN),
    fmt(pd ? meanOf(pd, null) / 1000 : Number.NaN),
  ]);
  const endHour = localDayStartHour(tz, addDays(o.to, 1)) - 1;
  out.push(
    '',
    `Monthly means of actuals: capacity factor = actual / operating capacity (wind ${fmt(caps.wind.at(endHour) / 1000, 1)} GW, ` +
      `solar ${fmt(caps.solar.at(endHour) / 1000, 1)} GW at ${formatDate(o.to)}); poptemp °C; demand GW`,
  );
  out.push(...table(['month', 'wind CF %', 'solar CF %', 'poptemp °C', 'demand GW'], monthRows).map((l) => '  ' + l));
  out.push(
    `  ~ = month outside the period: ${o.every === 1 ? 'all days' : everyNth(o.every)}; year = hour-weighted mean of the months with data`,
  );

  // 3. Demand peak, mean, min over every hour of the period.
  let peak = -Infinity,
    peakAt = 0,
    min = Infinity,
    minAt = 0;
  if (pd) {
    for (let i = 0; i < pd.hours.length; i++) {
      const v = pd.values[i];
      if (!Number.isFinite(v)) continue;
      if (v > peak) [peak, peakAt] = [v, pd.hours[i]];
      if (v < min) [min, minAt] = [v, pd.hours[i]];
    }
  }
  const meanGw = pd ? meanOf(pd, null) / 1000 : Number.NaN;
  out.push('', `Demand ${iso}_total actuals, every hour of ${period} (GW, local time)`);
  if (pd && Number.isFinite(peak)) {
    out.push(
      ...table(
        ['', 'GW', 'at (local)'],
        [
          ['peak', fmt(peak / 1000, 2), formatLocalHour(tz, peakAt)],
          ['mean', fmt(meanGw, 2), `${pd.hours.length} hours`],
          ['min', fmt(min / 1000, 2), formatLocalHour(tz, minAt)],
        ],
      ).map((l) => '  ' + l),
    );
  } else out.push('  no demand actuals');

  // 5. Prices at the hubs, every hour of the period up to now.
  const prices = priceSection(iso, o.from, scoredTo, o.to, o.nowMs);
  out.push(...prices.lines);
  const daForecast = prices.truth ? daForecastSection(iso, sampled, o.nowMs, prices.truth) : undefined;
  if (daForecast) out.push(...daForecast.lines);
  const audit = auditIso({
    iso,
    timezone: tz,
    demand: pd,
    wind: pw,
    solar: ps,
    poptemp: pt,
    outage: periodActuals.get('outage'),
    windCapacityAt: caps.wind.at,
    demandMape,
    prices: prices.truth,
    daForecastMape: daForecast?.mape,
  });
  out.push(`  (${iso} done in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return {
    text: out.join('\n'),
    iso,
    peakGw: peak / 1000,
    meanGw,
    minGw: min / 1000,
    windCf: pw ? 100 * meanOf(pw, caps.wind) : Number.NaN,
    solarCf: ps ? 100 * meanOf(ps, caps.solar) : Number.NaN,
    windCfYear: yearMean.wind?.get(o.from.year) ?? Number.NaN,
    solarCfYear: yearMean.solar?.get(o.from.year) ?? Number.NaN,
    demandMape1,
    prices: prices.stats,
    audit,
  };
}

/** DA price forecasts at the ISO's MAIN_NODE against the DA clearing, on the sampled days of forecast history. */
function daForecastSection(
  iso: IsoCode,
  sampled: CivilDate[],
  nowMs: number,
  truth: PriceTruth,
): { lines: string[]; mape: Map<number, number> } | undefined {
  const node = truth.nodes.indexOf(MAIN_NODE[iso]);
  const days = sampled.filter((d) => compareDates(d, FORECAST_HISTORY_START) >= 0);
  if (node < 0 || days.length === 0) return undefined;
  const scores = daForecastMape(world, iso, days, new Map(truth.hours.map((h, i) => [h, truth.da[node][i]])), nowMs);
  const rows = [...scores].map(([lead, s]) => [`d${lead}`, fmt(s.mape, 1), String(s.hours)]);
  const lines = [
    '',
    `DA price forecasts (dalmp continuous, optimized, latest_hour ${LATEST_HOUR}) vs the DA clearing at ${MAIN_NODE[iso]}, ` +
      `${days.length} sampled days from ${formatDate(FORECAST_HISTORY_START)} (hours with |clearing| ≥ $5)`,
    ...table(['days_ahead', 'MAPE %', 'hours'], rows).map((l) => '  ' + l),
  ];
  return { lines, mape: new Map([...scores].map(([lead, s]) => [lead, s.mape])) };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// ---------------------------------------------------------------------------------------------
// Main

/** Reports the ISOs in worker threads, `jobs` at a time, printing sections in the requested order. */
async function reportInWorkers(o: Options): Promise<IsoReport[]> {
  const reports = new Array<IsoReport | undefined>(o.isos.length);
  let nextToPrint = 0;
  let nextToStart = 0;
  const flush = () => {
    while (nextToPrint < reports.length && reports[nextToPrint]) console.log(reports[nextToPrint++]!.text);
  };
  const runOne = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      if (nextToStart >= o.isos.length) return resolve();
      const index = nextToStart++;
      worker.once('message', (report: IsoReport) => {
        reports[index] = report;
        flush();
        runOne(worker).then(resolve, reject);
      });
      worker.postMessage(o.isos[index]);
    });
  // tsx's loader hooks do not reach worker threads through execArgv: each worker registers them.
  const boot =
    `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const workers = Array.from({ length: Math.min(o.jobs, o.isos.length) }, () => new Worker(boot, { eval: true, workerData: o }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            w.once('error', reject);
            runOne(w).then(resolve, reject);
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return reports as IsoReport[];
}

if (!isMainThread) {
  // A worker: report each ISO the main thread sends.
  const o = workerData as Options;
  parentPort!.on('message', (iso: IsoCode) => parentPort!.postMessage(reportIso(iso, o)));
} else {
  const started = performance.now();
  const options = parseOptions(process.argv.slice(2));
  const parallel = options.jobs > 1 && options.isos.length > 1;
  console.log(
    `gridcast realism report — period ${formatDate(options.from)}..${formatDate(options.to)}, now ${new Date(options.nowMs).toISOString()}, ` +
      `forecasts scored on ${everyNth(options.every)}; ` +
      `metrics: ${REGION_METRICS.join(', ')}; models: ${FORECAST_MODEL_NAMES.join(', ')}` +
      (parallel ? `; ${Math.min(options.jobs, options.isos.length)} worker threads` : ''),
  );
  let summaries: IsoSummary[] = [];
  if (parallel) summaries = await reportInWorkers(options);
  else {
    for (const iso of options.isos) {
      const report = reportIso(iso, options);
      console.log(report.text);
      summaries.push(report);
    }
  }
  let gasAudit = new Map<string, number>();
  try {
    const gas = gasSection(options);
    console.log(gas.text);
    gasAudit = gas.audit;
  } catch (e) {
    console.log(`\n=== Gas hubs ===\n  not available (${message(e)})`);
  }
  printSummary(summaries, options);
  printPriceSummary(summaries, options);
  printAudit(new Map([...summaries.flatMap((s) => [...s.audit]), ...gasAudit]), options);
  console.log(`\nrun time ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function printSummary(summaries: IsoSummary[], options: Options): void {
  if (summaries.length > 1) {
    const models = [...new Set(summaries.flatMap((s) => [...s.demandMape1.keys()]))];
    console.log(
      `\nSummary, ${formatDate(options.from)}..${formatDate(options.to)} (demand GW over every hour; CF % of operating capacity; d1 = day-ahead demand MAPE %)`,
    );
    const rows = summaries.map((s) => [
      s.iso,
      fmt(s.peakGw, 1),
      fmt(s.meanGw, 1),
      fmt(s.minGw, 1),
      fmt(s.windCf),
      fmt(s.solarCf),
      fmt(s.windCfYear),
      fmt(s.solarCfYear),
      ...models.map((m) => fmt(s.demandMape1.get(m) ?? Number.NaN, 2)),
    ]);
    const y = options.from.year;
    console.log(
      table(['iso', 'peak', 'mean', 'min', 'wind CF', 'solar CF', `wind ${y}`, `solar ${y}`, ...models.map((m) => `d1 ${m}`)], rows)
        .map((l) => '  ' + l)
        .join('\n'),
    );
  }
}

/**
 * Every audit figure (scripts/realism/targets.ts) next to its band, with a verdict; figures the
 * period or the ISOs reported cannot give are shown as n/a with the reason.
 */
function printAudit(values: Map<string, number>, options: Options): void {
  console.log(
    `\nRealism audit, ${formatDate(options.from)}..${formatDate(options.to)}: each figure against its target band ` +
      `(item = issue 14's item, 0 = kept in band from earlier rounds; sources in scripts/realism/targets.ts and the README)`,
  );
  const rows = TARGETS.map((t) => {
    const v = values.get(t.id);
    const verdict = verdictOf(v, t.band);
    return [String(t.item), t.id, v === undefined ? '—' : fmt(v, Math.abs(v) >= 100 ? 0 : 2), formatBand(t.band), verdict, t.figure];
  });
  console.log(
    table(['item', 'figure', 'value', 'band', 'verdict', 'what'], rows, 2)
      .map((l) => '  ' + l)
      .join('\n'),
  );
  const counted = rows.filter((r) => r[4] !== 'n/a');
  const inBand = counted.filter((r) => r[4] === 'in band').length;
  console.log(
    `  ${inBand} of ${counted.length} figures in band; ${rows.length - counted.length} n/a (not measurable from this period or these ISOs)`,
  );
}
