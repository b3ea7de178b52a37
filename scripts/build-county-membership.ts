/**
 * Builds assets/county-membership.csv (`fips,iso,zone`): which US counties belong to which of
 * the seven ISOs, and to which load zone of it.
 *
 *   node --import tsx scripts/build-county-membership.ts          # writes the CSV, prints a summary
 *   node --import tsx scripts/build-county-membership.ts --check  # fails if the CSV is stale
 *
 * No public package ships ISO footprints, so they are written here as rules, state by state:
 * a default for the state's remaining counties (`rest`, or null = outside all seven ISOs) plus
 * named groups. The knowledge behind them is which utility serves which county (e.g. Xcel/SPS
 * in the Texas panhandle → SPP, Entergy Texas around Beaumont → MISO, ComEd → PJM). A county
 * served by several ISOs goes to the one serving most of its load. County names are matched
 * against us-atlas; a name that several counties of a state share (Virginia's independent
 * cities, Baltimore, St. Louis) selects all of them, and a 5-digit FIPS code selects exactly one
 * and overrides any name match. Misspelt names and counties named in two groups are errors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ISO_CODES, type IsoCode } from '../src/catalog/isos.ts';
import { STATE_POSTAL } from '../src/catalog/geography.ts';

/** `<iso>/<zone>`, or `none` to take counties out of a state whose `rest` is an ISO. */
type Target = `${IsoCode}/${string}` | 'none';

interface StateRule {
  /** Where every county not named in `groups` goes; null = outside all seven ISOs. */
  rest: Target | null;
  /** Target → comma-separated county names (or FIPS codes). */
  groups?: Partial<Record<Target, string>>;
}

