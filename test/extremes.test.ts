import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ISOS, ISO_CODES, type IsoCode } from '../src/catalog/isos.ts';
import { regionsOf } from '../src/catalog/regions.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { localDayStartHour, type CivilDate } from '../src/time/zones.ts';
import { RegionWeatherComputer, calendarFactors, growthFactor, isBridgeDay, nercHolidays } from '../src/world/demand.ts';
import { outageTruthMw } from '../src/world/outage.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { ExtremeRows, knownFraction, type ExtremeEvent } from '../src/world/weather/extremes.ts';
import { DEFAULT_WORLD_SEED, WeatherWorld } from '../src/world/weather/world.ts';

const WORLD = new WeatherWorld();
const H = (iso: string) => Date.parse(iso) / 3_600_000;

function hoursOf(iso: IsoCode, from: CivilDate, to: CivilDate): number[] {
  const tz = ISOS[iso].timezone;
  const a = localDayStartHour(tz, from);
  const b = localDayStartHour(tz, to);
  return Array.from({ length: b - a }, (_, i) => a + i);
}

/** Truth (or a run's view) of `<iso>_total` demand and poptemp on the rows. */
function total(iso: IsoCode, valid: number[], created: number[] | null, model: 'optimized' | 'normal' | null = null) {
  const skill = model ? FORECAST_MODELS[model].skill : null;
  const batch = new WeatherBatch(WORLD, { valid, created }, skill, {});
  const c = new RegionWeatherComputer(batch, valid, ISOS[iso].timezone);
  const demand = new Float64Array(valid.length);
  const poptemp = new Float64Array(valid.length);
  c.demand(regionsOf(iso)[0], demand);
  c.poptemp(regionsOf(iso)[0], poptemp);
  return { demand, poptemp };
}

const mean = (a: ArrayLike<number>) => Array.from(a).reduce((s, v) => s + v, 0) / a.length;

test('extremes: the catalogue is fixed by the seed, holds the anchored events and seeded ones in every season', () => {
  const a = new WeatherWorld(DEFAULT_WORLD_SEED).extremes.eventsStarting(H('2022-11-01T00:00Z'), H('2030-11-01T00:00Z'));
  const b = new WeatherWorld(DEFAULT_WORLD_SEED).extremes.eventsStarting(H('2022-11-01T00:00Z'), H('2030-11-01T00:00Z'));
  const other = new WeatherWorld(7).extremes.eventsStarting(H('2022-11-01T00:00Z'), H('2030-11-01T00:00Z'));
  assert.deepEqual(a, b);
  assert.notDeepEqual(
    a.filter((e) => !e.name),
    other.filter((e) => !e.name),
  );
  for (const name of ['jan2024', 'jan2025', 'jun2025'])
    assert.ok(a.some((e) => e.name === name) && other.some((e) => e.name === name), name);
  const check = (e: ExtremeEvent) => {
    const days = (e.end - e.onset) / 24;
    // Seeded events last 3–10 days; anchored ones as long as their history (the summer 2023 Texas dome: six weeks).
    assert.ok(days >= 3 && days <= (e.name ? 45 : 10.01), `duration ${days}`);
    if (e.kind === 'cold') assert.ok(e.amplitudeC <= -8 && e.amplitudeC >= -23, `outbreak ${e.amplitudeC}`);
    else assert.ok(e.amplitudeC >= 3 && e.amplitudeC <= 8, `dome ${e.amplitudeC}`);
  };
  a.forEach(check);
  other.forEach(check);
  // Seeded outbreaks and domes in the years after the anchors (2027–2030), of every seed.
  for (const list of [a, other]) {
    const later = list.filter((e) => e.onset >= H('2026-11-01T00:00Z'));
    assert.ok(later.filter((e) => e.kind === 'cold').length >= 4, 'outbreaks 2027–2030');
    assert.ok(later.filter((e) => e.kind === 'heat').length >= 2, 'heat domes 2027–2030');
  }
});

