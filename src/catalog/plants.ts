/**
 * The wind and solar plant registry.
 *
 * No public package ships EIA-860 or the wind-turbine/solar databases, so the registry is
 * generated: deterministically (a counter-based hash, no Math.random), inside each ISO's
 * county footprint, clustered where such plants really stand, with fleet totals scaled to
 * the installed capacity of each ISO (docs/realism-targets.md §2b). The same code always yields the
 * same plants, ids and names; changing one ISO's tables leaves the others' plants untouched.
 */
import { ISO_CODES, ISO_CODES_BY_NUMBER, ISO_PROFILES, ISOS, isoNumber, isoTable, type IsoCode } from './isos.ts';
import type { Cluster, Fleet, Flavor, SolarCluster, WindCluster } from './isos/profile.ts';
import { localDayStartHour, parseDate } from '../time/zones.ts';
import type { Plant, PlantType, SolarPlant, WindPlant } from './types.ts';
import { county, locate } from './geography.ts';
import { mix32 } from '../util/mix32.ts';

// ---------------------------------------------------------------------------------------------
// Fleet sizes

/**
 * Installed capacity per ISO and type (docs/realism-targets.md §2b, approx. 2024–2025, utility scale
 * only), and how many plants carry it. Counts give typical mean sizes: large Texas and plains
 * wind farms (~140–170 MW), smaller projects in California and the north-east, and many small
 * solar farms in PJM, New York and New England (ISO-NE's utility solar is mostly ≤ 5–20 MW).
 */
export const FLEETS: Readonly<Record<IsoCode, Readonly<Record<PlantType, Fleet>>>> = isoTable((p) => p.fleets);

/** Installed-capacity targets (MW) per ISO and type; the registry's totals land within ±3 %. */
export const CAPACITY_TARGETS_MW: Readonly<Record<IsoCode, Readonly<Record<PlantType, number>>>> = Object.fromEntries(
  ISO_CODES.map((iso) => [iso, { wind: FLEETS[iso].wind.targetMw, solar: FLEETS[iso].solar.targetMw }]),
) as Record<IsoCode, Record<PlantType, number>>;

/** Plant size limits (MW) and the log-normal spread that makes sizes heavy-tailed. */
const SIZE = {
  wind: { min: 20, max: 500, sigma: 0.6 },
  solar: { min: 5, max: 700, sigma: 0.8 },
} as const;

// ---------------------------------------------------------------------------------------------
// Where plants stand: resource clusters per ISO and type

const WIND_CLUSTERS: Record<IsoCode, readonly WindCluster[]> = isoTable((p) => p.windClusters);

const SOLAR_CLUSTERS: Record<IsoCode, readonly SolarCluster[]> = isoTable((p) => p.solarClusters);

/** Counties too urban for a utility-scale plant (a Gaussian tail could otherwise land there). */
const NO_BUILD_COUNTIES = new Set([
  '11001',
  '17031',
  '24510',
  '25025',
  '29510',
  '34013',
  '34017',
  '36005',
  '36047',
  '36061',
  '36081',
  '36085',
  '42101',
  '06075',
]);

// ---------------------------------------------------------------------------------------------
// When plants were built

/** Relative number of wind plants entering service per year 2001–2025 (shape of US installs). */
const WIND_YEAR_WEIGHTS = [2, 1, 2, 1, 2.5, 2.5, 5, 8, 10, 5, 7, 13, 1.5, 5, 8.5, 8, 7, 7.5, 9, 17, 13, 8.5, 6.5, 5, 6];
const WIND_FIRST_YEAR = 2001;
/** Relative number of solar plants per year 2010–2025: a few early ones, then the boom. */
const SOLAR_YEAR_WEIGHTS = [0.3, 0.6, 1.5, 3, 4, 3.5, 8, 5, 5, 6, 10, 13, 10.5, 18.5, 30, 28];
const SOLAR_FIRST_YEAR = 2010;
/** Share of plants that begin operating during 2026 (so "no output before it began" is testable). */
const SHARE_STARTING_2026 = 0.03;
const START_2026 = { from: Date.UTC(2026, 0, 15), to: Date.UTC(2026, 9, 31) };

/** Hub height (m) by commissioning year: ~80 m before 2012, rising to ~100–110 m after 2020. */
const HUB_HEIGHT_BY_YEAR: readonly [number, number][] = [
  [2001, 70],
  [2007, 80],
  [2012, 81],
  [2016, 88],
  [2020, 98],
  [2023, 105],
  [2026, 108],
];
const RATED_SPEED_MS = { I: 13.5, II: 12.5, III: 11 } as const;

