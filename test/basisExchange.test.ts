/**
 * Time bases shared between the two workers a large body is shared out between
 * (world/basisExchange.ts): each basis is computed once, by either, and the series are bit for
 * bit those computed without an exchange.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMainThread } from 'node:worker_threads';
import { plantFirstHour, plantsOf } from '../src/catalog/plants.ts';
import { FORECAST_MODELS } from '../src/models/forecastModels.ts';
import { startModuleWorker } from '../src/util/moduleWorker.ts';
import { BasisExchange, withBasisExchange } from '../src/world/basisExchange.ts';
import { sharedKernelMemory } from '../src/world/dotKernel.ts';
import { SpectralField } from '../src/world/field.ts';
import { PLANT_METRIC_TYPE, PlantSeriesComputer, weatherNeedsFor, type PlantMetric } from '../src/world/plantOutput.ts';
import { WeatherBatch } from '../src/world/weather/batch.ts';
import { WeatherWorld } from '../src/world/weather/world.ts';

/** Two weeks of forecasts (a run a day) of a few ERCOT plants: wind (no trailing means) and solar (trailing means). */
export function exchangeTestSeries(): Float64Array[] {
  const world = new WeatherWorld();
  const first = Date.UTC(2026, 1, 2) / 3_600_000;
  const valid = Array.from({ length: 14 * 24 }, (_, i) => first + i);
  const created = valid.map((h) => h - (h % 24) - 14);
  const out: Float64Array[] = [];
  for (const metric of ['wind', 'solar'] as PlantMetric[]) {
    const batch = new WeatherBatch(world, { valid, created }, FORECAST_MODELS.optimized.skill, weatherNeedsFor(metric));
    const computer = new PlantSeriesComputer(batch, metric, valid);
    for (const plant of plantsOf('ercot', PLANT_METRIC_TYPE[metric]).slice(0, 4)) {
      const series = new Float64Array(valid.length);
      computer.compute(plant, plantFirstHour(plant), series);
      out.push(series);
    }
  }
  return out;
}

interface Reply {
  series: Float64Array[];
  asked: number;
  computed: number;
}

if (isMainThread) {
  test('two workers sharing an exchange compute each time basis once, and the series are bit for bit the same', async () => {
    const memory = sharedKernelMemory();
    const replies = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Reply>((resolve, reject) => {
            const worker = startModuleWorker(import.meta.url, 'basisExchangeWorker', { workerData: { memory } });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    const alone = exchangeTestSeries();
    // The distinct bases (the wind and solar batches share some): what one thread computes with an exchange of its own.
    const single = new BasisExchange(sharedKernelMemory());
    withBasisExchange(single, () => exchangeTestSeries());
    for (const reply of replies) {
      assert.equal(reply.series.length, alone.length);
      reply.series.forEach((s, i) => assert.deepEqual(s, alone[i], `series ${i}`));
    }
    const [a, b] = replies;
    assert.ok(a.asked > 0);
    assert.equal(a.asked, b.asked);
    // Without sharing, each would compute every basis.
    assert.equal(a.computed + b.computed, single.computed, `computed ${a.computed} + ${b.computed} of ${single.computed}`);
  });

  test('a basis whose computation failed in the other worker is computed by the one that needs it', () => {
    const memory = sharedKernelMemory();
    const alone = exchangeTestSeries();
    // The first thread claims the first basis and fails while computing it.
    const timeBasis = SpectralField.prototype.timeBasis;
    SpectralField.prototype.timeBasis = () => {
      throw new Error('failed for the test');
    };
    try {
      assert.throws(() => withBasisExchange(new BasisExchange(memory), () => exchangeTestSeries()), /failed for the test/);
    } finally {
      SpectralField.prototype.timeBasis = timeBasis;
    }
    const other = new BasisExchange(memory);
    const series = withBasisExchange(other, () => exchangeTestSeries());
    series.forEach((s, i) => assert.deepEqual(s, alone[i], `series ${i}`));
    // The rest (which the failing thread never reached) once, and the failed one by each of the two
    // batches that need it (a failed entry stays failed: each needer computes a copy of its own).
    const single = new BasisExchange(sharedKernelMemory());
    withBasisExchange(single, () => exchangeTestSeries());
    assert.equal(other.computed, single.computed + 1);
  });
}

if (isMainThread) {
  test('a directory lock left taken (a worker terminated while holding it) costs a copy of its own, never a hang', () => {
    const memory = sharedKernelMemory();
    const exchange = new BasisExchange(memory);
    // The directory's lock is the third Int32 slot of the first page.
    Atomics.store(new Int32Array(memory.buffer, 0, 4), 2, 1);
    const started = Date.now();
    const series = withBasisExchange(exchange, () => exchangeTestSeries());
    exchangeTestSeries().forEach((s, i) => assert.deepEqual(series[i], s, `series ${i}`));
    assert.equal(exchange.asked, 0, 'no basis came from the exchange');
    assert.ok(Date.now() - started < 30_000);
  });
}
