/**
 * Climatology of the synthetic world: the normal state of the weather at a point by
 * season and time of day. Numbers are fitted by hand to US normals (see
 * docs/realism-targets.md §1d, §2c, §5, §6): annual mean temperature falls with latitude,
 * seasonal swings grow inland and northward and shrink on the Pacific coast; hub-height
 * wind is strongest on the Great Plains, peaks in spring and at night there; skies are
 * clearest in the desert Southwest.
 */
import { STANDARD_PRESSURE_PA } from './physics/atmosphere.ts';
import { logistic } from '../util/math.ts';
const DEG = Math.PI / 180;

export interface PointClimate {
  lat: number;
  lon: number;
  elevationM: number;
  pressurePa: number;
  /** Annual mean 2 m temperature, °C. */
  tempMean: number;
  /** Seasonal cycle as a phasor on (cos, sin) of the year angle, °C. */
  tempSeasonCos: number;
  tempSeasonSin: number;
  /** Half the mean daily temperature range, °C (before cloud damping). */
  tempDiurnalHalfRange: number;
  /** Diurnal phasor for the local solar hour of the warmest time (about 15:00). */
  diurnalCos: number;
  diurnalSin: number;
  /** Standard deviation of synoptic temperature anomalies, yearly mean, °C. */
  tempAnomalySd: number;
  /** Mean hub-height (100 m) wind speed, m/s. */
  windMean: number;
  /** Relative seasonal swing of wind speed (peak in spring on the plains). */
  windSeasonCos: number;
  windSeasonSin: number;
  /** Relative day/night swing of hub-height wind (low-level jet: windier at night). */
  windDiurnalCos: number;
  windDiurnalSin: number;
  /** Logit of the mean cloud cover, and its seasonal phasor. */
  cloudLogit: number;
  cloudSeasonCos: number;
  cloudSeasonSin: number;
}

function gauss(x: number, centre: number, width: number): number {
  const d = (x - centre) / width;
  return Math.exp(-d * d);
}

/** Rough terrain height: the plains rise westward to the Rockies; the Mojave is high desert. */
export function elevationM(lat: number, lon: number): number {
  if (lon < -114) {
    const desert = lat < 36 && lon > -118.6 ? 1 : 0;
    return 80 + 720 * desert;
  }
  if (lon < -95 && lon > -106) return Math.min(1400, Math.max(0, (-lon - 95) * 150));
  if (lat > 37 && lat < 41 && lon > -81 && lon < -77) return 500; // Appalachian ridges
  return 200;
}

/** Distance inland from the California coast, in degrees of longitude (negative offshore). */
function californiaInland(lat: number, lon: number): number {
  const coastLon = -117.1 - (lat - 32.5) * 0.9;
  return lon - coastLon;
}

/** Phasor of a yearly cycle peaking on day-of-year `peakDoy`. */
function seasonPhasor(amplitude: number, peakDoy: number): [number, number] {
  const a = (2 * Math.PI * peakDoy) / 365.25;
  return [amplitude * Math.cos(a), amplitude * Math.sin(a)];
}

/** Phasor of a daily cycle peaking at local solar hour `peakHour`, expressed against UTC hours. */
function diurnalPhasor(amplitude: number, peakHourLocalSolar: number, lon: number): [number, number] {
  // Local solar hour = UTC hour + lon/15, so the peak in UTC is peak − lon/15.
  const a = (2 * Math.PI * (peakHourLocalSolar - lon / 15)) / 24;
  return [amplitude * Math.cos(a), amplitude * Math.sin(a)];
}