// ---------------------------------------------------------------------------------------------
// Names

const NAME_WORDS: Record<Flavor, { first: readonly string[]; second: readonly string[] }> = {
  desert: {
    first: [
      'Mesquite',
      'Yucca',
      'Sagebrush',
      'Roadrunner',
      'Coyote',
      'Javelina',
      'Caliche',
      'Agave',
      'Ocotillo',
      'Creosote',
      'Dust Devil',
      'Horned Toad',
      'Sandstone',
      'Red Mesa',
      'Silver Sage',
      'Chaparral',
      'Tumbleweed',
      'Desert Willow',
      'Quail',
      'Rattlesnake',
      'Sundance',
      'Juniper',
      'Cholla',
      'Borrego',
      'Diamondback',
      'Greasewood',
      'Badger',
      'Limestone',
      'Salt Cedar',
      'Comet',
    ],
    second: ['Flats', 'Draw', 'Mesa', 'Canyon', 'Springs', 'Wash', 'Basin', 'Ridge', 'Butte', 'Gap', 'Valley', 'Bluff', 'Well', 'Tank'],
  },
  plains: {
    first: [
      'Bluestem',
      'Buffalo',
      'Bison',
      'Meadowlark',
      'Pheasant',
      'Cottonwood',
      'Wheatland',
      'Sandhill',
      'Switchgrass',
      'Prairie Rose',
      'Antelope',
      'Pronghorn',
      'Thunder',
      'Big Sky',
      'Redhawk',
      'Kingbird',
      'Longhorn',
      'Caprock',
      'Cimarron',
      'Chisholm',
      'Osage',
      'Flint Hills',
      'Smoky Hill',
      'Sunflower',
      'Skyline',
      'High Lonesome',
      'Red Dirt',
      'Horse Creek',
      'Grain Belt',
      'Jackrabbit',
      'Prairie Dog',
      'Stampede',
      'Tallgrass',
      'Redbud',
      'Rolling Thunder',
    ],
    second: [
      'Ridge',
      'Flats',
      'Creek',
      'Plains',
      'Prairie',
      'Butte',
      'Draw',
      'Crossing',
      'Trail',
      'Hills',
      'Mesa',
      'Table',
      'Breaks',
      'Divide',
    ],
  },
  texas: {
    first: [
      'Bluebonnet',
      'Pecan',
      'Live Oak',
      'Mustang',
      'Longhorn',
      'Lone Star',
      'Blackland',
      'Post Oak',
      'Cedar Elm',
      'Armadillo',
      'Indian Paintbrush',
      'Brazos',
      'Guadalupe',
      'Pedernales',
      'Mockingbird',
      'Prickly Pear',
      'Huisache',
      'Cibolo',
      'San Gabriel',
      'Limestone',
      'Tejas',
      'Rio Bravo',
      'Yaupon',
      'Nopal',
      'Oakwood',
      'Wagon Wheel',
    ],
    second: ['Creek', 'Crossing', 'Ranch', 'Prairie', 'Hills', 'Bend', 'Springs', 'Flats', 'Fork', 'Valley', 'Mill', 'Station'],
  },
  midwest: {
    first: [
      'Harvest',
      'Cornbelt',
      'Oak Grove',
      'Hickory',
      'Maple',
      'Bur Oak',
      'Walnut',
      'Pleasant',
      'Fox River',
      'Heartland',
      'Goldfinch',
      'Cardinal',
      'Timber Road',
      'Bobolink',
      'Wildcat',
      'Meadow Lake',
      'Bishop Hill',
      'Crescent',
      'Elm',
      'Lakeshore',
      'Whitetail',
      'Sugar',
      'Clover',
      'Red Barn',
      'Silo',
      'Granary',
      'Bluff Road',
      'Prairie Star',
      'Osprey',
      'Trillium',
      'Blue Heron',
      'Shagbark',
      'Ironwood',
      'Tamarack',
      'Rolling Hills',
    ],
    second: ['Grove', 'Creek', 'Ridge', 'Prairie', 'Crossing', 'Fields', 'Road', 'Meadows', 'Valley', 'Township', 'Point', 'Run', 'Mill'],
  },
  south: {
    first: [
      'Magnolia',
      'Cypress',
      'Pelican',
      'Bayou',
      'Delta',
      'Pecan',
      'Live Oak',
      'Heron',
      'Egret',
      'Cotton',
      'Catfish',
      'Longleaf',
      'Piney Woods',
      'Gulf',
      'Palmetto',
      'Camellia',
      'Dogwood',
      'Muscadine',
      'Tupelo',
      'Sweetgum',
      'Loblolly',
      'Red Clay',
      'Riverbend',
      'Canebrake',
      'Tobacco Road',
      'Peanut',
      'Honeysuckle',
      'Mockingbird',
      'Cardinal',
      'Bobwhite',
    ],
    second: ['Bend', 'Creek', 'Branch', 'Landing', 'Crossing', 'Hollow', 'Fields', 'Station', 'Grove', 'Farm', 'Mill', 'Swamp'],
  },
  east: {
    first: [
      'Laurel',
      'Chestnut',
      'Hemlock',
      'Birch',
      'Mountain Laurel',
      'Allegheny',
      'Blue Ridge',
      'Stony Brook',
      'Fieldstone',
      'Millbrook',
      'Spruce',
      'Cedar',
      'Beaver',
      'Black Rock',
      'Highland',
      'Tamarack',
      'Granite',
      'Sugarloaf',
      'Eagle',
      'Fox Hollow',
      'Hawks Nest',
      'Appleton',
      'Orchard',
      'Stonewall',
      'Bear Creek',
      'Moose',
      'Loon',
      'Balsam',
      'Fiddlehead',
      'Iron Bridge',
      'Old Mill',
      'Covered Bridge',
      'Pine Hill',
      'White Oak',
      'Quarry',
    ],
    second: ['Ridge', 'Mountain', 'Knob', 'Hollow', 'Run', 'Brook', 'Hill', 'Notch', 'Gap', 'Valley', 'Farm', 'Meadow', 'Pond'],
  },
  pacific: {
    first: [
      'Valley Oak',
      'Tule',
      'Golden Hills',
      'Manzanita',
      'Condor',
      'Poppy',
      'Almond',
      'Vineyard',
      'Redtail',
      'Sierra',
      'Lupine',
      'Buttonwillow',
      'Coast Range',
      'Antelope',
      'Sequoia',
      'Kestrel',
      'Blue Oak',
      'Tumbleweed',
      'Gold Rush',
      'Elk Hills',
      'Kit Fox',
      'Sandpiper',
      'Tejon',
      'Westside',
      'Pistachio',
    ],
    second: ['Hills', 'Valley', 'Flats', 'Ranch', 'Creek', 'Canyon', 'Ridge', 'Springs', 'Slough', 'Pass', 'Mesa', 'Slope'],
  },
};

