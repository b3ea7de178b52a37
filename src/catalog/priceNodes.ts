/**
 * Pricing nodes of each ISO (realism-targets §3a): its real trading hubs and load zones, by
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
import { ISOS } from './isos.ts';
import { plantsOf } from './plants.ts';
import { placesOf, zoneRegionsOf } from './regions.ts';

export type NodeType = 'hub' | 'zone' | 'node';

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

type Spec = readonly [id: string, name: string, type: NodeType, zones: Readonly<Record<string, number>>];

/** Hubs and load zones per ISO: [id, name, type, {zone: weight}]. */
const PUBLISHED: Readonly<Record<IsoCode, readonly Spec[]>> = {
  pjm: [
    ['WESTERN HUB', 'PJM Western Hub', 'hub', { aps: 0.3, penelec: 0.2, meted: 0.1, ppl: 0.1, bge: 0.1, pepco: 0.1, dom: 0.1 }],
    ['EASTERN HUB', 'PJM Eastern Hub', 'hub', { pseg: 0.4, jcpl: 0.2, peco: 0.2, aeco: 0.1, dpl: 0.1 }],
    ['AEP GEN HUB', 'PJM AEP Gen Hub', 'hub', { aep: 1 }],
    ['AEP-DAYTON HUB', 'PJM AEP-Dayton Hub', 'hub', { aep: 0.7, dayton: 0.3 }],
    ['N ILLINOIS HUB', 'PJM Northern Illinois Hub', 'hub', { comed: 1 }],
    ['DOMINION HUB', 'PJM Dominion Hub', 'hub', { dom: 1 }],
    ['CHICAGO GEN HUB', 'PJM Chicago Gen Hub', 'hub', { comed: 1 }],
    ...['aeco', 'aep', 'aps', 'atsi', 'bge', 'comed', 'dayton', 'deok', 'dom', 'dpl', 'duq', 'ekpc', 'jcpl', 'meted', 'peco', 'penelec', 'pepco', 'ppl', 'pseg'].map(
      (z): Spec => [z === 'dayton' ? 'DAY' : z.toUpperCase(), `PJM ${z === 'dayton' ? 'DAY' : z.toUpperCase()} zone`, 'zone', { [z]: 1 }],
    ),
  ],
  miso: [
    ['MINN.HUB', 'MISO Minnesota Hub', 'hub', { lrz1: 1 }],
    ['ILLINOIS.HUB', 'MISO Illinois Hub', 'hub', { lrz4: 1 }],
    ['INDIANA.HUB', 'MISO Indiana Hub', 'hub', { lrz6: 1 }],
    ['MICHIGAN.HUB', 'MISO Michigan Hub', 'hub', { lrz7: 1 }],
    ['ARKANSAS.HUB', 'MISO Arkansas Hub', 'hub', { lrz8: 1 }],
    ['LOUISIANA.HUB', 'MISO Louisiana Hub', 'hub', { lrz9: 1 }],
    ['TEXAS.HUB', 'MISO Texas Hub', 'hub', { lrz9: 1 }],
    ['MS.HUB', 'MISO Mississippi Hub', 'hub', { lrz10: 1 }],
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n): Spec => [`LRZ${n}`, `MISO Local Resource Zone ${n}`, 'zone', { [`lrz${n}`]: 1 }]),
  ],
  spp: [
    ['SPPNORTH_HUB', 'SPP North Hub', 'hub', { north: 0.7, central: 0.3 }],
    ['SPPSOUTH_HUB', 'SPP South Hub', 'hub', { south: 0.8, central: 0.2 }],
    ['SPP_NORTH', 'SPP North area', 'zone', { north: 1 }],
    ['SPP_CENTRAL', 'SPP Central area', 'zone', { central: 1 }],
    ['SPP_SOUTH', 'SPP South area', 'zone', { south: 1 }],
  ],
  ercot: [
    ['HB_NORTH', 'ERCOT North Hub', 'hub', { north: 0.5, north_central: 0.5 }],
    ['HB_HOUSTON', 'ERCOT Houston Hub', 'hub', { coast: 1 }],
    ['HB_SOUTH', 'ERCOT South Hub', 'hub', { southern: 0.5, south_central: 0.5 }],
    ['HB_WEST', 'ERCOT West Hub', 'hub', { west: 0.5, far_west: 0.5 }],
    ['HB_PAN', 'ERCOT Panhandle Hub', 'hub', { west: 0.6, north: 0.4 }],
    ['HB_BUSAVG', 'ERCOT Bus Average Hub', 'hub', { coast: 0.25, north_central: 0.25, south_central: 0.2, west: 0.1, north: 0.1, southern: 0.1 }],
    ['HB_HUBAVG', 'ERCOT Hub Average', 'hub', { north: 0.125, north_central: 0.125, coast: 0.25, southern: 0.125, south_central: 0.125, west: 0.125, far_west: 0.125 }],
    ['LZ_HOUSTON', 'ERCOT Houston load zone', 'zone', { coast: 1 }],
    ['LZ_NORTH', 'ERCOT North load zone', 'zone', { north_central: 0.7, north: 0.15, east: 0.15 }],
    ['LZ_SOUTH', 'ERCOT South load zone', 'zone', { south_central: 0.6, southern: 0.4 }],
    ['LZ_WEST', 'ERCOT West load zone', 'zone', { west: 0.6, far_west: 0.4 }],
  ],
  caiso: [
    ['TH_NP15_GEN-APND', 'CAISO NP15 trading hub', 'hub', { pge: 1 }],
    ['TH_SP15_GEN-APND', 'CAISO SP15 trading hub', 'hub', { sce: 0.8, sdge: 0.2 }],
    ['TH_ZP26_GEN-APND', 'CAISO ZP26 trading hub', 'hub', { pge: 0.5, sce: 0.5 }],
    ['DLAP_PGAE-APND', 'CAISO PG&E default load aggregation point', 'zone', { pge: 1 }],
    ['DLAP_SCE-APND', 'CAISO SCE default load aggregation point', 'zone', { sce: 1 }],
    ['DLAP_SDGE-APND', 'CAISO SDG&E default load aggregation point', 'zone', { sdge: 1 }],
    ['DLAP_VEA-APND', 'CAISO VEA default load aggregation point', 'zone', { vea: 1 }],
  ],
  nyiso: (
    [
      ['WEST', 'west'], ['GENESE', 'genese'], ['CENTRL', 'central'], ['NORTH', 'north'], ['MHK VL', 'mhk_vl'], ['CAPITL', 'capitl'],
      ['HUD VL', 'hud_vl'], ['MILLWD', 'millwd'], ['DUNWOD', 'dunwod'], ['N.Y.C.', 'nyc'], ['LONGIL', 'longil'],
    ] as const
  ).map(([id, z]): Spec => [id, `NYISO zone ${id}`, 'zone', { [z]: 1 }]),
  isone: [
    ['.H.INTERNAL_HUB', 'ISO-NE Internal Hub', 'hub', { wcmass: 0.3, semass: 0.2, nemassbost: 0.2, ct: 0.15, ri: 0.1, nh: 0.05 }],
    ...(
      [
        ['.Z.MAINE', 'me'], ['.Z.NEWHAMPSHIRE', 'nh'], ['.Z.VERMONT', 'vt'], ['.Z.CONNECTICUT', 'ct'], ['.Z.RHODEISLAND', 'ri'],
        ['.Z.SEMASS', 'semass'], ['.Z.WCMASS', 'wcmass'], ['.Z.NEMASSBOST', 'nemassbost'],
      ] as const
    ).map(([id, z]): Spec => [id, `ISO-NE load zone ${id.slice(3)}`, 'zone', { [z]: 1 }]),
  ],
};

/** Marginal loss factor of a node, a small deterministic spread around 1 from its id. */
function lossFactorOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return 1 + ((((h >>> 0) % 1000) / 1000 - 0.5) * 0.04);
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
