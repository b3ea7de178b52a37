/**
 * The wind and solar plant registry.
 *
 * No public package ships EIA-860 or the wind-turbine/solar databases, so the registry is
 * generated: deterministically (a counter-based hash, no Math.random), inside each ISO's
 * county footprint, clustered where such plants really stand, with fleet totals scaled to
 * the installed capacity of each ISO (realism-targets §2b). The same code always yields the
 * same plants, ids and names; changing one ISO's tables leaves the others' plants untouched.
 */
import { ISO_CODES, ISOS, type IsoCode } from './isos.ts';
import { localDayStartHour, parseDate } from '../time/zones.ts';
import type { Plant, PlantType, SolarPlant, WindPlant } from './types.ts';
import { county, locate } from './geography.ts';
import { mix32 } from '../util/mix32.ts';

// ---------------------------------------------------------------------------------------------
// Fleet sizes

interface Fleet {
  /** Installed AC capacity the plants add up to, MW. */
  targetMw: number;
  /** Number of plants; with targetMw it sets the mean plant size. */
  count: number;
}

/**
 * Installed capacity per ISO and type (realism-targets §2b, approx. 2024–2025, utility scale
 * only), and how many plants carry it. Counts give typical mean sizes: large Texas and plains
 * wind farms (~140–170 MW), smaller projects in California and the north-east, and many small
 * solar farms in PJM, New York and New England (ISO-NE's utility solar is mostly ≤ 5–20 MW).
 */
export const FLEETS: Readonly<Record<IsoCode, Readonly<Record<PlantType, Fleet>>>> = {
  ercot: { wind: { targetMw: 39_000, count: 240 }, solar: { targetMw: 30_000, count: 210 } },
  spp: { wind: { targetMw: 34_000, count: 230 }, solar: { targetMw: 2_000, count: 40 } },
  miso: { wind: { targetMw: 32_000, count: 250 }, solar: { targetMw: 12_000, count: 130 } },
  caiso: { wind: { targetMw: 7_500, count: 100 }, solar: { targetMw: 20_000, count: 320 } },
  pjm: { wind: { targetMw: 11_500, count: 110 }, solar: { targetMw: 14_000, count: 380 } },
  nyiso: { wind: { targetMw: 3_100, count: 40 }, solar: { targetMw: 1_500, count: 90 } },
  isone: { wind: { targetMw: 1_500, count: 36 }, solar: { targetMw: 1_500, count: 120 } },
};

/** Installed-capacity targets (MW) per ISO and type; the registry's totals land within ±3 %. */
export const CAPACITY_TARGETS_MW: Readonly<Record<IsoCode, Readonly<Record<PlantType, number>>>> =
  Object.fromEntries(
    ISO_CODES.map((iso) => [iso, { wind: FLEETS[iso].wind.targetMw, solar: FLEETS[iso].solar.targetMw }]),
  ) as Record<IsoCode, Record<PlantType, number>>;

/** Plant size limits (MW) and the log-normal spread that makes sizes heavy-tailed. */
const SIZE = {
  wind: { min: 20, max: 500, sigma: 0.6 },
  solar: { min: 5, max: 700, sigma: 0.8 },
} as const;

// ---------------------------------------------------------------------------------------------
// Where plants stand: resource clusters per ISO and type

/** Word pools for plant names, by landscape. */
type Flavor = 'desert' | 'plains' | 'texas' | 'midwest' | 'south' | 'east' | 'pacific';

interface Cluster {
  /** Centre [lat, lon]; must lie inside the ISO. */
  at: readonly [number, number];
  /** Spread (1 σ of a Gaussian offset), km. */
  km: number;
  /** Relative share of the fleet's plants. */
  w: number;
  look: Flavor;
}

interface WindCluster extends Cluster {
  /** Typical IEC class of the site: I on the windiest plains, III on low-wind sites. */
  cls: 'I' | 'II' | 'III';
}

interface SolarCluster extends Cluster {
  /** Share of single-axis trackers among builds before 2018 and from 2018 on. */
  tracker: readonly [number, number];
}

const W = (at: [number, number], km: number, w: number, look: Flavor, cls: WindCluster['cls']): WindCluster =>
  ({ at, km, w, look, cls });
const S = (at: [number, number], km: number, w: number, look: Flavor, tracker: [number, number]): SolarCluster =>
  ({ at, km, w, look, tracker });