test('extremes: the January 2024 outbreak moves ERCOT temperature, load and outages together', () => {
  const days = hoursOf('ercot', { year: 2024, month: 1, day: 16 }, { year: 2024, month: 1, day: 17 });
  const t = total('ercot', days, null);
  // Texas population-weighted daily mean near −4 to −5 °C on Jan 16 2024 (Uri: −8 °C).
  assert.ok(mean(t.poptemp) <= -4.5, `ERCOT daily mean ${mean(t.poptemp)}`);
  const peak = Math.max(...t.demand) / 1000;
  assert.ok(peak >= 72 && peak <= 80, `ERCOT winter peak ${peak} GW`);
  const out = outageTruthMw('ercot', {
    year: 2024,
    month: 1,
    day: 16,
    poptempMinC: Math.min(...t.poptemp),
    poptempMaxC: Math.max(...t.poptemp),
  });
  // Jan 2024 froze ~10–15 GW of ERCOT's thermal fleet; Uri-like cold (outage.test.ts) takes 15–40 % of it.
  assert.ok(out >= 10_000, `ERCOT outages ${out} MW`);
  // A normal January day a year later is far milder.
  const calm = total('ercot', hoursOf('ercot', { year: 2025, month: 1, day: 8 }, { year: 2025, month: 1, day: 9 }), null);
  assert.ok(mean(calm.poptemp) > mean(t.poptemp) + 8);
});

test('extremes: a run sees an event well 2 days ahead and hardly 12 days ahead', () => {
  assert.ok(knownFraction(48) > 0.95 && knownFraction(12 * 24) < 0.05 && knownFraction(6 * 24) > 0.2 && knownFraction(6 * 24) < 0.6);
  const event = WORLD.extremes.eventsStarting(H('2026-01-01T00:00Z'), H('2026-03-01T00:00Z'))[0];
  assert.ok(event, 'a seeded outbreak in early 2026');
  const peak = event.onset + event.buildHours + 6;
  const lat = event.lat + event.latPerHour * (peak - event.onset);
  const lon = event.lon + event.lonPerHour * (peak - event.onset);
  const mid = Float64Array.from({ length: 48 }, (_, i) => peak - 24 + i + 0.5);
  const anomaly = (created: number | null) => {
    const rows = ExtremeRows.prepare(
      WORLD.extremes,
      mid,
      created === null ? null : mid.map(() => created),
      created === null ? null : FORECAST_MODELS.optimized.skill,
    );
    const out = new Float64Array(mid.length);
    rows?.add(lat, lon, out);
    return mean(out);
  };
  const truth = anomaly(null);
  assert.ok(truth < -6, `truth ${truth}`);
  let near = 0;
  let far = 0;
  // Several runs (the error is drawn per run): on average most of it 2 days ahead, little 12 days ahead.
  for (let k = 0; k < 8; k++) {
    near += anomaly(peak - 48 - 6 * k) / 8;
    far += anomaly(peak - 12 * 24 - 6 * k) / 8;
  }
  assert.ok(near / truth > 0.7, `2 days ahead sees ${near} of ${truth}`);
  assert.ok(far / truth < 0.15, `12 days ahead sees ${far} of ${truth}`);
  // The normal model sees no event, only the climate of the events (the same anomaly on any day of the plateau).
  const normal = new Float64Array(mid.length);
  ExtremeRows.prepare(
    WORLD.extremes,
    mid,
    mid.map(() => peak - 48),
    FORECAST_MODELS.normal.skill,
  )!.add(lat, lon, normal);
  assert.ok(Math.max(...normal) - Math.min(...normal) < 0.05 && mean(normal) > truth / 4, `normal ${mean(normal)}`);
});

