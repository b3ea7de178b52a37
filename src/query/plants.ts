/** Queries over the plant catalog: the plant list and continuous plant forecasts. */
import { vintageQueriesFor } from './vintages.ts';
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { plantById, plantFirstHour, plantsOf } from '../catalog/plants.ts';
import type { Plant } from '../catalog/types.ts';
import { HOUR_MS } from '../time/hours.ts';
import { unitOf } from '../catalog/metrics.ts';
import { PLANT_METRIC_TYPE, type PlantMetric } from '../world/plantOutput.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { queryValueError } from './errors.ts';
import { PlantColumns } from './plantColumns.ts';
import { queriesFor, type ContinuousParams, type SeriesGroup, type TargetRequest } from './kinds.ts';
import type { SourceReader } from '../sources/reader.ts';
import { heldSeries } from '../sources/stored.ts';
import { heldTargetGroup, orderedTargets, recordId, storedQueriesFor } from './stored.ts';

/** The public plant record (reference isoview-api.md §2) plus its physical parameters. */
export function plantRecord(plant: Plant, nowMs: number): Record<string, unknown> {
  const started = plantFirstHour(plant) * HOUR_MS <= nowMs;
  const { id, name, plant_type, capacity_mw, iso, state, latitude, longitude, operations_begin_date, county_fips, ...physics } = plant;
  return {
    id,
    name,
    plant_type,
    capacity_mw,
    iso,
    state,
    latitude,
    longitude,
    operations_begin_date,
    status: started ? 'operating' : 'planned',
    summary: null,
    county_fips,
    ...physics,
  };
}

/** Plants listed for a metric: those operating now (the public service lists active plants). */
export function listPlants(iso: IsoCode, metric: PlantMetric, nowMs: number): Record<string, unknown>[] {
  return plantsOf(iso, PLANT_METRIC_TYPE[metric])
    .map((p) => plantRecord(p, nowMs))
    .filter((r) => r.status === 'operating');
}

/** The plants a request names: one by `id`, or all of the ISO's plants of the metric's type. */
export function selectPlants(iso: IsoCode, metric: PlantMetric, id: string | undefined): readonly Plant[] {
  const type = PLANT_METRIC_TYPE[metric];
  if (id === undefined) return plantsOf(iso, type);
  const plant = /^\d+$/.test(id.trim()) ? plantById(id.trim()) : undefined;
  if (!plant || plant.iso !== iso || plant.plant_type !== type) {
    throw queryValueError('id', id, `unknown ${type} plant id '${id}' in ${iso}; GET /v1/plant/${iso}/${metric}/list lists them`);
  }
  return [plant];
}

/** The plants of a request as a series group: their values come from the block-cached PlantColumns. */
function plantGroup(world: WeatherWorld, { iso, metric, id }: TargetRequest<PlantMetric>): SeriesGroup<Plant> {
  return {
    timezone: ISOS[iso].timezone,
    units: unitOf(metric),
    targets: selectPlants(iso, metric, id),
    label: (plant) => [String(plant.id)],
    source: (rows, model) => {
      const columns = new PlantColumns(world, metric, model, rows);
      // Inside `uncached` (a skill's sum over every plant, read plant by plant), one array for every plant (PlantColumns.values).
      const scratch = new Float64Array(rows.valid.length);
      return (plant) => columns.values(plant, scratch);
    },
  };
}

/** forecast, continuous and backcast of plants (plants have no actuals: their output is not metered). */
export const plantQueries = queriesFor(plantGroup);
export const plantContinuous = plantQueries.continuous;
export type PlantContinuousRequest = TargetRequest<PlantMetric> & ContinuousParams;
export const plantVintages = vintageQueriesFor(plantGroup);

/** The catalog's plant ids of the ISO and the metric's plant type, in list order. */
const catalogPlantIds = (iso: IsoCode, metric: PlantMetric) => plantsOf(iso, PLANT_METRIC_TYPE[metric]).map((p) => String(p.id));

/**
 * Plants served from stored sources: the catalog's plants by their ids, and the source's own
 * plants (any other id) — whichever ids the source holds for the ISO and metric.
 */
export const plantStored = storedQueriesFor({
  group: (_world: WeatherWorld, r: TargetRequest<PlantMetric>, held) =>
    heldTargetGroup(ISOS[r.iso].timezone, unitOf(r.metric), held, catalogPlantIds(r.iso, r.metric), r.id),
  key: (r) => ({ group: 'plant', iso: r.iso, metric: r.metric }),
  idOf: (id: string) => id,
  id: (r) => r.id,
});

/**
 * `/plant/{iso}/{metric}/list?source=NAME`: the plants the source holds, as plant records with
 * `source`. A plant the source describes (--catalog) has its name, capacity and coordinates; a
 * catalog plant it does not describe is the catalog's record; any other is known by its id alone
 * (null where nothing is known). Own plants are `operating` (they have data).
 */
export async function storedPlantList(
  reader: SourceReader,
  source: string,
  iso: IsoCode,
  metric: PlantMetric,
  nowMs: number,
): Promise<Record<string, unknown>[]> {
  const held = await heldSeries(reader, source, { group: 'plant', iso, metric }, 'source');
  const described = new Map((await reader.catalog(source, 'plant', iso)).map((e) => [e.target, e]));
  const plants = new Map(plantsOf(iso, PLANT_METRIC_TYPE[metric]).map((p) => [String(p.id), p]));
  return orderedTargets(
    held.map((s) => s.target),
    [...plants.keys()],
  ).map((id) => {
    const entry = described.get(id);
    const plant = plants.get(id);
    if (plant && !entry) return { ...plantRecord(plant, nowMs), source };
    return {
      id: recordId(id),
      name: entry?.name ?? id,
      plant_type: PLANT_METRIC_TYPE[metric],
      capacity_mw: entry?.capacity_mw ?? null,
      iso,
      state: null,
      latitude: entry?.latitude ?? null,
      longitude: entry?.longitude ?? null,
      operations_begin_date: null,
      status: 'operating',
      summary: null,
      county_fips: null,
      source,
    };
  });
}