export function pointClimate(lat: number, lon: number): PointClimate {
  const dl = lat - 25;
  const elev = elevationM(lat, lon);
  const marine = lon < -114 ? Math.exp(-Math.max(0, californiaInland(lat, lon)) / 0.5) : 0;
  const interior = gauss(lon, -96, 12);
  const desert = lon < -100 && lat < 37 ? 1 : lon < -100 ? 0.5 : 0;

  const tempMean = 25 - 0.75 * dl - 0.006 * dl * dl - 0.0045 * Math.max(0, elev - 300) + 1.5 * marine;
  const seasonAmp = (5 + 0.45 * dl + 2.5 * interior) * (1 - 0.55 * marine);
  const [tsc, tss] = seasonPhasor(seasonAmp, 201 + 25 * marine);
  const diurnalHalf = (4.5 + 2.5 * desert + 1.0 * interior) * (1 - 0.5 * marine);
  const [dc, ds] = diurnalPhasor(1, 15, lon);
  const anomalySd = (2.2 + 0.13 * dl + 0.6 * interior) * (1 - 0.5 * marine);

  // Wind: Great Plains corridor from Texas to the Dakotas, with California's passes,
  // the Great Lakes and the Appalachian and New England ridges as lesser maxima.
  const plains = gauss(lon, -100, 4.5) * (lat > 30 && lat < 49 ? 1 : 0.4);
  const passes = Math.max(gauss(lat, 35.05, 0.35) * gauss(lon, -118.3, 0.5), gauss(lat, 38.0, 0.4) * gauss(lon, -121.7, 0.4));
  const lakes = gauss(lat, 42.5, 2.5) * gauss(lon, -86, 6);
  const northeast = gauss(lat, 44, 2.5) * gauss(lon, -72, 5);
  const newEngland = gauss(lat, 44.5, 2) * gauss(lon, -70, 2.5);
  const southeast = lat < 36 && lon > -95 ? 1 : 0;
  // The southern plains (Texas) are less windy than Kansas–Dakotas: ERCOT's fleet runs at
  // ~34–36 % a year against SPP's ~38–40 % (EIA 923 state capacity factors, 2023–2024).
  const southernPlains = plains * Math.min(1, Math.max(0, (35 - lat) / 4));
  const windMean = 5.1 + 2.2 * plains - 0.7 * southernPlains + 2.2 * passes + 0.8 * lakes + 0.5 * newEngland - 0.6 * southeast;
  // Seasons: the interior fleets are windiest in March–April and calmest in August–September
  // (US fleet CF ~40 % in spring, ~25 % in late summer), Texas with a flatter year (coastal
  // and low-level-jet summer winds); California's wind is driven by the summer thermal low over
  // the deserts, so its passes peak May–July and are calmest in November–January (CAISO).
  const california = logistic((-114.5 - lon) / 0.4);
  const interiorAmp = 0.17 - 0.12 * southernPlains;
  const [wsc, wss] = seasonPhasor(interiorAmp * (1 - california) + 0.22 * california, 80 * (1 - california) + 170 * california);
  const [wdc, wds] = diurnalPhasor(0.13 * plains + 0.05 - 0.1 * passes, 2 + 16 * passes, lon);

  const cloudLogit = -0.3 - 1.6 * desert - 0.6 * marine + 0.4 * lakes + 0.3 * northeast;
  // Winters are cloudier in the north and around the lakes; California summers are clear.
  const [csc, css] = seasonPhasor(-(0.25 + 0.3 * lakes + 0.6 * marine + 0.4 * desert), 190);

  return {
    lat,
    lon,
    elevationM: elev,
    pressurePa: STANDARD_PRESSURE_PA * Math.exp(-elev / 8_400),
    tempMean,
    tempSeasonCos: tsc,
    tempSeasonSin: tss,
    tempDiurnalHalfRange: diurnalHalf,
    diurnalCos: dc,
    diurnalSin: ds,
    tempAnomalySd: anomalySd,
    windMean,
    windSeasonCos: wsc,
    windSeasonSin: wss,
    windDiurnalCos: wdc,
    windDiurnalSin: wds,
    cloudLogit,
    cloudSeasonCos: csc,
    cloudSeasonSin: css,
  };
}

/** Per-hour terms shared by all points: phase of the year and of the UTC day. */
export interface HourPhase {
  seasonCos: number;
  seasonSin: number;
  dayCos: number;
  daySin: number;
}

/** Epoch hour of 2000-01-01T00Z; the year angle counts from there. */
const YEAR_ZERO_HOUR = 262_968;
const HOURS_PER_YEAR = 365.2425 * 24;

export function hourPhase(hourFloat: number, out: HourPhase): void {
  const ya = (2 * Math.PI * (hourFloat - YEAR_ZERO_HOUR)) / HOURS_PER_YEAR;
  out.seasonCos = Math.cos(ya);
  out.seasonSin = Math.sin(ya);
  const da = (2 * Math.PI * hourFloat) / 24;
  out.dayCos = Math.cos(da);
  out.daySin = Math.sin(da);
}

export { DEG };
