/**
 * How an ISO's quantities are shared out below its zones, to H3 cells and to counties:
 * - demand by population: a target's share of zone Z is the population of Z's GeoNames
 *   places (regions.ts `placesOf`) inside the target ÷ the population of all of Z's places.
 *   Every place is in exactly one cell and one county, so for every zone the shares over the
 *   cells (or counties) of the ISO add up to 1, and the targets' demand adds up to the sum of
 *   the zones' demand, which is the ISO total.
 * - wind and solar by the plants inside: each plant is in exactly one cell (and county).
 *
 * A point (place or plant) belongs to the H3 cell `latLngToCell` gives at the resolution. H3
 * edges are geodesic while clipped cells use straight lon/lat edges, so a point within metres
 * of an edge can land in a cell that the clipping dropped (no area inside the footprint): it
 * then goes to the nearest listed cell, so nothing is lost.
 */
import { latLngToCell } from 'h3-js';
import type { Cell } from './cells.ts';
import { countiesOf } from './geography.ts';
import type { IsoCode } from './isos.ts';
import { plantsOf } from './plants.ts';
import { placesOf, type Place } from './regions.ts';
import type { Plant } from './types.ts';

/** A target's share of one zone's demand. */
export interface ZoneShare {
  /** Region id of the zone, `<iso>_<zone>`. */
  regionId: string;
  /** Fraction (0–1] of the zone's population inside the target. */
  weight: number;
}

/** What each cell of one (ISO, resolution) set holds, index-aligned with the cells array. */
export interface CellMembers {
  indexOf: ReadonlyMap<string, number>;
  zoneShares: readonly (readonly ZoneShare[])[];
  plants(type: 'wind' | 'solar'): readonly (readonly Plant[])[];
}

/** Adds a place's population to its zone's entry (keyed by region id). */
function addPlace(byZone: Map<string, number>, iso: IsoCode, place: Place): void {
  const regionId = `${iso}_${place.zone}`;
  byZone.set(regionId, (byZone.get(regionId) ?? 0) + place.population);
}

/** Population of each zone's places, keyed by region id. */
function zonePopulations(iso: IsoCode): Map<string, number> {
  const totals = new Map<string, number>();
  for (const p of placesOf(iso)) addPlace(totals, iso, p);
  return totals;
}

/** Turns per-target population by zone into shares of each zone (keys in a fixed order). */
function toShares(byZone: Map<string, number>, zoneTotals: Map<string, number>): readonly ZoneShare[] {
  return Object.freeze(
    [...byZone.keys()].sort().map((regionId) => Object.freeze({ regionId, weight: byZone.get(regionId)! / zoneTotals.get(regionId)! })),
  );
}

const cellMembersCache = new WeakMap<readonly Cell[], CellMembers>();

/** Places and plants of a cell set (one ISO, one resolution), memoised per set. */
export function cellMembers(cells: readonly Cell[]): CellMembers {
  const hit = cellMembersCache.get(cells);
  if (hit) return hit;
  if (cells.length === 0) throw new Error('cellMembers: empty cell set');
  const { iso, resolution } = cells[0];
  const indexOf = new Map(cells.map((c, i) => [c.id, i]));
  const cellAt = (lat: number, lon: number): number => indexOf.get(latLngToCell(lat, lon, resolution)) ?? nearestCell(cells, lat, lon);

  const popByCell = cells.map(() => new Map<string, number>());
  for (const p of placesOf(iso)) addPlace(popByCell[cellAt(p.lat, p.lon)], iso, p);
  const totals = zonePopulations(iso);
  const zoneShares = Object.freeze(popByCell.map((m) => toShares(m, totals)));

  const plantsByType = new Map<string, readonly (readonly Plant[])[]>();
  const plants = (type: 'wind' | 'solar') => {
    let lists = plantsByType.get(type);
    if (!lists) {
      const built = cells.map(() => [] as Plant[]);
      for (const plant of plantsOf(iso, type)) built[cellAt(plant.latitude, plant.longitude)].push(plant);
      lists = Object.freeze(built.map((l) => Object.freeze(l)));
      plantsByType.set(type, lists);
    }
    return lists;
  };

  const members: CellMembers = { indexOf, zoneShares, plants };
  cellMembersCache.set(cells, members);
  return members;
}

/** The listed cell whose centre is nearest (a rare fallback, see the module note). */
function nearestCell(cells: readonly Cell[], lat: number, lon: number): number {
  const k = Math.cos((lat * Math.PI) / 180);
  let best = 0;
  let bestD = Infinity;
  cells.forEach((c, i) => {
    const d = ((c.center.lon - lon) * k) ** 2 + (c.center.lat - lat) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

const countySharesCache = new Map<IsoCode, ReadonlyMap<string, readonly ZoneShare[]>>();

/**
 * Each member county of an ISO (by FIPS) → its share of its zone's demand. A county lies in
 * one zone, so it has one share (none when no GeoNames place lies in it: zero demand).
 */
export function countyShares(iso: IsoCode): ReadonlyMap<string, readonly ZoneShare[]> {
  let shares = countySharesCache.get(iso);
  if (!shares) {
    const popByCounty = new Map(countiesOf(iso).map((c) => [c.fips, new Map<string, number>()]));
    for (const p of placesOf(iso)) addPlace(popByCounty.get(p.fips)!, iso, p);
    const totals = zonePopulations(iso);
    shares = new Map([...popByCounty].map(([fips, m]) => [fips, toShares(m, totals)]));
    countySharesCache.set(iso, shares);
  }
  return shares;
}
