/**
 * The H3 cell group: an ISO's demand, wind and solar disaggregated to the H3 cells (res 2–5)
 * that cover its footprint (catalog/cells.ts for the geometry, catalog/disaggregation.ts for
 * what each cell holds). Demand is the cell's population share of each zone's demand; wind
 * and solar are the sums of the cell's plants. For any model, run and hour the cells add up
 * to the ISO total.
 */
import { vintageQueriesFor } from './vintages.ts';
import { getResolution, isValidCell } from 'h3-js';
import { DEFAULT_CELL_RESOLUTION, geometryAreaKm2, type Cell } from '../catalog/cells.ts';
import { cellMembers } from '../catalog/disaggregation.ts';
import { metricsOf, unitOf, type MetricsOf } from '../catalog/metrics.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { plantSums, sharedDemand } from './aggregates.ts';
import { queryValueError } from './errors.ts';
import { queriesFor, type SeriesGroup, type TargetRequest } from './kinds.ts';

export const CELL_METRICS = metricsOf('cells');
export type CellMetric = MetricsOf<'cells'>;

/** A cell request: its ISO, metric, optional id, and the ISO's cell set at the resolution asked for. */
export interface CellRequest extends TargetRequest<CellMetric> {
  cells: readonly Cell[];
}

/** The public cell record: centre point, clipped GeoJSON geometry and its area. */
export function cellRecord(cell: Cell): Record<string, unknown> {
  return {
    id: cell.id,
    resolution: cell.resolution,
    iso: cell.iso,
    timezone: cell.timezone,
    latitude: round6(cell.center.lat),
    longitude: round6(cell.center.lon),
    area_km2: Math.round(geometryAreaKm2(cell.geometry) * 10) / 10,
    geojson: cell.geometry,
  };
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The resolution a request is about: the one it asks for; else, when it names a cell by id,
 * that cell's resolution; else the default (4). A cell id at another resolution than the one
 * asked for is an error rather than a silent empty answer.
 */
export function requestResolution(id: string | undefined, asked: number | undefined): number {
  const cell = id?.trim().toLowerCase();
  const own = cell !== undefined && isValidCell(cell) ? getResolution(cell) : undefined;
  if (asked !== undefined && own !== undefined && own !== asked) {
    throw queryValueError('id', id, `cell ${cell} has H3 resolution ${own}, not the requested resolution ${asked}`);
  }
  return asked ?? own ?? DEFAULT_CELL_RESOLUTION;
}

function selectCells(r: CellRequest): readonly Cell[] {
  if (r.id === undefined) return r.cells;
  const index = cellMembers(r.cells).indexOf.get(r.id.trim().toLowerCase());
  if (index === undefined) {
    const resolution = r.cells[0].resolution;
    throw queryValueError(
      'id',
      r.id,
      `unknown cell id '${r.id}' in ${r.iso} at resolution ${resolution}; ` +
        `GET /v1/cells/${r.iso}/${r.metric}/list?resolution=${resolution} lists them`,
    );
  }
  return [r.cells[index]];
}

function cellGroup(world: WeatherWorld, r: CellRequest): SeriesGroup<Cell> {
  const members = cellMembers(r.cells);
  const indexOf = (cell: Cell) => members.indexOf.get(cell.id)!;
  return {
    timezone: r.cells[0].timezone,
    units: unitOf(r.metric),
    targets: selectCells(r),
    label: (cell) => [cell.id],
    source: (rows, model) => {
      if (r.metric === 'demand') {
        const demand = sharedDemand(world, r.iso, rows, model);
        return (cell) => demand(members.zoneShares[indexOf(cell)]);
      }
      const sumOf = plantSums(world, r.metric, rows, model);
      const plants = members.plants(r.metric);
      return (cell) => sumOf(plants[indexOf(cell)]);
    },
  };
}

/** forecast, continuous and backcast of cells (and actual, which the API does not route). */
export const cellQueries = queriesFor(cellGroup);
export const cellVintages = vintageQueriesFor(cellGroup);
