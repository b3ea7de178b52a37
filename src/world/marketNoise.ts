/**
 * What markets add to the formation of their inputs, which no forecast can know: deterministic
 * from the world seed, the ISO and the hour (smooth value noise, never sequential state, so any
 * window of hours gives the same values).
 *
 * - Day-ahead: the clearing is one realisation of the net-load uncertainty the forecasts take an
 *   expectation over (so a tight day clears with or without scarcity, and its forecast is
 *   uncertain), times a persistent market factor (bidding, virtual trading, unit commitment)
 *   that grows with tightness.
 * - Real-time: deviations from the formation of the true inputs that persist for hours (5-minute
 *   ramps, dispatch, interchange) and grow with tightness, plus runs of spikes that come mostly
 *   in tight hours — so they are partly forecastable from a forecast of reserves.
 *
 * Sizes: day-ahead price forecasts of the main hubs miss by 10–20 % MAPE a day ahead (Weron 2014,
 * Int. J. Forecasting 30:1030; Lago et al. 2021, Applied Energy 293:116983: MAE of the best
 * models on the PJM/Nord Pool benchmarks ≈ 10–15 % of the mean price); real-time − day-ahead
 * spreads at hubs have hour-to-hour autocorrelation ~0.5–0.7 (hourly RT and DA LMPs of ERCOT
 * and PJM).
 */
import { isoNumber, type IsoCode } from '../catalog/isos.ts';
import { gaussianish, seedOf, valueNoise1, VALUE_NOISE1_SD } from './hash.ts';
import { LMP_PARAMS } from './lmp.ts';

const DA_SEED = seedOf('gridcast/world/lmp/da/v2');
const RT_SEED = seedOf('gridcast/world/lmp/rt/v2');

/** Hours between the lattice points of each noise (its persistence). */
const DA_DRAW_HOURS = 6;
const DA_FACTOR_HOURS = 4;
const RT_DEVIATION_HOURS = 3;
const RT_SPIKE_HOURS = 3;

/** ~N(0, 1), smooth over `hours`. */
function smoothNormal(seed: number, stream: number, hour: number, hours: number): number {
  return valueNoise1(seed, stream, hour / hours) / VALUE_NOISE1_SD;
}

/**
 * The day-ahead clearing's realisation of net-load uncertainty, in SDs (ISO-wide): the market's
 * own view differs from the run by less than the run's full error (SD 0.8).
 */
export function dayAheadDraw(iso: IsoCode, hour: number): number {
  return DA_DRAW_SD * smoothNormal(DA_SEED, isoNumber(iso), hour, DA_DRAW_HOURS);
}
const DA_DRAW_SD = 0.8;

/** Persistent day-ahead market factor: the share of the price, 12 % typical, more when tight. */
const DA_FACTOR = 0.12;

/**
 * Risk premium of tight day-ahead hours, as a share of the ISO's cap at tightness 1 ($150 under
 * ERCOT's $5,000): buyers pay up to hedge the real-time spikes that tight hours bring (they scale
 * with the cap), so DA − RT stays small and positive on average. It grows with the square of the
 * tightness: the spikes it hedges come in the few truly tight hours, and a premium linear in
 * tightness ($12–24 on every ERCOT evening with 15–20 GW of reserves) put ERCOT's DA − RT at +$5.
 */
const DA_RISK_SHARE_OF_CAP = 0.03;

/** The day-ahead clearing from the realised formation `price` of an hour with tightness `tight` (0…1). */
export function dayAheadClearing(iso: IsoCode, price: number, hour: number, tight: number): number {
  const f = DA_FACTOR * (1 + 2 * tight) * smoothNormal(DA_SEED, 100 + isoNumber(iso), hour, DA_FACTOR_HOURS);
  return price + Math.abs(price) * f + DA_RISK_SHARE_OF_CAP * LMP_PARAMS[iso].cap * tight * tight;
}

/** Real-time deviation: a share of the price plus $/MWh, both growing with tightness. */
const RT_SHARE = 0.08;
const RT_USD = 1.5;
const RT_TIGHT_GAIN = 2.5;
/** Spikes: the spike noise's threshold in calm hours and how much tightness lowers it; size in $/MWh per SD. */
const SPIKE_THRESHOLD = 3.3;
const SPIKE_TIGHT_DROP = 6;
const SPIKE_USD_PER_SD = 200;
const SPIKE_MIN_USD = 60;

/**
 * Real-time truth from the formation `price` of the true inputs of an hour with tightness
 * `tight` (0…1) and an upward net-load ramp of `rampShare` of demand over the hour before (it
 * makes spikes likelier where the ISO sets rtRampSpikes). `stream` separates nodes' own share
 * of the deviation.
 */
export function realTimePrice(iso: IsoCode, price: number, hour: number, tight: number, stream: number, rampShare = 0): number {
  const isoIndex = isoNumber(iso);
  const gain = 1 + RT_TIGHT_GAIN * tight;
  const common = smoothNormal(RT_SEED, isoIndex, hour, RT_DEVIATION_HOURS);
  const own = smoothNormal(RT_SEED, 1000 + stream, hour, RT_DEVIATION_HOURS);
  const fast = gaussianish(RT_SEED, 4000 + isoIndex, hour);
  let rt = price + gain * (Math.abs(price) * RT_SHARE + RT_USD) * (0.85 * common + 0.4 * own + 0.3 * fast);
  const spike = smoothNormal(RT_SEED, 2000 + isoIndex, hour, RT_SPIKE_HOURS);
  const ramps = LMP_PARAMS[iso].rtRampSpikes;
  const rampDrop = ramps ? ramps.drop * Math.min(1, Math.max(0, rampShare / ramps.share - 1)) : 0;
  const threshold = Math.max(0.3, SPIKE_THRESHOLD - SPIKE_TIGHT_DROP * tight - rampDrop);
  if (spike > threshold) rt += SPIKE_MIN_USD + SPIKE_USD_PER_SD * (spike - threshold) * (1 + tight);
  return Math.min(LMP_PARAMS[iso].cap, rt);
}
