/**
 * Series built from other series, so that every level adds up: wind and solar of any area
 * (zone, ISO, cell) are sums of its plants, and demand below the zones (cells, counties) is a
 * population-weighted share of the zones' demand (catalog/disaggregation.ts).
 */
import type { ZoneShare } from '../catalog/disaggregation.ts';
import type { IsoCode } from '../catalog/isos.ts';
import { ISOS } from '../catalog/isos.ts';
import { regionById, type Region } from '../catalog/regions.ts';
import type { Plant } from '../catalog/types.ts';
import type { ForecastModel } from '../models/forecastModels.ts';
import { RegionWeatherComputer } from '../world/demand.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import type { StitchedRows } from './continuous.ts';
import { cachedBlocks, dayBlocks } from './blockCache.ts';
import { PlantColumns } from './plantColumns.ts';
import { scopedArray } from '../world/dotKernel.ts';
import { clearBeyondHorizon } from './runs.ts';

/**
 * Sums of plant series over rows: a plant that did not exist yet adds nothing. Plant series
 * come from the block-cached PlantColumns, so a plant shared by several sums is computed once.
 */
export function plantSums(world: WeatherWorld, metric: 'wind' | 'solar', rows: StitchedRows, model: ForecastModel | null) {
  const columns = new PlantColumns(world, metric, model, rows);
  const n = rows.valid.length;
  // Each plant's values are added before the next plant's are asked for (PlantColumns.values).
  const scratch = scopedArray(n);
  // A sum lives as long as the computation's scope (a skill's chunk of rows: its zones, ~20 a chunk in PJM).
  return (plants: readonly Plant[]): Float64Array => {
    const sum = scopedArray(n);
    addPlants(columns, plants, scratch, sum);
    return clearBeyondHorizon(sum, rows, model);
  };
}

/**
 * Adds the plants' values (a plant that did not exist yet adds nothing) into `sum`. A function of
 * its own, not the loop of the closure plantSums makes for each set of rows: V8 compiled such a
 * closure's loops again (on-stack replacement) in request after request.
 */
function addPlants(columns: PlantColumns, plants: readonly Plant[], scratch: Float64Array, sum: Float64Array): void {
  for (const plant of plants) {
    const v = columns.values(plant, scratch);
    for (let i = 0; i < sum.length; i++) if (Number.isFinite(v[i])) sum[i] += v[i];
  }
}

/**
 * Demand or poptemp of regions over rows, from one weather computation shared by all regions
 * (made on the first region not found in the block cache, whose day blocks make repeated and
 * overlapping requests — the skill's many continuous series among them — cheap).
 */
export function regionLoadSource(
  world: WeatherWorld,
  metric: 'demand' | 'poptemp',
  rows: StitchedRows,
  model: ForecastModel | null,
  timezone: string,
) {
  let computer: RegionWeatherComputer | undefined;
  const computerFor = () =>
    (computer ??= new RegionWeatherComputer(
      new WeatherBatch(world, { valid: rows.valid, created: model ? rows.created : null }, model?.skill ?? null, {}),
      rows.valid,
      timezone,
    ));
  const blocks = dayBlocks(rows);
  return (region: Region): Float64Array =>
    cachedBlocks(`region:${region.id}:${metric}:${model?.name ?? 'truth'}`, blocks, rows.valid.length, (out) => {
      if (metric === 'demand') computerFor().demand(region, out);
      else computerFor().poptemp(region, out);
      clearBeyondHorizon(out, rows, model);
    });
}

/**
 * Demand of targets below the zones: Σ over the target's zone shares of weight × zone demand.
 * Each zone's demand is computed once, on first use, and shared by all targets.
 */
export function sharedDemand(world: WeatherWorld, iso: IsoCode, rows: StitchedRows, model: ForecastModel | null) {
  const zoneDemand = regionLoadSource(world, 'demand', rows, model, ISOS[iso].timezone);
  const zones = new Map<string, Float64Array>();
  const demandOf = (regionId: string) => {
    let series = zones.get(regionId);
    if (!series) {
      series = zoneDemand(regionById(regionId)!);
      zones.set(regionId, series);
    }
    return series;
  };
  const n = rows.valid.length;
  return (shares: readonly ZoneShare[]): Float64Array => {
    const out = new Float64Array(n);
    for (const { regionId, weight } of shares) {
      const zone = demandOf(regionId);
      for (let i = 0; i < n; i++) out[i] += weight * zone[i];
    }
    return clearBeyondHorizon(out, rows, model);
  };
}
