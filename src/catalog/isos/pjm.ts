/** PJM Interconnection: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, type PriceNodeSpec, W } from './profile.ts';

/** Zones [id, name] in the order the ISO publishes them (the region list's order); each also has a zone price node. */
const ZONES = [
  ['aeco', 'AECO'],
  ['aep', 'AEP'],
  ['aps', 'APS'],
  ['atsi', 'ATSI'],
  ['bge', 'BGE'],
  ['comed', 'ComEd'],
  ['dayton', 'Dayton'],
  ['deok', 'DEOK'],
  ['dom', 'Dominion'],
  ['dpl', 'DPL'],
  ['duq', 'Duquesne'],
  ['ekpc', 'EKPC'],
  ['jcpl', 'JCP&L'],
  ['meted', 'Met-Ed'],
  ['peco', 'PECO'],
  ['penelec', 'Penelec'],
  ['pepco', 'Pepco'],
  ['ppl', 'PPL'],
  ['pseg', 'PSEG'],
] as const;

export const pjm = defineIsoProfile({
  code: 'pjm',
  name: 'PJM Interconnection',
  timezone: 'America/New_York',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 0,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'PJM',
  zones: ZONES,
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 11_500, count: 110 }, solar: { targetMw: 14_000, count: 380 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
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
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
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
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: [
    ['WESTERN HUB', 'PJM Western Hub', 'hub', { aps: 0.3, penelec: 0.2, meted: 0.1, ppl: 0.1, bge: 0.1, pepco: 0.1, dom: 0.1 }],
    ['EASTERN HUB', 'PJM Eastern Hub', 'hub', { pseg: 0.4, jcpl: 0.2, peco: 0.2, aeco: 0.1, dpl: 0.1 }],
    ['AEP GEN HUB', 'PJM AEP Gen Hub', 'hub', { aep: 1 }],
    ['AEP-DAYTON HUB', 'PJM AEP-Dayton Hub', 'hub', { aep: 0.7, dayton: 0.3 }],
    ['N ILLINOIS HUB', 'PJM Northern Illinois Hub', 'hub', { comed: 1 }],
    ['DOMINION HUB', 'PJM Dominion Hub', 'hub', { dom: 1 }],
    ['CHICAGO GEN HUB', 'PJM Chicago Gen Hub', 'hub', { comed: 1 }],
    ...ZONES.map(([z]): PriceNodeSpec => [
      z === 'dayton' ? 'DAY' : z.toUpperCase(),
      `PJM ${z === 'dayton' ? 'DAY' : z.toUpperCase()} zone`,
      'zone',
      { [z]: 1 },
    ]),
  ],
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    baseMw: 74_000,
    heatBaseC: 14,
    heatSlopeMwPerC: 2_550,
    heatConvex: 0.3,
    coolBaseC: 18.5,
    coolSlopeMwPerC: 4_100,
    coolCurve: 0.03,
    btmSolar: 0,
    noiseSd: 0.016,
    driftSd: 0.03,
    shapeFlatten: 0.36,
    // Issue 22: growth now lifts the weather-free load only (data centres), so 2.2 %/yr of it
    // keeps the annual mean's growth near PJM's 1–2 %/yr.
    growthPerYear: 0.022,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 150_000,
  // PJM: ~25 GW planned in April, 10–13 GW out on summer alert days; Elliott ~−17 °C → ~25 %.
  outage: {
    plannedFloor: 0.02,
    plannedSpring: 0.16,
    plannedFall: 0.14,
    fallShiftDays: 0,
    forcedBase: 0.055,
    coldThresholdC: -11,
    heatThresholdC: 33,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 12.5, ampC: 12, coldestDoy: 20, rangeC: 10, sdWinterC: 5, sdSummerC: 2.5 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 34_500,
    importsMw: 0,
    nuclearMw: 32_500,
    coalMw: 38_000,
    coalCost: [22, 34],
    ccgtShare: 0.55,
    minThermalShare: 0.3,
    floor: -10,
    cap: 2000,
    markup: 11,
    oilSwitch: Infinity,
    reserveMw: 5_000,
    // Batteries ~1 GW plus PJM's pumped hydro, ~4.8 GW, which the stack lacked (issue 22, round 8):
    // Bath County > 2,800 MW (Dominion/Mon Power; TransmissionHub 2016-11), Muddy Run 1,070 MW
    // (Constellation), Yards Creek 450 MW (PSEG/FirstEnergy), Seneca 451.8 MW authorized
    // (Kinzua, PA; TransmissionHub 2013-07, from its FERC relicensing). Like
    // batteries they pump at night and generate through the afternoon peak.
    storageMw: [[2023, 1_000 + 4_800]],
    unofferedMw: 4_000,
    // PJM Manual 11 §4: synchronized and primary reserve penalty factors $850/MWh at their
    // minimum requirements (~3.3 GW, ~5 GW), $300/MWh on the extended 30-minute step.
    shortage: {
      kind: 'steps',
      steps: [
        [3_300, 850],
        [5_000, 850],
        [6_500, 300],
      ],
      sdMw: 1_200,
    },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: {
    pseg: { pocket: 0.08 },
    bge: { pocket: 0.1 },
    pepco: { pocket: 0.08 },
    dom: { pocket: 0.05 },
    jcpl: { pocket: 0.05 },
    aep: { pocket: -0.05 },
    comed: { pocket: -0.08, exportShare: 0.5, exportPrice: 5 },
  },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: {
    default: 'dominion_south',
    zones: Object.fromEntries(['pseg', 'bge', 'pepco', 'jcpl'].map((z) => [z, 'texas_eastern_m3'])),
  },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.28,
});
