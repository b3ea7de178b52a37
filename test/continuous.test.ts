/**
 * Acceptance ("Foundation"): GET /v1/plant/{iso}/{metric}/continuous as a user sees it over
 * HTTP — the TimeseriesResponse contract, local days and DST, which run serves which day,
 * windows, physics bounds, models, compression and determinism.
 *
 * Time arithmetic in this file is re-derived from the documented rules with Intl (not with
 * src/time), so that a mistake there cannot hide itself.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ISOS, type IsoCode } from '../src/catalog/isos.ts';
import { allPlants, plantById, plantsOf } from '../src/catalog/plants.ts';
import type { Plant } from '../src/catalog/types.ts';
import { FORECAST_MODELS, type ForecastModelName } from '../src/models/forecastModels.ts';
import { modelSchedule } from '../src/sources/schedule.ts';
import { runForDay, stitchCutoffHour } from '../src/query/continuous.ts';
import { fixedClock } from '../src/time/clock.ts';
import { PlantSeriesComputer, weatherNeedsFor, type PlantMetric } from '../src/world/plantOutput.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';
import {
  NOW_ISO,
  NOW_MS,
  ROOT,
  createKey,
  openTestStore,
  startServer,
  type GetOptions,
  type Response,
  type TestServer,
  type TestStore,
  type Timeseries,
} from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const execFileAsync = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Independent local-time helpers (Intl only)

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** UTC offset of `zone` at instant `ms`, in minutes (e.g. -300 for CDT). */
function offsetMinutes(zone: string, ms: number): number {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, f);
  }
  const name = f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value; // "GMT-05:00" or "GMT"
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  assert.ok(m, `unexpected offset name ${name}`);
  if (!m[1]) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** `2026-03-08T03:00:00-05:00` for an instant in a zone. */
