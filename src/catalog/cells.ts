/**
 * H3 cells of an ISO footprint, clipped to it (geometry only).
 *
 * - `isoFootprint(iso)`: the ISO's member counties (`countiesOf`) dissolved into one GeoJSON
 *   MultiPolygon with topojson-client `merge`. All counties come from the one us-atlas topology,
 *   so shared borders cancel exactly and no slivers remain. Memoised.
 * - `cellsOf(iso, resolution)`: every H3 cell (res 2..5) that touches the footprint, found with
 *   h3-js `polygonToCellsExperimental(…, containmentOverlapping)`, each clipped to the footprint
 *   (a border cell keeps only its inside part; cells with no inside area are dropped), sorted by
 *   id. The result is static, so it is **computed once and cached** in memory per
 *   (iso, resolution); later calls return the same frozen array.
 *
 * Clipping: the cells are split recursively (k-d on their centres) and at every level the
 * footprint is pre-clipped with lineclip (Sutherland–Hodgman) to the bounding box of the cells
 * in that branch, so each exact polygon-clipping `intersection` at a leaf only sees the few
 * footprint vertices near one cell. Pre-clipping to a box that contains the cell never changes
 * the intersection with that cell.
 *
 * Coordinates are GeoJSON [lon, lat]; H3 boundaries come from `cellToBoundary(id, true)`. Edges
 * are treated as straight in lon/lat both for cells and footprint (cells share vertices, so they
 * still tile exactly). Areas use the spherical ring-area formula (as @turf/area), km²; the
 * inside fraction is clipped area ÷ full cell area under that same formula. No ISO footprint
 * crosses the antimeridian, so no wrapping is needed.
 */
import { cellToBoundary, cellToLatLng, polygonToCellsExperimental, POLYGON_TO_CELLS_FLAGS } from 'h3-js';
import { clipPolygon, type BoundingBox } from 'lineclip';
import polygonClipping from 'polygon-clipping';
import { merge } from 'topojson-client';
import type { GeometryCollection } from 'topojson-specification';
import { countiesOf, countiesTopology } from './geography.ts';
import { ISOS, type IsoCode } from './isos.ts';
import { roundGeometry } from '../util/geojson.ts';

export type Position = [number, number];
export type PolygonCoords = Position[][];
export type MultiPolygonCoords = Position[][][];

export type CellGeometry = { type: 'Polygon'; coordinates: PolygonCoords } | { type: 'MultiPolygon'; coordinates: MultiPolygonCoords };

export interface Cell {
  /** H3 index (hex string). */
  id: string;
  resolution: number;
  iso: IsoCode;
  /** The ISO's operating time zone (`ISOS[iso].timezone`). */
  timezone: string;
  /** H3 cell centre (may lie outside the footprint for a border cell). */
  center: { lat: number; lon: number };
  /** The cell clipped to the ISO footprint, GeoJSON [lon, lat], coordinates to 6 decimals. */
  geometry: CellGeometry;
  /** Clipped area ÷ full cell area, in (0, 1]. */
  insideFraction: number;
}

export const MIN_CELL_RESOLUTION = 2;
export const MAX_CELL_RESOLUTION = 5;
/**
 * Resolution served when a request names none: res 4 cells (~1,770 km², ~50 km across) give
 * 100–1,000 cells per ISO — county-scale detail in a response that stays a few MB.
 */
export const DEFAULT_CELL_RESOLUTION = 4;

// ---------------------------------------------------------------------------------------------
// Areas

const EARTH_RADIUS_KM = 6378.137;
const RAD = Math.PI / 180;

/** Signed-agnostic spherical area of one ring (km²), as @turf/area computes it. */
export function ringAreaKm2(ring: readonly (readonly number[])[]): number {
  const n = ring.length;
  if (n < 3) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = ring[(i + n - 1) % n];
    const middle = ring[i];
    const upper = ring[(i + 1) % n];
    total += (upper[0] - lower[0]) * RAD * Math.sin(middle[1] * RAD);
  }
  return Math.abs((total * EARTH_RADIUS_KM * EARTH_RADIUS_KM) / 2);
}