const SW_TRACKERS: [number, number] = [0.8, 0.97];

const WIND_CLUSTERS: Record<IsoCode, readonly WindCluster[]> = {
  ercot: [
    W([32.4, -100.35], 55, 20, 'plains', 'II'), // Sweetwater–Abilene: Nolan, Taylor, Mitchell, Fisher, Jones
    W([32.6, -101.3], 45, 8, 'desert', 'II'), // Big Spring–Snyder: Howard, Scurry, Borden
    W([31.1, -102.0], 70, 12, 'desert', 'II'), // McCamey/Permian: Upton, Crane, Pecos, Crockett
    W([30.8, -103.0], 50, 3, 'desert', 'II'), // Pecos and Reeves
    W([31.7, -100.6], 55, 9, 'plains', 'II'), // San Angelo: Coke, Sterling, Tom Green, Concho
    W([32.1, -99.4], 55, 5, 'plains', 'II'), // Callahan, Shackelford, Eastland, Brown
    W([33.6, -99.3], 70, 13, 'plains', 'I'), // Red River plains: Baylor, Knox, Wilbarger, Archer
    W([33.6, -100.5], 45, 5, 'plains', 'I'), // Cottle, King, Dickens
    W([33.0, -101.5], 50, 5, 'plains', 'I'), // Caprock south: Garza, Lynn, Dawson
    W([27.9, -97.5], 45, 7, 'texas', 'II'), // Coastal Bend: San Patricio, Nueces, Refugio
    W([26.7, -97.65], 40, 6, 'texas', 'II'), // Kenedy, Willacy, Cameron
    W([27.2, -98.9], 60, 5, 'desert', 'III'), // Webb, Zapata, Jim Hogg
    W([33.4, -97.8], 40, 2, 'plains', 'III'), // Jack, Montague, Cooke
  ],
  spp: [
    W([35.3, -101.8], 100, 16, 'plains', 'I'), // Texas panhandle: Carson, Gray, Oldham, Deaf Smith
    W([36.2, -101.2], 70, 5, 'plains', 'I'), // Hansford, Ochiltree, Dallam
    W([36.5, -99.6], 80, 12, 'plains', 'I'), // north-west Oklahoma: Woodward, Harper, Woods
    W([35.7, -98.7], 70, 12, 'plains', 'I'), // west-central Oklahoma: Custer, Dewey, Caddo
    W([36.6, -97.4], 60, 7, 'plains', 'I'), // Kay, Noble, Grant, Garfield
    W([34.8, -99.1], 60, 5, 'plains', 'I'), // south-west Oklahoma: Kiowa, Jackson, Tillman
    W([37.5, -99.9], 80, 10, 'plains', 'I'), // south-west Kansas: Ford, Gray, Meade
    W([38.9, -98.6], 80, 9, 'plains', 'I'), // central Kansas: Ellis, Russell, Cloud
    W([37.4, -98.1], 60, 6, 'plains', 'I'), // Sumner, Kingman, Harper, Pratt
    W([42.2, -98.0], 90, 6, 'plains', 'I'), // north-east Nebraska: Antelope, Knox, Dixon
    W([41.0, -101.0], 110, 4, 'plains', 'I'), // south-west Nebraska
    W([44.5, -98.5], 110, 6, 'plains', 'I'), // South Dakota
    W([46.5, -102.0], 90, 4, 'plains', 'I'), // south-west North Dakota
    W([34.3, -103.8], 90, 5, 'desert', 'I'), // eastern New Mexico: Roosevelt, Curry, Quay
    W([40.3, -95.1], 35, 1, 'midwest', 'II'), // north-west Missouri: Atchison, Holt
  ],
  miso: [
    W([42.9, -94.8], 110, 26, 'midwest', 'II'), // north-west Iowa: Kossuth, Palo Alto, O'Brien
    W([42.7, -93.0], 80, 10, 'midwest', 'II'), // north-central Iowa: Worth, Franklin, Hardin
    W([41.3, -94.6], 60, 6, 'midwest', 'II'), // south-west Iowa: Cass, Adair, Madison
    W([44.1, -96.0], 50, 10, 'plains', 'I'), // Buffalo Ridge: Lincoln, Pipestone, Murray
    W([43.7, -93.6], 70, 7, 'midwest', 'II'), // southern Minnesota: Freeborn, Mower, Faribault
    W([46.8, -98.3], 100, 10, 'plains', 'I'), // eastern North Dakota: Barnes, Stutsman, LaMoure
    W([46.5, -100.3], 70, 4, 'plains', 'I'), // Burleigh, Emmons, McIntosh
    W([40.4, -88.8], 70, 9, 'midwest', 'III'), // central Illinois: McLean, Ford, Champaign
    W([41.1, -90.0], 50, 3, 'midwest', 'III'), // Henry and Knox, Illinois
    W([40.5, -87.0], 45, 8, 'midwest', 'III'), // Benton, White, Tipton, Indiana
    W([43.7, -83.0], 40, 6, 'midwest', 'III'), // Michigan's Thumb
    W([43.4, -84.7], 40, 3, 'midwest', 'III'), // Gratiot and Isabella
    W([43.5, -88.9], 60, 3, 'midwest', 'III'), // Fond du Lac and Dodge, Wisconsin
  ],
  caiso: [
    W([35.05, -118.25], 25, 45, 'pacific', 'I'), // Tehachapi–Mojave
    W([33.93, -116.62], 10, 10, 'desert', 'I'), // San Gorgonio Pass
    W([37.73, -121.65], 10, 8, 'pacific', 'II'), // Altamont Pass
    W([38.12, -121.85], 12, 13, 'pacific', 'II'), // Solano, Montezuma Hills
    W([32.75, -116.15], 20, 7, 'desert', 'II'), // Ocotillo and Tule (Imperial, San Diego)
    W([37.05, -121.2], 12, 2, 'pacific', 'II'), // Pacheco Pass
    W([40.9, -121.8], 25, 3, 'pacific', 'II'), // Hatchet Ridge, Shasta
    W([34.9, -118.6], 20, 5, 'pacific', 'I'), // western Antelope Valley
  ],
  pjm: [
    W([41.0, -88.7], 65, 30, 'midwest', 'III'), // ComEd: Livingston, LaSalle, Bureau, Lee
    W([40.3, -85.2], 45, 12, 'midwest', 'III'), // north-east Indiana: Randolph, Jay, Madison
    W([40.8, -84.3], 55, 14, 'midwest', 'III'), // north-west Ohio: Paulding, Van Wert, Hardin
    W([41.1, -82.9], 35, 3, 'midwest', 'III'), // Seneca and Huron, Ohio
    W([40.1, -78.9], 50, 15, 'east', 'II'), // Pennsylvania ridges: Somerset, Cambria, Blair
    W([41.5, -76.8], 90, 5, 'east', 'II'), // northern Pennsylvania
    W([39.2, -79.3], 40, 12, 'east', 'II'), // Allegheny Front: Grant, Tucker, Mineral, Garrett
    W([37.9, -80.5], 35, 4, 'east', 'II'), // Greenbrier, West Virginia
    W([37.6, -79.9], 30, 1, 'east', 'II'), // Botetourt, Virginia
  ],
  nyiso: [
    W([43.75, -75.6], 25, 30, 'east', 'III'), // Tug Hill: Lewis, Jefferson
    W([44.85, -73.9], 25, 20, 'east', 'III'), // North Country: Clinton, Franklin
    W([42.55, -77.9], 55, 32, 'east', 'III'), // Wyoming, Livingston, Steuben, Allegany
    W([42.85, -75.35], 25, 10, 'east', 'III'), // Madison, Herkimer, Otsego
    W([42.3, -79.3], 25, 8, 'east', 'III'), // Chautauqua
  ],
  isone: [
    W([44.95, -70.4], 40, 38, 'east', 'II'), // western Maine mountains: Franklin, Oxford, Somerset
    W([45.1, -68.3], 55, 37, 'east', 'II'), // Penobscot, Piscataquis, Hancock, Washington
    W([44.4, -71.6], 35, 12, 'east', 'II'), // Coos and Grafton, New Hampshire
    W([44.5, -72.3], 50, 8, 'east', 'II'), // Vermont ridgelines
    W([42.55, -73.05], 20, 5, 'east', 'III'), // Berkshires
  ],
};

