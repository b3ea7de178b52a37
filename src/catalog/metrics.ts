/**
 * The metric registry: every quantity the service serves, with its unit, the decimals it is
 * written with, its cadence, the groups (endpoint families) that serve it and the kinds of
 * model that produce it. Queries, routes (metric enums and their descriptions), OpenAPI, the
 * ISO summary and the realism report all read this table, so adding a metric is one entry
 * here plus its computation (README: "How to add a metric").
 *
 * Data only: no computation lives here.
 */
import type { PlantType } from './types.ts';

/** Decimal places per unit: finer than any real meter or forecast resolves. */
export const UNIT_DECIMALS = {
  MW: 1,
  '%': 1,
  '°C': 2,
  'USD/MWh': 2,
  '$/MMBtu': 3,
} as const;
export type Unit = keyof typeof UNIT_DECIMALS;

/**
 * Other spellings and units a file may give its values in, per unit served: a value `v` in the
 * file's unit is `v * scale + offset` in the served one. An hourly value in MWh is the hour's
 * average MW (EIA-930 and the EIA API report hourly demand in "megawatthours"). A unit of another
 * quantity (a price in MW) has no entry: it is refused.
 */
export const UNIT_CONVERSIONS: Record<Unit, Record<string, { scale: number; offset?: number }>> = {
  MW: { MW: { scale: 1 }, GW: { scale: 1000 }, kW: { scale: 0.001 }, MWh: { scale: 1 }, megawatthours: { scale: 1 } },
  '%': { '%': { scale: 1 }, percent: { scale: 1 } },
  '°C': {
    '°C': { scale: 1 },
    C: { scale: 1 },
    degC: { scale: 1 },
    '°F': { scale: 5 / 9, offset: -160 / 9 },
    F: { scale: 5 / 9, offset: -160 / 9 },
  },
  'USD/MWh': { 'USD/MWh': { scale: 1 }, '$/MWh': { scale: 1 } },
  '$/MMBtu': { '$/MMBtu': { scale: 1 }, 'USD/MMBtu': { scale: 1 } },
};

/** The endpoint families: /region (and its /ensemble and /summary), /plant, /cells, /county, /lmp, /gas. */
export type MetricGroup = 'region' | 'ensemble' | 'summary' | 'plant' | 'cells' | 'county' | 'lmp' | 'gas';

/** The time-series request kinds. */
export type RequestKind = 'forecast' | 'continuous' | 'actual' | 'backcast';

/** Which request kinds each time-series group serves (for every one of its metrics). */
export const GROUP_KINDS = {
  region: ['forecast', 'continuous', 'actual', 'backcast'],
  plant: ['forecast', 'continuous', 'backcast'],
  cells: ['forecast', 'continuous', 'backcast'],
  county: ['forecast', 'continuous'],
  lmp: ['forecast', 'continuous', 'actual'],
  gas: ['forecast', 'continuous', 'backcast'],
} as const satisfies Partial<Record<MetricGroup, readonly RequestKind[]>>;

/**
 * The kinds of model a metric is produced by: `deterministic` (optimized and iso, models/
 * forecastModels.ts), `normal` (climatology, regional forecasts only) and `ensemble`
 * (models/ensembleModels.ts, the /ensemble endpoint).
 */
export type ModelFamily = 'deterministic' | 'normal' | 'ensemble';

/**
 * How the realism report scores a regional metric's forecasts against actuals: MAPE, MAE
 * normalised by installed capacity (over daylight hours only for solar), or MAE in the unit.
 */
export type ErrorMeasure = 'mape' | 'nmae' | 'nmae_daylight' | 'mae';

export interface MetricSpec {
  unit: Unit;
  /** hourly: one row per hour (period-beginning); daily: one row per local day at local midnight. */
  cadence: 'hourly' | 'daily';
  /** What the values are, for the API documentation (unit and cadence are added from the fields above). */
  description: string;
  groups: readonly MetricGroup[];
  models: readonly ModelFamily[];
  /** Plant metrics: the plant type whose plants carry it. */
  plantType?: PlantType;
  /** Regional metrics: how the realism report scores them. */
  errorMeasure?: ErrorMeasure;
}

