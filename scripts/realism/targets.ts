/**
 * The realism audit's target bands: every figure `npm run realism` judges, the band it must
 * stay in, and what the band is compared against (public source, or the reasoning when no
 * source states it; [S..] are the source numbers of docs/realism-targets.md). One place for
 * these numbers: the report prints them and test/realism.test.ts checks its sample against them.
 *
 * Ids are `<topic>.<figure>[.<iso>]`; scripts/realism/audit.ts computes the values.
 */
import type { IsoCode } from '../../src/catalog/isos.ts';

export interface Target {
  id: string;
  /** Issue 14 item (1–9) the figure answers, or 0 for a figure kept in band from earlier rounds. */
  item: number;
  /** What is measured, in words, with its unit. */
  figure: string;
  /**
   * What the figure needs to be meaningful: any sample of days (a few weeks of each season),
   * every winter day of the history, or whole years (the full report only).
   */
  scope: 'sample' | 'winters' | 'years';
  /** Inclusive band; ±Infinity for one-sided bands. */
  band: readonly [number, number];
  /** What the band is compared against: the public figure and its source. */
  source: string;
}

/** The node each ISO's single-node price figures are measured at. */
export const MAIN_NODE: Readonly<Record<IsoCode, string>> = {
  pjm: 'WESTERN HUB',
  miso: 'INDIANA.HUB',
  spp: 'SPPNORTH_HUB',
  ercot: 'HB_NORTH',
  caiso: 'TH_SP15_GEN-APND',
  nyiso: 'N.Y.C.',
  isone: '.H.INTERNAL_HUB',
};

/** All-time record peaks (GW), docs/realism-targets.md §2a. */
export const RECORD_PEAK_GW: Readonly<Record<IsoCode, number>> = {
  pjm: 165.6,
  miso: 127,
  spp: 56,
  ercot: 85.4,
  caiso: 52.1,
  nyiso: 34.0,
  isone: 28.1,
};

/** Minimum-load bands (GW), docs/realism-targets.md §2a (C estimates from the ISOs' load duration). */
const MIN_LOAD_GW: Readonly<Record<IsoCode, readonly [number, number]>> = {
  pjm: [55, 60],
  miso: [50, 55],
  spp: [20, 22],
  ercot: [35, 40],
  caiso: [18, 21],
  nyiso: [11, 13],
  isone: [8, 10],
};

/** Annual wind capacity factor bands (%), EIA-923 state/ISO fleet figures 2023–2024 (docs §2c). */
const WIND_CF: Readonly<Record<IsoCode, readonly [number, number]>> = {
  pjm: [25, 33],
  miso: [29, 37],
  spp: [34, 42],
  ercot: [32, 38],
  caiso: [26, 34],
  nyiso: [22, 28],
  isone: [24, 32],
};

/**
 * Year-over-year growth of annual mean load (%/yr): ERCOT ~+4 %/yr 2023–2025, PJM +1–2 % (data
 * centres), others flat to +1.5 %; CAISO's gross load is flat to falling (behind-the-meter solar).
 */
const LOAD_GROWTH: Readonly<Record<IsoCode, readonly [number, number]>> = {
  pjm: [0.8, 2.5],
  miso: [-0.5, 1.5],
  spp: [0, 2],
  ercot: [2.5, 5.5],
  caiso: [-1.5, 1.5],
  nyiso: [-0.5, 1.5],
  isone: [-0.5, 1.5],
};

/** Excess kurtosis of winter daily temperature anomalies: fat tails in the south and west, ≥ Gaussian in the north-east. */
const WINTER_KURTOSIS: Readonly<Record<IsoCode, readonly [number, number]>> = {
  pjm: [0, 8],
  miso: [0, 8],
  spp: [0.5, 8],
  ercot: [0.5, 8],
  caiso: [0.5, 8],
  nyiso: [0, 8],
  isone: [0, 8],
};

