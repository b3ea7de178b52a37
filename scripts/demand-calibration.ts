/**
 * Prints, per ISO, what the demand model (src/world/demand.ts) yields over 2026, to calibrate
 * DEMAND_PARAMS against docs/realism-targets.md §2a (load levels) and §1a (day-ahead MAPE):
 *   truth of `<iso>_total`: peak, mean, min (GW), winter (Dec–Feb) peak, peak hour of the mean
 *   July weekday; day-ahead MAPE of `optimized` and `iso` (run of the previous day at 10:00
 *   local); MAPE of runs made 1, 3, 7 days before at 10:00 local; poptemp means in January and July.
 * MAPE uses every 7th local day of 2026 (all hours of each).
 *
 *   node --import tsx scripts/demand-calibration.ts [iso …]
 */
import { ISOS, ISO_CODES, isIsoCode, type IsoCode } from '../src/catalog/isos.ts';
import { regionsOf } from '../src/catalog/regions.ts';
import { FORECAST_MODELS, latestRunAtOrBefore, type ForecastModelName } from '../src/models/forecastModels.ts';
import {
  addDays,
  localDateOfHour,
  localDayStartHour,
  localHourOfDay,
  localWallHourToEpochHour,
  type CivilDate,
} from '../src/time/zones.ts';
import { RegionWeatherComputer } from '../src/world/demand.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';

/** Targets from docs/realism-targets.md §2a (GW): summer peak band, mean, winter peak, min band. */
const TARGETS: Record<IsoCode, string> = {
  pjm: 'peak 150-160, mean ~89, winter ~140-145, min 55-60',
  miso: 'peak ~120-127, mean ~75, winter ~105-110, min 50-55',
  spp: 'peak ~50-56, mean ~32, winter ~44, min 20-22',
  ercot: 'peak 80-85, mean ~50, winter ~70-78, min 35-40',
  caiso: 'peak 45-48, mean ~26, winter ~30-33, min 18-21',
  nyiso: 'peak ~30-31, mean ~18, winter ~24-26, min 11-13',
  isone: 'peak 24-25, mean ~14, winter ~20-21, min 8-10',
};

const world = new WeatherWorld();
/** MAPE is taken over every n-th local day of 2026 (GRIDCAST_CAL_EVERY, default 7). */
const SAMPLE_EVERY_DAYS = Number(process.env.GRIDCAST_CAL_EVERY ?? 7);
const YEAR_START: CivilDate = { year: 2026, month: 1, day: 1 };
const YEAR_END: CivilDate = { year: 2027, month: 1, day: 1 };

function hoursBetween(zone: string, a: CivilDate, b: CivilDate): number[] {
  const out: number[] = [];
  for (let h = localDayStartHour(zone, a); h < localDayStartHour(zone, b); h++) out.push(h);
  return out;
}

function truthYear(iso: IsoCode): { valid: number[]; demand: Float64Array; poptemp: Float64Array; ms: number } {
  const zone = ISOS[iso].timezone;
  const valid = hoursBetween(zone, YEAR_START, YEAR_END);
  const t0 = performance.now();
  const c = new RegionWeatherComputer(new WeatherBatch(world, { valid, created: null }, null, {}), valid, zone);
  const total = regionsOf(iso)[0];
  const demand = new Float64Array(valid.length);
  const poptemp = new Float64Array(valid.length);
  c.demand(total, demand);
  c.poptemp(total, poptemp);
  for (const r of regionsOf(iso).slice(1)) c.demand(r, new Float64Array(valid.length)); // all zones, for timing
  return { valid, demand, poptemp, ms: performance.now() - t0 };
}

/** Rows of every 7th local day of 2026, each from the run made `daysBefore` days earlier at 10:00 local. */
function sampledRows(iso: IsoCode, model: ForecastModelName, daysBefore: number): { valid: number[]; created: number[] } {
  const zone = ISOS[iso].timezone;
  const valid: number[] = [];
  const created: number[] = [];
  for (let day = addDays(YEAR_START, 3); day.year === 2026; day = addDays(day, SAMPLE_EVERY_DAYS)) {
    const run = latestRunAtOrBefore(FORECAST_MODELS[model], localWallHourToEpochHour(zone, addDays(day, -daysBefore), 10));
    for (const h of hoursBetween(zone, day, addDays(day, 1))) {
      valid.push(h);
      created.push(run);
    }
  }
  return { valid, created };
}

