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
import { blockCache } from './blockCache.ts';
import { SEGMENT_HOURS, type StoredSegment } from './diskBlocks.ts';
import type { StitchedRows } from './continuous.ts';
import { clearBeyondHorizon } from './runs.ts';

/** A run of rows that one run serves on one local day: [from, to) row indices. */
interface DayBlock {
  from: number;
  to: number;
  key: string;
  /** Which stretch of SEGMENT_HOURS its first hour falls in: a plant's blocks in one stretch share a file on disk. */
  stretch: number;
}

/** Splits rows into blocks: a block ends where the run changes or after 24 rows. */
function dayBlocks(rows: StitchedRows): DayBlock[] {
  const blocks: DayBlock[] = [];
  let from = 0;
  for (let i = 1; i <= rows.valid.length; i++) {
    // Object.is: truth rows carry NaN as their run, and NaN !== NaN.
    if (i === rows.valid.length || !Object.is(rows.created[i], rows.created[from]) || rows.valid[i] - rows.valid[from] >= 25) {
      const key = `${rows.created[from]}:${rows.valid[from]}:${i - from}`;
      blocks.push({ from, to: i, key, stretch: Math.floor(rows.valid[from] / SEGMENT_HOURS) });
      from = i;
    }
  }
  return blocks;
}

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
    const n = this.rows.valid.length;
    const prefix = `plant:${plant.id}:${this.metric}:${this.model?.name ?? 'truth'}`;
    const values = new Float64Array(n);
    if (blockCache.enabled && this.fromCache(prefix, values)) return values;
    this.computerFor().compute(plant, plantFirstHour(plant), values);
    // Hours beyond a run's horizon have no forecast (the ISO model reaches 8 days).
    clearBeyondHorizon(values, this.rows, this.model);
    if (blockCache.enabled) {
      for (const b of this.blocks)
        blockCache.set(`${prefix}:${b.key}`, values.slice(b.from, b.to), { segment: `${prefix}:${b.stretch}`, key: b.key });
    }
    return values;
  }

  /**
   * Fills `into` from the cache: each block from memory, or else from its stretch's segment (read
   * from disk at most once here: what an earlier process computed). False at the first block
   * found in neither.
   */
  private fromCache(prefix: string, into: Float64Array): boolean {
    const segments = new Map<number, StoredSegment | null>();
    const segmentOf = (stretch: number) => {
      let stored = segments.get(stretch);
      if (stored === undefined) segments.set(stretch, (stored = blockCache.segment(`${prefix}:${stretch}`)));
      return stored;
    };
    return this.blocks.every(
      (b) => this.copyCached(`${prefix}:${b.key}`, into, b.from) || (segmentOf(b.stretch)?.copyInto(b.key, into, b.from) ?? false),
    );
  }

  private copyCached(key: string, into: Float64Array, at: number): boolean {
    const hit = blockCache.get(key);
    if (hit) into.set(hit, at);
    return hit !== undefined;
  }
}