/**
 * Published demand figures of 2023–2025 the world's actual demand is judged against (issue 22):
 * the mean hourly demand of a month or a span of months, or the peak hour of a year, in GW, with
 * the source of each. Means must land within ±8 %, annual peaks within ±5 %. Only figures a
 * public source states (or that follow from one by arithmetic, said where so) are here; months
 * no source gives are not judged. ISO-NE's months use the ISO's weather-normalised use where it
 * publishes it: the synthetic weather of a month is not the real month's, and normal weather is
 * what a climate-driven world should reproduce on average. Monthly *peaks* are not judged: one
 * month's peak is the real month's hottest day, which the synthetic weather does not repeat.
 */
export interface DemandFigure {
  iso: IsoCode;
  /** `YYYY` (annual peak), `YYYY-MM` or `YYYY-MM..YYYY-MM` (mean over the months). */
  period: string;
  stat: 'mean' | 'peak';
  gw: number;
  source: string;
}

const isoneMonth = (period: string, gwh: number, hours: number, how: string, post: string): DemandFigure => ({
  iso: 'isone',
  period,
  stat: 'mean',
  gw: Math.round((gwh / hours) * 100) / 100,
  source: `ISO-NE monthly prices and demand report: ${how} ${gwh.toLocaleString('en-US')} GWh ÷ ${hours} h (${post}) [S44]`,
});
const ISONE_POSTS = {
  may2024: 'isonewswire.com/2024/06/27, May 2024',
  jun2024: 'isonewswire.com/2024/07/31, June 2024',
  sep2024: 'isonewswire.com/2024/10/31, September 2024',
  oct2024: 'isonewswire.com/2024/12/05, October 2024',
  nov2024: 'isonewswire.com/2025/01/09, November 2024',
};

export const DEMAND_FIGURES: readonly DemandFigure[] = [
  // ERCOT
  {
    iso: 'ercot',
    period: '2023',
    stat: 'peak',
    gw: 85.46,
    source: 'ERCOT all-time peak 85,464 MW on 2023-08-10 (ERCOT Peak Demand Records release, Sep 2023) [S66]',
  },
  {
    iso: 'ercot',
    period: '2025-01..2025-09',
    stat: 'mean',
    gw: 56.8,
    source: 'ERCOT demand 372 TWh in January–September 2025 ÷ 6,551 h (Ember via GO15, 2025-11-24: "372 TWh, up 5 % year-over-year")',
  },
  {
    iso: 'ercot',
    period: '2024-01..2024-09',
    stat: 'mean',
    gw: 53.9,
    source: "derived: 372 TWh ÷ 1.05 (the same report's +5 % on the year before) ÷ 6,575 h of January–September 2024",
  },
  // PJM
  {
    iso: 'pjm',
    period: '2024-01..2024-12',
    stat: 'mean',
    gw: 89.3,
    source: 'PJM mean hourly load 89.3 GW in 2024 (Monitoring Analytics, 2024 State of the Market) [S40]',
  },
  { iso: 'pjm', period: '2023', stat: 'peak', gw: 147, source: 'PJM 2023 peak ~147 GW (PJM 2025 summer outlook) [S60]' },
  { iso: 'pjm', period: '2024', stat: 'peak', gw: 152.7, source: 'PJM 2024 peak 152.7 GW (PJM 2025 summer outlook) [S60]' },
  { iso: 'pjm', period: '2025', stat: 'peak', gw: 161.8, source: 'PJM preliminary peak ~161.8 GW on 2025-06-23 [S61]' },
  // MISO
  {
    iso: 'miso',
    period: '2024-10',
    stat: 'mean',
    gw: 69,
    source: 'MISO October 2024 average load 69 GW (MISO monthly operations report) [S64]',
  },
  {
    iso: 'miso',
    period: '2025-02',
    stat: 'mean',
    gw: 80,
    source: 'MISO February 2025 average load 80 GW (MISO monthly operations report) [S65]',
  },
  // CAISO, NYISO
  { iso: 'caiso', period: '2024', stat: 'peak', gw: 48.3, source: 'CAISO 2024 peak 48.3 GW (summary citing CAISO) [S73]' },
  { iso: 'nyiso', period: '2024', stat: 'peak', gw: 28.99, source: 'NYISO 2024 peak 28,990 MW (NYISO 2025 summer assessment) [S74]' },
  // ISO-NE: peaks, and months from the ISO's monthly reports (2023 from the reports' changes on the year before).
  { iso: 'isone', period: '2024', stat: 'peak', gw: 24.87, source: 'ISO-NE 2024 peak 24,871 MW (ISO-NE key stats) [S76]' },
  {
    iso: 'isone',
    period: '2025',
    stat: 'peak',
    gw: 26.59,
    source: 'ISO-NE 2025 peak 26,586 MW on 2025-06-24 (ISO-NE summer 2025 recap) [S77]',
  },
  isoneMonth('2024-05', 8338, 744, 'weather-normalised use', ISONE_POSTS.may2024),
  isoneMonth('2023-05', 8363, 744, "weather-normalised use (8,338 GWh ÷ 0.997, the report's −0.3 % on May 2023)", ISONE_POSTS.may2024),
  isoneMonth('2024-06', 10110, 720, 'total use (the weather-normalised figure printed, 29,657 GWh, is a typo)', ISONE_POSTS.jun2024),
  isoneMonth('2023-06', 9222, 720, 'total use', ISONE_POSTS.jun2024),
  isoneMonth('2024-09', 9094, 720, 'weather-normalised use', ISONE_POSTS.sep2024),
  isoneMonth(
    '2023-09',
    8872,
    720,
    "weather-normalised use (9,094 GWh ÷ 1.025, the report's +2.5 % on September 2023)",
    ISONE_POSTS.sep2024,
  ),
  isoneMonth('2024-10', 8543, 744, 'weather-normalised use', ISONE_POSTS.oct2024),
  isoneMonth('2023-10', 8682, 744, "weather-normalised use (8,543 GWh ÷ 0.984, the report's −1.6 % on October 2023)", ISONE_POSTS.oct2024),
  isoneMonth('2024-11', 9067, 721, 'weather-normalised use', ISONE_POSTS.nov2024),
  isoneMonth('2023-11', 9058, 721, "weather-normalised use (9,067 GWh ÷ 1.001, the report's +0.1 % on November 2023)", ISONE_POSTS.nov2024),
];