function mape(iso: IsoCode, model: ForecastModelName, daysBefore: number, truthAt: Map<number, number>): number {
  const zone = ISOS[iso].timezone;
  const rows = sampledRows(iso, model, daysBefore);
  const c = new RegionWeatherComputer(new WeatherBatch(world, rows, FORECAST_MODELS[model].skill, {}), rows.valid, zone);
  const out = new Float64Array(rows.valid.length);
  c.demand(regionsOf(iso)[0], out);
  let sum = 0;
  for (let i = 0; i < out.length; i++) {
    const t = truthAt.get(rows.valid[i])!;
    sum += Math.abs(out[i] - t) / t;
  }
  return (100 * sum) / out.length;
}

const gw = (mw: number) => (mw / 1000).toFixed(1);
const isos = process.argv.slice(2).filter(isIsoCode);
for (const iso of isos.length ? isos : ISO_CODES) {
  const zone = ISOS[iso].timezone;
  const { valid, demand, poptemp, ms } = truthYear(iso);
  const truthAt = new Map(valid.map((h, i) => [h, demand[i]]));
  let peak = 0,
    min = Infinity,
    sum = 0,
    winterPeak = 0;
  const julyHour = new Float64Array(24);
  const julyCount = new Float64Array(24);
  let janT = 0,
    janN = 0,
    julT = 0,
    julN = 0;
  let weekday = 0,
    weekdayN = 0,
    weekend = 0,
    weekendN = 0;
  for (let i = 0; i < valid.length; i++) {
    const d = demand[i];
    peak = Math.max(peak, d);
    min = Math.min(min, d);
    sum += d;
    const date = localDateOfHour(zone, valid[i]);
    const wd = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
    if (date.month <= 2 || date.month === 12) winterPeak = Math.max(winterPeak, d);
    if (date.month === 1) {
      janT += poptemp[i];
      janN++;
    }
    if (date.month === 7) {
      julT += poptemp[i];
      julN++;
      if (wd !== 0 && wd !== 6) {
        const h = localHourOfDay(zone, valid[i]);
        julyHour[h] += d;
        julyCount[h]++;
      }
    }
    if (wd === 0 || wd === 6) {
      weekend += d;
      weekendN++;
    } else {
      weekday += d;
      weekdayN++;
    }
  }
  let peakHour = 0;
  for (let h = 1; h < 24; h++) if (julyHour[h] / julyCount[h] > julyHour[peakHour] / julyCount[peakHour]) peakHour = h;
  const cache = new Map<string, string>();
  const m = (model: ForecastModelName, days: number) => {
    const key = `${model}:${days}`;
    if (!cache.has(key)) cache.set(key, mape(iso, model, days, truthAt).toFixed(2));
    return cache.get(key)!;
  };
  console.log(
    `${iso.padEnd(6)} truth GW: peak ${gw(peak)} mean ${gw(sum / valid.length)} min ${gw(min)} winter peak ${gw(winterPeak)} ` +
      `| July peak hour ${peakHour} | weekend/weekday ${(weekend / weekendN / (weekday / weekdayN)).toFixed(3)} ` +
      `| poptemp Jan ${(janT / janN).toFixed(1)} °C Jul ${(julT / julN).toFixed(1)} °C | year of all regions ${ms.toFixed(0)} ms`,
  );
  console.log(
    `       MAPE %: day-ahead optimized ${m('optimized', 1)} iso ${m('iso', 1)} | optimized day 1/3/7 ${m('optimized', 1)}/${m('optimized', 3)}/${m('optimized', 7)} ` +
      `| iso day 1/3/7 ${m('iso', 1)}/${m('iso', 3)}/${m('iso', 7)}`,
  );
  console.log(`       targets GW: ${TARGETS[iso]}; day-ahead MAPE 1.5-3.5 %`);
}
