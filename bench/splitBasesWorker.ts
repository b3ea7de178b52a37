/** A thread of bench/splitBases.ts: prepares the large request's weather batch and computes half its plants. */
import { parentPort } from 'node:worker_threads';
import fs from 'node:fs';
import { plantFirstHour, plantsOf } from '../src/catalog/plants.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { stitchRows } from '../src/query/continuous.ts';
import { modelSchedule } from '../src/sources/schedule.ts';
import { localDayStartHour } from '../src/time/zones.ts';
import { PlantSeriesComputer, weatherNeedsFor } from '../src/world/plantOutput.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';
import { BasisExchange, withBasisExchange } from '../src/world/basisExchange.ts';
const tz = 'America/Chicago';
const model = FORECAST_MODELS.optimized;
const first = localDayStartHour(tz, { year: 2026, month: 1, day: 1 });
const last = localDayStartHour(tz, { year: 2026, month: 11, day: 20 }) - 1;
const rows = stitchRows(
  { timezone: tz, runs: modelSchedule(model), latestHour: 10, daysAhead: 1 },
  { startHour: first, endHour: last },
  first,
  Date.parse('2026-11-20T18:00:00Z'),
);
const world = new WeatherWorld();
const plants = plantsOf('ercot', 'wind');
export interface Reply {
  cpu: number;
  wall: number;
  batchMs: number;
  computed?: number;
}

/** This thread's CPU time, ms. */
const threadCpu = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
parentPort!.on('message', (m: { half: number; memory?: { buffer: ArrayBufferLike } }) => {
  const c0 = threadCpu();
  const t0 = performance.now();
  const exchange = m.memory ? new BasisExchange(m.memory) : undefined;
  let batchMs = 0;
  withBasisExchange(exchange, () => {
    const b0 = threadCpu();
    const batch = new WeatherBatch(world, { valid: rows.valid, created: rows.created }, model.skill, weatherNeedsFor('wind'));
    const computer = new PlantSeriesComputer(batch, 'wind', rows.valid);
    batchMs = threadCpu() - b0;
    const mine = m.half === 0 ? plants.slice(0, 120) : plants.slice(120);
    for (const p of mine) computer.compute(p, plantFirstHour(p), new Float64Array(rows.valid.length));
  });
  const reply: Reply = { cpu: threadCpu() - c0, wall: performance.now() - t0, batchMs, computed: exchange?.computed };
  parentPort!.postMessage(reply);
});