const SOLAR_CLUSTERS: Record<IsoCode, readonly SolarCluster[]> = {
  ercot: [
    S([31.3, -102.6], 90, 30, 'desert', SW_TRACKERS), // Permian: Pecos, Upton, Crane, Reeves, Ward
    S([32.1, -101.7], 50, 6, 'desert', SW_TRACKERS), // Midland, Martin, Howard, Glasscock
    S([31.9, -100.1], 60, 5, 'plains', SW_TRACKERS), // Taylor, Runnels, Coke
    S([30.45, -97.3], 60, 12, 'texas', SW_TRACKERS), // around Austin: Milam, Bastrop, Williamson
    S([29.2, -98.6], 60, 12, 'texas', SW_TRACKERS), // around San Antonio: Bexar, Medina, Atascosa
    S([31.9, -96.8], 60, 12, 'texas', SW_TRACKERS), // Navarro, Hill, Ellis, Limestone
    S([33.6, -98.5], 60, 4, 'plains', SW_TRACKERS), // Wichita, Archer, Young
    S([27.5, -98.3], 70, 7, 'desert', SW_TRACKERS), // south Texas: Webb, Starr, Jim Wells
    S([29.3, -96.0], 50, 8, 'south', SW_TRACKERS), // Wharton, Brazoria, Fort Bend, Matagorda
    S([32.0, -95.5], 50, 4, 'south', SW_TRACKERS), // Henderson, Anderson, Cherokee
  ],
  spp: [
    S([35.4, -97.6], 90, 25, 'plains', [0.4, 0.85]), // central Oklahoma
    S([38.0, -97.4], 90, 15, 'plains', [0.4, 0.85]), // Kansas
    S([33.0, -103.6], 70, 25, 'desert', SW_TRACKERS), // Lea, Chaves, Eddy (New Mexico)
    S([35.1, -101.9], 70, 15, 'plains', SW_TRACKERS), // Texas panhandle
    S([36.3, -94.1], 50, 10, 'south', [0.3, 0.8]), // north-west Arkansas, south-west Missouri
    S([41.0, -96.8], 70, 10, 'plains', [0.3, 0.8]), // eastern Nebraska
  ],
  miso: [
    S([41.0, -86.9], 55, 20, 'midwest', [0.3, 0.85]), // northern Indiana: Jasper, Starke, Pulaski
    S([38.6, -87.4], 60, 9, 'midwest', [0.3, 0.85]), // southern Indiana: Posey, Sullivan, Pike
    S([39.4, -89.3], 100, 11, 'midwest', [0.3, 0.85]), // central and southern Illinois
    S([30.7, -91.6], 90, 8, 'south', [0.4, 0.9]), // Louisiana
    S([35.1, -91.6], 100, 14, 'south', [0.4, 0.9]), // Arkansas
    S([32.5, -90.4], 90, 10, 'south', [0.4, 0.9]), // Mississippi
    S([45.0, -93.9], 80, 7, 'midwest', [0.2, 0.8]), // Minnesota
    S([42.4, -84.6], 70, 7, 'midwest', [0.2, 0.8]), // southern Michigan
    S([42.9, -89.5], 70, 8, 'midwest', [0.2, 0.8]), // southern Wisconsin
    S([41.7, -92.5], 90, 4, 'midwest', [0.2, 0.8]), // Iowa
    S([30.4, -94.5], 40, 2, 'south', [0.4, 0.9]), // Entergy Texas
  ],
  caiso: [
    S([34.85, -118.25], 30, 18, 'desert', [0.6, 0.9]), // Antelope Valley, Rosamond, Mojave
    S([35.4, -119.4], 50, 9, 'pacific', [0.6, 0.9]), // Kern valley floor
    S([36.4, -120.2], 60, 14, 'pacific', [0.6, 0.9]), // Westlands: Fresno, Kings, Merced
    S([35.3, -119.85], 20, 5, 'pacific', [0.5, 0.9]), // Carrizo Plain
    S([33.7, -115.0], 55, 14, 'desert', [0.6, 0.95]), // Desert Center and Blythe (Riverside)
    S([34.85, -116.6], 70, 10, 'desert', [0.6, 0.95]), // Mojave: Daggett, Barstow, Lucerne Valley
    S([32.85, -115.55], 35, 12, 'desert', [0.6, 0.95]), // Imperial Valley
    S([36.35, -116.1], 40, 8, 'desert', [0.6, 0.95]), // Valley Electric: Pahrump, Amargosa
    S([38.9, -121.9], 50, 4, 'pacific', [0.5, 0.9]), // Sacramento Valley: Colusa, Yolo, Solano
    S([32.65, -116.5], 25, 2, 'desert', [0.5, 0.9]), // eastern San Diego County
    S([37.5, -120.6], 40, 4, 'pacific', [0.5, 0.9]), // Merced and San Joaquin
  ],
  pjm: [
    S([36.9, -77.8], 90, 30, 'south', [0.1, 0.6]), // Southside Virginia
    S([38.0, -77.9], 60, 12, 'east', [0.1, 0.6]), // central Virginia: Louisa, Spotsylvania, Culpeper
    S([36.3, -77.0], 45, 7, 'south', [0.1, 0.6]), // north-east North Carolina
    S([39.8, -83.6], 70, 16, 'midwest', [0.2, 0.8]), // central and west Ohio
    S([40.4, -85.2], 45, 5, 'midwest', [0.2, 0.8]), // north-east Indiana
    S([41.4, -88.8], 65, 6, 'midwest', [0.2, 0.8]), // ComEd, Illinois
    S([39.6, -74.9], 40, 7, 'east', [0.05, 0.3]), // southern New Jersey
    S([38.6, -75.6], 45, 6, 'east', [0.1, 0.6]), // Delmarva
    S([39.95, -77.3], 50, 6, 'east', [0.05, 0.5]), // south-central Pennsylvania
    S([38.4, -76.8], 30, 2, 'east', [0.1, 0.5]), // southern Maryland
    S([38.3, -84.0], 50, 2, 'east', [0.1, 0.6]), // north-east Kentucky
    S([39.3, -78.0], 25, 1, 'east', [0.1, 0.5]), // West Virginia's eastern panhandle
  ],
  nyiso: [
    S([42.8, -76.5], 70, 30, 'east', [0.02, 0.25]), // Finger Lakes: Cayuga, Seneca, Tompkins
    S([43.0, -78.2], 50, 25, 'east', [0.02, 0.25]), // Genesee, Orleans, Niagara
    S([42.7, -73.8], 50, 22, 'east', [0.02, 0.25]), // Capital District, Columbia, Washington
    S([44.5, -75.0], 60, 13, 'east', [0.02, 0.25]), // North Country
    S([40.88, -72.8], 20, 10, 'east', [0.02, 0.1]), // eastern Long Island
  ],
  isone: [
    S([42.3, -72.2], 50, 35, 'east', [0.02, 0.1]), // central and western Massachusetts
    S([41.85, -70.95], 30, 15, 'east', [0.02, 0.1]), // Plymouth and Bristol
    S([44.3, -69.9], 70, 22, 'east', [0.02, 0.15]), // Maine
    S([41.7, -72.4], 35, 12, 'east', [0.02, 0.1]), // Connecticut
    S([41.7, -71.6], 15, 6, 'east', [0.02, 0.1]), // Rhode Island
    S([43.3, -72.2], 50, 10, 'east', [0.02, 0.1]), // New Hampshire and Vermont
  ],
};

