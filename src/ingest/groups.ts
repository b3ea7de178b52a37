/**
 * What an ingest may hold per target group (`--group`): its metrics, the option that names the
 * metric, and which target ids it accepts.
 *
 * - region: the catalog's region ids only (`<iso>_total` and the zones): regions are the ISO's,
 *   an unknown id is refused with the list.
 * - plant: any id. A synthetic catalog plant's id is that plant; any other id is one of the
 *   source's own plants, defined by the ingest (its name, capacity and coordinates come from
 *   `--catalog FILE`, else it is known by its id alone).
 * - lmp (`--type dalmp|rtlmp`): any node id, the same way (the catalog's nodes, or own nodes).
 *
 * - gas: any hub id, the same way (the catalog's hubs, or own hubs); no ISO (gas is served to
 *   every ISO's subscribers); daily values, one per gas day at its first hour (midnight Central).
 *
 * Regions and LMPs take actuals too (served by their /actual?source=). Plants and gas are forecasts
 * only: the API has no /actual for them (as the public service), so a file of actuals for them is
 * refused rather than stored where nothing serves it.
 *
 * Daily metrics (gas prices, regions' outage) hold one value per local day, at the day's first
 * hour (how their daily frames label a day), so a value at another hour is a bad row; an actual
 * without a publication time is known once its day has ended.
 */
import { ISO_CODES, ISOS, type IsoCode } from '../catalog/isos.ts';
import { metricsOf, METRICS, type MetricName } from '../catalog/metrics.ts';
import { regionIdsOf } from '../catalog/regions.ts';
import { GAS_TIMEZONE } from '../catalog/gasHubs.ts';
import { formatUtcHour } from '../time/hours.ts';
import { localDateOfHour, localDayStartHour } from '../time/zones.ts';
import { knownAtRule } from './knownAt.ts';
import { optionError } from './observations.ts';

export const INGEST_GROUPS = ['region', 'plant', 'lmp', 'gas'] as const;
export type IngestGroup = (typeof INGEST_GROUPS)[number];

interface GroupRules {
  /** The option naming the series' metric: `--metric`, or `--type` for LMP. */
  metricOption: 'metric' | 'type';
  /** The metrics of the group (files hold hourly values; a daily metric's one per local day, see `days`). */
  metrics: readonly MetricName[];
  /** Ids outside the synthetic catalog define the source's own targets (and --catalog describes them). */
  ownTargets: boolean;
  /** The group has an /actual endpoint, so a file of actuals can be served. */
  actuals: boolean;
  /** Why `id` is not a target of the group in `iso`, or null when it is. */
  refuse(iso: IsoCode): (id: string) => string | null;
  /** The group's fixed ids in `iso` (regions), which a wide file's columns may be named by without --column. */
  ids?(iso: IsoCode): readonly string[];
  /** The group is not tied to an ISO (gas): no --iso, its series are stored with the ISO ''. */
  noIso?: true;
  /** The metric when the group has only one (gas). */
  defaultMetric?: MetricName;
  /** The days of a daily metric's values: their zone (the ISO's, or gas days'), and how messages name them. */
  days?(iso: IsoCode, metric: string): DailyValues;
}

const hourly = (metrics: readonly MetricName[]) => metrics.filter((m) => METRICS[m].cadence === 'hourly');

/** How an ingest places the values of one series in time: hourly, or one per local day of a zone. */
export interface SeriesDays {
  /** Why a valid hour cannot hold a value (a daily metric's: not a day's first hour), or null. */
  refuseHour?(hour: number): string | null;
  /** When an actual without a publication time became known (ms): the end of its hour, or of its day. */
  knownAt(timeMs: number): number;
  /** The zone of a daily series' local days (absent: hourly); knownAt is knownAtRule(dayZone). */
  dayZone?: string;
}

const HOURLY: SeriesDays = { knownAt: knownAtRule(undefined) };

/** Where a daily metric's values lie: local days of `zone`; `day` and `daily` name them in messages. */
interface DailyValues {
  zone: string;
  day: string;
  daily: string;
}

