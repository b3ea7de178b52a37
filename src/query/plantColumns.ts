/**
 * Plant series over a set of rows, computed once per plant and kept in the block cache.
 * Rows are whole local days (stitched continuous days, or a single run's span), so every
 * block — one run on one local day — is cached and reused by any later request that
 * needs it: the plant endpoints, and the regions, whose wind and solar are sums of plants.
 */
import { plantFirstHour } from '../catalog/plants.ts';
import type { Plant } from '../catalog/types.ts';
import type { ForecastModel } from '../models/forecastModels.ts';
import { PlantSeriesComputer, weatherNeedsFor, type PlantMetric } from '../world/plantOutput.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { cachedBlocks, dayBlocks, type DayBlock } from './blockCache.ts';
import type { StitchedRows } from './continuous.ts';
import { clearBeyondHorizon } from './runs.ts';

export class PlantColumns {
  private readonly blocks: DayBlock[];
  private computer: PlantSeriesComputer | null = null;

  /**
   * `model` null means truth (actuals): rows' `created` is ignored and no horizon applies.
   */
  constructor(
    private readonly world: WeatherWorld,
    readonly metric: PlantMetric,
    private readonly model: ForecastModel | null,
    readonly rows: StitchedRows,
  ) {
    this.blocks = dayBlocks(rows);
  }

  private computerFor(): PlantSeriesComputer {
    return (this.computer ??= new PlantSeriesComputer(
      new WeatherBatch(
        this.world,
        { valid: this.rows.valid, created: this.model ? this.rows.created : null },
        this.model?.skill ?? null,
        weatherNeedsFor(this.metric),
      ),
      this.metric,
      this.rows.valid,
    ));
  }

  /** The plant's values on every row (NaN before it began operating or beyond a run's horizon). */
  values(plant: Plant): Float64Array {
    const prefix = `plant:${plant.id}:${this.metric}:${this.model?.name ?? 'truth'}`;
    return cachedBlocks(prefix, this.blocks, this.rows.valid.length, (values) => {
      this.computerFor().compute(plant, plantFirstHour(plant), values);
      // Hours beyond a run's horizon have no forecast (the ISO model reaches 8 days).
      clearBeyondHorizon(values, this.rows, this.model);
    });
  }
}