/** Counties too urban for a utility-scale plant (a Gaussian tail could otherwise land there). */
const NO_BUILD_COUNTIES = new Set([
  '11001', '17031', '24510', '25025', '29510', '34013', '34017', '36005', '36047', '36061',
  '36081', '36085', '42101', '06075',
]);

// ---------------------------------------------------------------------------------------------
// When plants were built

/** Relative number of wind plants entering service per year 2001–2025 (shape of US installs). */
const WIND_YEAR_WEIGHTS = [
  2, 1, 2, 1, 2.5, 2.5, 5, 8, 10, 5, 7, 13, 1.5, 5, 8.5, 8, 7, 7.5, 9, 17, 13, 8.5, 6.5, 5, 6,
];
const WIND_FIRST_YEAR = 2001;
/** Relative number of solar plants per year 2010–2025: a few early ones, then the boom. */
const SOLAR_YEAR_WEIGHTS = [0.3, 0.6, 1.5, 3, 4, 3.5, 8, 5, 5, 6, 10, 13, 10.5, 18.5, 30, 28];
/** California built its utility solar earlier than the rest of the country. */
const SOLAR_YEAR_WEIGHTS_CAISO = [0.5, 1.5, 4, 6, 9, 9, 11, 7, 6, 6, 7, 7, 6, 8, 10, 9];
const SOLAR_FIRST_YEAR = 2010;
/** Share of plants that begin operating during 2026 (so "no output before it began" is testable). */
const SHARE_STARTING_2026 = 0.03;
const START_2026 = { from: Date.UTC(2026, 0, 15), to: Date.UTC(2026, 9, 31) };