/** Every metric; within a group, metrics are listed (enums, summary columns) in this order. */
export const METRICS = {
  demand: {
    unit: 'MW',
    cadence: 'hourly',
    description: 'electricity demand',
    groups: ['region', 'ensemble', 'summary', 'cells', 'county'],
    models: ['deterministic', 'normal', 'ensemble'],
    errorMeasure: 'mape',
  },
  wind: {
    unit: 'MW',
    cadence: 'hourly',
    description: 'wind output',
    groups: ['region', 'ensemble', 'summary', 'plant', 'cells'],
    models: ['deterministic', 'normal', 'ensemble'],
    plantType: 'wind',
    errorMeasure: 'nmae',
  },
  solar: {
    unit: 'MW',
    cadence: 'hourly',
    description: 'solar output',
    groups: ['region', 'ensemble', 'summary', 'plant', 'cells'],
    models: ['deterministic', 'normal', 'ensemble'],
    plantType: 'solar',
    errorMeasure: 'nmae_daylight',
  },
  outage: {
    unit: 'MW',
    cadence: 'daily',
    description: 'planned + forced generation outages',
    groups: ['region', 'summary'],
    models: ['deterministic', 'normal'],
    errorMeasure: 'mae',
  },
  poptemp: {
    unit: '°C',
    cadence: 'hourly',
    description: 'population-weighted temperature',
    groups: ['region', 'ensemble', 'summary'],
    models: ['deterministic', 'normal', 'ensemble'],
    errorMeasure: 'mae',
  },
  wind_icing: {
    unit: '%',
    cadence: 'hourly',
    description: 'icing risk of the turbines',
    groups: ['plant'],
    models: ['deterministic'],
    plantType: 'wind',
  },
  solar_snow: {
    unit: '%',
    cadence: 'hourly',
    description: 'risk of snow on the panels',
    groups: ['plant'],
    models: ['deterministic'],
    plantType: 'solar',
  },
  dalmp: {
    unit: 'USD/MWh',
    cadence: 'hourly',
    description: 'day-ahead locational marginal price',
    groups: ['lmp', 'summary'],
    models: ['deterministic'],
  },
  rtlmp: {
    unit: 'USD/MWh',
    cadence: 'hourly',
    description: 'real-time locational marginal price',
    groups: ['lmp'],
    models: ['deterministic'],
  },
  gas_price: {
    unit: '$/MMBtu',
    cadence: 'daily',
    description: 'natural gas price at the hub',
    groups: ['gas'],
    models: ['deterministic'],
  },
} as const satisfies Record<string, MetricSpec>;

export type MetricName = keyof typeof METRICS;

/** The metrics a group serves, as a type: MetricsOf<'region'> is 'demand' | 'wind' | …. */
export type MetricsOf<G extends MetricGroup> = {
  [M in MetricName]: G extends (typeof METRICS)[M]['groups'][number] ? M : never;
}[MetricName];

/** The metrics a group serves, in registry order. */
export function metricsOf<G extends MetricGroup>(group: G): readonly MetricsOf<G>[] {
  return (Object.keys(METRICS) as MetricName[]).filter((m) =>
    (METRICS[m].groups as readonly MetricGroup[]).includes(group),
  ) as MetricsOf<G>[];
}

/** The spec of a metric (widened to MetricSpec, for optional fields). */
export function metricSpec(metric: MetricName): MetricSpec {
  return METRICS[metric];
}

export function unitOf(metric: MetricName): Unit {
  return METRICS[metric].unit;
}

export function decimalsOf(metric: MetricName): number {
  return UNIT_DECIMALS[METRICS[metric].unit];
}

/**
 * `metric (what it is, unit[, daily …])` for each metric, joined: the text of a metric enum's
 * documentation, e.g. "demand (electricity demand, MW), …".
 */
export function describeMetrics(metrics: readonly MetricName[]): string {
  return metrics
    .map((m) => {
      const s = METRICS[m];
      const daily = s.cadence === 'daily' ? ', daily: one value per local day at local midnight' : '';
      return `${m} (${s.description}, ${s.unit}${daily})`;
    })
    .join(', ');
}

/** "demand, wind and solar in MW, poptemp in °C": the units of a mixed response, in registry order. */
export function describeUnits(metrics: readonly MetricName[]): string {
  const byUnit = new Map<Unit, MetricName[]>();
  for (const m of metrics) byUnit.set(METRICS[m].unit, [...(byUnit.get(METRICS[m].unit) ?? []), m]);
  const list = (names: readonly string[]) =>
    names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  return [...byUnit].map(([unit, names]) => `${list(names)} in ${unit}`).join(', ');
}