/** Area (km²) of a Polygon (outer ring minus holes). */
export function polygonAreaKm2(polygon: readonly (readonly (readonly number[])[])[]): number {
  let a = 0;
  polygon.forEach((ring, i) => {
    a += i === 0 ? ringAreaKm2(ring) : -ringAreaKm2(ring);
  });
  return a;
}

/** Area (km²) of a Polygon or MultiPolygon geometry. */
export function geometryAreaKm2(geometry: CellGeometry | { type: 'MultiPolygon'; coordinates: MultiPolygonCoords }): number {
  if (geometry.type === 'Polygon') return polygonAreaKm2(geometry.coordinates);
  return geometry.coordinates.reduce((s, p) => s + polygonAreaKm2(p), 0);
}

/** Full (unclipped) area of an H3 cell in km², with the same formula as the clipped areas. */
export function cellAreaKm2(id: string): number {
  return ringAreaKm2(cellRing(id));
}

function cellRing(id: string): Position[] {
  return cellToBoundary(id, true) as Position[];
}

// ---------------------------------------------------------------------------------------------
// Footprints

const footprintCache = new Map<IsoCode, MultiPolygonCoords>();

/** The ISO's footprint: its member counties dissolved into one MultiPolygon ([lon, lat]). Memoised. */
export function isoFootprint(iso: IsoCode): MultiPolygonCoords {
  const hit = footprintCache.get(iso);
  if (hit) return hit;
  const topo = countiesTopology();
  const fips = new Set(countiesOf(iso).map((c) => c.fips));
  const collection = topo.objects.counties as GeometryCollection;
  const members = collection.geometries.filter((g) => fips.has(String(g.id)));
  if (members.length === 0) throw new Error(`isoFootprint: no counties for ${iso}`);
  // merge accepts Polygon/MultiPolygon topology geometries; every county is one of those.
  const merged = merge(topo, members as Parameters<typeof merge>[1]);
  const coords = merged.coordinates as MultiPolygonCoords;
  footprintCache.set(iso, coords);
  return coords;
}

// ---------------------------------------------------------------------------------------------
// Cells

interface Work {
  id: string;
  ring: Position[];
  bbox: BoundingBox;
  cx: number;
  cy: number;
}

interface Piece {
  /** Outer ring first, then holes. */
  rings: Position[][];
}

const cellsCache = new Map<string, readonly Cell[]>();

/**
 * Every H3 cell at `resolution` (2..5) touching the ISO footprint, clipped to it, sorted by id.
 * Computed once per (iso, resolution) and cached in memory; the returned array and cells are frozen.
 */
export function cellsOf(iso: IsoCode, resolution: number): readonly Cell[] {
  if (!Number.isInteger(resolution) || resolution < MIN_CELL_RESOLUTION || resolution > MAX_CELL_RESOLUTION) {
    throw new RangeError(`cellsOf: resolution must be an integer ${MIN_CELL_RESOLUTION}..${MAX_CELL_RESOLUTION}, got ${resolution}`);
  }
  const key = `${iso}/${resolution}`;
  const hit = cellsCache.get(key);
  if (hit) return hit;
  const built = buildCells(iso, resolution);
  cellsCache.set(key, built);
  return built;
}

