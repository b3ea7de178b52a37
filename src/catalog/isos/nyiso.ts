/** New York ISO: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, type PriceNodeSpec, W } from './profile.ts';

export const nyiso = defineIsoProfile({
  code: 'nyiso',
  name: 'New York ISO',
  timezone: 'America/New_York',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 5,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'NYISO',
  /** Zones [id, name] in the order the ISO publishes them (the region list's order). */
  zones: [
    ['west', 'West'],
    ['genese', 'Genesee'],
    ['central', 'Central'],
    ['north', 'North'],
    ['mhk_vl', 'Mohawk Valley'],
    ['capitl', 'Capital'],
    ['hud_vl', 'Hudson Valley'],
    ['millwd', 'Millwood'],
    ['dunwod', 'Dunwoodie'],
    ['nyc', 'N.Y.C.'],
    ['longil', 'Long Island'],
  ],
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 3_100, count: 40 }, solar: { targetMw: 1_500, count: 90 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
    W([43.75, -75.6], 25, 30, 'east', 'II'), // Tug Hill: Lewis, Jefferson
    W([44.85, -73.9], 25, 20, 'east', 'II'), // North Country: Clinton, Franklin
    W([42.55, -77.9], 55, 32, 'east', 'II'), // Wyoming, Livingston, Steuben, Allegany
    W([42.85, -75.35], 25, 10, 'east', 'II'), // Madison, Herkimer, Otsego
    W([42.3, -79.3], 25, 8, 'east', 'II'), // Chautauqua
  ],
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
    S([42.8, -76.5], 70, 30, 'east', [0.02, 0.25]), // Finger Lakes: Cayuga, Seneca, Tompkins
    S([43.0, -78.2], 50, 25, 'east', [0.02, 0.25]), // Genesee, Orleans, Niagara
    S([42.7, -73.8], 50, 22, 'east', [0.02, 0.25]), // Capital District, Columbia, Washington
    S([44.5, -75.0], 60, 13, 'east', [0.02, 0.25]), // North Country
    S([40.88, -72.8], 20, 10, 'east', [0.02, 0.1]), // eastern Long Island
  ],
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: (
    [
      ['WEST', 'west'],
      ['GENESE', 'genese'],
      ['CENTRL', 'central'],
      ['NORTH', 'north'],
      ['MHK VL', 'mhk_vl'],
      ['CAPITL', 'capitl'],
      ['HUD VL', 'hud_vl'],
      ['MILLWD', 'millwd'],
      ['DUNWOD', 'dunwod'],
      ['N.Y.C.', 'nyc'],
      ['LONGIL', 'longil'],
    ] as const
  ).map(([id, z]): PriceNodeSpec => [id, `NYISO zone ${id}`, 'zone', { [z]: 1 }]),
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    baseMw: 16_950,
    heatBaseC: 13,
    heatSlopeMwPerC: 240,
    heatConvex: 0.3,
    coolBaseC: 18.5,
    coolSlopeMwPerC: 520,
    coolCurve: 0.03,
    btmSolar: 0,
    noiseSd: 0.035,
    driftSd: 0.045,
    shapeFlatten: 0,
    growthPerYear: 0.004,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 30_000,
  /** Outage behaviour as fractions of the thermal fleet (world/outage.ts). */
  outage: {
    plannedFloor: 0.02,
    plannedSpring: 0.16,
    plannedFall: 0.14,
    fallShiftDays: 0,
    forcedBase: 0.045,
    coldThresholdC: -12,
    heatThresholdC: 32,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 10.5, ampC: 12, coldestDoy: 22, rangeC: 9, sdWinterC: 5, sdSummerC: 2.5 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 6_800,
    importsMw: 2_500,
    nuclearMw: 3_300,
    coalMw: 0,
    coalCost: [0, 0],
    ccgtShare: 0.5,
    minThermalShare: 0.28,
    floor: -10,
    cap: 1000,
    markup: 8,
    oilSwitch: 20,
    // New York City's combined cycles swap to liquid fuel: NYSRC Local Reliability Rule G.2 (Loss
    // of Gas Supply, New York City) makes in-city gas units able to, and NYISO's tariff (FERC
    // filing ER17, 2017-08-11) tests the automatic fuel swap of the in-city combined cycles each
    // capability period. On a Transco Z6 NY spike they burn oil, not $30 gas (issue 22, round 6).
    dualFuelCcgt: true,
    reserveMw: 1_500,
    storageMw: [[2023, 300]],
    unofferedMw: 7_000,
    // NYISO Market Services Tariff §15.4.7 (shortage pricing): 10-minute total reserve $775/MWh,
    // NYCA 30-minute reserve steps to $500/MWh.
    shortage: {
      kind: 'steps',
      steps: [
        [1_300, 775],
        [2_600, 500],
      ],
      sdMw: 700,
    },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: {
    west: { pocket: -0.15 },
    genese: { pocket: -0.1 },
    central: { pocket: -0.1 },
    north: { pocket: -0.2, exportShare: 0.5, exportPrice: 5 },
    mhk_vl: { pocket: -0.08 },
    capitl: { pocket: 0 },
    hud_vl: { pocket: 0.08 },
    millwd: { pocket: 0.12 },
    dunwod: { pocket: 0.15 },
    nyc: { pocket: 0.35 },
    longil: { pocket: 0.45 },
  },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: {
    default: 'dominion_south',
    zones: { nyc: 'transco_z6_ny', longil: 'transco_z6_ny', dunwod: 'transco_z6_ny', millwd: 'transco_z6_ny', hud_vl: 'transco_z6_ny' },
  },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.11,
});
