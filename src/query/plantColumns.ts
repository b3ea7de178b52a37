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
import { bypassing, cachedBlocks, caching, dayBlocks, type DayBlock } from './blockCache.ts';
import type { StitchedRows } from './continuous.ts';
import { rowsBeyondHorizon } from './runs.ts';

export class PlantColumns {
  /** The rows beyond their run's horizon (the same for every plant: found once). */
  private beyond: Int32Array | null = null;
  /** The rows' day blocks, made when the cache is used (their keys are a string per block). */
  private blocks: DayBlock[] | null = null;
  private computer: PlantSeriesComputer | null = null;

  /**
   * `model` null means truth (actuals): rows' `created` is ignored and no horizon applies.
   */
  constructor(
    private readonly world: WeatherWorld,
    readonly metric: PlantMetric,
    private readonly model: ForecastModel | null,
    readonly rows: StitchedRows,
  ) {}

  private computerFor(): PlantSeriesComputer {
    return (this.computer ??= new PlantSeriesComputer(
      new WeatherBatch(
        this.world,
        { valid: this.rows.valid, created: this.model ? this.rows.created : null },
        this.model?.skill ?? null,
        weatherNeedsFor(this.metric, this.model?.skill ?? null),
      ),
      this.metric,
      this.rows.valid,
    ));
  }

  /**
   * The plant's values on every row (NaN before it began operating or beyond a run's horizon).
   * Inside an `uncached` computation (a skill's sum over every plant), written into `scratch`
   * when given, which the caller reads before asking for another plant's: no array per plant.
   */
  values(plant: Plant, scratch?: Float64Array): Float64Array {
    const compute = (values: Float64Array) => this.computeInto(plant, values);
    const n = this.rows.valid.length;
    if (!caching()) {
      // compute writes every row.
      const values = scratch?.length === n && bypassing() ? scratch : new Float64Array(n);
      compute(values);
      return values;
    }
    const prefix = `plant:${plant.id}:${this.metric}:${this.model?.name ?? 'truth'}`;
    return cachedBlocks(prefix, (this.blocks ??= dayBlocks(this.rows)), n, compute);
  }

  /** The plant's values on every row into `values`. */
  private computeInto(plant: Plant, values: Float64Array): void {
    this.computerFor().compute(plant, plantFirstHour(plant), values);
    // Hours beyond a run's horizon have no forecast (the ISO model reaches 8 days).
    for (const i of (this.beyond ??= rowsBeyondHorizon(this.rows, this.model))) values[i] = Number.NaN;
  }
}