/** Relative bands of DEMAND_FIGURES (issue 22): monthly means ±8 %, annual peaks ±5 %. */
export const DEMAND_FIGURE_TOLERANCE = { mean: 0.08, peak: 0.05 } as const;

/** Audit id of a demand figure. */
export function demandFigureId(f: DemandFigure): string {
  return `load.${f.stat}.${f.iso}.${f.period}`;
}

const ISOS: readonly IsoCode[] = ['pjm', 'miso', 'spp', 'ercot', 'caiso', 'nyiso', 'isone'];

function perIso(make: (iso: IsoCode) => Target): Target[] {
  return ISOS.map(make);
}

export const TARGETS: readonly Target[] = [
  // 1. Day-ahead price forecasts carry a realistic error, growing with lead.
  ...perIso((iso) => ({
    id: `price.daForecastMape.d1.${iso}`,
    scope: 'sample',
    item: 1,
    figure: `DA price forecast MAPE at ${MAIN_NODE[iso]}, dalmp continuous days_ahead=1 vs dalmp clearing (%)`,
    band: [10, 20],
    source: 'day-ahead price forecasting accuracy in US/EU markets: 10–20 % MAPE (Weron 2014 review; Lago et al. 2021 benchmarks)',
  })),
  ...perIso((iso) => ({
    id: `price.daForecastGrowth.${iso}`,
    scope: 'sample',
    item: 1,
    figure: `DA price forecast MAPE at days_ahead=7 ÷ days_ahead=1 at ${MAIN_NODE[iso]}`,
    band: [1.05, Infinity],
    source: 'forecast error grows with lead (weather and outage uncertainty grow; docs §1a)',
  })),
  // 2. Scarcity pricing.
  {
    id: 'price.ercotDaMean.2023',
    scope: 'years',
    item: 2,
    figure: 'ERCOT HB_NORTH DA mean, 2023 ($/MWh)',
    band: [45, 65],
    source: 'ERCOT North DA $55.50 in 2023 (Potomac Economics SOM 2023) [S43]',
  },
  {
    id: 'price.ercotDaMean.2024',
    scope: 'years',
    item: 2,
    figure: 'ERCOT HB_NORTH DA mean, 2024 ($/MWh)',
    band: [22, 35],
    source: 'ERCOT North DA $27.33 in 2024 (Potomac Economics SOM 2024) [S43]',
  },
  {
    id: 'price.ercotHalfCostHours',
    scope: 'years',
    item: 2,
    figure: "ERCOT hours making half of a year's energy cost (HB_NORTH RT × load, mean over full years)",
    band: [600, 2000],
    source: '~1,200 hours drive half of the annual cost (ERCOT/IMM) [S115]',
  },
  {
    id: 'price.ercotRtMax',
    scope: 'years',
    item: 2,
    figure: 'ERCOT HB_NORTH RT maximum over the period ($/MWh)',
    band: [4500, 5000],
    source: 'HCAP $5,000/MWh since 2022, reached in tight summer and winter hours [S113]',
  },
  {
    id: 'price.ercotHoursOver1000',
    scope: 'years',
    item: 2,
    figure: 'ERCOT HB_NORTH RT hours ≥ $1,000 per year',
    band: [2, 60],
    source: 'a handful to tens of scarcity hours a year (2023: August evenings; ERCOT SOM) [S43][S115]',
  },
  {
    id: 'price.ercotTopMonth',
    scope: 'years',
    item: 2,
    figure: 'month (1–12) with the highest mean ERCOT HB_NORTH RT price over the period',
    band: [6, 9],
    source: "ERCOT's highest prices come in summer evenings (2023 August) [S43]",
  },
  {
    id: 'price.caisoPeakDayDaMax',
    scope: 'years',
    item: 2,
    figure: "CAISO SP15 DA maximum on the highest-load day of the period's tightest summer ($/MWh)",
    band: [300, 2000],
    source: 'Sep 2022 heat (52 GW): SP15 $550+, Palo Verde $1,000; Q2 heat wave DA > $600 [S119][S120]',
  },
  ...(['nyiso', 'isone'] as const).map((iso): Target => ({
    id: `price.topLoadRatio.${iso}`,
    scope: 'years',
    item: 2,
    figure: `${MAIN_NODE[iso]} RT mean in the top 1 % load hours ÷ RT mean of all hours`,
    band: [2, 15],
    source:
      'peak-load hours price at several times the mean (NYC RT near $2,000 in the Jul 2026 heat; ISO-NE RCP shortage 2025-06-24) [S122][S77]',
  })),
  // 3. Real-time deviations persist and concentrate in tight hours.
  ...perIso((iso) => ({
    id: `price.rtDaLag1.${iso}`,
    scope: 'sample',
    item: 3,
    figure: `lag-1-hour autocorrelation of RT − DA at ${MAIN_NODE[iso]}`,
    band: [0.4, 0.95],
    source: 'hourly RT−DA spreads are autocorrelated ~0.5–0.7 (ramps and shortages last hours) [S126]',
  })),
  ...perIso((iso) => ({
    id: `price.spikesInTightHours.${iso}`,
    scope: 'years',
    item: 3,
    figure: `share of RT spikes (RT > DA + max(50, DA)) at ${MAIN_NODE[iso]} in the top 15 % net-load or steepest-10 % ramp hours (%)`,
    band: [60, 100],
    source: 'price spikes concentrate in a few hundred tight/ramp hours [S115][S126]',
  })),
  ...perIso((iso) => ({
    id: `price.daMinusRt.${iso}`,
    scope: 'years',
    item: 0,
    figure: `mean DA − RT at ${MAIN_NODE[iso]} ($/MWh)`,
    band: [-3, 4],
    source: 'a modest DA premium (ISO-NE 2024 monthly −$0.73…+$4.23) [S44][S125]',
  })),
  // 4. Weather extremes.
  ...perIso((iso) => ({
    id: `weather.winterKurtosis.${iso}`,
    scope: 'winters',
    item: 4,
    figure: 'excess kurtosis of DJF daily-mean poptemp anomalies',
    band: WINTER_KURTOSIS[iso],
    source:
      'winter anomalies are fat-tailed where Arctic air arrives rarely (Texas, the Plains, California: Uri 2021, Dec 2022, Jan 2024) ' +
      'and near-Gaussian but not thinner in the Northeast and Midwest, where cold air is frequent (C, NOAA station climatologies)',
  })),
  ...perIso((iso) => ({
    id: `weather.winterSkew.${iso}`,
    scope: 'winters',
    item: 4,
    figure: 'skewness of DJF daily-mean poptemp anomalies',
    band: [-3, -0.1],
    source: 'cold outbreaks make the winter anomaly distribution negatively skewed',
  })),
  {
    id: 'weather.ercotColdestDay',
    scope: 'winters',
    item: 4,
    figure: 'ERCOT coldest daily-mean poptemp over the period (°C)',
    band: [-12, -4],
    source: 'Uri (Feb 2021): Texas population-weighted daily means near −8 °C; Dec 2022 and Jan 2024 near −3 to −6 °C',
  },
  {
    id: 'load.ercotWinterPeak',
    scope: 'winters',
    item: 4,
    figure: 'ERCOT highest Dec–Feb hourly load over the period (GW)',
    band: [72, 82],
    source: 'ERCOT winter peaks 74.5–78 GW (Dec 2022, Jan 2024); Uri demand ~76 GW before shedding [S66][S67]',
  },
  {
    id: 'outage.ercotMax',
    scope: 'winters',
    item: 4,
    figure: 'ERCOT largest daily thermal outage of a Dec–Feb day over the period (GW)',
    band: [10, 35],
    source:
      'the cold response fires: Dec 2022 and Jan 2024 cold ~10–15 GW thermal forced out; a Uri-class event (~28 GW thermal, 46 GW with wind) at the top [S100][S101]',
  },
  {
    id: 'outage.pjmMax',
    scope: 'winters',
    item: 4,
    figure: 'PJM largest daily outage of a Dec–Feb day over the period (GW)',
    band: [30, 50],
    source: 'Elliott: ~46–47 GW forced out; Jan 2024 cold 16 GW [S104][S105]',
  },
  {
    id: 'gas.henryMax',
    scope: 'years',
    item: 4,
    figure: 'Henry Hub daily maximum over the period ($/MMBtu)',
    band: [8, 30],
    source: 'Uri cash ~$24 (Feb 2021); other cold snaps $7–10 [S50]',
  },
  // 5. Load predictability beyond a few days.
  ...perIso((iso) => ({
    id: `load.mape.d1.${iso}`,
    scope: 'sample',
    item: 0,
    figure: 'demand MAPE, optimized, day 1 (%)',
    band: [1.5, 3.5],
    source: 'ISO day-ahead load forecast MAPE 1.5–3.5 % (EIA-930; ISO reports) [S1]',
  })),
  ...perIso((iso) => ({
    id: `load.mape.d7.${iso}`,
    scope: 'sample',
    item: 5,
    figure: 'demand MAPE, optimized, day 7 (%)',
    band: [5, 6.5],
    source: 'load MAPE ladder, day 7 5–6.5 % (C, from EIA lead-time analysis [S4] and temperature error growth)',
  })),
  ...perIso((iso) => ({
    id: `load.mape.d10to14.${iso}`,
    scope: 'sample',
    item: 5,
    figure: 'demand MAPE, optimized, mean of days 10 and 14 (%)',
    band: [6, 9],
    source: 'load MAPE ladder, days 10–15 6–9 % (≈ climatology-driven) (C, [S4])',
  })),
  ...perIso((iso) => ({
    id: `load.mape.normal.${iso}`,
    scope: 'sample',
    item: 5,
    figure: 'demand MAPE, normal (climatology) model (%)',
    band: [7, 10],
    source: '"normal" (climatology) load model 7–10 % year-round (C, [S4])',
  })),
  // 6. Wind.
  ...perIso((iso) => ({
    id: `wind.cf.${iso}`,
    scope: 'years',
    item: 6,
    figure: 'wind capacity factor over the period (%)',
    band: WIND_CF[iso],
    source: 'EIA-923 fleet capacity factors 2023–2024 (US 33.5 %; TX ~34–36 %, NY ~24 %, CA ~30 %) [S91][S92]',
  })),
  {
    id: 'wind.winterCf.ercot',
    scope: 'years',
    item: 6,
    figure: 'ERCOT Dec–Feb wind capacity factor (%)',
    band: [30, 42],
    source: 'ERCOT winter fleet CF ~33–40 % (Dec 2023–Feb 2024) [S80]',
  },
  {
    id: 'wind.winterCf.nyiso',
    scope: 'years',
    item: 6,
    figure: 'NYISO Dec–Feb wind capacity factor (%)',
    band: [22, 34],
    source: 'NYISO winter fleet CF ~28–32 % [S88]',
  },
  {
    id: 'wind.hoursOver80.ercot',
    scope: 'years',
    item: 6,
    figure: 'ERCOT hours a year with fleet wind above 80 % of capacity',
    band: [0, 150],
    source:
      "ERCOT's record wind hours are ~75–80 % of installed capacity [S80]: export-limited West Texas and Panhandle wind is curtailed when it blows hard (~1,500 MW at 50 % of load, ERCOT, 23 March 2016; 3.7 % of wind energy 2017–Q1 2021, BTU Analytics)",
  },
  {
    id: 'wind.peakMonth.caiso',
    scope: 'years',
    item: 6,
    figure: 'CAISO month (1–12) with the highest wind capacity factor',
    band: [4, 7],
    source: 'California wind peaks in late spring/summer (thermal low) [S91][S93]',
  },
  // 7. Negative prices in the right places.
  {
    id: 'price.caisoNegativeMarch',
    scope: 'years',
    item: 7,
    figure: 'CAISO SP15 negative RT hours in March (mean over the years)',
    band: [60, 200],
    source: '105 negative RT hours in March 2023 [S47]',
  },
  {
    id: 'price.caisoNegativeSpring',
    scope: 'years',
    item: 7,
    figure: 'CAISO SP15 negative RT hours March–May (mean over the years)',
    band: [200, 700],
    source: 'hundreds of negative spring hours, peaking April–May middays [S47][S48]',
  },
  {
    id: 'price.sppRtNegative',
    scope: 'years',
    item: 7,
    figure: 'SPP SPPNORTH_HUB share of negative RT hours (%)',
    band: [12, 18],
    source: 'SPP: 15.2 % of RT intervals negative (2024) [S46]',
  },
  {
    id: 'price.sppDaNegative',
    scope: 'years',
    item: 7,
    figure: 'SPP SPPNORTH_HUB share of negative DA hours (%)',
    band: [6, 12],
    source: 'SPP: 9.9 % of DA intervals negative (2024), less than RT [S46]',
  },
  // 8. Shapes and spreads.
  ...perIso((iso) => ({
    id: `price.onOffPeak.${iso}`,
    scope: 'years',
    item: 8,
    figure: `RT on-peak (weekdays 07–22 local) ÷ off-peak mean at ${MAIN_NODE[iso]}`,
    // CAISO's 5×16 block holds the solar midday, priced near zero in spring: on-peak ≈ off-peak.
    band: iso === 'caiso' ? [0.9, 1.4] : [1.2, 1.8],
    source:
      'on-peak ≈ 9–12 × gas vs off-peak 7–9 × gas (docs §3a rule of thumb); PJM/ERCOT 5×16 vs 7×8 ratios 1.2–1.6; ' +
      'CAISO SP15 on-peak within ~10–30 % of off-peak since the solar build-out (CAISO DMM annual reports)',
  })),
  {
    id: 'price.isoneSummer.2024',
    scope: 'years',
    item: 8,
    figure: 'ISO-NE .H.INTERNAL_HUB RT mean Jun–Aug 2024 ($/MWh)',
    band: [30, 45],
    source: 'ISO-NE 2024 monthly RT $31 (Jun), ~$40 (Jul–Aug) [S44]',
  },
  {
    id: 'price.misoShoulder.2024',
    scope: 'years',
    item: 8,
    figure: 'MISO INDIANA.HUB RT mean Apr–May and Sep–Nov 2024 ($/MWh)',
    band: [22, 32],
    source: 'MISO RT $26 (Oct 2024), $22–30 in 2024 shoulder months [S64][S65]',
  },
  {
    id: 'price.ercotWestToNorth.2024',
    scope: 'years',
    item: 8,
    figure: 'ERCOT HB_WEST ÷ HB_NORTH RT mean, 2024',
    band: [0.6, 1.0],
    source: 'HB_WEST trades at a congestion discount to North, not at Waha gas (2024: ~$19–24 vs ~$26) [S49][S124]',
  },
  {
    id: 'price.pjmWest.2024',
    scope: 'years',
    item: 0,
    figure: 'PJM WESTERN HUB RT mean, 2024 ($/MWh)',
    band: [28, 40],
    source: 'PJM RT load-weighted $33.74 (2024) [S40]',
  },
  ...perIso((iso) => ({
    id: `price.withinFloorCap.${iso}`,
    scope: 'sample',
    item: 8,
    figure: "share of hub RT and DA hours within the ISO's [floor, cap] (%)",
    band: [100, 100],
    source: 'offer floors and caps of each market bound its prices (ISO tariffs)',
  })),
  // 9. Load levels.
  ...perIso((iso) => ({
    id: `load.yearsAboveRecord.${iso}`,
    scope: 'years',
    item: 9,
    figure: `years whose peak exceeds the all-time record (${RECORD_PEAK_GW[iso]} GW)`,
    band: [0, 0],
    source: 'record peaks, docs §2a [S60]–[S77]',
  })),
  {
    id: 'load.isoneSummerPeak',
    scope: 'years',
    item: 9,
    figure: 'ISO-NE highest Jun–Aug hourly load over the period (GW)',
    band: [24, 27.5],
    source: 'ISO-NE summer peaks 24.9 GW (2024), 26.6 GW (2025-06-24) [S76][S77]',
  },
  ...perIso((iso) => ({
    id: `load.min.${iso}`,
    scope: 'years',
    item: 9,
    figure: 'minimum hourly load over the period (GW)',
    band: MIN_LOAD_GW[iso],
    source: 'minimum loads, docs §2a (C)',
  })),
  ...perIso((iso) => ({
    id: `load.growth.${iso}`,
    scope: 'years',
    item: 9,
    figure: 'growth of the annual mean load between the first and last full years of the period (%/yr)',
    band: LOAD_GROWTH[iso],
    source: 'EIA-930 annual demand: ERCOT ~+4 %/yr (2023–2025), PJM +1–2 %/yr (data centres), others ~flat',
  })),
  ...perIso((iso) => ({
    id: `load.bridgeDays.${iso}`,
    scope: 'years',
    item: 9,
    figure: 'bridge days (Fri after Thanksgiving, Dec 24/26/31 on weekdays) vs the same weekday ±1–2 weeks (% of load)',
    band: [-9, -3],
    source: 'bridge days behave between a weekday and a holiday (ISO load forecasting practice; docs §6)',
  })),
  ...perIso((iso) => ({
    id: `load.midnightTop40.${iso}`,
    scope: 'sample',
    item: 0,
    figure: 'of the 40 largest hour-to-hour changes of actual demand (per year), how many fall at 00:00 local',
    band: [0, 4],
    source: 'real load changes most in the morning pickup and evening ramps (issue 22; EIA-930 hourly demand)',
  })),
  ...perIso((iso) => ({
    id: `load.midnightStep.${iso}`,
    scope: 'sample',
    item: 0,
    figure: "largest step at 00:00 beyond the night's own movement (|Δ00| − max |Δ23|, |Δ01|) ÷ typical morning pickup",
    band: [-Infinity, 1],
    source: "day types and holidays arrive through the night's shape, never as a jump at midnight (issue 22)",
  })),
  // Scarcity where it belongs (issue 22).
  {
    id: 'price.ercotAutumnDaMean',
    scope: 'years',
    item: 0,
    figure: 'ERCOT HB_NORTH DA mean over October–November, the highest of the years ($/MWh)',
    band: [-Infinity, 60],
    source:
      'autumn is mild and well supplied: ERCOT North DA ~$25–45 in Oct–Nov 2023–2024 (Potomac SOM); prices near the cap need a grid-wide emergency (Uri, Elliott) [S43]',
  },
  {
    id: 'price.ercotAutumnDaHoursOver500',
    scope: 'years',
    item: 0,
    figure: 'ERCOT HB_NORTH DA hours above $500 in October–November, the most of the years',
    band: [0, 9],
    source: 'fewer than 10 hours a year: no autumn scarcity outside emergencies (issue 22) [S43]',
  },
  ...(['pjm', 'miso', 'spp', 'ercot'] as const).map((iso): Target => ({
    id: `price.daysDaOver1000.${iso}`,
    scope: 'years',
    item: 0,
    figure: `days a year with any ${MAIN_NODE[iso]} DA hour ≥ $1,000 (mean over full years)`,
    band: iso === 'ercot' ? [1, 12] : [0, 2],
    source:
      iso === 'ercot'
        ? 'a handful a year: the summer-evening scarcity of 2023 (August–September) and a few tight days since, under the $5,000 cap (ERCOT SOM 2023–2024) [S43][S115] (C: no public count)'
        : iso === 'pjm'
          ? 'rare outside Elliott-like events: energy offers are capped at $1,000 (cost-verified to $2,000, FERC Order 831); on the record heat of 23 June 2025 (160 GW) next-day West Hub power traded near $211/MWh (Reuters, 23 June 2025) while real time reached $1,500–2,100 in the hottest hours (FactSet Insight, July 2025); in Elliott the day-ahead load forecast ran ~8 % under the peak, so the day-ahead did not clear at emergency prices (PJM Winter Storm Elliott report, July 2023) [S40] (C: no public count)'
          : iso === 'miso'
            ? "rare outside Elliott-like events: MISO's summer 2025 averaged 46 GW of generation outages a day (summer 2024: 31 GW) with load above 100 GW for more than 750 hours, and brought a single maximum generation emergency (23 June: ~121 GW available against a ~121 GW forecast, real time ~$325 at 1 p.m.; RTO Insider, 'MISO Declares Max Gen Emergency in Heat Wave', June 2025, and 'MISO Recounts Tough Summer', September 2025); day-ahead offers are capped at $1,000 (+ verified cost to $2,000, FERC Order 831) [S105] (C: no public count)"
            : "rare outside Elliott-like events: day-ahead offers are capped at $1,000 (+ verified cost to $2,000, FERC Order 831) and clear that high only in system emergencies (market monitors' annual reports) [S105] (C: no public count)",
  })),
  // Demand shape: published monthly means and annual peaks (issue 22).
  ...DEMAND_FIGURES.map((f): Target => {
    const tol = DEMAND_FIGURE_TOLERANCE[f.stat];
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      id: demandFigureId(f),
      scope: 'years',
      item: 0,
      figure: f.stat === 'peak' ? `peak hourly demand of ${f.period} (GW)` : `mean hourly demand of ${f.period.replace('..', ' to ')} (GW)`,
      band: [round(f.gw * (1 - tol)), round(f.gw * (1 + tol))],
      source: `${f.gw} GW ±${tol * 100} %: ${f.source}`,
    };
  }),
];

export type Verdict = 'in band' | 'LOW' | 'HIGH' | 'n/a';

export function verdictOf(value: number | undefined, band: readonly [number, number]): Verdict {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  if (value < band[0]) return 'LOW';
  if (value > band[1]) return 'HIGH';
  return 'in band';
}

export function formatBand(band: readonly [number, number]): string {
  const [lo, hi] = band;
  if (lo === hi) return `= ${lo}`;
  if (hi === Infinity) return `≥ ${lo}`;
  if (lo === -Infinity) return `≤ ${hi}`;
  return `${lo} – ${hi}`;
}
