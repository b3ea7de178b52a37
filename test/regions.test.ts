import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ISOS, ISO_CODES, type IsoCode } from '../src/catalog/isos.ts';
import { countiesOf, zonesOf } from '../src/catalog/geography.ts';
import { allPlants } from '../src/catalog/plants.ts';
import {
  countyPopulation,
  loadCentres,
  populationShare,
  regionById,
  regionIdsOf,
  regionsOf,
  zoneRegionOfPlant,
  zoneRegionsOf,
  type Region,
} from '../src/catalog/regions.ts';
import { FORECAST_MODELS, latestRunAtOrBefore, type ForecastModelName } from '../src/models/forecastModels.ts';
import {
  addDays,
  localDateOfHour,
  localDayStartHour,
  localHourOfDay,
  localWallHourToEpochHour,
  type CivilDate,
} from '../src/time/zones.ts';
import { DEMAND_PARAMS, RegionWeatherComputer, nercHolidayOf, nercHolidays } from '../src/world/demand.ts';
import { WeatherBatch, newWeatherSeries } from '../src/world/weather/batch.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';
import { pointClimate } from '../src/world/climate.ts';

const WORLD = new WeatherWorld();

// ---- catalog --------------------------------------------------------------------------------

test('regions: total first, then one per membership zone, with readable names', () => {
  for (const iso of ISO_CODES) {
    const regions = regionsOf(iso);
    const [total, ...zones] = regions;
    assert.equal(total.id, `${iso}_total`);
    assert.equal(total.region_type, 'iso');
    assert.equal(total.zone, null);
    assert.match(total.name, / Total$/);
    assert.deepEqual(zones.map((z) => z.zone).sort(), [...zonesOf(iso)].sort(), iso);
    for (const r of regions) {
      assert.equal(r.iso, iso);
      assert.equal(r.timezone, ISOS[iso].timezone);
      assert.equal(regionById(r.id), r, `regionById(${r.id})`);
    }
    for (const z of zones) {
      assert.equal(z.region_type, 'zone');
      assert.equal(z.id, `${iso}_${z.zone}`);
      assert.match(z.id, /^[a-z0-9_]+$/);
    }
    assert.equal(new Set(regions.map((r) => r.name)).size, regions.length, `${iso}: names unique`);
    assert.equal(regionsOf(iso), regions, 'memoised');
    assert.deepEqual(
      regionIdsOf(iso),
      regions.map((r) => r.id),
      `${iso}: regionIdsOf, what an ingest checks ids against`,
    );
    assert.deepEqual(zoneRegionsOf(iso), zones);
  }
  const name = (id: string) => regionById(id)?.name;
  assert.equal(name('ercot_total'), 'ERCOT Total');
  assert.equal(name('pjm_total'), 'PJM Total');
  assert.equal(name('ercot_far_west'), 'ERCOT Far West');
  assert.equal(name('pjm_comed'), 'PJM ComEd');
  assert.equal(name('nyiso_nyc'), 'NYISO N.Y.C.');
  assert.equal(name('miso_lrz4'), 'MISO LRZ 4');
  assert.equal(name('isone_total'), 'ISO-NE Total');
  assert.equal(name('caiso_pge'), 'CAISO PG&E');
  assert.deepEqual(
    regionsOf('miso')
      .slice(1)
      .map((r) => r.zone),
    ['lrz1', 'lrz2', 'lrz3', 'lrz4', 'lrz5', 'lrz6', 'lrz7', 'lrz8', 'lrz9', 'lrz10'],
  );
  assert.equal(regionById('pjm_nowhere'), undefined);
  assert.equal(regionById('xyz_total'), undefined);
  assert.equal(regionById('total'), undefined);
});

test('regions: counties partition the footprint; total population is the sum of the zones', () => {
  for (const iso of ISO_CODES) {
    const [total, ...zones] = regionsOf(iso);
    const all = countiesOf(iso).map((c) => c.fips);
    assert.deepEqual([...total.counties], all);
    const fromZones = zones.flatMap((z) => z.counties);
    assert.equal(new Set(fromZones).size, fromZones.length, `${iso}: a county in two zones`);
    assert.deepEqual([...fromZones].sort(), all);
    assert.equal(
      total.population,
      zones.reduce((s, z) => s + z.population, 0),
    );
    for (const r of [total, ...zones]) {
      assert.equal(
        r.population,
        r.counties.reduce((s, f) => s + countyPopulation(f), 0),
        r.id,
      );
      assert.ok(r.population > 0, r.id);
    }
    const shares = zones.reduce((s, z) => s + populationShare(z), 0);
    assert.ok(Math.abs(shares - 1) < 1e-12);
  }
  // Known magnitudes (GeoNames places, New York City counted once through its boroughs).
  assert.ok(countyPopulation('17031') > 4e6, 'Cook County');
  const nyc = ['36005', '36047', '36061', '36081', '36085'].reduce((s, f) => s + countyPopulation(f), 0);
  assert.ok(nyc > 7.5e6 && nyc < 8.5e6, `New York City ${nyc}`);
  assert.ok(regionById('pjm_total')!.population > regionById('isone_total')!.population);
});