const RULES: Record<string, StateRule> = {
  // ---- ERCOT and its neighbours in Texas -------------------------------------------------
  // Weather zones follow ERCOT's map. Xcel/SPS (panhandle, South Plains) and SWEPCO (north-east)
  // are SPP; Entergy Texas (Beaumont, Conroe's neighbours, Huntsville) is MISO; El Paso
  // Electric (El Paso, Hudspeth, Van Horn) is in the Western Interconnection. Lubbock Power &
  // Light moved into ERCOT in 2021, so Lubbock (and Lynn, linking it south) is ERCOT.
  TX: {
    rest: null,
    groups: {
      'ercot/coast': `Austin, Brazoria, Chambers, Colorado, Fort Bend, Galveston, Grimes, Harris,
        Jackson, Matagorda, Montgomery, Waller, Washington, Wharton`,
      'ercot/east': `Anderson, Angelina, Cherokee, Franklin, Henderson, Hopkins, Houston,
        Nacogdoches, Rains, Rusk, Smith, Trinity, Van Zandt, Wood`,
      'ercot/far_west': `Andrews, Brewster, Crane, Ector, Glasscock, Howard, Jeff Davis, Loving,
        Martin, Midland, Pecos, Presidio, Reagan, Reeves, Terrell, Upton, Ward, Winkler`,
      'ercot/north': `Archer, Baylor, Clay, Cooke, Cottle, Delta, Fannin, Foard, Grayson, Jack,
        Knox, Lamar, Montague, Stephens, Throckmorton, Wichita, Wilbarger, Young`,
      'ercot/north_central': `Bell, Bosque, Brazos, Burleson, Collin, Comanche, Coryell, Dallas,
        Denton, Ellis, Erath, Falls, Freestone, Hamilton, Hill, Hood, Hunt, Johnson, Kaufman,
        Lampasas, Leon, Limestone, Madison, McLennan, Milam, Mills, Navarro, Palo Pinto, Parker,
        Robertson, Rockwall, San Saba, Somervell, Tarrant, Wise`,
      'ercot/south_central': `Atascosa, Bandera, Bastrop, Bexar, Blanco, Burnet, Caldwell, Comal,
        DeWitt, Fayette, Frio, Gillespie, Gonzales, Guadalupe, Hays, Karnes, Kendall, Kerr,
        Lavaca, Lee, Llano, Medina, Real, Travis, Uvalde, Williamson, Wilson`,
      'ercot/southern': `Aransas, Bee, Brooks, Calhoun, Cameron, Dimmit, Duval, Goliad, Hidalgo,
        Jim Hogg, Jim Wells, Kenedy, Kinney, Kleberg, La Salle, Live Oak, Maverick, McMullen,
        Nueces, Refugio, San Patricio, Starr, Victoria, Webb, Willacy, Zapata, Zavala`,
      'ercot/west': `Borden, Brown, Callahan, Coke, Coleman, Concho, Crockett, Dawson, Dickens,
        Eastland, Edwards, Fisher, Garza, Haskell, Irion, Jones, Kent, Kimble, King, Lubbock,
        Lynn, Mason, McCulloch, Menard, Mitchell, Nolan, Runnels, Schleicher, Scurry,
        Shackelford, Sterling, Stonewall, Sutton, Taylor, Tom Green, Val Verde`,
      'spp/south': `Armstrong, Bailey, Briscoe, Carson, Castro, Childress, Cochran, Collingsworth,
        Crosby, Dallam, Deaf Smith, Donley, Floyd, Gaines, Gray, Hale, Hall, Hansford, Hardeman,
        Hartley, Hemphill, Hockley, Hutchinson, Lamb, Lipscomb, Moore, Motley, Ochiltree, Oldham,
        Parmer, Potter, Randall, Roberts, Sherman, Swisher, Terry, Wheeler, Yoakum,
        Bowie, Camp, Cass, Gregg, Harrison, Marion, Morris, Panola, Red River, Shelby, Titus,
        Upshur`,
      'miso/lrz9': `Hardin, Jasper, Jefferson, Liberty, Newton, Orange, Polk, Sabine,
        San Augustine, San Jacinto, Tyler, Walker`,
      // El Paso, Hudspeth and Culberson are left out (El Paso Electric, WECC).
    },
  },

  // ---- SPP ---------------------------------------------------------------------------------
  OK: { rest: 'spp/south' },
  KS: { rest: 'spp/central' },
  NE: { rest: 'spp/north' },
  // Xcel/SPS serves the eastern plains; PNM and El Paso Electric the rest (WECC).
  NM: { rest: null, groups: { 'spp/south': 'Chaves, Curry, De Baca, Eddy, Lea, Quay, Roosevelt' } },
  // West of the Missouri: Basin Electric's co-ops (SPP). East: Xcel, Otter Tail, MDU, Minnkota (MISO).
  ND: {
    rest: 'miso/lrz1',
    groups: {
      'spp/north': `Adams, Billings, Bowman, Burke, Divide, Dunn, Golden Valley, Grant, Hettinger,
        McKenzie, Mercer, Mountrail, Oliver, Renville, Sioux, Slope, Stark, Williams`,
    },
  },
  // NorthWestern, Black Hills and the WAPA co-ops are SPP; Xcel (Sioux Falls) and Otter Tail are MISO.
  SD: { rest: 'spp/north', groups: { 'miso/lrz1': 'Grant, Lincoln, Minnehaha, Roberts' } },
  // Only the far east of Montana: MDU (MISO) and the WAPA/Basin co-ops (SPP); NorthWestern's
  // Montana system is its own balancing authority.
  MT: {
    rest: null,
    groups: {
      'miso/lrz1': 'Custer, Dawson, Fallon, Prairie, Richland, Wibaux',
      'spp/north': 'Daniels, McCone, Roosevelt, Sheridan',
    },
  },
  // Evergy (Kansas City, St. Joseph, Sedalia), Empire (Joplin) and Springfield are SPP; Ameren
  // Missouri is MISO; the rural rest is Associated Electric Cooperative's own balancing authority.
  MO: {
    rest: null,
    groups: {
      'spp/central': `Andrew, Atchison, Barry, Barton, Bates, Buchanan, Cass, Christian, Clay,
        Clinton, Dade, Greene, Henry, Holt, Jackson, Jasper, Johnson, Lafayette, Lawrence,
        McDonald, Newton, Pettis, Platte, Ray, Stone, Taney, Vernon`,
      'miso/lrz5': `Adair, Audrain, Boone, Callaway, Camden, Cape Girardeau, Clark, Cole, Crawford,
        Franklin, Gasconade, Iron, Jefferson, Knox, Lewis, Lincoln, Madison, Maries, Marion,
        Miller, Mississippi, Moniteau, Montgomery, Morgan, Osage, Perry, Pike, Ralls, Scotland,
        Scott, St. Charles, St. Francois, St. Louis, Ste. Genevieve, Warren, Washington`,
    },
  },
  // SWEPCO, OG&E and the north-west co-ops are SPP; Entergy Arkansas is MISO.
  AR: {
    rest: 'miso/lrz8',
    groups: {
      'spp/south': `Benton, Carroll, Crawford, Franklin, Hempstead, Howard, Lafayette,
        Little River, Logan, Madison, Miller, Polk, Scott, Sebastian, Sevier, Washington`,
    },
  },
  // SWEPCO's Shreveport area is SPP; Entergy and Cleco are MISO.
  LA: { rest: 'miso/lrz9', groups: { 'spp/south': 'Bossier, Caddo, Claiborne, De Soto, Red River, Webster' } },

  // ---- MISO ----------------------------------------------------------------------------------
  MN: { rest: 'miso/lrz1' },
  IA: { rest: 'miso/lrz3' },
  // Western Wisconsin (NSP-Wisconsin, Dairyland, Superior) is in zone 1; ATC's area in zone 2.
  WI: {
    rest: 'miso/lrz2',
    groups: {
      'miso/lrz1': `Barron, Bayfield, Buffalo, Burnett, Chippewa, Crawford, Douglas, Dunn,
        Eau Claire, Jackson, La Crosse, Monroe, Pepin, Pierce, Polk, Rusk, Sawyer, St. Croix,
        Trempealeau, Vernon, Washburn`,
    },
  },
  // Upper Peninsula → zone 2; Indiana Michigan Power's south-west corner → PJM (AEP zone).
  MI: {
    rest: 'miso/lrz7',
    groups: {
      'miso/lrz2': `Alger, Baraga, Chippewa, Delta, Dickinson, Gogebic, Houghton, Iron, Keweenaw,
        Luce, Mackinac, Marquette, Menominee, Ontonagon, Schoolcraft`,
      'pjm/aep': 'Berrien, Cass',
    },
  },
  // ComEd's north is PJM; Ameren Illinois and MidAmerican's Quad Cities are MISO.
  IL: {
    rest: 'miso/lrz4',
    groups: {
      'pjm/comed': `Boone, Bureau, Carroll, Cook, DeKalb, DuPage, Grundy, Iroquois, Jo Daviess,
        Kane, Kankakee, Kendall, Lake, LaSalle, Lee, Livingston, McHenry, Ogle, Putnam,
        Stephenson, Whiteside, Will, Winnebago`,
    },
  },
  // Indiana Michigan Power (Fort Wayne, Muncie, South Bend) is PJM's AEP zone; Duke Indiana,
  // AES Indiana, NIPSCO and CenterPoint are MISO.
  IN: {
    rest: 'miso/lrz6',
    groups: {
      'pjm/aep': `Adams, Allen, Blackford, DeKalb, Delaware, Grant, Huntington, Jay, Madison,
        Noble, Randolph, St. Joseph, Steuben, Wells, Whitley`,
    },
  },
  // Entergy Mississippi and Cooperative Energy are MISO. TVA's north-east and Mississippi
  // Power's Gulf Coast/Pine Belt counties are outside all seven ISOs.
  MS: {
    rest: 'miso/lrz10',
    groups: {
      none: `Alcorn, Benton, Calhoun, Chickasaw, Choctaw, Clay, Itawamba, Lafayette, Lee, Lowndes,
        Marshall, Monroe, Noxubee, Oktibbeha, Pontotoc, Prentiss, Tippah, Tishomingo, Union,
        Webster, Winston,
        Clarke, Forrest, Hancock, Harrison, Jackson, Jones, Lamar, Lauderdale`,
    },
  },
  // Kentucky is split four ways: Big Rivers (west, MISO), Duke Kentucky (PJM DEOK), Kentucky
  // Power (PJM AEP), East Kentucky Power's co-ops (PJM EKPC). LG&E-KU (Louisville, Lexington)
  // and TVA (far west) run their own systems, so their counties are left out.
  KY: {
    rest: null,
    groups: {
      'miso/lrz6': `Breckinridge, Crittenden, Daviess, Hancock, Henderson, Hopkins, McLean, Meade,
        Ohio, Union, Webster`,
      'pjm/deok': 'Boone, Campbell, Kenton',
      'pjm/aep': `Boyd, Breathitt, Carter, Elliott, Floyd, Greenup, Johnson, Knott, Lawrence,
        Leslie, Letcher, Magoffin, Martin, Morgan, Perry, Pike`,
      'pjm/ekpc': `Adair, Bath, Bourbon, Bracken, Casey, Clay, Clinton, Cumberland, Estill,
        Fleming, Grant, Green, Harrison, Hart, Jackson, Lee, Lewis, Lincoln, Mason, Menifee,
        Metcalfe, Monroe, Montgomery, Nicholas, Owen, Owsley, Pendleton, Powell, Pulaski,
        Robertson, Rockcastle, Rowan, Russell, Taylor, Wayne, Wolfe`,
    },
  },

  // ---- PJM -----------------------------------------------------------------------------------
  // AEP Ohio is the default; FirstEnergy's north (ATSI), Dayton, and Duke's Cincinnati (DEOK).
  OH: {
    rest: 'pjm/aep',
    groups: {
      'pjm/atsi': `Ashland, Ashtabula, Columbiana, Crawford, Cuyahoga, Erie, Fulton, Geauga, Huron,
        Lake, Lorain, Lucas, Mahoning, Marion, Medina, Ottawa, Portage, Richland, Sandusky,
        Seneca, Summit, Trumbull, Wood`,
      'pjm/dayton': `Auglaize, Champaign, Clark, Clinton, Darke, Greene, Logan, Mercer, Miami,
        Montgomery, Preble, Shelby`,
      'pjm/deok': 'Brown, Butler, Clermont, Hamilton, Warren',
    },
  },
  PA: {
    rest: 'pjm/penelec',
    groups: {
      'pjm/peco': 'Bucks, Chester, Delaware, Montgomery, Philadelphia',
      'pjm/ppl': `Carbon, Columbia, Cumberland, Dauphin, Juniata, Lackawanna, Lancaster, Lehigh,
        Luzerne, Lycoming, Monroe, Montour, Northampton, Northumberland, Perry, Schuylkill,
        Snyder, Sullivan, Union, Wayne, Wyoming`,
      'pjm/meted': 'Adams, Berks, Lebanon, Pike, York',
      'pjm/duq': 'Allegheny, Beaver',
      'pjm/aps': `Armstrong, Bedford, Butler, Centre, Fayette, Franklin, Fulton, Greene, Somerset,
        Washington, Westmoreland`,
      'pjm/atsi': 'Lawrence, Mercer', // Penn Power, part of FirstEnergy's ATSI zone
    },
  },
  NJ: {
    rest: 'pjm/pseg',
    groups: {
      'pjm/jcpl': 'Hunterdon, Monmouth, Morris, Ocean, Somerset, Sussex, Warren',
      'pjm/aeco': 'Atlantic, Cape May, Cumberland, Gloucester, Salem',
    },
  },
  DE: { rest: 'pjm/dpl' },
  DC: { rest: 'pjm/pepco' },
  // BGE is the default (Baltimore city and county share a name: both BGE). SMECO's southern
  // counties sit in the Pepco zone; Potomac Edison's west is APS; the Eastern Shore is Delmarva.
  MD: {
    rest: 'pjm/bge',
    groups: {
      'pjm/pepco': "Calvert, Charles, Montgomery, Prince George's, St. Mary's",
      'pjm/dpl': "Caroline, Cecil, Dorchester, Kent, Queen Anne's, Somerset, Talbot, Wicomico, Worcester",
      'pjm/aps': 'Allegany, Frederick, Garrett, Washington',
    },
  },
  // Dominion is the default; Appalachian Power's south-west is AEP; Potomac Edison's northern
  // Shenandoah Valley is APS. Franklin County is AEP but Franklin city (51620) is Dominion.
  VA: {
    rest: 'pjm/dom',
    groups: {
      'pjm/aep': `Amherst, Appomattox, Bedford, Bland, Botetourt, Bristol, Buchanan, Buena Vista,
        Campbell, Carroll, Craig, Danville, Dickenson, Floyd, Franklin, Galax, Giles, Grayson,
        Henry, Lee, Lexington, Lynchburg, Martinsville, Montgomery, Norton, Patrick,
        Pittsylvania, Pulaski, Radford, Roanoke, Rockbridge, Russell, Salem, Scott, Smyth,
        Tazewell, Washington, Wise, Wythe`,
      'pjm/aps': 'Clarke, Frederick, Shenandoah, Warren, Winchester',
      'pjm/dom': '51620',
    },
  },
  // Mon Power/Potomac Edison (APS) in the north and east; Appalachian and Wheeling Power (AEP).
  WV: {
    rest: 'pjm/aps',
    groups: {
      'pjm/aep': `Boone, Cabell, Clay, Fayette, Greenbrier, Jackson, Kanawha, Lincoln, Logan,
        Marshall, Mason, McDowell, Mercer, Mingo, Monroe, Nicholas, Ohio, Putnam, Raleigh,
        Roane, Summers, Wayne, Wyoming`,
    },
  },
  // Dominion North Carolina, the north-east corner; the rest of the state is Duke (SERC).
  NC: {
    rest: null,
    groups: {
      'pjm/dom': `Bertie, Camden, Chowan, Currituck, Dare, Gates, Halifax, Hertford, Martin,
        Northampton, Pasquotank, Perquimans`,
    },
  },

  // ---- NYISO: zones A–K -------------------------------------------------------------------
  NY: {
    rest: null,
    groups: {
      'nyiso/west': 'Allegany, Cattaraugus, Chautauqua, Erie, Niagara, Wyoming',
      'nyiso/genese': 'Genesee, Livingston, Monroe, Ontario, Orleans, Wayne',
      'nyiso/central': `Broome, Cayuga, Chemung, Chenango, Cortland, Madison, Onondaga, Oswego,
        Schuyler, Seneca, Steuben, Tioga, Tompkins, Yates`,
      'nyiso/north': 'Clinton, Essex, Franklin, St. Lawrence',
      'nyiso/mhk_vl': 'Delaware, Hamilton, Herkimer, Jefferson, Lewis, Oneida, Otsego',
      'nyiso/capitl': `Albany, Columbia, Fulton, Greene, Montgomery, Rensselaer, Saratoga,
        Schenectady, Schoharie, Warren, Washington`,
      'nyiso/hud_vl': 'Dutchess, Orange, Rockland, Sullivan, Ulster',
      'nyiso/millwd': 'Putnam', // stands in for zone H, which no county is mostly in
      'nyiso/dunwod': 'Westchester',
      'nyiso/nyc': 'Bronx, Kings, New York, Queens, Richmond',
      'nyiso/longil': 'Nassau, Suffolk',
    },
  },

  // ---- ISO-NE --------------------------------------------------------------------------------
  // Aroostook is mostly the Northern Maine ISA, tied to New Brunswick rather than ISO-NE.
  ME: { rest: 'isone/me', groups: { none: 'Aroostook' } },
  NH: { rest: 'isone/nh' },
  VT: { rest: 'isone/vt' },
  CT: { rest: 'isone/ct' },
  RI: { rest: 'isone/ri' },
  MA: {
    rest: 'isone/wcmass',
    groups: {
      'isone/nemassbost': 'Essex, Middlesex, Norfolk, Suffolk',
      'isone/semass': 'Barnstable, Bristol, Dukes, Nantucket, Plymouth',
    },
  },

  // ---- CAISO ---------------------------------------------------------------------------------
  // PG&E is the default. Los Angeles County is CAISO: SCE serves more of its load than LADWP.
  // Out: SMUD (Sacramento), Modesto/Turlock ID (Stanislaus), PacifiCorp and small systems in
  // the far north and the eastern Sierra. Imperial's load is IID's, but its utility-scale
  // solar sells into CAISO through SDG&E's Imperial Valley substation, so we count it as SDG&E.
  CA: {
    rest: 'caiso/pge',
    groups: {
      'caiso/sce': 'Inyo, Los Angeles, Mono, Orange, Riverside, San Bernardino, Santa Barbara, Tulare, Ventura',
      'caiso/sdge': 'Imperial, San Diego',
      none: 'Alpine, Del Norte, Lassen, Modoc, Sacramento, Sierra, Siskiyou, Stanislaus, Trinity',
    },
  },
  // Valley Electric Association (Pahrump) joined CAISO in 2013.
  NV: { rest: null, groups: { 'caiso/vea': 'Nye' } },
};

