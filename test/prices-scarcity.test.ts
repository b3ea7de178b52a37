/**
 * Price formation behaviour of issue 14: reserve-shortage pricing up to the caps, node prices
 * within [floor, cap], day-ahead forecasts that do not know the clearing, persistent real-time
 * deviations, and values that do not depend on the window asked for.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ISOS, ISO_CODES } from '../src/catalog/isos.ts';
import { priceNodeById, priceNodesOf } from '../src/catalog/priceNodes.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { modelSchedule } from '../src/sources/schedule.ts';
import { runForDay } from '../src/query/continuous.ts';
import { lmpConditions, lmpSource } from '../src/query/lmp.ts';
import { addDays, compareDates, localDateOfHour, localDayStartHour, parseDate } from '../src/time/zones.ts';
import { hourPrice, LMP_PARAMS } from '../src/world/lmp.ts';
import { ISO_THERMAL_FLEET_MW } from '../src/world/outage.ts';
import { shortageAdder } from '../src/world/scarcity.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';

const world = new WeatherWorld();
const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((s, x) => s + x, 0) / xs.length;

function hoursOf(iso: keyof typeof ISOS, from: string, to: string): number[] {
  const tz = ISOS[iso].timezone;
  const valid: number[] = [];
  for (let d = parseDate(from); compareDates(d, parseDate(to)) <= 0; d = addDays(d, 1))
    for (let h = localDayStartHour(tz, d); h < localDayStartHour(tz, addDays(d, 1)); h++) valid.push(h);
  return valid;
}
const truthRows = (valid: number[]) => ({ valid, created: valid.map(() => Number.NaN) });

describe('shortage pricing', () => {
  test('ERCOT ORDC: VOLL at or below the minimum contingency level, small with ample reserves', () => {
    const ordc = LMP_PARAMS.ercot.shortage;
    assert.equal(ordc.kind, 'ordc');
    assert.ok(Math.abs(30 + shortageAdder(ordc, 2_000, 30) - 5000) < 1, 'reserves below the MCL price at VOLL');
    const mid = shortageAdder(ordc, 5_000, 30);
    assert.ok(mid > 500 && mid < 2_500, `adder at 5 GW of reserves: ${mid}`);
    assert.ok(shortageAdder(ordc, 25_000, 30) < 1);
  });

  test('every ISO prices at its cap when reserves run out, and near cost when they are ample', () => {
    for (const iso of ISO_CODES) {
      const p = LMP_PARAMS[iso];
      const x = { hour: 490_000, demandMw: 60_000, windMw: 0, solarMw: 0, outageMw: 0, gas: 3 };
      // Demand well beyond the whole fleet: reserves are negative.
      const short = hourPrice(iso, { ...x, demandMw: 1.3 * (p.baseloadMw + p.importsMw + 200_000) });
      assert.equal(short, p.cap, `${iso} in shortage`);
      const offered = ISO_THERMAL_FLEET_MW[iso] - p.nuclearMw - p.unofferedMw;
      const calm = hourPrice(iso, { ...x, demandMw: (p.baseloadMw + p.importsMw + 0.4 * offered) / (1 - p.minThermalShare) });
      assert.ok(calm > 0 && calm < 100, `${iso} with ample reserves: ${calm}`);
    }
  });
});

describe('prices over a hot ERCOT summer month', () => {
  const valid = hoursOf('ercot', '2023-08-01', '2023-08-31');
  const rt = lmpSource(world, 'ercot', 'rtlmp', truthRows(valid), null);
  const da = lmpSource(world, 'ercot', 'dalmp', truthRows(valid), null);
  const north = priceNodeById('ercot', 'HB_NORTH')!;

  test('node prices stay within the ISO floor and cap', () => {
    const { floor, cap } = LMP_PARAMS.ercot;
    for (const node of priceNodesOf('ercot'))
      for (const src of [rt, da]) for (const v of src(node)) assert.ok(v >= floor && v <= cap, `${node.id}: ${v}`);
  });

  test('tight hours reach hundreds to thousands of $/MWh; RT − DA persists from hour to hour', () => {
    const r = rt(north);
    const d = da(north);
    assert.ok(Math.max(...r) > 1000, `max RT ${Math.max(...r)}`);
    const dev = Array.from(r, (x, i) => x - d[i]);
    const m = mean(dev);
    let num = 0;
    let den = 0;
    for (let i = 0; i < dev.length; i++) {
      den += (dev[i] - m) ** 2;
      if (i > 0) num += (dev[i] - m) * (dev[i - 1] - m);
    }
    assert.ok(num / den >= 0.4, `lag-1 autocorrelation of RT − DA: ${num / den}`);
    // Spikes come where reserves are short.
    const tight = lmpConditions(world, 'ercot', 'rtlmp', truthRows(valid), null).map((c) => c.tightness);
    const spikes = dev.map((x, i) => i).filter((i) => r[i] > d[i] + Math.max(50, d[i]));
    assert.ok(spikes.length > 0 && spikes.filter((i) => tight[i] > 0.05).length >= 0.6 * spikes.length, `${spikes.length} spikes`);
  });

  test('the day-ahead forecast with the defaults misses the clearing by 5–30 % (it cannot know the market)', () => {
    const tz = ISOS.ercot.timezone;
    const stitch = { timezone: tz, runs: modelSchedule(FORECAST_MODELS.optimized), latestHour: 10, daysAhead: 1 };
    const rows = { valid, created: valid.map((h) => runForDay(stitch, localDateOfHour(tz, h))) };
    const fc = lmpSource(world, 'ercot', 'dalmp', rows, FORECAST_MODELS.optimized)(north);
    const cleared = da(north);
    const ape = Array.from(fc, (f, i) => Math.abs(f - cleared[i]) / Math.max(10, Math.abs(cleared[i]))).sort((a, b) => a - b);
    const median = ape[ape.length >> 1];
    assert.ok(median > 0.05 && median < 0.3, `median APE ${median}`);
  });

  test('values do not depend on the window asked for', () => {
    const part = valid.slice(100, 160);
    for (const type of ['rtlmp', 'dalmp'] as const) {
      const whole = lmpSource(world, 'ercot', type, truthRows(valid), null)(north).slice(100, 160);
      assert.deepEqual(Array.from(lmpSource(world, 'ercot', type, truthRows(part), null)(north)), Array.from(whole));
    }
  });
});
