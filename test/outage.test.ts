import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ISO_CODES, type IsoCode } from '../src/catalog/isos.ts';
import {
  ISO_THERMAL_FLEET_MW,
  climatePoptemp,
  epochDayOf,
  outageForecastMw,
  outageForecastParts,
  outageNormalMw,
  outageTruthMw,
  outageTruthParts,
  zoneOutageMw,
  type OutageDayInput,
} from '../src/world/outage.ts';

const DAY_MS = 86_400_000;

function civil(epochDay: number): { year: number; month: number; day: number } {
  const d = new Date(epochDay * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** A day at the ISO's climatological temperatures (no anomaly). */
function climDay(iso: IsoCode, epochDay: number): OutageDayInput {
  const c = civil(epochDay);
  const doy = (Date.UTC(c.year, c.month - 1, c.day) - Date.UTC(c.year, 0, 1)) / DAY_MS + 0.5;
  const t = climatePoptemp(iso, doy);
  return { ...c, poptempMinC: t.minC, poptempMaxC: t.maxC };
}

function days(from: [number, number, number], to: [number, number, number]): number[] {
  const out: number[] = [];
  for (let d = epochDayOf(...from); d <= epochDayOf(...to); d++) out.push(d);
  return out;
}

function meanTruth(iso: IsoCode, list: number[], temps?: { min: number; max: number }): number {
  let sum = 0;
  for (const day of list) {
    const base = climDay(iso, day);
    const d = temps ? { ...base, poptempMinC: temps.min, poptempMaxC: temps.max } : base;
    sum += outageTruthMw(iso, d);
  }
  return sum / list.length;
}

test('planned maintenance: spring and fall seasons are well above the summer and winter peaks', () => {
  const mild = { min: 8, max: 18 }; // same weather all year: isolates the planned season
  for (const iso of ISO_CODES) {
    for (const year of [2025, 2026]) {
      const spring = meanTruth(iso, days([year, 3, 20], [year, 5, 5]), mild);
      const fall = meanTruth(iso, days([year, 10, 1], [year, 11, 10]), mild);
      const summer = meanTruth(iso, days([year, 6, 20], [year, 8, 20]), mild);
      const winter = meanTruth(iso, [...days([year, 1, 1], [year, 2, 10]), ...days([year, 12, 20], [year, 12, 31])], mild);
      // MISO keeps ~40 GW out even in winter (§2d: 61 GW in October vs 39–43 GW in February),
      // so its seasons stand about 1.5× above the peaks; elsewhere about 2× or more.
      const ratio = iso === 'miso' ? 1.35 : 1.8;
      for (const [name, peak] of [
        ['summer', summer],
        ['winter', winter],
      ] as const) {
        assert.ok(spring > ratio * peak, `${iso} ${year}: spring ${spring.toFixed(0)} vs ${name} ${peak.toFixed(0)}`);
        assert.ok(fall > ratio * peak, `${iso} ${year}: fall ${fall.toFixed(0)} vs ${name} ${peak.toFixed(0)}`);
      }
      // Near zero planned at the peaks: what remains is a small floor of long outages.
      const july = outageTruthParts(iso, { year, month: 7, day: 20, poptempMinC: 20, poptempMaxC: 30 });
      const floor = iso === 'miso' ? 0.25 : 0.1; // MISO: long overhauls and derates all year
      assert.ok(july.plannedMw < floor * ISO_THERMAL_FLEET_MW[iso], `${iso}: July planned ${july.plannedMw.toFixed(0)}`);
    }
  }
});

test('levels sit near docs/realism-targets.md §2d', () => {
  const gw = (iso: IsoCode, from: [number, number, number], to: [number, number, number]) => meanTruth(iso, days(from, to)) / 1000;
  const within = (name: string, v: number, lo: number, hi: number) =>
    assert.ok(v >= lo && v <= hi, `${name}: ${v.toFixed(1)} GW not in [${lo}, ${hi}]`);
  within('ERCOT April', gw('ercot', [2026, 4, 1], [2026, 4, 30]), 18, 33);
  within('PJM July', gw('pjm', [2026, 7, 1], [2026, 7, 31]), 9, 14);
  within('MISO October', gw('miso', [2026, 10, 1], [2026, 10, 31]), 40, 60);
  within('CAISO April', gw('caiso', [2026, 4, 1], [2026, 4, 30]), 5, 15);
  within('NYISO April', gw('nyiso', [2026, 4, 1], [2026, 4, 30]), 2, 8);
  within('ISO-NE April', gw('isone', [2026, 4, 1], [2026, 4, 30]), 2, 7);
  within('ISO-NE July', gw('isone', [2026, 7, 1], [2026, 7, 31]), 1.5, 6);
  within('MISO February', gw('miso', [2026, 2, 1], [2026, 2, 28]), 28, 45);
});

test('extreme cold raises forced outages strongly; heat moderately', () => {
  const date = { year: 2026, month: 1, day: 22 };
  for (const iso of ISO_CODES) {
    const fleet = ISO_THERMAL_FLEET_MW[iso];
    const normal = outageTruthParts(iso, { ...date, poptempMinC: 2, poptempMaxC: 10 }).forcedMw;
    const cold = outageTruthParts(iso, { ...date, poptempMinC: -24, poptempMaxC: -14 }).forcedMw;
    assert.ok(normal > 0.02 * fleet && normal < 0.09 * fleet, `${iso}: normal-day forced ${(normal / fleet).toFixed(3)}`);
    assert.ok(cold > 3 * normal, `${iso}: cold ${cold.toFixed(0)} vs normal ${normal.toFixed(0)}`);
    assert.ok(cold > 0.15 * fleet, `${iso}: cold forced only ${(cold / fleet).toFixed(3)} of fleet`);
  }
  // Elliott- and Uri-like days: 20–30 % of the fleet (± the day's random variation).
  const elliott = outageTruthParts('pjm', { year: 2022, month: 12, day: 24, poptempMinC: -18, poptempMaxC: -10 }).forcedMw;
  const uri = outageTruthParts('ercot', { year: 2021, month: 2, day: 16, poptempMinC: -13, poptempMaxC: -5 }).forcedMw;
  assert.ok(elliott / ISO_THERMAL_FLEET_MW.pjm > 0.15 && elliott / ISO_THERMAL_FLEET_MW.pjm < 0.4, `Elliott ${elliott}`);
  assert.ok(uri / ISO_THERMAL_FLEET_MW.ercot > 0.15 && uri / ISO_THERMAL_FLEET_MW.ercot < 0.4, `Uri ${uri}`);
  // Monotone in cold, and heat raises forced outages, but less than deep cold.
  let prev = 0;
  for (let t = 10; t >= -30; t -= 2) {
    const f = outageTruthParts('pjm', { ...date, poptempMinC: t, poptempMaxC: t + 8 }).forcedMw;
    assert.ok(f >= prev - 1, `forced not monotone at ${t} °C`);
    prev = f;
  }
  const july = { year: 2026, month: 7, day: 15 };
  const mild = outageTruthParts('pjm', { ...july, poptempMinC: 18, poptempMaxC: 28 }).forcedMw;
  const hot = outageTruthParts('pjm', { ...july, poptempMinC: 27, poptempMaxC: 39 }).forcedMw;
  assert.ok(hot > 1.3 * mild && hot < 3 * mild, `heat: ${hot.toFixed(0)} vs ${mild.toFixed(0)}`);
});

test('outages are finite, non-negative and below the fleet, for any weather and model', () => {
  for (const iso of ISO_CODES) {
    const fleet = ISO_THERMAL_FLEET_MW[iso];
    for (const day of days([2025, 1, 1], [2026, 12, 31])) {
      if (day % 3 !== 0) continue;
      for (const [min, max] of [
        [-45, -30],
        [-20, -8],
        [5, 15],
        [30, 48],
      ]) {
        const d = { ...civil(day), poptempMinC: min, poptempMaxC: max };
        const values = [
          outageTruthMw(iso, d),
          outageForecastMw(iso, d, 0, 'optimized', day),
          outageForecastMw(iso, d, 7, 'optimized', day - 7),
          outageForecastMw(iso, d, 14, 'iso', day - 14),
          outageForecastMw(iso, d, 3, 'normal', day - 3),
        ];
        for (const v of values) assert.ok(Number.isFinite(v) && v >= 0 && v < fleet, `${iso} ${day} ${min}: ${v}`);
      }
    }
  }
});

test('deterministic: the same inputs give the same numbers; runs differ only through their error', () => {
  const d: OutageDayInput = { year: 2026, month: 4, day: 9, poptempMinC: 6.5, poptempMaxC: 17.25 };
  const day = epochDayOf(2026, 4, 9);
  for (const iso of ISO_CODES) {
    assert.equal(outageTruthMw(iso, d), outageTruthMw(iso, { ...d }));
    assert.equal(outageForecastMw(iso, d, 3, 'optimized', day - 3), outageForecastMw(iso, { ...d }, 3, 'optimized', day - 3));
    assert.equal(outageForecastMw(iso, d, 3, 'iso', day - 3), outageForecastMw(iso, d, 3, 'iso', day - 3));
    assert.notEqual(outageForecastMw(iso, d, 3, 'optimized', day - 3), outageForecastMw(iso, d, 3, 'iso', day - 3));
    // normal ignores the weather and the run
    assert.equal(outageForecastMw(iso, d, 3, 'normal', day - 3), outageForecastMw(iso, { ...d, poptempMinC: -30 }, 9, 'normal', day - 9));
    assert.equal(outageForecastMw(iso, d, 3, 'normal', day - 3), outageNormalMw(iso, 2026, 4, 9));
  }
  // An April (maintenance season) day in PJM: tens of GW out.
  assert.ok(outageTruthMw('pjm', d) > 20_000 && outageTruthMw('pjm', d) < 70_000);
  // Day-to-day variation exists and persists: neighbouring days are closer than days a month apart.
  let near = 0;
  let far = 0;
  let n = 0;
  for (const e of days([2026, 6, 20], [2026, 8, 20])) {
    const f = (x: number) => outageTruthParts('miso', { ...civil(x), poptempMinC: 20, poptempMaxC: 30 }).forcedMw;
    near += Math.abs(f(e + 1) - f(e));
    far += Math.abs(f(e + 30) - f(e));
    n++;
  }
  assert.ok(near / n > 0 && near < 0.8 * far, `persistence: near ${near / n} far ${far / n}`);
});

test('forecasts: planned part known at every lead; error grows with lead; iso worse; normal worst', () => {
  const leads = [0, 1, 3, 7];
  for (const iso of ISO_CODES) {
    const mae: Record<string, number[]> = { optimized: [0, 0, 0, 0], iso: [0, 0, 0, 0] };
    let normalMae = 0;
    let forcedSum = 0;
    let plannedErr = 0;
    let plannedSum = 0;
    const list = days([2025, 1, 1], [2026, 12, 31]);
    for (const day of list) {
      // Same (true) temperatures for the forecast: isolates the model's own forced error.
      const d = climDay(iso, day);
      const truth = outageTruthParts(iso, d);
      forcedSum += truth.forcedMw;
      plannedSum += truth.plannedMw;
      normalMae += Math.abs(outageForecastMw(iso, d, 1, 'normal', day - 1) - truth.totalMw);
      for (const model of ['optimized', 'iso'] as const) {
        leads.forEach((lead, i) => {
          const f = outageForecastParts(iso, d, lead, model, day - lead);
          mae[model][i] += Math.abs(f.totalMw - truth.totalMw);
          if (model === 'optimized' && lead === 7) plannedErr += Math.abs(f.plannedMw - truth.plannedMw);
        });
      }
    }
    const pct = (x: number) => x / forcedSum;
    const opt = mae.optimized.map(pct);
    const isoM = mae.iso.map(pct);
    for (let i = 1; i < leads.length; i++) {
      assert.ok(opt[i] > opt[i - 1], `${iso}: optimized MAE not growing at lead ${leads[i]}: ${opt.map((x) => x.toFixed(3))}`);
      assert.ok(isoM[i] > isoM[i - 1], `${iso}: iso MAE not growing at lead ${leads[i]}: ${isoM.map((x) => x.toFixed(3))}`);
    }
    for (let i = 0; i < leads.length; i++) assert.ok(isoM[i] > opt[i], `${iso}: iso not worse at lead ${leads[i]}`);
    assert.ok(opt[1] > 0.07 && opt[1] < 0.18, `${iso}: day-1 MAE ${opt[1].toFixed(3)} of forced`);
    assert.ok(opt[3] > 0.2 && opt[3] < 0.4, `${iso}: day-7 MAE ${opt[3].toFixed(3)} of forced`);
    assert.ok(pct(normalMae) > isoM[3], `${iso}: normal ${pct(normalMae).toFixed(3)} not worst (iso d7 ${isoM[3].toFixed(3)})`);
    assert.ok(plannedErr / plannedSum < 0.03, `${iso}: planned error ${(plannedErr / plannedSum).toFixed(4)} at day 7`);
  }
});

test('consecutive runs differ little', () => {
  const day = epochDayOf(2026, 3, 15);
  const d = climDay('pjm', day);
  let step = 0;
  let jump = 0;
  for (let lead = 2; lead < 12; lead++) {
    const a = outageForecastMw('pjm', d, lead, 'optimized', day - lead);
    const b = outageForecastMw('pjm', d, lead - 1, 'optimized', day - lead + 1);
    const far = outageForecastMw('pjm', d, lead, 'optimized', day - lead - 10);
    step += Math.abs(a - b);
    jump += Math.abs(a - far);
  }
  assert.ok(step < jump, `consecutive ${step} vs ten runs apart ${jump}`);
});

test('zone shares sum back to the ISO total', () => {
  const shares = [0.31, 0.07, 0.22, 0.15, 0.25];
  for (const iso of ISO_CODES) {
    const total = outageTruthMw(iso, { year: 2026, month: 10, day: 12, poptempMinC: 7, poptempMaxC: 19 });
    const zones = shares.map((s) => zoneOutageMw(total, s));
    const sum = zones.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - total) < 1e-6 * total, `${iso}: ${sum} vs ${total}`);
    for (const z of zones) assert.ok(z >= 0 && z <= total);
  }
  assert.equal(zoneOutageMw(1000, 0), 0);
  assert.equal(zoneOutageMw(1000, 1), 1000);
});
