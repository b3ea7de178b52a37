/**
 * Pricing nodes of each ISO (docs/realism-targets.md §3a): its real trading hubs and load zones, by
 * the names the ISO publishes them under (PJM `WESTERN HUB`, ERCOT `HB_WEST`, MISO
 * `INDIANA.HUB`, CAISO `TH_SP15_GEN-APND`, NYISO `N.Y.C.`, ISO-NE `.H.INTERNAL_HUB`, …), plus
 * generated nodes: in every zone a load node at its largest town (`ABILENE_LOAD`) and a
 * generator node at its largest wind or solar plant (`GEN_56123`).
 *
 * A node's price is made from its zones (regions `<iso>_<zone>`): each node carries weights
 * over the zones it draws on (a hub spans several; a load zone or generated node is in one),
 * the gas hub of each zone sets its fuel cost, and a generator node feels its zone's export
 * congestion more strongly. Hubs and zones the membership table does not have in an ISO are
 * skipped; weights are renormalised over the zones that exist.
 */
import type { IsoCode } from './isos.ts';
import { ISOS, isoTable } from './isos.ts';
import type { NodeType, PriceNodeSpec } from './isos/profile.ts';
import { plantsOf } from './plants.ts';
import { placesOf, zoneRegionsOf } from './regions.ts';

export interface PriceNode {
  id: string;
  name: string;
  iso: IsoCode;
  timezone: string;
  node_type: NodeType;
  /** Zone region ids and weights (sum 1). */
  zones: readonly { regionId: string; weight: number }[];
  /** How strongly the node feels its zones' export congestion (generator nodes more). */
  congestionWeight: number;
  /** Marginal loss factor (≈ 1). */
  lossFactor: number;
}

/** Hubs and load zones per ISO: [id, name, type, {zone: weight}]. */
const PUBLISHED: Readonly<Record<IsoCode, readonly PriceNodeSpec[]>> = isoTable((p) => p.priceNodes);

/** Marginal loss factor of a node, a small deterministic spread around 1 from its id. */
function lossFactorOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return 1 + (((h >>> 0) % 1000) / 1000 - 0.5) * 0.04;
}

const slug = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

const cache = new Map<IsoCode, readonly PriceNode[]>();

/** The price nodes of an ISO: hubs, then zones, then generated nodes (each group in a fixed order). */
export function priceNodesOf(iso: IsoCode): readonly PriceNode[] {
  const hit = cache.get(iso);
  if (hit) return hit;
  const timezone = ISOS[iso].timezone;
  const zones = new Set(zoneRegionsOf(iso).map((z) => z.zone!));
  const nodes: PriceNode[] = [];
  const taken = new Set<string>();
  const add = (id: string, name: string, type: NodeType, weights: Readonly<Record<string, number>>, congestionWeight: number) => {
    const present = Object.entries(weights).filter(([z]) => zones.has(z));
    const sum = present.reduce((s, [, w]) => s + w, 0);
    if (present.length === 0 || taken.has(id)) return;
    taken.add(id);
    nodes.push(
      Object.freeze({
        id,
        name,
        iso,
        timezone,
        node_type: type,
        zones: Object.freeze(present.map(([z, w]) => Object.freeze({ regionId: `${iso}_${z}`, weight: w / sum }))),
        congestionWeight,
        lossFactor: type === 'node' ? lossFactorOf(id) : 1,
      }),
    );
  };
  for (const [id, name, type, weights] of PUBLISHED[iso]) add(id, name, type, weights, 1);
  const places = placesOf(iso);
  const plants = [...plantsOf(iso, 'wind'), ...plantsOf(iso, 'solar')];
  for (const zoneRegion of zoneRegionsOf(iso)) {
    const zone = zoneRegion.zone!;
    const town = places.find((p) => p.zone === zone);
    if (town) add(`${slug(town.name)}_LOAD`, `${town.name} load node`, 'node', { [zone]: 1 }, 1);
    const plantsHere = plants.filter((p) => zoneRegion.counties.includes(p.county_fips));
    const biggest = plantsHere.sort((a, b) => b.capacity_mw - a.capacity_mw || a.id - b.id)[0];
    if (biggest) add(`GEN_${biggest.id}`, `${biggest.name} generator node`, 'node', { [zone]: 1 }, 1.6);
  }
  const frozen = Object.freeze(nodes);
  cache.set(iso, frozen);
  return frozen;
}

export function priceNodeById(iso: IsoCode, id: string): PriceNode | undefined {
  return priceNodesOf(iso).find((n) => n.id === id);
}
