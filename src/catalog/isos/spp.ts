/** Southwest Power Pool: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, SW_TRACKERS, W } from './profile.ts';

export const spp = defineIsoProfile({
  code: 'spp',
  name: 'Southwest Power Pool',
  timezone: 'America/Chicago',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 2,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'SPP',
  /** Zones [id, name] in the order the ISO publishes them (the region list's order). */
  zones: [
    ['north', 'North'],
    ['central', 'Central'],
    ['south', 'South'],
  ],
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 34_000, count: 230 }, solar: { targetMw: 2_000, count: 40 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
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
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
    S([35.4, -97.6], 90, 25, 'plains', [0.4, 0.85]), // central Oklahoma
    S([38.0, -97.4], 90, 15, 'plains', [0.4, 0.85]), // Kansas
    S([33.0, -103.6], 70, 25, 'desert', SW_TRACKERS), // Lea, Chaves, Eddy (New Mexico)
    S([35.1, -101.9], 70, 15, 'plains', SW_TRACKERS), // Texas panhandle
    S([36.3, -94.1], 50, 10, 'south', [0.3, 0.8]), // north-west Arkansas, south-west Missouri
    S([41.0, -96.8], 70, 10, 'plains', [0.3, 0.8]), // eastern Nebraska
  ],
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: [
    ['SPPNORTH_HUB', 'SPP North Hub', 'hub', { north: 0.7, central: 0.3 }],
    ['SPPSOUTH_HUB', 'SPP South Hub', 'hub', { south: 0.8, central: 0.2 }],
    ['SPP_NORTH', 'SPP North area', 'zone', { north: 1 }],
    ['SPP_CENTRAL', 'SPP Central area', 'zone', { central: 1 }],
    ['SPP_SOUTH', 'SPP South area', 'zone', { south: 1 }],
  ],
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    baseMw: 29_100,
    heatBaseC: 14,
    heatSlopeMwPerC: 560,
    heatConvex: 0.1,
    coolBaseC: 19,
    coolSlopeMwPerC: 660,
    coolCurve: 0.03,
    btmSolar: 0,
    noiseSd: 0.03,
    driftSd: 0.04,
    modelErrorSd: 0.065,
    shapeFlatten: 0.15,
    growthPerYear: 0.012,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 55_000,
  /** Outage behaviour as fractions of the thermal fleet (world/outage.ts). */
  outage: {
    plannedFloor: 0.02,
    plannedSpring: 0.2,
    plannedFall: 0.2,
    fallShiftDays: 5,
    forcedBase: 0.05,
    coldThresholdC: -8,
    heatThresholdC: 37,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 14, ampC: 12.5, coldestDoy: 20, rangeC: 12, sdWinterC: 6, sdSummerC: 2.5 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 3_800,
    importsMw: 0,
    nuclearMw: 1_800,
    coalMw: 20_000,
    coalCost: [18, 30],
    ccgtShare: 0.45,
    minThermalShare: 0.27,
    floor: -25,
    cap: 1000,
    markup: 5,
    oilSwitch: Infinity,
    reserveMw: 5_000,
    storageMw: [[2023, 500]],
    unofferedMw: 10_000,
    // SPP Tariff Attachment AE §8.6 (scarcity pricing): operating reserve demand curve of
    // $600/MWh (regulation + spinning short) and $400/MWh (supplemental), under the $1,000 offer cap.
    shortage: {
      kind: 'steps',
      steps: [
        [1_500, 600],
        [2_700, 400],
      ],
      sdMw: 900,
    },
    // SPP's real-time prices spike in steep net-load ramps, in every season: wind is 38 % of its
    // energy, and when it falls off in the evening the 5-minute dispatch runs short of ramp
    // capability. 5 %/h of demand is about the steepest 15 % of SPP's hourly net-load ramps.
    rtRampSpikes: { share: 0.05, drop: 2.5 },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: { north: { exportShare: 0.4, exportPrice: 8 }, central: { exportShare: 0.5, exportPrice: 6 }, south: { pocket: 0.03 } },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: { default: 'panhandle_eastern' },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.06,
});
