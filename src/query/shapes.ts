/**
 * One small instance of each kind of object a computation makes and drops — weather batches of
 * each kind, their anomaly groups and WebAssembly arenas, plant and region computers, noise
 * walkers, stored segments — kept alive for good (a few MB), and the fields that change after
 * construction changed once.
 *
 * Why: V8 keeps an object shape (its "map") alive only while some object has it, and optimised
 * code holds the shapes it checks weakly. When the last instance of a class dies, the next full
 * collection frees the class's shapes and throws away every function optimised against them, and
 * the next request runs unoptimised code while TurboFan compiles it all again. Measured (README,
 * *Start-up*): after the warm-up's collection nearly every function of the plant path (sample,
 * series, fill, compute, the noise walkers, the writer's helpers) was deoptimised ("weak objects"
 * in --trace-deopt) and compiled again during the next large request, and again after each full
 * collection between requests. With one instance of each alive, the shapes and the code survive.
 */
import { ISOS } from '../catalog/isos.ts';
import { plantsOf } from '../catalog/plants.ts';
import { regionsOf } from '../catalog/regions.ts';
import { FORECAST_MODELS, type ForecastModel } from '../models/forecastModels.ts';
import { RegionWeatherComputer } from '../world/demand.ts';
import { DotArena, withPooledArenas } from '../world/dotKernel.ts';
import { ValueNoise1Walker, ValueNoise2Walker } from '../world/hash.ts';
import { PLANT_METRICS } from '../world/plantOutput.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { uncached } from './blockCache.ts';
import type { StitchedRows } from './continuous.ts';
import { StoredSegment } from './diskBlocks.ts';
import { PlantColumns } from './plantColumns.ts';

const kept: unknown[] = [];

/** Makes and keeps the instances (once per thread; later calls do nothing). */
export function keepComputeShapes(world: WeatherWorld): void {
  if (kept.length > 0) return;
  // A day of rows from a run made the day before (any day inside the world works).
  const first = Math.floor(Date.parse('2026-03-02T00:00:00Z') / 3_600_000);
  const rows: StitchedRows = { valid: [], created: [] };
  for (let h = first; h < first + 24; h++) {
    rows.valid.push(h);
    rows.created.push(first - 24);
  }
  const models: (ForecastModel | null)[] = [null, FORECAST_MODELS.optimized, FORECAST_MODELS.normal];
  uncached(() => {
    for (const model of models) {
      for (const metric of PLANT_METRICS) {
        const plant = plantsOf('ercot', metric.startsWith('wind') ? 'wind' : 'solar')[0];
        const columns = new PlantColumns(world, metric, model, rows);
        columns.values(plant);
        kept.push(columns);
      }
      const batch = new WeatherBatch(world, { valid: rows.valid, created: model ? rows.created : null }, model?.skill ?? null, {});
      const regions = new RegionWeatherComputer(batch, rows.valid, ISOS.ercot.timezone);
      regions.demand(regionsOf('ercot')[0], new Float64Array(rows.valid.length));
      kept.push(regions);
    }
  });
  kept.push(new ValueNoise1Walker(0, 0), new ValueNoise2Walker(0, 0), StoredSegment.of([['', new Float64Array(1)]]));
  // A field that changes after its object is made is one V8 first took for a constant: the first
  // change deoptimises the code that relied on it ("code dependencies"). An arena's `released`
  // changes only at the end of a scope of pooled arenas (the skill's union of rows), which the
  // skill warm-up reached after the plant path was optimised: make that change now.
  withPooledArenas(() => kept.push(new DotArena(DotArena.doublesFor([2]))));
}