/** Hub height (m) by commissioning year: ~80 m before 2012, rising to ~100–110 m after 2020. */
const HUB_HEIGHT_BY_YEAR: readonly [number, number][] = [
  [2001, 70], [2007, 80], [2012, 81], [2016, 88], [2020, 98], [2023, 105], [2026, 108],
];
const RATED_SPEED_MS = { I: 13.5, II: 12.5, III: 11 } as const;

// ---------------------------------------------------------------------------------------------
// Names

const NAME_WORDS: Record<Flavor, { first: readonly string[]; second: readonly string[] }> = {
  desert: {
    first: ['Mesquite', 'Yucca', 'Sagebrush', 'Roadrunner', 'Coyote', 'Javelina', 'Caliche', 'Agave',
      'Ocotillo', 'Creosote', 'Dust Devil', 'Horned Toad', 'Sandstone', 'Red Mesa', 'Silver Sage',
      'Chaparral', 'Tumbleweed', 'Desert Willow', 'Quail', 'Rattlesnake', 'Sundance', 'Juniper',
      'Cholla', 'Borrego', 'Diamondback', 'Greasewood', 'Badger', 'Limestone', 'Salt Cedar', 'Comet'],
    second: ['Flats', 'Draw', 'Mesa', 'Canyon', 'Springs', 'Wash', 'Basin', 'Ridge', 'Butte', 'Gap',
      'Valley', 'Bluff', 'Well', 'Tank'],
  },
  plains: {
    first: ['Bluestem', 'Buffalo', 'Bison', 'Meadowlark', 'Pheasant', 'Cottonwood', 'Wheatland',
      'Sandhill', 'Switchgrass', 'Prairie Rose', 'Antelope', 'Pronghorn', 'Thunder', 'Big Sky',
      'Redhawk', 'Kingbird', 'Longhorn', 'Caprock', 'Cimarron', 'Chisholm', 'Osage', 'Flint Hills',
      'Smoky Hill', 'Sunflower', 'Skyline', 'High Lonesome', 'Red Dirt', 'Horse Creek', 'Grain Belt',
      'Jackrabbit', 'Prairie Dog', 'Stampede', 'Tallgrass', 'Redbud', 'Rolling Thunder'],
    second: ['Ridge', 'Flats', 'Creek', 'Plains', 'Prairie', 'Butte', 'Draw', 'Crossing', 'Trail',
      'Hills', 'Mesa', 'Table', 'Breaks', 'Divide'],
  },
  texas: {
    first: ['Bluebonnet', 'Pecan', 'Live Oak', 'Mustang', 'Longhorn', 'Lone Star', 'Blackland',
      'Post Oak', 'Cedar Elm', 'Armadillo', 'Indian Paintbrush', 'Brazos', 'Guadalupe', 'Pedernales',
      'Mockingbird', 'Prickly Pear', 'Huisache', 'Cibolo', 'San Gabriel', 'Limestone', 'Tejas',
      'Rio Bravo', 'Yaupon', 'Nopal', 'Oakwood', 'Wagon Wheel'],
    second: ['Creek', 'Crossing', 'Ranch', 'Prairie', 'Hills', 'Bend', 'Springs', 'Flats', 'Fork',
      'Valley', 'Mill', 'Station'],
  },
  midwest: {
    first: ['Harvest', 'Cornbelt', 'Oak Grove', 'Hickory', 'Maple', 'Bur Oak', 'Walnut', 'Pleasant',
      'Fox River', 'Heartland', 'Goldfinch', 'Cardinal', 'Timber Road', 'Bobolink', 'Wildcat',
      'Meadow Lake', 'Bishop Hill', 'Crescent', 'Elm', 'Lakeshore', 'Whitetail', 'Sugar',
      'Clover', 'Red Barn', 'Silo', 'Granary', 'Bluff Road', 'Prairie Star', 'Osprey', 'Trillium',
      'Blue Heron', 'Shagbark', 'Ironwood', 'Tamarack', 'Rolling Hills'],
    second: ['Grove', 'Creek', 'Ridge', 'Prairie', 'Crossing', 'Fields', 'Road', 'Meadows', 'Valley',
      'Township', 'Point', 'Run', 'Mill'],
  },
  south: {
    first: ['Magnolia', 'Cypress', 'Pelican', 'Bayou', 'Delta', 'Pecan', 'Live Oak', 'Heron', 'Egret',
      'Cotton', 'Catfish', 'Longleaf', 'Piney Woods', 'Gulf', 'Palmetto', 'Camellia', 'Dogwood',
      'Muscadine', 'Tupelo', 'Sweetgum', 'Loblolly', 'Red Clay', 'Riverbend', 'Canebrake',
      'Tobacco Road', 'Peanut', 'Honeysuckle', 'Mockingbird', 'Cardinal', 'Bobwhite'],
    second: ['Bend', 'Creek', 'Branch', 'Landing', 'Crossing', 'Hollow', 'Fields', 'Station',
      'Grove', 'Farm', 'Mill', 'Swamp'],
  },
  east: {
    first: ['Laurel', 'Chestnut', 'Hemlock', 'Birch', 'Mountain Laurel', 'Allegheny', 'Blue Ridge',
      'Stony Brook', 'Fieldstone', 'Millbrook', 'Spruce', 'Cedar', 'Beaver', 'Black Rock', 'Highland',
      'Tamarack', 'Granite', 'Sugarloaf', 'Eagle', 'Fox Hollow', 'Hawks Nest', 'Appleton',
      'Orchard', 'Stonewall', 'Bear Creek', 'Moose', 'Loon', 'Balsam', 'Fiddlehead', 'Iron Bridge',
      'Old Mill', 'Covered Bridge', 'Pine Hill', 'White Oak', 'Quarry'],
    second: ['Ridge', 'Mountain', 'Knob', 'Hollow', 'Run', 'Brook', 'Hill', 'Notch', 'Gap',
      'Valley', 'Farm', 'Meadow', 'Pond'],
  },
  pacific: {
    first: ['Valley Oak', 'Tule', 'Golden Hills', 'Manzanita', 'Condor', 'Poppy', 'Almond',
      'Vineyard', 'Redtail', 'Sierra', 'Lupine', 'Buttonwillow', 'Coast Range', 'Antelope',
      'Sequoia', 'Kestrel', 'Blue Oak', 'Tumbleweed', 'Gold Rush', 'Elk Hills', 'Kit Fox',
      'Sandpiper', 'Tejon', 'Westside', 'Pistachio'],
    second: ['Hills', 'Valley', 'Flats', 'Ranch', 'Creek', 'Canyon', 'Ridge', 'Springs', 'Slough',
      'Pass', 'Mesa', 'Slope'],
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
    const weights = type === 'wind' ? WIND_YEAR_WEIGHTS : iso === 'caiso' ? SOLAR_YEAR_WEIGHTS_CAISO : SOLAR_YEAR_WEIGHTS;
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

function windTech(cluster: WindCluster, year: number, r: Stream): Pick<WindPlant, 'hub_height_m' | 'turbine_class' | 'rated_speed_ms'> {
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
    return { mounting: 'single_axis', tilt_deg: 0, azimuth_deg: 180, max_angle_deg: 60,
      gcr: round(0.3 + 0.1 * r.next(), 2), dc_ac_ratio, temp_coeff_per_c };
  }
  return { mounting: 'fixed', tilt_deg: Math.round(0.75 * lat + (r.next() - 0.5) * 4), azimuth_deg: 180,
    max_angle_deg: 0, gcr: round(0.4 + 0.1 * r.next(), 2), dc_ac_ratio, temp_coeff_per_c };
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
/** Ids are 50000 + 1000 × block + k + 1 with block = 2 × ISO index + type index: stable per fleet. */
const ID_BASE = 50_000;
const ID_BLOCK = 1_000;

/** Builds the registry from scratch (no memo); `allPlants()` is the cached form. */
export function buildPlants(): Plant[] {
  const plants: Plant[] = [];
  const taken = new Set<string>();
  ISO_CODES.forEach((iso, isoIdx) => {
    PLANT_TYPES.forEach((type, typeIdx) => {
      const block = isoIdx * 2 + typeIdx;
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
            ? { ...common, plant_type: 'wind', ...windTech(cluster as WindCluster, year, tech) }
            : { ...common, plant_type: 'solar', ...solarTech(cluster as SolarCluster, year, site.lat, tech) },
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
