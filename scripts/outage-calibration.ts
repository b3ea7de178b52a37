/**
 * Calibration of the daily outage model (src/world/outage.ts) against docs/realism-targets.md §2d.
 *
 *   node --import tsx scripts/outage-calibration.ts [year]
 *
 * Uses a stand-in population-weighted temperature per ISO (the climatology in
 * OUTAGE_POPTEMP_CLIMATE, via climatePoptemp, plus persistent day-to-day anomalies, a cold snap on Jan 21–25 and a
 * heat wave in mid-July) and stand-in forecast temperatures (truth plus an error whose MAE
 * grows ~1.3 °C day 1 → ~3 °C day 7; the ISO's 25 % larger). Prints per ISO the monthly mean
 * truth outage, the year's min/max, and the forecast MAE at leads 1, 3 and 7 days.
 */
import { ISO_CODES, type IsoCode } from '../src/catalog/isos.ts';
import { VALUE_NOISE1_SD, VALUE_NOISE2_SD, seedOf, valueNoise1, valueNoise2 } from '../src/world/hash.ts';
import {
  ISO_THERMAL_FLEET_MW,
  climatePoptemp,
  epochDayOf,
  outageForecastParts,
  outageNormalMw,
  outageTruthParts,
  type OutageDayInput,
  type OutageModelName,
} from '../src/world/outage.ts';

const YEAR = Number(process.argv[2] ?? 2026);
const SEED = seedOf('outage-calibration');
const LEADS = [1, 3, 7];
const MODELS: OutageModelName[] = ['optimized', 'iso', 'normal'];
/** Depth (°C, on the daily mean) of the late-January cold snap: Elliott/Uri-like in PJM and ERCOT. */
const SNAP_DEPTH: Record<IsoCode, number> = { pjm: 12, miso: 11, spp: 13, ercot: 21, caiso: 5, nyiso: 11, isone: 11 };
/** Height (°C) of the mid-July heat wave. */
const HEAT_WAVE: Record<IsoCode, number> = { pjm: 5, miso: 5, spp: 4, ercot: 3, caiso: 5, nyiso: 5, isone: 5 };

interface Civil {
  year: number;
  month: number;
  day: number;
}

