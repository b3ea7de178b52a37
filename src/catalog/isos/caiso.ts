/** California ISO: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, W } from './profile.ts';

export const caiso = defineIsoProfile({
  code: 'caiso',
  name: 'California ISO',
  timezone: 'America/Los_Angeles',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 4,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'CAISO',
  /** Zones [id, name] in the order the ISO publishes them (the region list's order). */
  zones: [
    ['pge', 'PG&E'],
    ['sce', 'SCE'],
    ['sdge', 'SDG&E'],
    ['vea', 'VEA'],
  ],
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 7_500, count: 100 }, solar: { targetMw: 20_000, count: 320 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
    W([35.05, -118.25], 25, 45, 'pacific', 'I'), // Tehachapi–Mojave
    W([33.93, -116.62], 10, 10, 'desert', 'I'), // San Gorgonio Pass
    W([37.73, -121.65], 10, 8, 'pacific', 'II'), // Altamont Pass
    W([38.12, -121.85], 12, 13, 'pacific', 'II'), // Solano, Montezuma Hills
    W([32.75, -116.15], 20, 7, 'desert', 'II'), // Ocotillo and Tule (Imperial, San Diego)
    W([37.05, -121.2], 12, 2, 'pacific', 'II'), // Pacheco Pass
    W([40.9, -121.8], 25, 3, 'pacific', 'II'), // Hatchet Ridge, Shasta
    W([34.9, -118.6], 20, 5, 'pacific', 'I'), // western Antelope Valley
  ],
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
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
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: [
    ['TH_NP15_GEN-APND', 'CAISO NP15 trading hub', 'hub', { pge: 1 }],
    ['TH_SP15_GEN-APND', 'CAISO SP15 trading hub', 'hub', { sce: 0.8, sdge: 0.2 }],
    ['TH_ZP26_GEN-APND', 'CAISO ZP26 trading hub', 'hub', { pge: 0.5, sce: 0.5 }],
    ['DLAP_PGAE-APND', 'CAISO PG&E default load aggregation point', 'zone', { pge: 1 }],
    ['DLAP_SCE-APND', 'CAISO SCE default load aggregation point', 'zone', { sce: 1 }],
    ['DLAP_SDGE-APND', 'CAISO SDG&E default load aggregation point', 'zone', { sdge: 1 }],
    ['DLAP_VEA-APND', 'CAISO VEA default load aggregation point', 'zone', { vea: 1 }],
  ],
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    baseMw: 26_450,
    heatBaseC: 13,
    heatSlopeMwPerC: 500,
    heatConvex: 0.2,
    coolBaseC: 19,
    // Issue 22: less steep at the top (the 2024 peak was 48.3 GW; 0.03 gave 51.5).
    coolSlopeMwPerC: 1_550,
    coolCurve: 0.018,
    btmSolar: 0.08,
    noiseSd: 0.032,
    driftSd: 0.04,
    modelErrorSd: 0.06,
    shapeFlatten: 0.15,
    growthPerYear: 0.005,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 40_000,
  // CAISO: summer peak runs into September, so fall maintenance starts later.
  outage: {
    plannedFloor: 0.05,
    plannedSpring: 0.2,
    plannedFall: 0.16,
    fallShiftDays: 18,
    forcedBase: 0.05,
    coldThresholdC: -3,
    heatThresholdC: 36,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 16, ampC: 6.5, coldestDoy: 20, rangeC: 12, sdWinterC: 2.5, sdSummerC: 2.5 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 7_500,
    importsMw: 2_500,
    nuclearMw: 2_300,
    coalMw: 0,
    coalCost: [0, 0],
    ccgtShare: 0.6,
    minThermalShare: 0.36,
    floor: -40,
    cap: 1000,
    markup: 12,
    oilSwitch: Infinity,
    reserveMw: 0,
    storageMw: [
      // Batteries on 1 July (CAISO Key Statistics: ~5.6 GW in January 2023, ~8.5 GW at the end of
      // 2023, ~11.5 GW at the end of 2024, ~13 GW in 2025).
      [2022, 4_000],
      [2023, 7_000],
      [2024, 10_000],
      [2025, 12_500],
      [2026, 14_500],
    ],
    unofferedMw: 7_500,
    // CAISO Tariff §27.4.3 (scarcity reserve demand curve): $500/MWh at the spinning and at the
    // non-spinning requirement, to the $1,000/MWh soft bid cap.
    shortage: {
      kind: 'steps',
      steps: [
        [1_500, 500],
        [2_500, 500],
      ],
      sdMw: 900,
    },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: {
    sce: { exportShare: 0.55, exportPrice: 6 },
    vea: { exportShare: 0.4, exportPrice: 8 },
    sdge: { pocket: 0.1 },
    pge: { pocket: 0.03 },
  },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: { default: 'socal_citygate' },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.13,
  /** California built its utility solar earlier than the rest of the country. */
  solarYearWeights: [0.5, 1.5, 4, 6, 9, 9, 11, 7, 6, 6, 7, 7, 6, 8, 10, 9],
});