/** A daily series: one value per local day, at the day's first hour. */
function dailySeries({ zone, day, daily }: DailyValues): SeriesDays {
  const dayStart = (hour: number) => localDayStartHour(zone, localDateOfHour(zone, hour));
  return {
    refuseHour: (hour) =>
      dayStart(hour) === hour ? null : `${formatUtcHour(hour)} is not the start of a ${day} (midnight ${zone}): ${daily}`,
    knownAt: knownAtRule(zone),
    dayZone: zone,
  };
}

/** How values of `metric` in a group's series are placed in time (after groupRules has checked the options). */
export function seriesDays(rules: GroupRules, iso: string, metric: string): SeriesDays {
  if (METRICS[metric as MetricName].cadence === 'hourly') return HOURLY;
  const days = rules.days?.(iso as IsoCode, metric);
  if (days === undefined) throw new Error(`no days for the daily metric ${metric}`);
  return dailySeries(days);
}

/** An own target's id: what an analyst's file may reasonably use as a name, nothing that breaks a CSV or a log line. */
function isOwnId(id: string): boolean {
  if (id.length < 1 || id.length > 100) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || id[i] === ',' || id[i] === '"') return false;
  }
  return true;
}

function anyOwnId(group: string) {
  return () => (id: string) =>
    isOwnId(id) ? null : `id: '${id.slice(0, 60)}' is not a ${group} id (1 to 100 characters, no comma, quote or control character)`;
}

export const GROUP_RULES: Record<IngestGroup, GroupRules> = {
  region: {
    metricOption: 'metric',
    metrics: metricsOf('region'),
    ownTargets: false,
    actuals: true,
    days: (iso, metric) => ({ zone: ISOS[iso].timezone, day: `local day in ${iso}`, daily: `${metric} is daily, one value per local day` }),
    ids: (iso) => regionIdsOf(iso),
    refuse: (iso) => {
      const ids = regionIdsOf(iso);
      const known = new Set(ids);
      return (id) => (known.has(id) ? null : `id: unknown region '${id.slice(0, 60)}' in ${iso} (${ids.join(', ')})`);
    },
  },
  plant: { metricOption: 'metric', metrics: hourly(metricsOf('plant')), ownTargets: true, actuals: false, refuse: anyOwnId('plant') },
  lmp: { metricOption: 'type', metrics: hourly(metricsOf('lmp')), ownTargets: true, actuals: true, refuse: anyOwnId('price node') },
  gas: {
    metricOption: 'metric',
    metrics: metricsOf('gas'),
    defaultMetric: 'gas_price',
    ownTargets: true,
    actuals: false,
    noIso: true,
    refuse: anyOwnId('gas hub'),
    days: () => ({ zone: GAS_TIMEZONE, day: 'gas day', daily: 'gas prices are daily, one per gas day' }),
  },
};

/** The rules of a group's name, when it is one. */
export function rulesOf(group: string): GroupRules | undefined {
  return (INGEST_GROUPS as readonly string[]).includes(group) ? GROUP_RULES[group as IngestGroup] : undefined;
}

/** The rules of the group an ingest names, after checking its group, ISO and metric options. */
export function groupRules(group: string, iso: string, metric: string): GroupRules {
  const rules = rulesOf(group);
  if (!rules) throw optionError('group', `--group must be one of ${INGEST_GROUPS.join(', ')} (got '${group}')`);
  if (rules.noIso) {
    if (iso !== '') throw optionError('iso', `--group ${group} takes no --iso: gas hubs are not tied to an ISO (got '${iso}')`);
  } else if (!(ISO_CODES as readonly string[]).includes(iso)) {
    throw optionError('iso', `--iso must be one of ${ISO_CODES.join(', ')} (got '${iso}')`);
  }
  if (!(rules.metrics as readonly string[]).includes(metric)) {
    throw optionError(
      rules.metricOption,
      `--${rules.metricOption} must be one of ${rules.metrics.join(', ')} for --group ${group} (got '${metric}')`,
    );
  }
  return rules;
}