function buildCells(iso: IsoCode, resolution: number): readonly Cell[] {
  const footprint = isoFootprint(iso);
  const ids = new Set<string>();
  for (const polygon of footprint) {
    for (const id of polygonToCellsExperimental(polygon, resolution, POLYGON_TO_CELLS_FLAGS.containmentOverlapping, true)) {
      ids.add(id);
    }
  }
  const work: Work[] = [...ids].map((id) => {
    const ring = cellRing(id);
    const [lat, lon] = cellToLatLng(id);
    return { id, ring, bbox: ringBBox(ring), cx: lon, cy: lat };
  });

  const pieces: Piece[] = footprint.map((p) => ({ rings: p }));
  const clipped = new Map<string, MultiPolygonCoords>();
  clipRecursive(work, pieces, clipped);

  const timezone = ISOS[iso].timezone;
  const out: Cell[] = [];
  for (const w of work) {
    const mp = clipped.get(w.id);
    if (!mp || mp.length === 0) continue;
    const area = mp.reduce((s, p) => s + polygonAreaKm2(p), 0);
    if (!(area > 0)) continue;
    const full = ringAreaKm2(w.ring);
    const geometry: CellGeometry = mp.length === 1 ? { type: 'Polygon', coordinates: mp[0] } : { type: 'MultiPolygon', coordinates: mp };
    out.push(
      Object.freeze({
        id: w.id,
        resolution,
        iso,
        timezone,
        center: Object.freeze({ lat: w.cy, lon: w.cx }),
        geometry: Object.freeze(roundGeometry(geometry)),
        insideFraction: Math.min(1, area / full),
      }),
    );
  }
  out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return Object.freeze(out);
}

/** Cells per leaf of the k-d recursion. */
const LEAF = 1;

function clipRecursive(cells: Work[], pieces: Piece[], out: Map<string, MultiPolygonCoords>): void {
  const box = unionBox(cells);
  const local = preclip(pieces, box);
  if (local.length === 0) return;
  if (cells.length <= LEAF) {
    const subject = local.map((p) => p.rings);
    for (const c of cells) {
      const result = polygonClipping.intersection([c.ring], subject as MultiPolygonCoords);
      if (result.length > 0) out.set(c.id, result as MultiPolygonCoords);
    }
    return;
  }
  // Split on the wider extent of the cell centres, at the median.
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const c of cells) {
    if (c.cx < minX) minX = c.cx;
    if (c.cx > maxX) maxX = c.cx;
    if (c.cy < minY) minY = c.cy;
    if (c.cy > maxY) maxY = c.cy;
  }
  const byX = maxX - minX >= (maxY - minY) / Math.cos(((minY + maxY) / 2) * RAD);
  const sorted = [...cells].sort(byX ? (a, b) => a.cx - b.cx : (a, b) => a.cy - b.cy);
  const mid = sorted.length >> 1;
  clipRecursive(sorted.slice(0, mid), local, out);
  clipRecursive(sorted.slice(mid), local, out);
}

function unionBox(cells: readonly Work[]): BoundingBox {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (const c of cells) {
    if (c.bbox[0] < w) w = c.bbox[0];
    if (c.bbox[1] < s) s = c.bbox[1];
    if (c.bbox[2] > e) e = c.bbox[2];
    if (c.bbox[3] > n) n = c.bbox[3];
  }
  // A hair of margin so the box edges never coincide with cell vertices.
  const eps = 1e-7;
  return [w - eps, s - eps, e + eps, n + eps];
}

/** Sutherland–Hodgman pre-clip of each polygon to `box`; polygons whose outer ring vanishes are dropped. */
function preclip(pieces: readonly Piece[], box: BoundingBox): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    const outer = clipRing(piece.rings[0], box);
    if (!outer) continue;
    const rings: Position[][] = [outer];
    for (let i = 1; i < piece.rings.length; i++) {
      const hole = clipRing(piece.rings[i], box);
      if (hole) rings.push(hole);
    }
    out.push({ rings });
  }
  return out;
}

/** [west, south, east, north] of a ring. */
function ringBBox(ring: Position[]): BoundingBox {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (const [x, y] of ring) {
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

function clipRing(ring: Position[], box: BoundingBox): Position[] | null {
  // Fast paths: ring entirely outside or entirely inside the box.
  const [w, s, e, n] = ringBBox(ring);
  if (w > box[2] || e < box[0] || s > box[3] || n < box[1]) return null;
  if (w >= box[0] && e <= box[2] && s >= box[1] && n <= box[3]) return ring;
  const clipped = clipPolygon(ring, box) as Position[];
  if (clipped.length < 3 || ringAreaKm2(clipped) <= 0) return null;
  return clipped;
}
