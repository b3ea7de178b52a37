/**
 * Bias of demand forecasts by month, and where it comes from (README, Realism report, round 10).
 *
 *   node --import tsx scripts/demand-bias.ts [--iso isone,pjm] [--model optimized|iso|normal] [--days 7]
 *     [--from 2023-01-01 --to 2026-10-31] [--every 1] [--seed N,…] [--without noise,error,drift,extremes]
 *
 * For each ISO's `<iso>_total` and each days_ahead d, takes every --every-th local day D of the period
 * from the run made at 10:00 local of D − d (the continuous series at latest_hour 10, computed with
 * the world code directly, so years before forecast history can be scored too) and prints by calendar
 * month (all years of the period pooled) and for the period:
 *   bias %   100 · Σ(forecast − actual) / Σ actual          MAPE %  mean |forecast − actual| / actual
 *   T bias   mean(forecast − actual) poptemp (°C)          T MAE   mean |forecast − actual| poptemp
 *   SD ratio SD of forecast poptemp ÷ SD of actual poptemp over the hours of the cell
 * `--without` removes parts of the world from truth and forecast alike, to tell the causes apart:
 *   noise    every load noise term (drift, the run's load-model error, the noise parts)
 *   error    the run's own load-model error only
 *   drift    the slow load drift only
 *   extremes the heat domes and Arctic outbreaks (and the climate of them that forecasts expect)
 * (by replacing the computer's and the extremes' methods in this process only). Several seeds:
 * their sums are pooled. Prints the CPU time it took last.
 */
import { parseArgs } from 'node:util';
import { ISOS, ISO_CODES, isIsoCode, type IsoCode } from '../src/catalog/isos.ts';
import { regionsOf } from '../src/catalog/regions.ts';
import { FORECAST_MODELS, latestRunAtOrBefore, type ForecastModelName } from '../src/models/forecastModels.ts';
import { addDays, compareDates, localDayStartHour, localWallHourToEpochHour, type CivilDate } from '../src/time/zones.ts';
import { RegionWeatherComputer } from '../src/world/demand.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { ExtremeRows } from '../src/world/weather/extremes.ts';
import { DEFAULT_WORLD_SEED, WeatherWorld } from '../src/world/weather/world.ts';

const { values: o } = parseArgs({
  options: {
    iso: { type: 'string', default: ISO_CODES.join(',') },
    model: { type: 'string', default: 'optimized' },
    days: { type: 'string', default: '7' },
    from: { type: 'string', default: '2023-01-01' },
    to: { type: 'string', default: '2026-10-31' },
    every: { type: 'string', default: '1' },
    seed: { type: 'string', default: String(DEFAULT_WORLD_SEED) },
    without: { type: 'string', default: '' },
  },
});

const without = new Set(o.without.split(',').filter((s) => s));
for (const w of without) if (!['noise', 'error', 'drift', 'extremes'].includes(w)) throw new Error(`--without: unknown part ${w}`);
// Methods replaced for the ablations (this script's process only).
const proto = RegionWeatherComputer.prototype as unknown as Record<string, unknown>;
if (without.has('noise'))
  proto.noise = function (this: { n: number }) {
    return new Float64Array(this.n);
  };
if (without.has('error')) proto.addModelError = () => {};
if (without.has('drift')) proto.addDrift = () => {};
/** The worlds scored (--seed a,b,…: their sums are pooled). */
const worlds = o.seed.split(',').map((seed) => new WeatherWorld(Number(seed)));
if (without.has('extremes')) ExtremeRows.prepare = () => null;

const model = o.model as ForecastModelName;
if (!(model in FORECAST_MODELS)) throw new Error(`--model: unknown model ${o.model}`);
const parseDate = (s: string): CivilDate => {
  const [year, month, day] = s.split('-').map(Number);
  return { year, month, day };
};
const from = parseDate(o.from);
const to = parseDate(o.to);
const every = Number(o.every);
const LATEST_HOUR = 10;
/** Days scored per computer (bounded memory). */
const CHUNK_DAYS = 61;

interface Sums {
  err: number;
  actual: number;
  ape: number;
  tErr: number;
  tAbs: number;
  /** Σ forecast², Σ actual² and Σ forecast, Σ actual of poptemp (for the ratio of their SDs). */
  tF: number;
  tA: number;
  tF2: number;
  tA2: number;
  n: number;
}
const empty = (): Sums => ({ err: 0, actual: 0, ape: 0, tErr: 0, tAbs: 0, tF: 0, tA: 0, tF2: 0, tA2: 0, n: 0 });