// ---------------------------------------------------------------------------------------------

interface AtlasCounty {
  fips: string;
  name: string;
  state: string;
}

function atlasCounties(): AtlasCounty[] {
  const path = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json');
  const topo = JSON.parse(readFileSync(path, 'utf8')) as {
    objects: { counties: { geometries: { id: string; properties: { name: string } }[] } };
  };
  return topo.objects.counties.geometries.map((g) => ({
    fips: g.id,
    name: g.properties.name,
    state: STATE_POSTAL[g.id.slice(0, 2)] ?? '??',
  }));
}

function parseTarget(t: Target): { iso: IsoCode; zone: string } | null {
  if (t === 'none') return null;
  const [iso, zone] = t.split('/') as [IsoCode, string];
  if (!(ISO_CODES as readonly string[]).includes(iso) || !/^[a-z][a-z0-9_]*$/.test(zone)) {
    throw new Error(`bad target ${t}`);
  }
  return { iso, zone };
}

/** Applies one state's rule; returns fips → target (null = outside). Throws on any mistake. */
function applyRule(state: string, rule: StateRule, counties: AtlasCounty[]): Map<string, Target | null> {
  const out = new Map<string, Target | null>(counties.map((c) => [c.fips, rule.rest]));
  const byName = new Set<string>();
  const byFips = new Set<string>();
  for (const [target, list] of Object.entries(rule.groups ?? {}) as [Target, string][]) {
    parseTarget(target);
    for (const token of list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const isFips = /^\d{5}$/.test(token);
      const hits = counties.filter((c) => (isFips ? c.fips === token : c.name === token));
      if (hits.length === 0) throw new Error(`${state}: no county "${token}"`);
      for (const c of hits) {
        const seen = isFips ? byFips : byName;
        if (seen.has(c.fips)) throw new Error(`${state}: ${token} (${c.fips}) named twice`);
        seen.add(c.fips);
        // A FIPS token wins over a name token, whatever the order they appear in.
        if (isFips || !byFips.has(c.fips)) out.set(c.fips, target);
      }
    }
  }
  return out;
}