function localIso(zone: string, ms: number): string {
  const off = offsetMinutes(zone, ms);
  const wall = new Date(ms + off * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(off);
  return `${wall}${off < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const utcIso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** `YYYY-MM-DD` plus n days. */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** The local date (YYYY-MM-DD) of an instant. */
function localDate(zone: string, ms: number): string {
  return localIso(zone, ms).slice(0, 10);
}

/**
 * The instant of local wall time `date` `hour`:00 in `zone`. A wall time skipped by
 * spring-forward means the hour after the gap; a repeated one (fall-back) the earlier instant.
 */
const wallCache = new Map<string, number>();

function wallToUtc(zone: string, date: string, hour: number): number {
  const cacheKey = `${zone} ${date} ${hour}`;
  let ms = wallCache.get(cacheKey);
  if (ms === undefined) {
    ms = wallToUtcUncached(zone, date, hour);
    wallCache.set(cacheKey, ms);
  }
  return ms;
}

function wallToUtcUncached(zone: string, date: string, hour: number): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + hour * HOUR;
  const candidates: number[] = [];
  for (let off = -12 * 60; off <= 14 * 60; off += 60) {
    const ms = wall - off * 60_000;
    if (offsetMinutes(zone, ms) === off) candidates.push(ms);
  }
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the wall time read with the offset before the change lands after the gap.
  return wall - offsetMinutes(zone, wall - DAY) * 60_000;
}

/** First instant of local day `date`. */
const localMidnight = (zone: string, date: string) => wallToUtc(zone, date, 0);

/** The documented run rule: latest run created at or before (D − k) at latest_hour local. */
function expectedCutoff(zone: string, day: string, daysAhead: number, latestHour: number): number {
  return wallToUtc(zone, addDays(day, -daysAhead), latestHour);
}

/** Runs: optimized every hour; iso at 00, 06, 12, 18 UTC. */
function expectedRun(model: ForecastModelName, cutoffMs: number): number {
  const cadence = model === 'iso' ? 6 * HOUR : HOUR;
  return Math.floor(cutoffMs / cadence) * cadence;
}

/** Horizon of a run: optimized 15 days, iso 8 days. */
const HORIZON_MS: Record<ForecastModelName, number> = { optimized: 360 * HOUR, iso: 192 * HOUR, normal: 360 * HOUR };

/** Last local day whose cutoff has passed at `nowMs`. */
function expectedLastDay(zone: string, nowMs: number, daysAhead: number, latestHour: number): string {
  let day = addDays(localDate(zone, nowMs), daysAhead + 2);
  while (expectedCutoff(zone, day, daysAhead, latestHour) > nowMs) day = addDays(day, -1);
  return day;
}

function hoursOfLocalDay(zone: string, date: string): number[] {
  const out: number[] = [];
  for (let ms = localMidnight(zone, date); ms < localMidnight(zone, addDays(date, 1)); ms += HOUR) out.push(ms);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const ERCOT_WIND = plantsOf('ercot', 'wind')[0];
const ERCOT_SOLAR = plantsOf('ercot', 'solar')[0];
const CAISO_WIND = plantsOf('caiso', 'wind')[0];
const CAISO_SOLAR = plantsOf('caiso', 'solar')[0];
const WORLD = new WeatherWorld();

let ts: TestStore;
/** The app at the usual "now" (2026-06-15T18:00Z). */
let june: TestServer;
/** A second app on the same store whose clock is after the fall-back day (2026-11-10T18:00Z). */
let november: TestServer;
let key: string;

before(async () => {
  ts = await openTestStore();
  june = await startServer(ts.store, { clock: fixedClock(NOW_MS) });
  november = await startServer(ts.store, { clock: fixedClock(Date.parse('2026-11-10T18:00:00Z')) });
  key = await createKey(ts.store, { all: 'advanced' });
});

after(async () => {
  await june?.close();
  await november?.close();
  await ts?.close();
});

async function series(
  server: TestServer,
  iso: string,
  metric: string,
  query: GetOptions['query'],
  headers?: Record<string, string>,
): Promise<Timeseries> {
  const res = await server.get(`/v1/plant/${iso}/${metric}/continuous`, { key, query, headers });
  assert.equal(res.status, 200, `GET ${iso}/${metric} ${JSON.stringify(query)}: ${res.text.slice(0, 400)}`);
  return res.json() as Timeseries;
}

const getJune = (iso: string, metric: string, query: GetOptions['query']) => series(june, iso, metric, query);

/**
 * The TimeseriesResponse contract: shapes, UTC/local timestamps (same instant, true offset,
 * hourly, period-beginning), created_at null, echoed model, units, zone, [[id]] columns, and
 * nulls exactly where `expectNull` says they are documented.
 */
function assertContract(
  body: Timeseries,
  o: { iso: IsoCode; model: string; units: string; ids: (string | number)[]; expectNull?: (plant: Plant, ms: number) => boolean },
): void {
  const zone = ISOS[o.iso].timezone;
  assert.deepEqual(Object.keys(body), ['model', 'created_at', 'units', 'timezone', 'time_utc', 'time_local', 'columns', 'values']);
  assert.equal(body.model, o.model);
  assert.equal(body.created_at, null);
  assert.equal(body.units, o.units);
  assert.equal(body.timezone, zone);
  assert.deepEqual(
    body.columns,
    o.ids.map((id) => [String(id)]),
  );
  assert.equal(body.values.length, body.columns.length, 'len(values) == len(columns)');
  const n = body.time_utc.length;
  assert.ok(n > 0, 'rows');
  assert.equal(body.time_local.length, n, 'len(time_local) == len(time_utc)');
  for (let i = 0; i < n; i++) {
    assert.match(body.time_utc[i], /^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/, 'UTC hour stamps with Z');
    const ms = Date.parse(body.time_utc[i]);
    if (i > 0) assert.equal(ms - Date.parse(body.time_utc[i - 1]), HOUR, `hourly rows at ${body.time_utc[i]}`);
    assert.equal(body.time_local[i], localIso(zone, ms), `time_local[${i}] is the same instant with the true offset`);
    assert.equal(Date.parse(body.time_local[i]), ms);
  }
  for (let c = 0; c < body.values.length; c++) {
    const column = body.values[c];
    assert.equal(column.length, n, `len(values[${c}]) == len(time_utc)`);
    const plant = plantById(body.columns[c][0])!;
    assert.ok(plant, `column ${body.columns[c][0]} is a plant`);
    for (let i = 0; i < n; i++) {
      const v = column[i];
      const shouldBeNull = o.expectNull ? o.expectNull(plant, Date.parse(body.time_utc[i])) : false;
      if (shouldBeNull) assert.equal(v, null, `plant ${plant.id} at ${body.time_utc[i]} has no value`);
      else assert.ok(typeof v === 'number' && Number.isFinite(v), `plant ${plant.id} at ${body.time_utc[i]}: number expected, got ${v}`);
    }
  }
}

/** Null exactly before local midnight of the plant's operations_begin_date. */
const beforeOperations = (plant: Plant, ms: number) => ms < localMidnight(ISOS[plant.iso].timezone, plant.operations_begin_date);

/** The plant's series for one local day from one run, through the model layer, rounded like the API. */
function modelLayerDay(plant: Plant, metric: PlantMetric, model: ForecastModelName, day: string, createdMs: number): (number | null)[] {
  const zone = ISOS[plant.iso].timezone;
  const valid = hoursOfLocalDay(zone, day).map((ms) => ms / HOUR);
  const created = valid.map(() => createdMs / HOUR);
  const batch = new WeatherBatch(WORLD, { valid, created }, FORECAST_MODELS[model].skill, weatherNeedsFor(metric));
  const out = new Float64Array(valid.length);
  new PlantSeriesComputer(batch, metric, valid).compute(plant, localMidnight(zone, plant.operations_begin_date) / HOUR, out);
  return [...out].map((v, i) => (Number.isFinite(v) && valid[i] * HOUR - createdMs < HORIZON_MS[model] ? Math.round(v * 10) / 10 : null));
}

// ---------------------------------------------------------------------------------------------

describe('TimeseriesResponse contract', () => {
  test('one wind plant, one local day: 24 hourly period-beginning rows from local midnight', async () => {
    const body = await getJune('ercot', 'wind', { id: ERCOT_WIND.id, start: '2026-06-01', end: '2026-06-01' });
    assertContract(body, { iso: 'ercot', model: 'optimized', units: 'MW', ids: [ERCOT_WIND.id] });
    assert.equal(body.time_utc.length, 24);
    assert.equal(body.time_utc[0], '2026-06-01T05:00:00Z');
    assert.equal(body.time_local[0], '2026-06-01T00:00:00-05:00');
    assert.equal(body.time_local[23], '2026-06-01T23:00:00-05:00');
  });

  test('units: MW for wind and solar, % for wind_icing and solar_snow; timezone per ISO', async () => {
    const cases: [IsoCode, PlantMetric, Plant, string][] = [
      ['ercot', 'solar', ERCOT_SOLAR, 'MW'],
      ['ercot', 'wind_icing', ERCOT_WIND, '%'],
      ['caiso', 'solar_snow', CAISO_SOLAR, '%'],
      ['caiso', 'wind', CAISO_WIND, 'MW'],
      ['pjm', 'wind', plantsOf('pjm', 'wind')[0], 'MW'],
    ];
    for (const [iso, metric, plant, units] of cases) {
      const body = await getJune(iso, metric, { id: plant.id, start: '2026-06-02', end: '2026-06-02' });
      assertContract(body, { iso, model: 'optimized', units, ids: [plant.id] });
      assert.equal(body.time_utc.length, 24);
    }
  });

  test('all plants of an ISO (no id): one column per plant, nulls exactly before a plant began operating', async () => {
    const body = await getJune('ercot', 'wind', { start: '2026-06-08', end: '2026-06-09' });
    const plants = plantsOf('ercot', 'wind');
    assertContract(body, { iso: 'ercot', model: 'optimized', units: 'MW', ids: plants.map((p) => p.id), expectNull: beforeOperations });
    assert.equal(body.time_utc.length, 48);
    // The fleet includes plants that start later in 2026: their columns are all null here.
    const future = plants.filter((p) => p.operations_begin_date > '2026-06-10');
    assert.ok(future.length > 0, 'the ercot fleet has plants starting after the window');
  });

  test('the model parameter is echoed', async () => {
    const body = await getJune('ercot', 'wind', { id: ERCOT_WIND.id, start: '2026-06-01', end: '2026-06-01', model: 'iso' });
    assertContract(body, { iso: 'ercot', model: 'iso', units: 'MW', ids: [ERCOT_WIND.id] });
  });
});

describe('local days and DST', () => {
  const SPRING: [IsoCode, Plant, string[], string, string][] = [
    [
      'ercot',
      ERCOT_WIND,
      ['2026-03-08T00:00:00-06:00', '2026-03-08T01:00:00-06:00', '2026-03-08T03:00:00-05:00'],
      '2026-03-08T06:00:00Z',
      '2026-03-09T04:00:00Z',
    ],
    [
      'caiso',
      CAISO_WIND,
      ['2026-03-08T00:00:00-08:00', '2026-03-08T01:00:00-08:00', '2026-03-08T03:00:00-07:00'],
      '2026-03-08T08:00:00Z',
      '2026-03-09T06:00:00Z',
    ],
  ];
  for (const [iso, plant, firstLocals, firstUtc, lastUtc] of SPRING) {
    test(`${iso}: spring-forward day 2026-03-08 has 23 rows with the offsets changing after 01:00`, async () => {
      const body = await getJune(iso, 'wind', { id: plant.id, start: '2026-03-08', end: '2026-03-08' });
      assertContract(body, { iso, model: 'optimized', units: 'MW', ids: [plant.id] });
      assert.equal(body.time_utc.length, 23);
      assert.deepEqual(body.time_local.slice(0, 3), firstLocals);
      assert.equal(body.time_utc[0], firstUtc);
      assert.equal(body.time_utc[22], lastUtc);
      assert.equal(body.time_local[22].slice(0, 19), '2026-03-08T23:00:00');
    });
  }

  const FALL: [IsoCode, Plant, string[], string, string][] = [
    [
      'ercot',
      ERCOT_WIND,
      ['2026-11-01T00:00:00-05:00', '2026-11-01T01:00:00-05:00', '2026-11-01T01:00:00-06:00', '2026-11-01T02:00:00-06:00'],
      '2026-11-01T05:00:00Z',
      '2026-11-02T05:00:00Z',
    ],
    [
      'caiso',
      CAISO_WIND,
      ['2026-11-01T00:00:00-07:00', '2026-11-01T01:00:00-07:00', '2026-11-01T01:00:00-08:00', '2026-11-01T02:00:00-08:00'],
      '2026-11-01T07:00:00Z',
      '2026-11-02T07:00:00Z',
    ],
  ];
  for (const [iso, plant, firstLocals, firstUtc, lastUtc] of FALL) {
    test(`${iso}: fall-back day 2026-11-01 has 25 rows with 01:00 twice (app with a November clock)`, async () => {
      const body = await series(november, iso, 'wind', { id: plant.id, start: '2026-11-01', end: '2026-11-01' });
      assertContract(body, { iso, model: 'optimized', units: 'MW', ids: [plant.id] });
      assert.equal(body.time_utc.length, 25);
      assert.deepEqual(body.time_local.slice(0, 4), firstLocals);
      assert.equal(body.time_utc[0], firstUtc);
      assert.equal(body.time_utc[24], lastUtc);
      assert.equal(body.time_local[24].slice(0, 19), '2026-11-01T23:00:00');
    });
  }

  test('the fall-back day does not exist yet for the June app (its run is in the future)', async () => {
    const res = await june.get('/v1/plant/ercot/wind/continuous', {
      key,
      query: { id: ERCOT_WIND.id, start: '2026-11-01', end: '2026-11-01' },
    });
    assert.equal(res.status, 422);
  });

  test('a window across spring-forward: 24 + 23 + 24 contiguous hours', async () => {
    const body = await getJune('pjm', 'wind', { id: plantsOf('pjm', 'wind')[0].id, start: '2026-03-07', end: '2026-03-09' });
    assertContract(body, { iso: 'pjm', model: 'optimized', units: 'MW', ids: [plantsOf('pjm', 'wind')[0].id] });
    assert.equal(body.time_utc.length, 71);
    assert.equal(body.time_local[0], '2026-03-07T00:00:00-05:00');
    assert.equal(body.time_local[70], '2026-03-09T23:00:00-04:00');
  });
});

describe('run selection', () => {
  test('the cutoff rule re-derived here agrees with the query layer, including DST edge cases', () => {
    // [iso, day D, days_ahead, latest_hour, model, expected cutoff, expected run]
    const table: [IsoCode, string, number, number, ForecastModelName, string, string][] = [
      ['ercot', '2026-06-10', 1, 10, 'optimized', '2026-06-09T15:00:00Z', '2026-06-09T15:00:00Z'],
      ['ercot', '2026-01-10', 1, 10, 'optimized', '2026-01-09T16:00:00Z', '2026-01-09T16:00:00Z'],
      ['ercot', '2026-06-10', 1, 10, 'iso', '2026-06-09T15:00:00Z', '2026-06-09T12:00:00Z'],
      ['caiso', '2026-06-10', 3, 7, 'optimized', '2026-06-07T14:00:00Z', '2026-06-07T14:00:00Z'],
      ['caiso', '2026-06-10', 3, 7, 'iso', '2026-06-07T14:00:00Z', '2026-06-07T12:00:00Z'],
      ['pjm', '2026-06-10', 14, 0, 'optimized', '2026-05-27T04:00:00Z', '2026-05-27T04:00:00Z'],
      // 02:00 does not exist on 2026-03-08 in Chicago: the hour after the gap (03:00 CDT).
      ['ercot', '2026-03-09', 1, 2, 'optimized', '2026-03-08T08:00:00Z', '2026-03-08T08:00:00Z'],
      // 01:00 happens twice on 2026-11-01 in Chicago: the earlier one (CDT).
      ['ercot', '2026-11-02', 1, 1, 'optimized', '2026-11-01T06:00:00Z', '2026-11-01T06:00:00Z'],
      ['caiso', '2026-11-02', 1, 1, 'iso', '2026-11-01T08:00:00Z', '2026-11-01T06:00:00Z'],
    ];
    for (const [iso, day, k, lh, model, cutoff, run] of table) {
      const zone = ISOS[iso].timezone;
      const label = `${iso} D=${day} days_ahead=${k} latest_hour=${lh} ${model}`;
      assert.equal(utcIso(expectedCutoff(zone, day, k, lh)), cutoff, `${label}: re-derived cutoff`);
      assert.equal(utcIso(expectedRun(model, expectedCutoff(zone, day, k, lh))), run, `${label}: re-derived run`);
      const [year, month, d] = day.split('-').map(Number);
      const o = { timezone: zone, runs: modelSchedule(FORECAST_MODELS[model]), latestHour: lh, daysAhead: k };
      assert.equal(utcIso(stitchCutoffHour(o, { year, month, day: d }) * HOUR), cutoff, `${label}: stitchCutoffHour`);
      assert.equal(utcIso(runForDay(o, { year, month, day: d }) * HOUR), run, `${label}: runForDay`);
    }
  });

  const RUN_CASES: [IsoCode, PlantMetric, Plant, string, number, number, ForecastModelName][] = [
    ['ercot', 'wind', ERCOT_WIND, '2026-06-10', 1, 10, 'optimized'],
    ['ercot', 'wind', ERCOT_WIND, '2026-06-10', 3, 7, 'optimized'],
    ['ercot', 'solar', ERCOT_SOLAR, '2026-06-05', 2, 16, 'optimized'],
    ['caiso', 'wind', CAISO_WIND, '2026-03-08', 1, 2, 'optimized'],
    ['ercot', 'wind', ERCOT_WIND, '2026-06-10', 1, 10, 'iso'],
  ];
  for (const [iso, metric, plant, day, k, lh, model] of RUN_CASES) {
    test(`${iso}/${metric} ${day} days_ahead=${k} latest_hour=${lh} model=${model}: values are those of the run the rule picks`, async () => {
      const zone = ISOS[iso].timezone;
      const created = expectedRun(model, expectedCutoff(zone, day, k, lh));
      const expected = modelLayerDay(plant, metric, model, day, created);
      const body = await getJune(iso, metric, { id: plant.id, start: day, end: day, days_ahead: k, latest_hour: lh, model });
      assert.deepEqual(body.values[0], expected);
      // The comparison discriminates: a run one step earlier gives other numbers.
      const step = model === 'iso' ? 6 * HOUR : HOUR;
      assert.notDeepEqual(body.values[0], modelLayerDay(plant, metric, model, day, created - step), 'the previous run differs');
      // The same day inside a longer window is the same (stitching is per day).
      const wide = await getJune(iso, metric, {
        id: plant.id,
        start: addDays(day, -1),
        end: addDays(day, 1),
        days_ahead: k,
        latest_hour: lh,
        model,
      });
      const at = wide.time_utc.indexOf(body.time_utc[0]);
      assert.ok(at > 0);
      assert.deepEqual(wide.values[0].slice(at, at + body.time_utc.length), body.values[0]);
    });
  }

  test('each day of a window comes from its own run', async () => {
    const days = ['2026-06-08', '2026-06-09', '2026-06-10'];
    const body = await getJune('ercot', 'wind', { id: ERCOT_WIND.id, start: days[0], end: days[2] });
    const expected = days.flatMap((d) =>
      modelLayerDay(ERCOT_WIND, 'wind', 'optimized', d, expectedRun('optimized', expectedCutoff('America/Chicago', d, 1, 10))),
    );
    assert.deepEqual(body.values[0], expected);
    // One run for the whole window would not give these numbers.
    const oneRun = expectedRun('optimized', expectedCutoff('America/Chicago', days[0], 1, 10));
    const single = days.flatMap((d) => modelLayerDay(ERCOT_WIND, 'wind', 'optimized', d, oneRun));
    assert.notDeepEqual(body.values[0], single);
  });

  test('changing latest_hour or days_ahead changes the values', async () => {
    const q = { id: ERCOT_WIND.id, start: '2026-06-10', end: '2026-06-10' };
    const base = (await getJune('ercot', 'wind', q)).values[0];
    const later = (await getJune('ercot', 'wind', { ...q, latest_hour: 16 })).values[0];
    const earlier = (await getJune('ercot', 'wind', { ...q, days_ahead: 2 })).values[0];
    assert.notDeepEqual(later, base, 'latest_hour 16 vs 10');
    assert.notDeepEqual(earlier, base, 'days_ahead 2 vs 1');
    assert.notDeepEqual(earlier, later);
  });

  test('a day whose cutoff is after now is not returned; cutoff == now is', async () => {
    // Now is 13:00 CDT on 2026-06-15.
    const q = { id: ERCOT_WIND.id, start: '2026-06-14', end: '2026-06-20' };
    const cases: [number, number, string][] = [
      [10, 1, '2026-06-16'], // cutoff 2026-06-15 10:00 CDT has passed
      [13, 1, '2026-06-16'], // cutoff exactly now
      [14, 1, '2026-06-15'], // cutoff 14:00 CDT is in the future
      [10, 3, '2026-06-18'],
      [23, 3, '2026-06-17'],
    ];
    for (const [lh, k, lastDay] of cases) {
      assert.equal(expectedLastDay('America/Chicago', NOW_MS, k, lh), lastDay, `re-derived last day for latest_hour=${lh} days_ahead=${k}`);
      const body = await getJune('ercot', 'wind', { ...q, latest_hour: lh, days_ahead: k });
      assert.equal(body.time_local[0], '2026-06-14T00:00:00-05:00');
      assert.equal(body.time_local.at(-1), `${lastDay}T23:00:00-05:00`, `latest_hour=${lh} days_ahead=${k}`);
      assert.equal(body.time_utc.length, 24 * (1 + (Date.parse(lastDay) - Date.parse('2026-06-14')) / DAY));
    }
  });
});

describe('windows', () => {
  const id = ERCOT_WIND.id;

  test('bare dates are local days, both inclusive', async () => {
    const body = await getJune('ercot', 'wind', { id, start: '2026-06-01', end: '2026-06-03' });
    assert.equal(body.time_utc.length, 72);
    assert.equal(body.time_utc[0], '2026-06-01T05:00:00Z');
    assert.equal(body.time_utc[71], '2026-06-04T04:00:00Z');
    const caiso = await getJune('caiso', 'wind', { id: CAISO_WIND.id, start: '2026-06-01', end: '2026-06-01' });
    assert.equal(caiso.time_utc[0], '2026-06-01T07:00:00Z');
    assert.equal(caiso.time_utc[23], '2026-06-02T06:00:00Z');
  });

  test('datetimes with an offset are exact instants, inclusive at both ends', async () => {
    const body = await getJune('ercot', 'wind', { id, start: '2026-06-01T10:00:00-05:00', end: '2026-06-01T12:00:00-05:00' });
    assert.deepEqual(body.time_utc, ['2026-06-01T15:00:00Z', '2026-06-01T16:00:00Z', '2026-06-01T17:00:00Z']);
    const one = await getJune('ercot', 'wind', { id, start: '2026-06-01T15:00:00Z', end: '2026-06-01T15:00:00Z' });
    assert.deepEqual(one.time_utc, ['2026-06-01T15:00:00Z']);
    const utc = await getJune('ercot', 'wind', { id, start: '2026-06-01T20:00:00+05:00', end: '2026-06-01T17:00:00Z' });
    assert.deepEqual(utc.time_utc, ['2026-06-01T15:00:00Z', '2026-06-01T16:00:00Z', '2026-06-01T17:00:00Z']);
  });

  test('a row is in the window when its first instant is: start 15:30 admits 16:00, end 17:59:59 admits 17:00', async () => {
    const body = await getJune('ercot', 'wind', { id, start: '2026-06-01T15:30:00Z', end: '2026-06-01T17:59:59Z' });
    assert.deepEqual(body.time_utc, ['2026-06-01T16:00:00Z', '2026-06-01T17:00:00Z']);
  });

  test('a datetime without an offset is UTC; a date and a datetime mix', async () => {
    const naive = await getJune('ercot', 'wind', { id, start: '2026-06-01T15:00:00', end: '2026-06-01T16:00:00' });
    assert.deepEqual(naive.time_utc, ['2026-06-01T15:00:00Z', '2026-06-01T16:00:00Z']);
    const mixed = await getJune('ercot', 'wind', { id, start: '2026-06-01', end: '2026-06-01T07:00:00Z' });
    assert.deepEqual(mixed.time_utc, ['2026-06-01T05:00:00Z', '2026-06-01T06:00:00Z', '2026-06-01T07:00:00Z']);
  });

  test('the values of an hour do not depend on the window around it', async () => {
    const day = await getJune('ercot', 'wind', { id, start: '2026-06-01', end: '2026-06-03' });
    const slice = await getJune('ercot', 'wind', { id, start: '2026-06-02T10:00:00Z', end: '2026-06-02T20:00:00Z' });
    const at = day.time_utc.indexOf('2026-06-02T10:00:00Z');
    assert.deepEqual(slice.values[0], day.values[0].slice(at, at + 11));
  });

  test('default window (no start/end): the 7 local days ending with the last day whose run exists', async () => {
    // src/query/plants.ts: end = last hour of lastStitchableDay; src/query/window.ts: start = 6 local days earlier.
    const cases: [IsoCode, Plant, Record<string, number>, string][] = [
      ['ercot', ERCOT_WIND, {}, '2026-06-16'],
      ['ercot', ERCOT_WIND, { latest_hour: 14 }, '2026-06-15'],
      ['ercot', ERCOT_WIND, { days_ahead: 3 }, '2026-06-18'],
      ['caiso', CAISO_WIND, { latest_hour: 12 }, '2026-06-15'], // 12:00 PDT = 19:00Z, after now
      ['caiso', CAISO_WIND, { latest_hour: 11 }, '2026-06-16'], // 11:00 PDT = 18:00Z = now
    ];
    for (const [iso, plant, extra, lastDay] of cases) {
      const zone = ISOS[iso].timezone;
      const lh = extra.latest_hour ?? 10;
      const k = extra.days_ahead ?? 1;
      assert.equal(expectedLastDay(zone, NOW_MS, k, lh), lastDay);
      const body = await getJune(iso, 'wind', { id: plant.id, ...extra });
      const firstDay = addDays(lastDay, -6);
      assert.equal(body.time_utc[0], utcIso(localMidnight(zone, firstDay)), `${iso} ${JSON.stringify(extra)} first row`);
      assert.equal(
        body.time_utc.at(-1),
        utcIso(localMidnight(zone, addDays(lastDay, 1)) - HOUR),
        `${iso} ${JSON.stringify(extra)} last row`,
      );
      assert.equal(body.time_utc.length, 7 * 24);
    }
  });

  test('only start: from start through the last day with a run; only end: the 7 local days ending there', async () => {
    const startOnly = await getJune('ercot', 'wind', { id, start: '2026-06-14' });
    assert.equal(startOnly.time_utc[0], '2026-06-14T05:00:00Z');
    assert.equal(startOnly.time_utc.at(-1), '2026-06-17T04:00:00Z');
    const endOnly = await getJune('ercot', 'wind', { id, end: '2026-06-05' });
    assert.equal(endOnly.time_utc[0], '2026-05-30T05:00:00Z');
    assert.equal(endOnly.time_utc.at(-1), '2026-06-06T04:00:00Z');
    assert.equal(endOnly.time_utc.length, 168);
  });

  test('data begins with local day 2026-01-01 of the ISO', async () => {
    const ercot = await getJune('ercot', 'wind', { id, start: '2025-12-29', end: '2026-01-02' });
    assert.equal(ercot.time_utc[0], '2026-01-01T06:00:00Z');
    assert.equal(ercot.time_local[0], '2026-01-01T00:00:00-06:00');
    assert.equal(ercot.time_utc.length, 48);
    const caiso = await getJune('caiso', 'wind', { id: CAISO_WIND.id, start: '2025-12-31T00:00:00Z', end: '2026-01-01T12:00:00Z' });
    assert.equal(caiso.time_utc[0], '2026-01-01T08:00:00Z');
    assert.equal(caiso.time_utc.at(-1), '2026-01-01T12:00:00Z');
  });

  test('a plant that began operating in 2026: null before its first local day, numbers from then on', async () => {
    const plant = allPlants().find(
      (p) =>
        p.iso === 'ercot' && p.plant_type === 'wind' && p.operations_begin_date > '2026-02-01' && p.operations_begin_date < '2026-06-08',
    );
    assert.ok(plant, 'an ercot wind plant that began operating in spring 2026');
    const begin = plant.operations_begin_date;
    const body = await getJune('ercot', 'wind', { id: plant.id, start: addDays(begin, -2), end: addDays(begin, 1) });
    assertContract(body, { iso: 'ercot', model: 'optimized', units: 'MW', ids: [plant.id], expectNull: beforeOperations });
    const firstValue = body.values[0].findIndex((v) => v !== null);
    assert.equal(firstValue, 48, 'two local days of nulls first');
    assert.equal(body.time_local[firstValue], `${begin}T00:00:00-05:00`);
    assert.ok(body.values[0].slice(48).every((v) => typeof v === 'number'));
  });
});

describe('physics on real responses', () => {
  test('wind: 0 <= MW <= capacity for every ercot wind plant and hour of the default window', async () => {
    const body = await getJune('ercot', 'wind', {});
    let positive = 0;
    for (let c = 0; c < body.columns.length; c++) {
      const plant = plantById(body.columns[c][0])!;
      for (const v of body.values[c]) {
        if (v === null) continue;
        assert.ok(v >= 0 && v <= plant.capacity_mw, `plant ${plant.id}: ${v} MW outside 0..${plant.capacity_mw}`);
        if (v > 0) positive++;
      }
    }
    assert.ok(positive > 0, 'the wind blows somewhere');
  });

  test('solar: 0 <= MW <= capacity, exactly 0 at local 00:00-04:00, > 0 at local noon for most plants', async () => {
    const body = await getJune('ercot', 'solar', {});
    const zone = 'America/Chicago';
    let noonPositive = 0;
    let noonTotal = 0;
    for (let c = 0; c < body.columns.length; c++) {
      const plant = plantById(body.columns[c][0])!;
      body.values[c].forEach((v, i) => {
        if (v === null) return;
        assert.ok(v >= 0 && v <= plant.capacity_mw, `plant ${plant.id}: ${v} MW outside 0..${plant.capacity_mw}`);
        const hour = Number(localIso(zone, Date.parse(body.time_utc[i])).slice(11, 13));
        if (hour <= 4) assert.equal(v, 0, `plant ${plant.id} at night (${body.time_local[i]})`);
        if (hour === 12) {
          noonTotal++;
          if (v > 0) noonPositive++;
        }
      });
    }
    assert.ok(noonTotal > 0 && noonPositive / noonTotal > 0.9, `solar produces at noon (${noonPositive}/${noonTotal})`);
  });

  test('wind_icing and solar_snow are percentages within 0..100 (winter, cold ISOs)', async () => {
    for (const [iso, metric] of [
      ['isone', 'wind_icing'],
      ['nyiso', 'solar_snow'],
    ] as const) {
      const body = await getJune(iso, metric, { start: '2026-01-20', end: '2026-01-26' });
      assert.equal(body.units, '%');
      let positive = 0;
      for (const column of body.values) {
        for (const v of column) {
          if (v === null) continue;
          assert.ok(v >= 0 && v <= 100, `${iso} ${metric}: ${v}% outside 0..100`);
          if (v > 0) positive++;
        }
      }
      assert.ok(positive > 0, `${iso} ${metric}: some risk in a January week`);
    }
  });
});

describe('models', () => {
  test('model=iso is accepted and differs from optimized', async () => {
    const q = { id: ERCOT_WIND.id, start: '2026-06-08', end: '2026-06-09' };
    const optimized = await getJune('ercot', 'wind', q);
    const iso = await getJune('ercot', 'wind', { ...q, model: 'iso' });
    assert.equal(iso.model, 'iso');
    assert.deepEqual(iso.time_utc, optimized.time_utc);
    assert.notDeepEqual(iso.values, optimized.values);
  });

  test('model=iso with days_ahead=10 is all null (beyond its 8-day horizon); optimized is not', async () => {
    const q = { id: ERCOT_WIND.id, start: '2026-06-08', end: '2026-06-09', days_ahead: 10 };
    const iso = await getJune('ercot', 'wind', { ...q, model: 'iso' });
    assertContract(iso, { iso: 'ercot', model: 'iso', units: 'MW', ids: [ERCOT_WIND.id], expectNull: () => true });
    const optimized = await getJune('ercot', 'wind', q);
    assertContract(optimized, { iso: 'ercot', model: 'optimized', units: 'MW', ids: [ERCOT_WIND.id] });
  });

  test('model=iso with days_ahead=8: null exactly where the lead reaches 192 hours', async () => {
    const zone = 'America/Chicago';
    const body = await getJune('ercot', 'wind', { id: ERCOT_WIND.id, start: '2026-06-08', end: '2026-06-09', days_ahead: 8, model: 'iso' });
    const expectNull = (_p: Plant, ms: number) => {
      const run = expectedRun('iso', expectedCutoff(zone, localDate(zone, ms), 8, 10));
      return ms - run >= HORIZON_MS.iso;
    };
    assertContract(body, { iso: 'ercot', model: 'iso', units: 'MW', ids: [ERCOT_WIND.id], expectNull });
    const nulls = body.values[0].filter((v) => v === null).length;
    assert.ok(nulls > 0 && nulls < body.time_utc.length, `some but not all hours are beyond the horizon (${nulls})`);
  });
});

describe('compression', () => {
  test('a large response is gzip-compressed when asked and decodes to the same JSON', async () => {
    const p = '/v1/plant/ercot/wind/continuous';
    const plain = await june.get(p, { key, headers: { 'accept-encoding': 'identity' } });
    const gzip = await june.get(p, { key, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gzip.status, 200);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.headers['content-type'], 'application/json');
    assert.deepEqual([...gzip.raw.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic bytes on the wire');
    // gzip level 4 (chosen for speed) shrinks these bodies about 2.9×.
    assert.ok(gzip.raw.length < plain.raw.length / 2.5, `compressed ${gzip.raw.length} vs ${plain.raw.length} bytes`);
    assert.equal(gzip.text, plain.text);
  });

  test('a one-plant, one-day response (over 1 KB) is compressed too', async () => {
    const res = await june.get('/v1/plant/ercot/wind/continuous', {
      key,
      query: { id: ERCOT_WIND.id, start: '2026-06-01', end: '2026-06-01' },
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal((JSON.parse(res.text) as Timeseries).time_utc.length, 24);
  });

  test('a tiny error body is not compressed', async () => {
    const res = await june.get('/v1/plant/ercot/wind/continuous', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 401);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.ok(res.raw.toString('utf8').startsWith('{"detail":'), 'plain JSON on the wire');
  });
});

describe('determinism', () => {
  const query = { id: ERCOT_WIND.id, start: '2026-06-01', end: '2026-06-03', latest_hour: 8, days_ahead: 2 };

  test('the same request twice gives identical bytes (one plant and a whole fleet)', async () => {
    const p = '/v1/plant/ercot/wind/continuous';
    const a = await june.get(p, { key, query });
    const b = await june.get(p, { key, query });
    assert.equal(a.status, 200);
    assert.ok(a.raw.equals(b.raw));
    const fleetA = await june.get('/v1/plant/ercot/solar/continuous', { key });
    const fleetB = await june.get('/v1/plant/ercot/solar/continuous', { key });
    assert.ok(fleetA.raw.length > 100_000);
    assert.ok(fleetA.raw.equals(fleetB.raw));
  });

  test('two fresh processes build the same bytes, equal to what the HTTP API returns', async () => {
    const script = path.join(ROOT, 'test', 'fixtures', 'plant-continuous.ts');
    const args = JSON.stringify({
      iso: 'ercot',
      metric: 'wind',
      id: String(ERCOT_WIND.id),
      model: 'optimized',
      latestHour: query.latest_hour,
      daysAhead: query.days_ahead,
      start: query.start,
      end: query.end,
      now: NOW_ISO,
    });
    const run = () => execFileAsync(process.execPath, ['--import', 'tsx', script, args], { cwd: ROOT, maxBuffer: 64 << 20 });
    const [one, two] = await Promise.all([run(), run()]);
    assert.ok(one.stdout.length > 1000, `child output: ${one.stdout.slice(0, 200)} ${one.stderr.slice(0, 500)}`);
    assert.equal(one.stdout, two.stdout);
    const http: Response = await june.get('/v1/plant/ercot/wind/continuous', { key, query });
    assert.equal(http.text, one.stdout);
  });
});