/** Demand and poptemp of the ISO total on rows (truth when created is null). */
function compute(
  world: WeatherWorld,
  iso: IsoCode,
  valid: number[],
  created: number[] | null,
): { demand: Float64Array; poptemp: Float64Array } {
  const skill = created ? FORECAST_MODELS[model].skill : null;
  const c = new RegionWeatherComputer(new WeatherBatch(world, { valid, created }, skill, {}), valid, ISOS[iso].timezone);
  const total = regionsOf(iso)[0];
  const demand = new Float64Array(valid.length);
  const poptemp = new Float64Array(valid.length);
  c.demand(total, demand);
  c.poptemp(total, poptemp);
  return { demand, poptemp };
}

function score(iso: IsoCode, lead: number): { byMonth: Sums[]; all: Sums } {
  const tz = ISOS[iso].timezone;
  const byMonth = Array.from({ length: 12 }, empty);
  const all = empty();
  const days: CivilDate[] = [];
  for (let d = from; compareDates(d, to) <= 0; d = addDays(d, every)) days.push(d);
  for (let k = 0; k < days.length; k += CHUNK_DAYS) {
    const chunk = days.slice(k, k + CHUNK_DAYS);
    const valid: number[] = [];
    const created: number[] = [];
    const month: number[] = [];
    for (const d of chunk) {
      const run = latestRunAtOrBefore(FORECAST_MODELS[model], localWallHourToEpochHour(tz, addDays(d, -lead), LATEST_HOUR));
      for (let h = localDayStartHour(tz, d); h < localDayStartHour(tz, addDays(d, 1)); h++) {
        valid.push(h);
        created.push(run);
        month.push(d.month - 1);
      }
    }
    for (const world of worlds) {
      const f = compute(world, iso, valid, created);
      const a = compute(world, iso, valid, null);
      for (let i = 0; i < valid.length; i++) {
        for (const s of [byMonth[month[i]], all]) {
          s.err += f.demand[i] - a.demand[i];
          s.actual += a.demand[i];
          s.ape += Math.abs(f.demand[i] - a.demand[i]) / a.demand[i];
          s.tErr += f.poptemp[i] - a.poptemp[i];
          s.tAbs += Math.abs(f.poptemp[i] - a.poptemp[i]);
          s.tF += f.poptemp[i];
          s.tA += a.poptemp[i];
          s.tF2 += f.poptemp[i] ** 2;
          s.tA2 += a.poptemp[i] ** 2;
          s.n++;
        }
      }
    }
  }
  return { byMonth, all };
}

const sdRatio = (s: Sums) => Math.sqrt((s.tF2 / s.n - (s.tF / s.n) ** 2) / (s.tA2 / s.n - (s.tA / s.n) ** 2));
const cell = (s: Sums) =>
  s.n === 0
    ? '     —     —      —     —     —'
    : `${((100 * s.err) / s.actual).toFixed(2).padStart(6)} ${((100 * s.ape) / s.n).toFixed(2).padStart(5)} ${(s.tErr / s.n).toFixed(2).padStart(6)} ${(s.tAbs / s.n).toFixed(2).padStart(5)} ${sdRatio(s).toFixed(3)}`;

const t0 = process.cpuUsage();
console.log(
  `${model}, seed ${o.seed}, ${o.from}..${o.to} every ${every} day(s)${without.size ? `, without ${[...without].join(', ')}` : ''}; ` +
    'per cell: demand bias %, MAPE %, poptemp bias °C, poptemp MAE °C, SD of forecast ÷ SD of actual poptemp',
);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
for (const iso of o.iso.split(',').filter(isIsoCode)) {
  for (const lead of o.days.split(',').map(Number)) {
    const { byMonth, all } = score(iso, lead);
    console.log(`${iso} d${lead}  all ${cell(all)}`);
    for (let m = 0; m < 12; m += 3) console.log(`   ${[m, m + 1, m + 2].map((j) => `${MONTHS[j]} ${cell(byMonth[j])}`).join('  |  ')}`);
  }
}
const cpu = process.cpuUsage(t0);
console.log(`CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
