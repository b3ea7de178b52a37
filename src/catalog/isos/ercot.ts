/** Electric Reliability Council of Texas: every fact of the ISO the service uses (data only; see profile.ts for the fields). */
import { defineIsoProfile, S, SW_TRACKERS, W } from './profile.ts';

export const ercot = defineIsoProfile({
  code: 'ercot',
  name: 'Electric Reliability Council of Texas',
  timezone: 'America/Chicago',
  /** The ISO's fixed number (profile.ts): never change it, plant ids and random streams depend on it. */
  isoNumber: 3,
  /** Prefix of region names ("PJM ComEd"). */
  label: 'ERCOT',
  /** Zones [id, name] in the order the ISO publishes them (the region list's order). */
  zones: [
    ['coast', 'Coast'],
    ['east', 'East'],
    ['far_west', 'Far West'],
    ['north', 'North'],
    ['north_central', 'North Central'],
    ['south_central', 'South Central'],
    ['southern', 'Southern'],
    ['west', 'West'],
  ],
  /** Installed utility-scale wind and solar (docs/realism-targets.md §2b) and how many plants carry it. */
  fleets: { wind: { targetMw: 39_000, count: 240 }, solar: { targetMw: 30_000, count: 210 } },
  /** Where its wind plants stand: resource clusters (centre, spread km, weight, landscape, IEC class). */
  windClusters: [
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
  /** Where its solar plants stand (centre, spread km, weight, landscape, tracker shares before/after 2018). */
  solarClusters: [
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
  /** Published hubs and load zones: [id, name, type, {zone: weight}]. */
  priceNodes: [
    ['HB_NORTH', 'ERCOT North Hub', 'hub', { north: 0.5, north_central: 0.5 }],
    ['HB_HOUSTON', 'ERCOT Houston Hub', 'hub', { coast: 1 }],
    ['HB_SOUTH', 'ERCOT South Hub', 'hub', { southern: 0.5, south_central: 0.5 }],
    ['HB_WEST', 'ERCOT West Hub', 'hub', { west: 0.5, far_west: 0.5 }],
    ['HB_PAN', 'ERCOT Panhandle Hub', 'hub', { west: 0.6, north: 0.4 }],
    [
      'HB_BUSAVG',
      'ERCOT Bus Average Hub',
      'hub',
      { coast: 0.25, north_central: 0.25, south_central: 0.2, west: 0.1, north: 0.1, southern: 0.1 },
    ],
    [
      'HB_HUBAVG',
      'ERCOT Hub Average',
      'hub',
      { north: 0.125, north_central: 0.125, coast: 0.25, southern: 0.125, south_central: 0.125, west: 0.125, far_west: 0.125 },
    ],
    ['LZ_HOUSTON', 'ERCOT Houston load zone', 'zone', { coast: 1 }],
    ['LZ_NORTH', 'ERCOT North load zone', 'zone', { north_central: 0.7, north: 0.15, east: 0.15 }],
    ['LZ_SOUTH', 'ERCOT South load zone', 'zone', { south_central: 0.6, southern: 0.4 }],
    ['LZ_WEST', 'ERCOT West load zone', 'zone', { west: 0.6, far_west: 0.4 }],
  ],
  /** Load model (world/demand.ts; calibration table there). */
  demand: {
    // Issue 22: a lower weather-free base and a steeper cooling response that saturates in
    // heat waves give ERCOT's seasons (spring/autumn ~45–50 GW, summer months ~58–65 GW, peaks
    // 80–85 GW) where the earlier calibration was flat (49–60 GW months, 76 GW peaks).
    baseMw: 49_000,
    heatBaseC: 13,
    heatSlopeMwPerC: 1_350,
    heatConvex: 0.6,
    coolBaseC: 19,
    coolSlopeMwPerC: 1_180,
    coolCurve: 0.01,
    coolSaturationC: 14,
    btmSolar: 0,
    noiseSd: 0.035,
    // Slow unexplained drift: ±2 % (weather-normalised monthly use moves a few per cent a
    // year: ISO-NE monthly reports 2024); at 6.5 % it lifted whole months by 10 % (Nov 2026).
    driftSd: 0.02,
    // What the drift no longer puts into forecast error is the forecasts' own (not the truth's):
    // ERCOT load at a week or two and its climatology stay as hard to forecast (docs §1a ladder).
    modelErrorSd: 0.07,
    normalErrorSd: 0.088,
    shapeFlatten: 0.38,
    growthPerYear: 0.05,
  },
  /** Dispatchable thermal fleet that outages are counted against, MW. */
  thermalFleetMw: 85_000,
  // ERCOT: spring ~20–33 GW out; weatherisation gaps make it freeze at milder cold (Uri).
  outage: {
    plannedFloor: 0.015,
    plannedSpring: 0.22,
    plannedFall: 0.18,
    fallShiftDays: 12,
    forcedBase: 0.05,
    coldThresholdC: -6,
    heatThresholdC: 38,
  },
  /** Climatology of the population-weighted temperature (the normal outage model). */
  poptempClimate: { meanC: 20, ampC: 9.5, coldestDoy: 22, rangeC: 11, sdWinterC: 5, sdSummerC: 1.8 },
  /** Supply stack of the price model (world/lmp.ts). */
  lmp: {
    baseloadMw: 5_000,
    importsMw: 0,
    nuclearMw: 5_000,
    coalMw: 13_500,
    coalCost: [20, 30],
    ccgtShare: 0.6,
    minThermalShare: 0.2,
    floor: -25,
    cap: 5000,
    markup: 8,
    oilSwitch: Infinity,
    // Emergency response service, DC-tie imports and large flexible loads (crypto mining, some
    // data centres) that curtail when reserves run short: counted at 1.5 GW in tight hours (issue 22: the
    // January 2024 cold otherwise priced at the cap for a day; ERCOT's 2024 DA mean was $27).
    reserveMw: 1_500,
    storageMw: [
      // Batteries on 1 July (EIA-860M / ERCOT capacity changes by fuel: ~3 GW in January 2023,
      // ~5 GW at the end of 2023, ~10 GW at the end of 2024, ~15 GW by late 2025).
      [2022, 2_500],
      [2023, 4_000],
      [2024, 7_500],
      [2025, 12_500],
      [2026, 17_000],
    ],
    unofferedMw: 10_000,
    // ORDC (ERCOT Nodal Protocols §6.5.7.3, PUCT 16 TAC §25.505): VOLL = HCAP $5,000/MWh since
    // 2022, minimum contingency level 3,000 MW; σ of the reserve shortfall 4 GW (ERCOT's
    // seasonal ORDC parameters are 1–3 GW; wider here for the hour's spread).
    shortage: { kind: 'ordc', voll: 5000, minContingencyMw: 3_000, sdMw: 4_000 },
  },
  /** Per-zone pricing: load pockets and export congestion. */
  lmpZones: {
    far_west: { exportShare: 0.35, exportPrice: 9 },
    west: { exportShare: 0.4, exportPrice: 8 },
    southern: { exportShare: 0.5, exportPrice: 6 },
    coast: { pocket: 0.05 },
    north_central: { pocket: 0.02 },
  },
  /** Gas hub fuelling its marginal units: a default and per-zone exceptions. */
  zoneGas: { default: 'houston_ship_channel' },
  /** Weight in the national temperature anomaly that moves Henry Hub. */
  nationalGasWeight: 0.13,
  /**
   * West Texas and Panhandle wind leaves over export-limited interfaces (ERCOT's generic
   * transmission constraints): the fleet's output is dispatched down when it blows hard. ERCOT
   * curtailed ~1,500 MW when wind reached 50 % of load (23 March 2016, ERCOT CEO to the Board),
   * and ~12 TWh of 322 TWh of wind (3.7 %) from January 2017 to March 2021, more than doubling in
   * 2020 (BTU Analytics, "ERCOT Wind Curtailments: How Much and Where?"). Half the output above
   * 75 % of a plant's capacity: ~4 % of the fleet's energy (2025: CF 35.7 → 34.3 %), and the
   * fleet's hours above 80 % of capacity fall from ~320 to ~80 a year (realism wind.hoursOver80).
   */
  windCurtailment: { fromShare: 0.75, curtailedShare: 0.5 },
});