const NAME_SUFFIX: Record<PlantType, readonly string[]> = {
  wind: ['Wind', 'Wind', 'Wind Farm', 'Wind Energy Center', 'Wind Project', 'Wind Power'],
  solar: ['Solar', 'Solar', 'Solar', 'Solar Farm', 'Solar Energy Center', 'Solar Project', 'Solar Center'],
};

/** Share of names built from the county ("Nolan County Wind") rather than a place-like name. */
const COUNTY_NAME_SHARE = 0.3;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness: a counter-based hash (murmur3 finaliser), no hidden state

const SEED = 0x6a1dca57;

/** A reproducible stream of uniforms in [0, 1) named by integer keys. */
class Stream {
  private readonly key: number;
  private n = 0;
  constructor(...keys: number[]) {
    let h = SEED;
    for (const k of keys) h = mix32((h ^ mix32(k >>> 0)) + 0x9e3779b9);
    this.key = h;
  }
  next(): number {
    return mix32(this.key + Math.imul(++this.n, 0x9e3779b9)) / 4294967296;
  }
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  /** Index drawn in proportion to weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
    return weights.length - 1;
  }
}

/** Stream purposes, so that e.g. a change in siting never shifts a plant's dates. */
const Purpose = { Cluster: 1, Site: 2, Size: 3, Date: 4, Tech: 5, Name: 6 } as const;

// ---------------------------------------------------------------------------------------------
// Building

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

interface Site {
  lat: number;
  lon: number;
  fips: string;
  state: string;
}

const KM_PER_DEG = 111.2;
const MAX_SITE_TRIES = 400;

/** A point near the cluster centre whose county is a member of `iso` (rejection sampling). */
function siteFor(iso: IsoCode, cluster: Cluster, keys: number[]): Site {
  for (let attempt = 0; attempt < MAX_SITE_TRIES; attempt++) {
    const r = new Stream(...keys, Purpose.Site, attempt);
    // Truncate the tail at 2.5 σ so no plant wanders far from its resource area.
    const dy = clamp(r.normal(), -2.5, 2.5) * cluster.km;
    const dx = clamp(r.normal(), -2.5, 2.5) * cluster.km;
    const lat = round(cluster.at[0] + dy / KM_PER_DEG, 4);
    const lon = round(cluster.at[1] + dx / (KM_PER_DEG * Math.cos((cluster.at[0] * Math.PI) / 180)), 4);
    const here = locate(lat, lon);
    if (here && here.iso === iso && !NO_BUILD_COUNTIES.has(here.fips)) {
      return { lat, lon, fips: here.fips, state: here.state };
    }
  }
  throw new Error(`plants: no site in ${iso} near ${cluster.at.join(',')}; check the cluster table`);
}

/**
 * Log-normal sizes scaled so the fleet adds up to its target, within the size limits. Scaling
 * and clamping alternate until the sum settles (clamping moves it, so one pass is not enough).
 */
function fleetSizes(iso: IsoCode, type: PlantType, block: number): number[] {
  const { targetMw, count } = FLEETS[iso][type];
  const { min, max, sigma } = SIZE[type];
  const raw = Array.from({ length: count }, (_, k) => Math.exp(sigma * new Stream(block, k, Purpose.Size).normal()));
  let scale = targetMw / raw.reduce((a, b) => a + b, 0);
  let sizes = raw;
  for (let i = 0; i < 30; i++) {
    sizes = raw.map((x) => round(clamp(x * scale, min, max), 1));
    const sum = sizes.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - targetMw) < 0.001 * targetMw) break;
    scale *= targetMw / sum;
  }
  return sizes;
}