test('every plant is in exactly one zone of its ISO', () => {
  const plants = allPlants();
  assert.equal(plants.length, 2296);
  const zonesOfIso = new Map(ISO_CODES.map((iso) => [iso, zoneRegionsOf(iso)]));
  for (const p of plants) {
    const z = zoneRegionOfPlant(p);
    assert.equal(z.iso, p.iso);
    assert.equal(z.region_type, 'zone');
    const holding = zonesOfIso.get(p.iso)!.filter((r) => r.counties.includes(p.county_fips));
    assert.deepEqual(holding, [z], `plant ${p.id} (${p.county_fips})`);
  }
});

test('load centres: weights sum to 1, at most 12 per zone, the total is the zones weighted by population', () => {
  for (const iso of ISO_CODES) {
    const [total, ...zones] = regionsOf(iso);
    for (const r of regionsOf(iso)) {
      const c = loadCentres(r);
      assert.ok(c.length >= 1, r.id);
      assert.ok(Math.abs(c.reduce((s, x) => s + x.weight, 0) - 1) < 1e-12, `${r.id} weights`);
      assert.ok(c.every((x) => x.weight > 0 && Number.isFinite(x.lat) && Number.isFinite(x.lon)));
      assert.equal(loadCentres(r), c, 'memoised');
    }
    for (const z of zones) assert.ok(loadCentres(z).length <= 12, z.id);
    assert.equal(
      loadCentres(total).length,
      zones.reduce((s, z) => s + loadCentres(z).length, 0),
    );
  }
  // Load centres sit on the big cities.
  const near = (r: string, lat: number, lon: number) =>
    loadCentres(regionById(r)!).some((c) => Math.abs(c.lat - lat) < 0.3 && Math.abs(c.lon - lon) < 0.3);
  assert.ok(near('ercot_coast', 29.76, -95.36), 'Houston');
  assert.ok(near('pjm_comed', 41.85, -87.65), 'Chicago');
  assert.ok(near('caiso_sce', 34.05, -118.24), 'Los Angeles');
});

// ---- calendar ------------------------------------------------------------------------------

test('NERC holidays: observed dates, Sunday moves to Monday', () => {
  const fmt = (d: CivilDate) => `${d.year}-${d.month}-${d.day}`;
  assert.deepEqual(nercHolidays(2026).map(fmt), ['2026-1-1', '2026-5-25', '2026-7-4', '2026-9-7', '2026-11-26', '2026-12-25']);
  assert.deepEqual(nercHolidays(2022).map(fmt), ['2022-1-1', '2022-5-30', '2022-7-4', '2022-9-5', '2022-11-24', '2022-12-26']);
  assert.deepEqual(nercHolidays(2023).map(fmt), ['2023-1-2', '2023-5-29', '2023-7-4', '2023-9-4', '2023-11-23', '2023-12-25']);
  assert.equal(nercHolidayOf({ year: 2026, month: 11, day: 26 }), 4);
  assert.equal(nercHolidayOf({ year: 2026, month: 11, day: 27 }), -1);
});

// ---- poptemp and demand ----------------------------------------------------------------------

function hoursOf(zone: string, from: CivilDate, toExclusive: CivilDate): number[] {
  const out: number[] = [];
  for (let h = localDayStartHour(zone, from); h < localDayStartHour(zone, toExclusive); h++) out.push(h);
  return out;
}

interface Computed {
  valid: number[];
  byRegion: Map<string, { demand: Float64Array; poptemp: Float64Array }>;
}

