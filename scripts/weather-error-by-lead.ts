/**
 * Temperature forecast error by lead at one point, for telling the error model's expectation from
 * one world's realisation of it (README, Realism report, round 7).
 *
 *   node --import tsx scripts/weather-error-by-lead.ts [--model optimized|iso] [--seed N]
 *     [--lat=42.36 --lon=-71.06] [--from 2023-01-01 --to 2026-10-31] [--leads 14,62,...] [--no-extremes]
 *     [--run-hour 15 --days 1,3,5,...]
 *
 * Prints the mean absolute error (°C) of the 2 m temperature over every hour of the period, at each
 * lead (hours), with runs made every hour (so every hour of the day and every run phase is scored
 * alike); with --run-hour H, at each number of days ahead d from the run made at H:00 UTC d days
 * before the hour's UTC day, as the continuous series at latest_hour 10 take it (15 UTC is 10:00 EST). The model's expected error grows with lead by construction (weather/skill.ts: e(lead) is
 * monotone; extremes.ts: a run knows less of an event the longer the lead); the printed curve is a
 * sample of it and wanders by a few per cent with the world seed. `--no-extremes` leaves the
 * catalogue of heat domes and Arctic outbreaks out of truth and forecast alike.
 */
import { parseArgs } from 'node:util';
import { pointClimate } from '../src/world/climate.ts';
import { WeatherBatch, newWeatherSeries } from '../src/world/weather/batch.ts';
import { DEFAULT_WORLD_SEED, WeatherWorld } from '../src/world/weather/world.ts';
import { FORECAST_MODELS, type ForecastModelName } from '../src/models/forecastModels.ts';
import { HOUR_MS } from '../src/time/hours.ts';

const { values: o } = parseArgs({
  options: {
    model: { type: 'string', default: 'optimized' },
    seed: { type: 'string', default: String(DEFAULT_WORLD_SEED) },
    lat: { type: 'string', default: '42.36' },
    lon: { type: 'string', default: '-71.06' },
    from: { type: 'string', default: '2023-01-01' },
    to: { type: 'string', default: '2026-10-31' },
    leads: { type: 'string', default: '14,62,110,134,158,182,206,230,278,326' },
    'no-extremes': { type: 'boolean', default: false },
    'run-hour': { type: 'string' },
    days: { type: 'string', default: '1,3,5,6,7,8,9,10,12,14' },
  },
});

const model = o.model as ForecastModelName;
if (model !== 'optimized' && model !== 'iso') throw new Error(`--model must be optimized or iso, not ${o.model}`);
const world = new WeatherWorld(Number(o.seed));
const events = o['no-extremes'] ? [] : null;
if (events) world.extremes.eventsBetween = () => events;
const climate = pointClimate(Number(o.lat), Number(o.lon));
const first = Date.parse(`${o.from}T00:00Z`) / HOUR_MS;
const last = Date.parse(`${o.to}T00:00Z`) / HOUR_MS;
const valid = Array.from({ length: last - first }, (_, i) => first + i);

const truth = newWeatherSeries(valid.length);
new WeatherBatch(world, { valid, created: null }, null, {}).sample(climate, 1, truth);
/** Per scored column: its label and the run each valid hour is taken from. */
const columns: [string, (v: number) => number][] =
  o['run-hour'] === undefined
    ? o.leads.split(',').map((lead) => [`${lead}h`, (v: number) => v - Number(lead)])
    : o.days.split(',').map((d) => [`d${d}`, (v: number) => Math.floor(v / 24) * 24 + Number(o['run-hour']) - 24 * Number(d)]);
const cells: string[] = [];
for (const [label, runOf] of columns) {
  const created = valid.map(runOf);
  const forecast = newWeatherSeries(valid.length);
  new WeatherBatch(world, { valid, created }, FORECAST_MODELS[model].skill, {}).sample(climate, 1, forecast);
  let sum = 0;
  for (let i = 0; i < valid.length; i++) sum += Math.abs(forecast.tempC[i] - truth.tempC[i]);
  cells.push(`${label} ${(sum / valid.length).toFixed(2)}`);
}
console.log(`${model} seed ${o.seed} (${o.lat}, ${o.lon})${o['no-extremes'] ? ' no extremes' : ''}: ${cells.join(' · ')}`);