function civilOf(epochDay: number): Civil {
  const d = new Date(epochDay * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function yearPos(c: Civil): number {
  return (Date.UTC(c.year, c.month - 1, c.day) - Date.UTC(c.year, 0, 1)) / 86_400_000 + 0.5;
}

/** Stand-in truth daily min/max poptemp. */
function truthTemps(iso: IsoCode, epochDay: number): { min: number; max: number } {
  const c = civilOf(epochDay);
  const t = yearPos(c);
  const k = ISO_CODES.indexOf(iso);
  const clim = climatePoptemp(iso, t);
  let anomaly = (clim.sdC * valueNoise1(SEED, 10 + k, epochDay / 3)) / VALUE_NOISE1_SD;
  const snapCentre = epochDayOf(c.year, 1, 23);
  anomaly -= SNAP_DEPTH[iso] * Math.exp(-(((epochDay - snapCentre) / 2) ** 2));
  const waveCentre = epochDayOf(c.year, 7, 16);
  anomaly += HEAT_WAVE[iso] * Math.exp(-(((epochDay - waveCentre) / 2.5) ** 2));
  return { min: clim.minC + anomaly, max: clim.maxC + anomaly };
}

/** Stand-in forecast temperatures of a run made on `runDay` for `epochDay`. */
function forecastTemps(iso: IsoCode, epochDay: number, runDay: number, model: OutageModelName): { min: number; max: number } {
  const truth = truthTemps(iso, epochDay);
  if (model === 'normal') return truth;
  const lead = epochDay - runDay;
  const sd = ((1.3 + 0.35 * lead) * (model === 'iso' ? 1.25 : 1)) / 0.8;
  const k = ISO_CODES.indexOf(iso) * 4 + (model === 'iso' ? 2 : 1);
  const err = (sd * valueNoise2(SEED, 100 + k, epochDay / 2, runDay / 3)) / VALUE_NOISE2_SD;
  return { min: truth.min + err, max: truth.max + err };
}

function input(epochDay: number, temps: { min: number; max: number }): OutageDayInput {
  return { ...civilOf(epochDay), poptempMinC: temps.min, poptempMaxC: temps.max };
}

const gw = (mw: number) => (mw / 1000).toFixed(1).padStart(5);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const first = epochDayOf(YEAR, 1, 1);
const last = epochDayOf(YEAR, 12, 31);

console.log(
  `Outage truth ${YEAR}: monthly mean total (GW); year-mean planned/forced; min and max day; peak forced day; normal − truth (year mean)`,
);
console.log(
  `iso    fleet ${MONTHS.map((m) => m.padStart(5)).join(' ')} | plan forc |  min (date)      max (date)    | peak forced (date, Tmin)     | normal bias`,
);
const maeRows: string[] = [];
for (const iso of ISO_CODES) {
  const sums = new Array<number>(12).fill(0);
  const counts = new Array<number>(12).fill(0);
  let min = Infinity;
  let max = -Infinity;
  let minDay = first;
  let maxDay = first;
  let plannedSum = 0;
  let forcedSum = 0;
  let normalSum = 0;
  let peakForced = { mw: -Infinity, day: first, tmin: 0 };
  for (let day = first; day <= last; day++) {
    const temps = truthTemps(iso, day);
    const p = outageTruthParts(iso, input(day, temps));
    normalSum += outageNormalMw(iso, civilOf(day).year, civilOf(day).month, civilOf(day).day);
    if (p.forcedMw > peakForced.mw) peakForced = { mw: p.forcedMw, day, tmin: temps.min };
    const m = civilOf(day).month - 1;
    sums[m] += p.totalMw;
    counts[m]++;
    plannedSum += p.plannedMw;
    forcedSum += p.forcedMw;
    if (p.totalMw < min) [min, minDay] = [p.totalMw, day];
    if (p.totalMw > max) [max, maxDay] = [p.totalMw, day];
  }
  const n = last - first + 1;
  const date = (d: number) => new Date(d * 86_400_000).toISOString().slice(5, 10);
  console.log(
    `${iso.padEnd(6)} ${gw(ISO_THERMAL_FLEET_MW[iso])} ${sums.map((s, i) => gw(s / counts[i])).join(' ')} |${gw(plannedSum / n)}${gw(forcedSum / n)} |` +
      `${gw(min)} (${date(minDay)})  ${gw(max)} (${date(maxDay)}) |` +
      `${gw(peakForced.mw)} =${((100 * peakForced.mw) / ISO_THERMAL_FLEET_MW[iso]).toFixed(0).padStart(3)}% (${date(peakForced.day)}, ${peakForced.tmin.toFixed(0).padStart(3)} °C) |` +
      `${((100 * (normalSum - plannedSum - forcedSum)) / (plannedSum + forcedSum)).toFixed(1).padStart(5)}%`,
  );

  // Forecast MAE: total (GW and % of the mean forced outage) and forced part alone (% of forced).
  for (const model of MODELS) {
    const cells: string[] = [];
    for (const lead of LEADS) {
      let absTotal = 0;
      let absForced = 0;
      for (let day = first; day <= last; day++) {
        const runDay = day - lead;
        const truth = outageTruthParts(iso, input(day, truthTemps(iso, day)));
        const f = outageForecastParts(iso, input(day, forecastTemps(iso, day, runDay, model)), lead, model, runDay);
        absTotal += Math.abs(f.totalMw - truth.totalMw);
        absForced += Math.abs(f.forcedMw - truth.forcedMw);
      }
      const meanForced = forcedSum / n;
      cells.push(
        `d${lead} ${gw(absTotal / n)} GW ${((100 * absTotal) / n / meanForced).toFixed(0).padStart(3)}% (forced ${((100 * absForced) / n / meanForced).toFixed(0).padStart(3)}%)`,
      );
    }
    maeRows.push(`${iso.padEnd(6)} ${model.padEnd(9)} ${cells.join('  ')}`);
  }
}

console.log('\nForecast MAE by lead: total outage (GW, and as % of the mean forced outage); forced part alone');
for (const r of maeRows) console.log(r);