test('extremes: a run expects the climate of the events it does not know, so its mean is the truth’s at every lead', () => {
  // Philadelphia in winter (Dec–Feb) and Kansas City in summer (Jun–Aug), every 6 hours of 60 seasons
  // after the anchored events, one season at a time.
  const cases = [
    { lat: 39.95, lon: -75.17, from: '12-01', to: '03-01' },
    { lat: 39.1, lon: -94.58, from: '06-01', to: '09-01' },
  ];
  for (const { lat, lon, from, to } of cases) {
    const sums = { truth: 0, d7: 0, d12: 0, normal: 0, blind: 0 };
    let n = 0;
    for (let y = 2031; y < 2091; y++) {
      const start = H(`${from === '12-01' ? y - 1 : y}-${from}T00:00Z`);
      const mid = Float64Array.from({ length: (H(`${y}-${to}T00:00Z`) - start) / 6 }, (_, i) => start + 6 * i + 0.5);
      const anomaly = (leadHours: number | null, model: 'optimized' | 'normal' | null) => {
        const out = new Float64Array(mid.length);
        const created = leadHours === null ? null : mid.map((t) => t - 0.5 - leadHours);
        ExtremeRows.prepare(WORLD.extremes, mid, created, model ? FORECAST_MODELS[model].skill : null)?.add(lat, lon, out);
        return out.reduce((s, v) => s + v, 0);
      };
      const truth = anomaly(null, null);
      sums.truth += truth;
      sums.d7 += anomaly(7 * 24, 'optimized');
      sums.d12 += anomaly(12 * 24, 'optimized');
      sums.normal += anomaly(24, 'normal');
      // What a run 12 days ahead would see without the climate: the part of the events it knows.
      sums.blind += knownFraction(12 * 24) * truth;
      n += mid.length;
    }
    const m = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / n]));
    const label = `(${lat}, ${lon}) ${JSON.stringify(m)}`;
    // The seasons' mean anomaly: −0.76 °C in Philadelphia's winters, +0.11 °C in Kansas City's summers.
    assert.ok(from === '12-01' ? m.truth < -0.5 : m.truth > 0.05, label);
    for (const k of ['d7', 'd12', 'normal']) assert.ok(Math.abs(m[k] - m.truth) < 0.15 * Math.abs(m.truth), `${k}: ${label}`);
    assert.ok(Math.abs(m.blind - m.truth) > 0.9 * Math.abs(m.truth), label);
  }
});

test('bridge days: the Friday after Thanksgiving and Christmas week weekdays load less, and every model knows it', () => {
  assert.ok(isBridgeDay({ year: 2026, month: 11, day: 27 }));
  assert.ok(isBridgeDay({ year: 2026, month: 12, day: 24 }));
  assert.ok(isBridgeDay({ year: 2025, month: 12, day: 26 }));
  assert.ok(isBridgeDay({ year: 2026, month: 12, day: 31 }));
  assert.ok(!isBridgeDay({ year: 2026, month: 11, day: 20 }));
  assert.ok(!isBridgeDay({ year: 2026, month: 12, day: 26 }), 'a Saturday');
  // Forecasts (the normal too) assume the same factor as the truth: 5 % under a weekday.
  for (const d of [
    { year: 2026, month: 11, day: 27 },
    { year: 2025, month: 12, day: 24 },
  ]) {
    assert.deepEqual(calendarFactors(d), { nominal: 0.95, truth: 0.95, weekendLike: true });
  }
  assert.equal(calendarFactors({ year: 2026, month: 11, day: 20 }).nominal, 1);
  // Over the seven ISOs and four years, the truth on Black Friday is well under the Friday before
  // (weather and noise average out; the calendar does not).
  let ratio = 0;
  let count = 0;
  for (const iso of ISO_CODES) {
    for (const year of [2023, 2024, 2025, 2026]) {
      const thanksgiving = nercHolidays(year)[4].day;
      const day = (d: number) => mean(total(iso, hoursOf(iso, { year, month: 11, day: d }, { year, month: 11, day: d + 1 }), null).demand);
      ratio += day(thanksgiving + 1) / day(thanksgiving - 6);
      count++;
    }
  }
  ratio /= count;
  assert.ok(ratio > 0.9 && ratio < 0.98, `Black Friday / Friday before, mean over ISOs and years: ${ratio}`);
});

test('load growth: a pure function of the hour; ERCOT grows several percent a year', () => {
  const h = H('2024-03-01T00:00Z');
  assert.equal(growthFactor('ercot', h), growthFactor('ercot', h));
  assert.ok(growthFactor('ercot', h + 8766) / growthFactor('ercot', h) > 1.03);
  const y = (year: number) =>
    mean(total('ercot', hoursOf('ercot', { year, month: 1, day: 1 }, { year: year + 1, month: 1, day: 1 }), null).demand);
  const growth = y(2025) / y(2023);
  assert.ok(growth > 1.05 && growth < 1.12, `ERCOT 2025 / 2023 mean load ${growth}`);
});
