/**
 * Spatial groups of a zone's wind or solar fleet, for the ensemble fleet proxy
 * (world/fleetProxy.ts): the zone's plants, sorted west to east, are split into
 * ceil(√n · density) groups (longitude columns × latitude rows), each represented by the plant
 * nearest its capacity-weighted centre. With density null every plant is its own group.
 */
import { plantFirstHour } from './plants.ts';
import { plantsByZone, type Region } from './regions.ts';
import type { Plant } from './types.ts';

export interface FleetGroup {
  /** The plant whose weather and physics stand for the group. */
  rep: Plant;
  /** The group's plants: epoch hour each began operating, and its capacity. */
  begins: number[];
  capacities: number[];
}

const groupCache = new Map<string, readonly FleetGroup[]>();

/** Splits `items` into `parts` contiguous runs of nearly equal length. */
function split<T>(items: T[], parts: number): T[][] {
  const out: T[][] = [];
  for (let k = 0; k < parts; k++) {
    const slice = items.slice(Math.floor((k * items.length) / parts), Math.floor(((k + 1) * items.length) / parts));
    if (slice.length) out.push(slice);
  }
  return out;
}

/** The member of `members` nearest their capacity-weighted centre (the larger plant on a tie). */
function representative(members: readonly Plant[]): Plant {
  const cap = members.reduce((s, p) => s + p.capacity_mw, 0);
  const lat = members.reduce((s, p) => s + p.capacity_mw * p.latitude, 0) / cap;
  const lon = members.reduce((s, p) => s + p.capacity_mw * p.longitude, 0) / cap;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  let rep = members[0];
  let best = Infinity;
  for (const p of members) {
    const d = (p.latitude - lat) ** 2 + ((p.longitude - lon) * cosLat) ** 2;
    if (d < best || (d === best && p.capacity_mw > rep.capacity_mw)) {
      best = d;
      rep = p;
    }
  }
  return rep;
}

/** The groups of a zone's fleet (memoised per zone, type and density). */
export function fleetGroups(zone: Region, type: 'wind' | 'solar', density: number | null): readonly FleetGroup[] {
  const key = `${zone.id}:${type}:${density}`;
  let groups = groupCache.get(key);
  if (groups) return groups;
  const plants = [...(plantsByZone(zone.iso, type).get(zone.id) ?? [])].sort(
    (a, b) => a.longitude - b.longitude || a.latitude - b.latitude || a.id - b.id,
  );
  const out: FleetGroup[] = [];
  const groupOf = (members: readonly Plant[], rep: Plant) => ({
    rep,
    begins: members.map(plantFirstHour),
    capacities: members.map((p) => p.capacity_mw),
  });
  if (density === null) {
    for (const p of plants) out.push(groupOf([p], p));
  } else if (plants.length) {
    const k = Math.min(plants.length, Math.ceil(Math.sqrt(plants.length) * density));
    const columns = Math.ceil(Math.sqrt(k));
    split(plants, columns).forEach((col, c) => {
      const rows = Math.max(1, Math.floor(k / columns) + (c < k % columns ? 1 : 0));
      const byLat = [...col].sort((a, b) => a.latitude - b.latitude || a.id - b.id);
      for (const members of split(byLat, Math.min(rows, byLat.length))) out.push(groupOf(members, representative(members)));
    });
  }
  groups = out;
  groupCache.set(key, groups);
  return groups;
}