/** Commissioning date (YYYY-MM-DD): weighted year, uniform day; a few start during 2026. */
function beginDate(iso: IsoCode, type: PlantType, r: Stream): string {
  let ms: number;
  if (r.next() < SHARE_STARTING_2026) {
    ms = START_2026.from + Math.floor(r.next() * ((START_2026.to - START_2026.from) / 86_400_000 + 1)) * 86_400_000;
  } else {
    const weights = type === 'wind' ? WIND_YEAR_WEIGHTS : (ISO_PROFILES[iso].solarYearWeights ?? SOLAR_YEAR_WEIGHTS);
    const year = (type === 'wind' ? WIND_FIRST_YEAR : SOLAR_FIRST_YEAR) + r.weighted(weights);
    const days = (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86_400_000;
    ms = Date.UTC(year, 0, 1) + Math.floor(r.next() * days) * 86_400_000;
  }
  return new Date(ms).toISOString().slice(0, 10);
}

function interpolate(table: readonly [number, number][], x: number): number {
  if (x <= table[0]![0]) return table[0]![1];
  for (let i = 1; i < table.length; i++) {
    const [x1, y1] = table[i]!;
    const [x0, y0] = table[i - 1]!;
    if (x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return table[table.length - 1]![1];
}

type WindTech = Pick<WindPlant, 'hub_height_m' | 'turbine_class' | 'rated_speed_ms'>;

function windTech(cluster: WindCluster, year: number, r: Stream): WindTech {
  // Mostly the site's class; one plant in five picked a neighbouring class.
  const classes = ['I', 'II', 'III'] as const;
  let i = classes.indexOf(cluster.cls);
  const u = r.next();
  if (u < 0.1) i = Math.max(0, i - 1);
  else if (u < 0.2) i = Math.min(2, i + 1);
  const turbine_class = classes[i]!;
  return {
    hub_height_m: Math.round(interpolate(HUB_HEIGHT_BY_YEAR, year) + (r.next() - 0.5) * 8),
    turbine_class,
    rated_speed_ms: round(RATED_SPEED_MS[turbine_class] + (r.next() - 0.5) * 0.6, 1),
  };
}

type SolarTech = Pick<SolarPlant, 'mounting' | 'tilt_deg' | 'azimuth_deg' | 'max_angle_deg' | 'gcr' | 'dc_ac_ratio' | 'temp_coeff_per_c'>;

function solarTech(cluster: SolarCluster, year: number, lat: number, r: Stream): SolarTech {
  const recent = year >= 2018;
  const tracker = r.next() < cluster.tracker[recent ? 1 : 0];
  // Newer plants are built with more DC per inverter and better modules.
  const age = clamp((year - 2010) / 16, 0, 1);
  const dc_ac_ratio = round(1.15 + 0.2 * clamp(0.6 * age + 0.4 * r.next(), 0, 1), 2);
  const temp_coeff_per_c = round(-0.004 + 0.001 * clamp(0.6 * age + 0.4 * r.next(), 0, 1), 5);
  if (tracker) {
    return {
      mounting: 'single_axis',
      tilt_deg: 0,
      azimuth_deg: 180,
      max_angle_deg: 60,
      gcr: round(0.3 + 0.1 * r.next(), 2),
      dc_ac_ratio,
      temp_coeff_per_c,
    };
  }
  return {
    mounting: 'fixed',
    tilt_deg: Math.round(0.75 * lat + (r.next() - 0.5) * 4),
    azimuth_deg: 180,
    max_angle_deg: 0,
    gcr: round(0.4 + 0.1 * r.next(), 2),
    dc_ac_ratio,
    temp_coeff_per_c,
  };
}

/** "Nolan County", "Caddo Parish", or a Virginia city's bare name. */
function countyLabel(fips: string): string {
  const c = county(fips);
  if (!c) return 'Unnamed';
  if (c.state === 'LA') return `${c.name} Parish`;
  if (Number(fips.slice(2)) >= 500) return c.name; // independent cities
  return `${c.name} County`;
}

const ROMAN = ['', ' II', ' III', ' IV', ' V', ' VI', ' VII', ' VIII', ' IX', ' X', ' XI', ' XII'];

/** A plausible name, unique in `taken` (later phases of a name get II, III, … as real ones do). */
function plantName(type: PlantType, cluster: Cluster, site: Site, r: Stream, taken: Set<string>): string {
  const suffix = r.pick(NAME_SUFFIX[type]);
  let base: string;
  if (r.next() < COUNTY_NAME_SHARE) {
    base = `${countyLabel(site.fips)} ${suffix}`;
  } else {
    const words = NAME_WORDS[cluster.look];
    const first = r.pick(words.first);
    let second = r.pick(words.second);
    if (first.includes(second)) second = 'Ridge' === second ? 'Flats' : 'Ridge';
    base = `${first} ${second} ${suffix}`;
  }
  for (let n = 0; ; n++) {
    const name = n < ROMAN.length ? `${base}${ROMAN[n]}` : `${base} ${n + 1}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

const PLANT_TYPES: readonly PlantType[] = ['wind', 'solar'];
/**
 * Ids are 50000 + 1000 × block + k + 1 with block = 2 × the ISO's isoNumber + type index: stable
 * per fleet, whatever the order of ISO_CODES.
 */
const ID_BASE = 50_000;
const ID_BLOCK = 1_000;

/** The fields of a plant that are not its type's. */
type PlantCommon = Omit<WindPlant, 'plant_type' | keyof WindTech>;

/*
 * Each plant type's records are written by one object literal with every field in one order, so
 * that all plants of a type share one hidden class in V8: the physics reads plant fields in
 * per-hour loops over hundreds of plants, and records made by object spread each got a shape of
 * their own (240 shapes for ERCOT's wind plants), which made every such read a megamorphic lookup.
 */
function windPlantOf(c: PlantCommon, t: WindTech): WindPlant {
  return {
    id: c.id,
    name: c.name,
    capacity_mw: c.capacity_mw,
    iso: c.iso,
    state: c.state,
    latitude: c.latitude,
    longitude: c.longitude,
    operations_begin_date: c.operations_begin_date,
    county_fips: c.county_fips,
    plant_type: 'wind',
    hub_height_m: t.hub_height_m,
    turbine_class: t.turbine_class,
    rated_speed_ms: t.rated_speed_ms,
  };
}

function solarPlantOf(c: PlantCommon, t: SolarTech): SolarPlant {
  return {
    id: c.id,
    name: c.name,
    capacity_mw: c.capacity_mw,
    iso: c.iso,
    state: c.state,
    latitude: c.latitude,
    longitude: c.longitude,
    operations_begin_date: c.operations_begin_date,
    county_fips: c.county_fips,
    plant_type: 'solar',
    mounting: t.mounting,
    tilt_deg: t.tilt_deg,
    azimuth_deg: t.azimuth_deg,
    max_angle_deg: t.max_angle_deg,
    gcr: t.gcr,
    dc_ac_ratio: t.dc_ac_ratio,
    temp_coeff_per_c: t.temp_coeff_per_c,
  };
}

/** Builds the registry from scratch (no memo); `allPlants()` is the cached form. */
export function buildPlants(): Plant[] {
  const plants: Plant[] = [];
  const taken = new Set<string>();
  // By ISO number: a name taken by an earlier fleet gets "II" in a later one.
  ISO_CODES_BY_NUMBER.forEach((iso) => {
    PLANT_TYPES.forEach((type, typeIdx) => {
      const block = isoNumber(iso) * 2 + typeIdx;
      const clusters: readonly (WindCluster | SolarCluster)[] = type === 'wind' ? WIND_CLUSTERS[iso] : SOLAR_CLUSTERS[iso];
      const weights = clusters.map((c) => c.w);
      const sizes = fleetSizes(iso, type, block);
      if (sizes.length >= ID_BLOCK) throw new Error(`plants: ${iso} ${type} fleet exceeds its id block`);
      sizes.forEach((capacity_mw, k) => {
        const keys = [block, k];
        const cluster = clusters[new Stream(...keys, Purpose.Cluster).weighted(weights)]!;
        const site = siteFor(iso, cluster, keys);
        const operations_begin_date = beginDate(iso, type, new Stream(...keys, Purpose.Date));
        const year = Number(operations_begin_date.slice(0, 4));
        const common = {
          id: ID_BASE + block * ID_BLOCK + k + 1,
          name: plantName(type, cluster, site, new Stream(...keys, Purpose.Name), taken),
          capacity_mw,
          iso,
          state: site.state,
          latitude: site.lat,
          longitude: site.lon,
          operations_begin_date,
          county_fips: site.fips,
        };
        const tech = new Stream(...keys, Purpose.Tech);
        plants.push(
          type === 'wind'
            ? windPlantOf(common, windTech(cluster as WindCluster, year, tech))
            : solarPlantOf(common, solarTech(cluster as SolarCluster, year, site.lat, tech)),
        );
      });
    });
  });
  return plants;
}

// ---------------------------------------------------------------------------------------------
// Queries (memoised)

let registry: readonly Plant[] | undefined;
let byId: Map<number, Plant> | undefined;
const byFleet = new Map<string, readonly Plant[]>();

/** Every wind and solar plant, in id order; built once per process (frozen, so safe to share). */
export function allPlants(): readonly Plant[] {
  registry ??= Object.freeze(buildPlants().map((p) => Object.freeze(p)));
  return registry;
}

/** The plants of one ISO and type, in id order. */
export function plantsOf(iso: IsoCode, type: PlantType): readonly Plant[] {
  const key = `${iso}/${type}`;
  let list = byFleet.get(key);
  if (!list) {
    list = Object.freeze(allPlants().filter((p) => p.iso === iso && p.plant_type === type));
    byFleet.set(key, list);
  }
  return list;
}

/** A plant by id (number, or its decimal string as it arrives in a query parameter). */
export function plantById(id: number | string): Plant | undefined {
  const n = typeof id === 'number' ? id : /^\d+$/.test(id) ? Number(id) : NaN;
  byId ??= new Map(allPlants().map((p) => [p.id, p]));
  return byId.get(n);
}

/** The first hour a plant operates: local midnight (in its ISO's timezone) of its operations_begin_date, as an epoch hour. */
export function plantFirstHour(plant: Plant): number {
  return localDayStartHour(ISOS[plant.iso].timezone, parseDate(plant.operations_begin_date));
}

/** Capacity (MW) of `plants` in operation at an epoch hour (a plant counts from its first hour). */
export function capacityInOperation(plants: readonly Plant[]): (hour: number) => number {
  const sorted = plants.map((p) => ({ start: plantFirstHour(p), mw: p.capacity_mw })).sort((a, b) => a.start - b.start);
  const starts = sorted.map((p) => p.start);
  const cumulative: number[] = [];
  let sum = 0;
  for (const p of sorted) cumulative.push((sum += p.mw));
  return (hour) => {
    // The number of plants started by `hour`: the first index whose start is later.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= hour) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : cumulative[lo - 1];
  };
}
