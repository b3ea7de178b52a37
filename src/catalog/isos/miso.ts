/** Midcontinent ISO: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, type PriceNodeSpec, W } from './profile.ts';

export const miso = defineIsoProfile({
  code: 'miso',
  name: 'Midcontinent ISO',
  timezone: 'America/Chicago',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 1,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'MISO',
  /** Zones [id, name] in the order the ISO publishes them (the region list's order). */
  zones: [
    ['lrz1', 'LRZ 1'],
    ['lrz2', 'LRZ 2'],
    ['lrz3', 'LRZ 3'],
    ['lrz4', 'LRZ 4'],
    ['lrz5', 'LRZ 5'],
    ['lrz6', 'LRZ 6'],
    ['lrz7', 'LRZ 7'],
    ['lrz8', 'LRZ 8'],
    ['lrz9', 'LRZ 9'],
    ['lrz10', 'LRZ 10'],
  ],
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 32_000, count: 250 }, solar: { targetMw: 12_000, count: 130 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
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
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
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
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: [
    ['MINN.HUB', 'MISO Minnesota Hub', 'hub', { lrz1: 1 }],
    ['ILLINOIS.HUB', 'MISO Illinois Hub', 'hub', { lrz4: 1 }],
    ['INDIANA.HUB', 'MISO Indiana Hub', 'hub', { lrz6: 1 }],
    ['MICHIGAN.HUB', 'MISO Michigan Hub', 'hub', { lrz7: 1 }],
    ['ARKANSAS.HUB', 'MISO Arkansas Hub', 'hub', { lrz8: 1 }],
    ['LOUISIANA.HUB', 'MISO Louisiana Hub', 'hub', { lrz9: 1 }],
    ['TEXAS.HUB', 'MISO Texas Hub', 'hub', { lrz9: 1 }],
    ['MS.HUB', 'MISO Mississippi Hub', 'hub', { lrz10: 1 }],
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n): PriceNodeSpec => [`LRZ${n}`, `MISO Local Resource Zone ${n}`, 'zone', { [`lrz${n}`]: 1 }]),
  ],
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    baseMw: 70_900,
    heatBaseC: 13,
    // Issue 22: 1,400 put February 2025 at 89 GW against MISO's reported ~80 GW mean.
    heatSlopeMwPerC: 1_100,
    heatConvex: 0.1,
    coolBaseC: 18.5,
    coolSlopeMwPerC: 2_050,
    coolCurve: 0.03,
    btmSolar: 0,
    noiseSd: 0.02,
    driftSd: 0.05,
    modelErrorSd: 0.06,
    shapeFlatten: 0.2,
    growthPerYear: 0.005,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 120_000,
  // MISO: daily average ~50–60 GW out in October; a large floor of long outages/derates all year.
  // Winter still ~40 GW out (Feb 2025: 39 GW), so the floor is high and the seasons modest.
  outage: {
    plannedFloor: 0.2,
    plannedSpring: 0.18,
    plannedFall: 0.2,
    fallShiftDays: 0,
    forcedBase: 0.06,
    coldThresholdC: -14,
    heatThresholdC: 33,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 10, ampC: 14, coldestDoy: 20, rangeC: 11, sdWinterC: 6, sdSummerC: 2.5 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 13_500,
    importsMw: 0,
    nuclearMw: 12_000,
    coalMw: 45_000,
    coalCost: [17, 28],
    ccgtShare: 0.5,
    minThermalShare: 0.32,
    floor: -15,
    cap: 2000,
    markup: 3,
    oilSwitch: Infinity,
    reserveMw: 35_000,
    storageMw: [[2023, 500]],
    // Issue 22, round 9: 13 → 8 GW. MISO's published outage totals (which `outage` above follows:
    // summer 2024 averaged 31 GW, the world's 2023–2025 summers 30–33 GW) already count its
    // derates, so hot-weather derates are not unoffered a second time. Summer 2025 averaged 46 GW
    // of outages with load above 100 GW for more than 750 hours and a single maximum generation
    // emergency (23 June, ~121 GW available against a ~121 GW forecast; RTO Insider, 2025-06 and
    // 2025-09). With 46 GW out, at 13 GW the world's MISO fell below its ~2.4 GW operating reserve
    // requirement ($1,100 step) at 110 GW of load (8 GW of evening wind and solar); at 8 GW it
    // reaches it near 120 GW (15 GW of wind and solar, as on 23 June), as MISO did.
    unofferedMw: 8_000,
    // MISO Tariff Schedule 28 (operating reserve demand curve): $1,100/MWh once the market-wide
    // operating reserve requirement (~2.4 GW) is short, $200/MWh on the regulating/spinning steps,
    // rising toward the $3,500/MWh value of lost load as reserves run out (here to the $2,000 cap).
    shortage: {
      kind: 'steps',
      steps: [
        [800, 2_400],
        [2_400, 1_100],
        [4_000, 200],
      ],
      sdMw: 1_500,
    },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: {
    lrz1: { pocket: -0.06, exportShare: 0.45, exportPrice: 6 },
    lrz3: { exportShare: 0.5, exportPrice: 5 },
    lrz7: { pocket: 0.04 },
    lrz9: { pocket: 0.03 },
  },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: { default: 'chicago_citygate' },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.2,
});