function buildRows(): { fips: string; iso: IsoCode; zone: string }[] {
  const all = atlasCounties();
  const rows: { fips: string; iso: IsoCode; zone: string }[] = [];
  for (const [state, rule] of Object.entries(RULES)) {
    const counties = all.filter((c) => c.state === state);
    if (counties.length === 0) throw new Error(`unknown state ${state}`);
    for (const [fips, target] of applyRule(state, rule, counties)) {
      const t = target && parseTarget(target);
      if (t) rows.push({ fips, ...t });
    }
  }
  return rows.sort((a, b) => (a.fips < b.fips ? -1 : 1));
}

function toCsv(rows: { fips: string; iso: IsoCode; zone: string }[]): string {
  return ['fips,iso,zone', ...rows.map((r) => `${r.fips},${r.iso},${r.zone}`)].join('\n') + '\n';
}

function summary(rows: { fips: string; iso: IsoCode; zone: string }[]): string {
  const lines: string[] = [];
  for (const iso of ISO_CODES) {
    const mine = rows.filter((r) => r.iso === iso);
    const zones = new Map<string, number>();
    for (const r of mine) zones.set(r.zone, (zones.get(r.zone) ?? 0) + 1);
    const z = [...zones]
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    lines.push(`${iso.padEnd(6)} ${String(mine.length).padStart(4)} counties: ${z}`);
  }
  return lines.join('\n');
}

const out = new URL('../assets/county-membership.csv', import.meta.url);
const csv = toCsv(buildRows());
if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== csv) {
    console.error('assets/county-membership.csv is stale: rerun scripts/build-county-membership.ts');
    process.exit(1);
  }
  console.log('assets/county-membership.csv is up to date');
} else {
  writeFileSync(out, csv);
  console.log(summary(buildRows()));
}
