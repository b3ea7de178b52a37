/** The plant group: /plant/{iso}/{metric}/… (access level: advanced). */
import type { IsoCode } from '../../catalog/isos.ts';
import type { ForecastModelName } from '../../models/forecastModels.ts';
import { listPlants, plantBackcast, plantContinuous, plantForecast } from '../../query/plants.ts';
import { PLANT_METRICS, type PlantMetric } from '../../world/plantOutput.ts';
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
  values: PLANT_METRICS,
  required: true,
  description: 'Plant metric: wind or solar output (MW), or wind_icing / solar_snow risk (%).',
};

export const plantRoutes: RouteDef[] = [
  {
    path: '/plant/{iso}/{metric}/list',
    name: 'list_plants',
    summary: 'List Plants',
    description: 'Active wind or solar plants of the ISO for the metric, with their physical parameters.',
    tag: 'plants',
    level: 'advanced',
    params: [ISO_PARAM, METRIC_PARAM],
    response: { kind: 'records', schema: 'Plant' },
    handle: ({ params, nowMs }) => listPlants(params.iso as IsoCode, params.metric as PlantMetric, nowMs),
  },
  {
    path: '/plant/{iso}/{metric}/continuous',
    name: 'continuous',
    summary: 'Get Continuous Forecast',
    description:
      'Stitches forecast runs into one series: for every local day D of the window, the latest run created at or before ' +
      '(D − days_ahead) at latest_hour:00 local time, cut to the hours of D (23 or 25 on DST days). ' +
      'Output is the theoretical generation potential: no curtailment, transmission constraints or maintenance.',
    tag: 'plants',
    level: 'advanced',
    params: [ISO_PARAM, METRIC_PARAM, START_PARAM, END_PARAM, ID_PARAM, MODEL_PARAM, LATEST_HOUR_PARAM, DAYS_AHEAD_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      plantContinuous(world, {
        iso: params.iso as IsoCode,
        metric: params.metric as PlantMetric,
        id: params.id as string | undefined,
        model: params.model as ForecastModelName,
        latestHour: params.latest_hour as number,
        daysAhead: params.days_ahead as number,
        start: requestInstant(params.start, raw.start),
        end: requestInstant(params.end, raw.end),
        nowMs,
      }),
  },
  {
    path: '/plant/{iso}/{metric}/forecast',
    name: 'forecast',
    summary: 'Get Plant Forecast',
    description:
      'The most recent forecast run for one or all plants, or with forecasted_by the latest run created at or before that ' +
      'instant (history from the runs for 2026-01-01). Theoretical generation potential: no curtailment or maintenance.',
    tag: 'plants',
    level: 'advanced',
    params: [ISO_PARAM, METRIC_PARAM, FORECASTED_BY_PARAM, MODEL_PARAM, ID_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      plantForecast(world, {
        iso: params.iso as IsoCode,
        metric: params.metric as PlantMetric,
        id: params.id as string | undefined,
        model: params.model as ForecastModelName,
        forecastedBy: requestInstant(params.forecasted_by, raw.forecasted_by),
        nowMs,
      }),
  },
  {
    path: '/plant/{iso}/{metric}/backcast',
    name: 'backcast',
    summary: 'Get Day-Ahead Backcast',
    description:
      "A continuous series of the current model's day-ahead forecasts (days_ahead 1, latest_hour 10) over history, " +
      'from 2023-01-01, for evaluating the model against actuals.',
    tag: 'plants',
    level: 'enterprise',
    params: [ISO_PARAM, METRIC_PARAM, START_PARAM, END_PARAM, ID_PARAM],
    response: { kind: 'timeseries' },
    handle: ({ params, nowMs, world, raw }) =>
      plantBackcast(world, {
        iso: params.iso as IsoCode,
        metric: params.metric as PlantMetric,
        id: params.id as string | undefined,
        start: requestInstant(params.start, raw.start),
        end: requestInstant(params.end, raw.end),
        nowMs,
      }),
  },
];