function compute(iso: IsoCode, valid: number[], model: ForecastModelName | null, created: number[] | null): Computed {
  const skill = model ? FORECAST_MODELS[model].skill : null;
  const c = new RegionWeatherComputer(new WeatherBatch(WORLD, { valid, created }, skill, {}), valid, ISOS[iso].timezone);
  const byRegion = new Map<string, { demand: Float64Array; poptemp: Float64Array }>();
  for (const r of regionsOf(iso)) {
    const demand = new Float64Array(valid.length);
    const poptemp = new Float64Array(valid.length);
    c.demand(r, demand);
    c.poptemp(r, poptemp);
    byRegion.set(r.id, { demand, poptemp });
  }
  return { valid, byRegion };
}

const YEAR = new Map<IsoCode, Computed>();
function truthYear(iso: IsoCode): Computed {
  let y = YEAR.get(iso);
  if (!y) {
    y = compute(iso, hoursOf(ISOS[iso].timezone, { year: 2026, month: 1, day: 1 }, { year: 2027, month: 1, day: 1 }), null, null);
    YEAR.set(iso, y);
  }
  return y;
}

function assertAggregates(iso: IsoCode, c: Computed, label: string): void {
  const [total, ...zones] = regionsOf(iso);
  const t = c.byRegion.get(total.id)!;
  for (let i = 0; i < c.valid.length; i++) {
    let sum = 0;
    let weighted = 0;
    for (const z of zones) {
      const v = c.byRegion.get(z.id)!;
      sum += v.demand[i];
      weighted += (z.population / total.population) * v.poptemp[i];
    }
    assert.equal(t.demand[i], sum, `${label} ${iso} row ${i}: total demand is the sum of the zones`);
    assert.ok(Math.abs(t.poptemp[i] - weighted) < 1e-9, `${label} ${iso} row ${i}: total poptemp is the population-weighted mean`);
  }
  for (const r of regionsOf(iso)) {
    const v = c.byRegion.get(r.id)!;
    for (let i = 0; i < c.valid.length; i++) {
      assert.ok(Number.isFinite(v.demand[i]) && v.demand[i] > 0, `${label} ${r.id} row ${i}: demand ${v.demand[i]}`);
      assert.ok(Number.isFinite(v.poptemp[i]) && v.poptemp[i] > -45 && v.poptemp[i] < 50, `${label} ${r.id} poptemp ${v.poptemp[i]}`);
    }
  }
}

test('truth over 2026: aggregates, positivity, levels near realism targets', () => {
  /** [peak, mean] GW of `<iso>_total` (docs/realism-targets.md §2a), ±12 %; ERCOT's 2026 mean after ~4 %/yr growth. */
  const targets: Record<IsoCode, [number, number]> = {
    pjm: [155, 89],
    miso: [122, 75],
    spp: [53, 32],
    ercot: [83, 56.5],
    caiso: [46.5, 26],
    nyiso: [30.5, 18.3],
    isone: [24.5, 14],
  };
  for (const iso of ISO_CODES) {
    const y = truthYear(iso);
    assertAggregates(iso, y, 'truth');
    const d = y.byRegion.get(`${iso}_total`)!.demand;
    let peak = 0;
    let sum = 0;
    for (const v of d) {
      peak = Math.max(peak, v);
      sum += v;
    }
    const [p, m] = targets[iso];
    assert.ok(Math.abs(peak / 1000 / p - 1) < 0.12, `${iso} peak ${peak}`);
    assert.ok(Math.abs(sum / d.length / 1000 / m - 1) < 0.12, `${iso} mean ${sum / d.length}`);
  }
});

test('poptemp is Σ weight × temperature over the load centres, for zones and the total', () => {
  const zone = ISOS.nyiso.timezone;
  const valid = hoursOf(zone, { year: 2026, month: 2, day: 1 }, { year: 2026, month: 2, day: 8 });
  const c = compute('nyiso', valid, null, null);
  const batch = new WeatherBatch(WORLD, { valid, created: null }, null, {});
  const series = newWeatherSeries(valid.length);
  for (const r of regionsOf('nyiso')) {
    const expect = new Float64Array(valid.length);
    for (const centre of loadCentres(r)) {
      batch.sample(pointClimate(centre.lat, centre.lon), 0, series);
      for (let i = 0; i < valid.length; i++) expect[i] += centre.weight * series.tempC[i];
    }
    const got = c.byRegion.get(r.id)!.poptemp;
    for (let i = 0; i < valid.length; i++) assert.ok(Math.abs(got[i] - expect[i]) < 1e-9, `${r.id} row ${i}: ${got[i]} vs ${expect[i]}`);
  }
});

