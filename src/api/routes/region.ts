/** The region group: /region/{iso}/{metric}/… (access level: core; backcast: enterprise). */
import type { IsoCode } from '../../catalog/isos.ts';
import type { ForecastModelName } from '../../models/forecastModels.ts';
import { REGION_METRICS, regionActual, regionBackcast, regionContinuous, regionForecast, regionList, type RegionMetric } from '../../query/regions.ts';
import type { ParamSpec } from '../params.ts';
import type { RouteDef } from '../route.ts';
import {
  DAYS_AHEAD_PARAM,
  END_PARAM,
  FORECASTED_BY_PARAM,
  ID_PARAM,
  ISO_PARAM,
  LATEST_HOUR_PARAM,
  MODEL_PARAM,
  START_PARAM,
  requestInstant,
} from './common.ts';

const METRIC_PARAM: ParamSpec = {
  name: 'metric',
  in: 'path',
  kind: 'enum',
  values: REGION_METRICS,
  required: true,
  description:
    'Forecast metric type: demand (MW), wind or solar output (MW, the sum of the region\'s plants), poptemp ' +
    '(population-weighted temperature, °C).',
};

const target = (params: Record<string, unknown>) => ({
  iso: params.iso as IsoCode,
  metric: params.metric as RegionMetric,
  id: params.id as string | undefined,
});

export const regionRoutes: RouteDef[] = [
  {
    path: '/region/{iso}/{metric}/list',
    name: 'list_regions',
    summary: 'List Regions',
    description: 'The ISO total (`<iso>_total`) and its zones (`<iso>_<zone>`).',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM],
    response: { kind: 'records', schema: 'Region' },
    handle: ({ params }) => regionList(params.iso as IsoCode),
  },
  {
    path: '/region/{iso}/{metric}/forecast',
    name: 'forecast',
    summary: 'Get Regional Forecast',
    description:
      'The most recent forecast run for one or all regions of the ISO, or with forecasted_by the latest run created at or ' +
      'before that instant (history from the runs for 2026-01-01).',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM, FORECASTED_BY_PARAM, MODEL_PARAM, ID_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      regionForecast(world, {
        ...target(params),
        model: params.model as ForecastModelName,
        forecastedBy: requestInstant(params.forecasted_by, raw.forecasted_by),
        nowMs,
      }),
  },
  {
    path: '/region/{iso}/{metric}/continuous',
    name: 'continuous',
    summary: 'Get Continuous Forecast',
    description:
      'Stitches forecast runs into one series: for every local day D of the window, the latest run created at or before ' +
      '(D − days_ahead) at latest_hour:00 local time, cut to the hours of D (23 or 25 on DST days).',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM, START_PARAM, END_PARAM, ID_PARAM, MODEL_PARAM, LATEST_HOUR_PARAM, DAYS_AHEAD_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      regionContinuous(world, {
        ...target(params),
        model: params.model as ForecastModelName,
        latestHour: params.latest_hour as number,
        daysAhead: params.days_ahead as number,
        start: requestInstant(params.start, raw.start),
        end: requestInstant(params.end, raw.end),
        nowMs,
      }),
  },
  {
    path: '/region/{iso}/{metric}/actual',
    name: 'actual',
    summary: 'Get Historical Actuals',
    description:
      'Observed values, from 2023-01-01 up to the last hour published (an hour is published 15 minutes after it ends). ' +
      '`model` and `created_at` are null.',
    tag: 'regions',
    level: 'core',
    params: [ISO_PARAM, METRIC_PARAM, START_PARAM, END_PARAM, ID_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      regionActual(world, { ...target(params), start: requestInstant(params.start, raw.start), end: requestInstant(params.end, raw.end), nowMs }),
  },
  {
    path: '/region/{iso}/{metric}/backcast',
    name: 'backcast',
    summary: 'Get Day-Ahead Backcast',
    description:
      "A continuous series of the current model's day-ahead forecasts (days_ahead 1, latest_hour 10) over history, " +
      'from 2023-01-01, for evaluating the model against actuals.',
    tag: 'regions',
    level: 'enterprise',
    params: [ISO_PARAM, METRIC_PARAM, START_PARAM, END_PARAM, ID_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      regionBackcast(world, { ...target(params), start: requestInstant(params.start, raw.start), end: requestInstant(params.end, raw.end), nowMs }),
  },
];
