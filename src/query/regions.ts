/**
 * The region group: `<iso>_total` and the ISO's zones. Regional wind and solar are the
 * sums of the plants in the region — for truth and for every model and run — and an ISO
 * total is the sum of its zones, so aggregates always add up. Demand and population-
 * weighted temperature come from the weather at each region's load centres
 * (src/world/demand.ts); total demand is the sum of the zones' demand.
 */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { plantsOf } from '../catalog/plants.ts';
import { regionById, regionsOf, zoneRegionOfPlant, zoneRegionsOf, type Region } from '../catalog/regions.ts';
import type { Plant } from '../catalog/types.ts';
import type { ForecastModel } from '../models/forecastModels.ts';
import { RegionWeatherComputer, regionWeatherBatch } from '../world/demand.ts';
import type { WeatherWorld } from '../world/weather.ts';
import type { StitchedRows } from './continuous.ts';
import { queryValueError } from './errors.ts';
import { queriesFor, type SeriesGroup } from './kinds.ts';
import { PlantColumns } from './plantColumns.ts';

export const REGION_METRICS = ['demand', 'wind', 'solar', 'poptemp'] as const;
export type RegionMetric = (typeof REGION_METRICS)[number];

const REGION_UNITS: Record<RegionMetric, string> = { demand: 'MW', wind: 'MW', solar: 'MW', poptemp: '°C' };

/** The public region record (reference isoview-api.md §2). */
export function regionList(iso: IsoCode): Record<string, unknown>[] {
  return regionsOf(iso).map((r) => ({ id: r.id, name: r.name, region_type: r.region_type, iso: r.iso, timezone: r.timezone }));
}

function selectRegions(iso: IsoCode, metric: RegionMetric, id: string | undefined): readonly Region[] {
  if (id === undefined) return regionsOf(iso);
  const region = regionById(id.trim());
  if (!region || region.iso !== iso) {
    throw queryValueError('id', id, `unknown region id '${id}' in ${iso}; GET /v1/region/${iso}/${metric}/list lists them`);
  }
  return [region];
}

/** Plants of each zone of an ISO, memoised per ISO and plant type. */
const plantsByZone = new Map<string, Map<string, Plant[]>>();

function zonePlants(iso: IsoCode, type: 'wind' | 'solar'): Map<string, Plant[]> {
  const key = `${iso}:${type}`;
  let byZone = plantsByZone.get(key);
  if (!byZone) {
    byZone = new Map(zoneRegionsOf(iso).map((z) => [z.id, [] as Plant[]]));
    for (const p of plantsOf(iso, type)) byZone.get(zoneRegionOfPlant(p).id)!.push(p);
    plantsByZone.set(key, byZone);
  }
  return byZone;
}

/**
 * Sums of plant series: a plant that did not exist yet adds nothing; hours beyond a run's
 * horizon have no value for the region either.
 */
function plantSumSource(world: WeatherWorld, iso: IsoCode, metric: 'wind' | 'solar', rows: StitchedRows, model: ForecastModel | null) {
  const columns = new PlantColumns(world, metric, model, rows);
  const byZone = zonePlants(iso, metric);
  const n = rows.valid.length;
  const zoneSums = new Map<string, Float64Array>();
  const zoneSum = (zoneId: string): Float64Array => {
    let sum = zoneSums.get(zoneId);
    if (!sum) {
      sum = new Float64Array(n);
      for (const plant of byZone.get(zoneId) ?? []) {
        const v = columns.values(plant);
        for (let i = 0; i < n; i++) if (Number.isFinite(v[i])) sum[i] += v[i];
      }
      if (model) for (let i = 0; i < n; i++) if (rows.valid[i] - rows.created[i] >= model.horizonHours) sum[i] = Number.NaN;
      zoneSums.set(zoneId, sum);
    }
    return sum;
  };
  return (region: Region): Float64Array => {
    if (region.region_type === 'zone') return zoneSum(region.id);
    const total = new Float64Array(n);
    for (const zone of zoneRegionsOf(iso)) {
      const z = zoneSum(zone.id);
      for (let i = 0; i < n; i++) total[i] += z[i];
    }
    return total;
  };
}

/** Demand or poptemp of regions over rows, from one weather computation shared by all regions. */
function loadSource(world: WeatherWorld, metric: 'demand' | 'poptemp', rows: StitchedRows, model: ForecastModel | null, timezone: string) {
  const batch = regionWeatherBatch(world, { valid: rows.valid, created: model ? rows.created : null }, model?.skill ?? null);
  const computer = new RegionWeatherComputer(batch, rows.valid, timezone);
  return (region: Region): Float64Array => {
    const out = new Float64Array(rows.valid.length);
    if (metric === 'demand') computer.demand(region, out);
    else computer.poptemp(region, out);
    if (model) for (let i = 0; i < out.length; i++) if (rows.valid[i] - rows.created[i] >= model.horizonHours) out[i] = Number.NaN;
    return out;
  };
}

function regionGroup(world: WeatherWorld, iso: IsoCode, metric: RegionMetric, id: string | undefined): SeriesGroup<Region> {
  return {
    timezone: ISOS[iso].timezone,
    units: REGION_UNITS[metric],
    targets: selectRegions(iso, metric, id),
    label: (region) => [region.id],
    source: (rows, model) =>
      metric === 'wind' || metric === 'solar'
        ? plantSumSource(world, iso, metric, rows, model)
        : loadSource(world, metric, rows, model, ISOS[iso].timezone),
  };
}

export const regionQueries = queriesFor(regionGroup);