test('deterministic and independent of the window asked for', () => {
  const zone = ISOS.pjm.timezone;
  const y = truthYear('pjm');
  // A week in July, computed alone, equals the same hours of the whole year.
  const week = hoursOf(zone, { year: 2026, month: 7, day: 13 }, { year: 2026, month: 7, day: 20 });
  const alone = compute('pjm', week, null, null);
  const offset = y.valid.indexOf(week[0]);
  for (const r of regionsOf('pjm')) {
    const a = alone.byRegion.get(r.id)!;
    const b = y.byRegion.get(r.id)!;
    for (let i = 0; i < week.length; i++) {
      assert.equal(a.demand[i], b.demand[offset + i], `${r.id} demand`);
      assert.equal(a.poptemp[i], b.poptemp[offset + i], `${r.id} poptemp`);
    }
  }
  // Forecasts: one run, computed twice, and its middle day alone.
  const created = localWallHourToEpochHour(zone, { year: 2026, month: 3, day: 10 }, 10);
  const rows = hoursOf(zone, { year: 2026, month: 3, day: 11 }, { year: 2026, month: 3, day: 14 });
  const one = compute(
    'pjm',
    rows,
    'optimized',
    rows.map(() => created),
  );
  const two = compute(
    'pjm',
    rows,
    'optimized',
    rows.map(() => created),
  );
  const day = hoursOf(zone, { year: 2026, month: 3, day: 12 }, { year: 2026, month: 3, day: 13 });
  const part = compute(
    'pjm',
    day,
    'optimized',
    day.map(() => created),
  );
  const dOff = rows.indexOf(day[0]);
  for (const r of regionsOf('pjm')) {
    assert.deepEqual(one.byRegion.get(r.id), two.byRegion.get(r.id));
    for (let i = 0; i < day.length; i++) assert.equal(part.byRegion.get(r.id)!.demand[i], one.byRegion.get(r.id)!.demand[dOff + i]);
  }
  assertAggregates('pjm', one, 'forecast');
  // Stitched day-ahead rows (one run per local day, as continuous series use): a week, and one of its days alone.
  const stitched = { valid: [] as number[], created: [] as number[] };
  for (let d: CivilDate = { year: 2026, month: 11, day: 1 }; d.day < 8; d = addDays(d, 1)) {
    const run = latestRunAtOrBefore(FORECAST_MODELS.iso, localWallHourToEpochHour(zone, addDays(d, -1), 10));
    for (const h of hoursOf(zone, d, addDays(d, 1))) {
      stitched.valid.push(h);
      stitched.created.push(run);
    }
  }
  const weekRows = compute('pjm', stitched.valid, 'iso', stitched.created);
  const from = stitched.valid.indexOf(localDayStartHour(zone, { year: 2026, month: 11, day: 4 }));
  const dayRows = compute('pjm', stitched.valid.slice(from, from + 24), 'iso', stitched.created.slice(from, from + 24));
  for (const r of regionsOf('pjm')) {
    for (let i = 0; i < 24; i++) {
      assert.equal(dayRows.byRegion.get(r.id)!.demand[i], weekRows.byRegion.get(r.id)!.demand[from + i], `${r.id} stitched demand`);
      assert.equal(dayRows.byRegion.get(r.id)!.poptemp[i], weekRows.byRegion.get(r.id)!.poptemp[from + i], `${r.id} stitched poptemp`);
    }
  }
});

test('calendar and daily shape: weekends lower, holidays like Sundays, summer peak in the afternoon', () => {
  for (const iso of ISO_CODES) {
    const zone = ISOS[iso].timezone;
    const y = truthYear(iso);
    const d = y.byRegion.get(`${iso}_total`)!.demand;
    const byWeekday = new Float64Array(7);
    const countWeekday = new Float64Array(7);
    const julyHour = new Float64Array(24);
    for (let i = 0; i < y.valid.length; i++) {
      const date = localDateOfHour(zone, y.valid[i]);
      const wd = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
      if (nercHolidayOf(date) < 0) {
        byWeekday[wd] += d[i];
        countWeekday[wd]++;
      }
      if (date.month === 7 && wd !== 0 && wd !== 6 && nercHolidayOf(date) < 0) julyHour[localHourOfDay(zone, y.valid[i])] += d[i];
    }
    const mean = (k: number) => byWeekday[k] / countWeekday[k];
    const weekday = [1, 2, 3, 4, 5].reduce((s, k) => s + mean(k), 0) / 5;
    const weekend = (mean(0) + mean(6)) / 2;
    assert.ok(weekend < 0.95 * weekday && weekend > 0.88 * weekday, `${iso}: weekend/weekday ${weekend / weekday}`);
    assert.ok(mean(0) < mean(6), `${iso}: Sunday lowest`);
    const peakHour = julyHour.indexOf(Math.max(...julyHour));
    assert.ok(peakHour >= 14 && peakHour <= 19, `${iso}: July peak hour ${peakHour}`);
  }
  // Thanksgiving 2026 (Thursday) is far below the Thursday before and like a Sunday.
  const zone = ISOS.pjm.timezone;
  const y = truthYear('pjm');
  const d = y.byRegion.get('pjm_total')!.demand;
  const dayMean = (date: CivilDate) => {
    const s = y.valid.indexOf(localDayStartHour(zone, date));
    const e = y.valid.indexOf(localDayStartHour(zone, addDays(date, 1)));
    return d.slice(s, e).reduce((a, b) => a + b, 0) / (e - s);
  };
  assert.ok(dayMean({ year: 2026, month: 11, day: 26 }) < 0.95 * dayMean({ year: 2026, month: 11, day: 19 }));
});

test('forecasts: lead 0 close to truth, error grows with lead, the ISO model is worse', () => {
  const iso: IsoCode = 'pjm';
  const zone = ISOS[iso].timezone;
  const y = truthYear(iso);
  const truthAt = new Map(y.valid.map((h, i) => [h, y.byRegion.get(`${iso}_total`)!.demand[i]]));
  /**
   * MAPE (%) of the total over every 14th day of 2026, from runs made `daysBefore` days earlier
   * at 10:00 local; for −1, each hour from the run made at that hour (lead 0).
   */
  const mape = (model: ForecastModelName, daysBefore: number): number => {
    const valid: number[] = [];
    const created: number[] = [];
    for (let day: CivilDate = { year: 2026, month: 1, day: 5 }; day.year === 2026; day = addDays(day, 14)) {
      const run = latestRunAtOrBefore(FORECAST_MODELS[model], localWallHourToEpochHour(zone, addDays(day, -daysBefore), 10));
      for (const h of hoursOf(zone, day, addDays(day, 1))) {
        valid.push(h);
        created.push(daysBefore < 0 ? h : run);
      }
    }
    const f = compute(iso, valid, model, created).byRegion.get(`${iso}_total`)!.demand;
    let s = 0;
    for (let i = 0; i < valid.length; i++) s += Math.abs(f[i] / truthAt.get(valid[i])! - 1);
    return (100 * s) / valid.length;
  };
  const lead0 = mape('optimized', -1);
  const day1 = mape('optimized', 1);
  const day7 = mape('optimized', 7);
  const iso1 = mape('iso', 1);
  if (process.env.GRIDCAST_VERBOSE) console.log({ lead0, day1, day7, iso1 });
  assert.ok(lead0 < 1.2, `lead 0 MAPE ${lead0}`);
  assert.ok(day1 > lead0 && day7 > day1, `MAPE by lead ${lead0} ${day1} ${day7}`);
  assert.ok(day1 > 1 && day1 < 4, `day-ahead MAPE ${day1}`);
  assert.ok(iso1 > day1, `iso ${iso1} vs optimized ${day1}`);
  assert.ok(day7 < 8, `day-7 MAPE ${day7}`);
});

test('the ISO parameters cover every ISO', () => {
  for (const iso of ISO_CODES) {
    const p = DEMAND_PARAMS[iso];
    assert.ok(p.baseMw > 0 && p.heatSlopeMwPerC > 0 && p.coolSlopeMwPerC > 0 && p.noiseSd > 0, iso);
    assert.ok(p.heatBaseC < p.coolBaseC, iso);
  }
});

test('a year of every PJM region computes quickly', () => {
  const zone = ISOS.pjm.timezone;
  const valid = hoursOf(zone, { year: 2025, month: 1, day: 1 }, { year: 2026, month: 1, day: 1 });
  const t0 = performance.now();
  const c = new RegionWeatherComputer(new WeatherBatch(WORLD, { valid, created: null }, null, {}), valid, zone);
  const out = new Float64Array(valid.length);
  for (const r of regionsOf('pjm') as Region[]) {
    c.demand(r, out);
    c.poptemp(r, out);
  }
  const ms = performance.now() - t0;
  assert.ok(ms < 3000, `${ms} ms`);
});
