/**
 * The OpenAPI 3.1 document, generated from the route declarations. Paths are relative to
 * /v1 (the server URL), as in the public service's document; the official Python client
 * derives its method names from the summaries (reference isoview-api.md §6).
 */
import { ISO_CODES } from '../catalog/isos.ts';
import { UNIT_DECIMALS } from '../catalog/metrics.ts';
import { INGEST_GROUPS } from '../ingest/groups.ts';
import { openApiParameter } from './params.ts';
import type { RouteDef } from './route.ts';
import { openApiContent } from './writers/registry.ts';

const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });

/** The error bodies' schemas, shared with the admin API's own document. */
export const ERROR_SCHEMAS: Record<string, object> = {
  ValidationError: {
    type: 'object',
    title: 'ValidationError',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, title: 'Location' },
      msg: { type: 'string', title: 'Message' },
      type: { type: 'string', title: 'Error Type' },
      input: { title: 'Input' },
      ctx: { type: 'object', title: 'Context' },
    },
  },
  HTTPValidationError: {
    type: 'object',
    title: 'HTTPValidationError',
    properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' }, title: 'Detail' } },
  },
  ErrorResponse: {
    type: 'object',
    title: 'ErrorResponse',
    properties: {
      detail: {
        type: 'array',
        items: { type: 'object', properties: { type: { type: 'string' }, msg: { type: 'string' } } },
        title: 'Detail',
      },
    },
  },
};

const SCHEMAS: Record<string, object> = {
  TimeseriesResponse: {
    type: 'object',
    title: 'TimeseriesResponse',
    required: ['model', 'created_at', 'units', 'timezone', 'time_utc', 'time_local', 'columns', 'values'],
    properties: {
      model: { ...nullable({ type: 'string' }), title: 'Model', description: 'Model that produced the data; null for actuals.' },
      created_at: {
        ...nullable({ type: 'string', format: 'date-time' }),
        title: 'Created At',
        description: 'UTC creation time of the run; null for stitched (continuous) series and actuals.',
      },
      units: { type: 'string', title: 'Units', description: `One unit for all values: ${Object.keys(UNIT_DECIMALS).join(', ')}.` },
      timezone: { type: 'string', format: 'zoneinfo', title: 'Timezone', description: 'IANA zone of time_local.' },
      time_utc: {
        type: 'array',
        items: { type: 'string', format: 'date-time' },
        title: 'Time Utc',
        description: 'Period-beginning UTC timestamps, one per row.',
      },
      time_local: {
        type: 'array',
        items: { type: 'string', format: 'date-time' },
        title: 'Time Local',
        description: 'The same instants in `timezone`, with their true UTC offset.',
      },
      columns: {
        type: 'array',
        items: { type: 'array', items: { type: 'string' } },
        title: 'Columns',
        description: 'Label(s) of each series: one entry per level.',
      },
      values: {
        type: 'array',
        items: { type: 'array', items: nullable({ type: 'number' }) },
        title: 'Values',
        description: 'Column-major: values[i] is the series of columns[i]; null where there is no value.',
      },
    },
  },
  Region: {
    type: 'object',
    title: 'Region',
    required: ['id', 'name', 'region_type', 'iso', 'timezone'],
    properties: {
      id: { type: 'string', title: 'Id', description: '`<iso>_total` or `<iso>_<zone>`' },
      name: { type: 'string', title: 'Name' },
      region_type: { type: 'string', enum: ['iso', 'zone'], title: 'Region Type' },
      iso: { type: 'string', enum: [...ISO_CODES], title: 'Iso' },
      timezone: { type: 'string', title: 'Timezone' },
    },
  },
  Plant: {
    type: 'object',
    title: 'Plant',
    required: ['id', 'name', 'plant_type', 'capacity_mw', 'iso', 'state', 'latitude', 'longitude', 'operations_begin_date', 'status'],
    properties: {
      id: { type: 'integer', title: 'Id' },
      name: { type: 'string', title: 'Name' },
      plant_type: { type: 'string', enum: ['wind', 'solar'], title: 'Plant Type' },
      capacity_mw: { type: 'number', title: 'Capacity Mw' },
      iso: { type: 'string', enum: [...ISO_CODES], title: 'Iso' },
      state: { type: 'string', title: 'State' },
      latitude: { type: 'number', title: 'Latitude' },
      longitude: { type: 'number', title: 'Longitude' },
      operations_begin_date: { type: 'string', format: 'date', title: 'Operations Begin Date' },
      status: { type: 'string', enum: ['operating', 'planned'], title: 'Status' },
      summary: { ...nullable({ type: 'string' }), title: 'Summary' },
      county_fips: { type: 'string', title: 'County Fips' },
    },
    additionalProperties: true,
  },
  County: {
    type: 'object',
    title: 'County',
    required: ['id', 'name', 'state', 'geojson'],
    properties: {
      id: { type: 'string', title: 'Id', description: '5-digit county FIPS code' },
      name: { type: 'string', title: 'Name' },
      state: { type: 'string', title: 'State', description: 'Postal code' },
      iso: { type: 'string', enum: [...ISO_CODES], title: 'Iso' },
      region_id: { type: 'string', title: 'Region Id', description: 'The zone region the county is counted in' },
      geojson: { type: 'object', title: 'Geojson', description: 'GeoJSON Polygon or MultiPolygon, [lon, lat]' },
    },
    additionalProperties: true,
  },
  Cell: {
    type: 'object',
    title: 'Cell',
    required: ['id', 'resolution', 'iso', 'timezone', 'latitude', 'longitude', 'geojson'],
    properties: {
      id: { type: 'string', title: 'Id', description: 'H3 cell index (15 hex digits)' },
      resolution: { type: 'integer', title: 'Resolution' },
      iso: { type: 'string', enum: [...ISO_CODES], title: 'Iso' },
      timezone: { type: 'string', title: 'Timezone' },
      latitude: { type: 'number', title: 'Latitude', description: 'Latitude of the H3 cell centre' },
      longitude: { type: 'number', title: 'Longitude', description: 'Longitude of the H3 cell centre' },
      area_km2: { type: 'number', title: 'Area Km2', description: 'Area of the clipped cell' },
      geojson: {
        type: 'object',
        title: 'Geojson',
        description: 'The cell clipped to the ISO footprint: GeoJSON Polygon or MultiPolygon, [lon, lat]',
      },
    },
    additionalProperties: true,
  },
  ModelStatus: {
    type: 'object',
    title: 'ModelStatus',
    required: ['iso', 'model', 'last_run', 'next_run', 'last_actual_hour'],
    properties: {
      iso: {
        ...nullable({ type: 'string', enum: [...ISO_CODES] }),
        title: 'Iso',
        description: "null: a stored source's gas series (not tied to an ISO).",
      },
      model: { type: 'string', title: 'Model' },
      last_run: {
        ...nullable({ type: 'string', format: 'date-time' }),
        title: 'Last Run',
        description: 'created_at of the last run issued.',
      },
      next_run: {
        ...nullable({ type: 'string', format: 'date-time' }),
        title: 'Next Run',
        description: 'created_at of the next run (null for a stored source: its runs come when they are ingested).',
      },
      last_actual_hour: {
        ...nullable({ type: 'string', format: 'date-time' }),
        title: 'Last Actual Hour',
        description: 'Last published actual hour.',
      },
      source: { type: 'string', enum: ['stored'], title: 'Source', description: 'Present for a stored (ingested) source.' },
      runs: { type: 'integer', title: 'Runs', description: 'Stored source: runs issued by now (a run per target).' },
      forecast_values: { type: 'integer', title: 'Forecast Values', description: 'Stored source: values in those runs.' },
      actuals: { type: 'integer', title: 'Actuals', description: 'Stored source: actual (target, hour) values published by now.' },
      first_valid_time: { ...nullable({ type: 'string', format: 'date-time' }), title: 'First Valid Time' },
      last_valid_time: { ...nullable({ type: 'string', format: 'date-time' }), title: 'Last Valid Time' },
      series: {
        type: 'array',
        title: 'Series',
        description: 'Stored source: the series it holds in this ISO (model=<source> on their routes).',
        items: {
          type: 'object',
          required: ['group', 'metric'],
          properties: {
            group: { type: 'string', enum: [...INGEST_GROUPS], title: 'Group' },
            metric: { type: 'string', title: 'Metric', description: 'The metric, or for lmp the market type (dalmp, rtlmp).' },
          },
        },
      },
    },
  },
  Run: {
    type: 'object',
    title: 'Run',
    required: ['model', 'created_at', 'first_valid_time', 'last_valid_time', 'horizon_hours'],
    properties: {
      model: { type: 'string', title: 'Model' },
      created_at: { type: 'string', format: 'date-time', title: 'Created At', description: 'When the run was issued (UTC).' },
      first_valid_time: { type: 'string', format: 'date-time', title: 'First Valid Time', description: 'First hour the run covers.' },
      last_valid_time: { type: 'string', format: 'date-time', title: 'Last Valid Time', description: 'Last hour the run covers.' },
      horizon_hours: { type: 'integer', title: 'Horizon Hours' },
    },
  },
  GasHub: {
    type: 'object',
    title: 'GasHub',
    required: ['id', 'name', 'timezone', 'point'],
    properties: {
      id: { type: 'string', title: 'Id' },
      name: { type: 'string', title: 'Name' },
      timezone: { type: 'string', title: 'Timezone' },
      point: {
        ...nullable({ type: 'object' }),
        title: 'Point',
        description: "GeoJSON Point [lon, lat]; null for a stored source's own hub whose catalog file gives no coordinates.",
      },
      source: { type: 'string', title: 'Source', description: 'With list?source=: the stored source that holds the hub.' },
    },
  },
  LmpNode: {
    type: 'object',
    title: 'LmpNode',
    required: ['id', 'name', 'iso', 'timezone'],
    properties: {
      id: { type: 'string', title: 'Id', description: "The ISO's node name, e.g. WESTERN HUB, HB_WEST, N.Y.C." },
      name: { type: 'string', title: 'Name' },
      iso: { type: 'string', enum: [...ISO_CODES], title: 'Iso' },
      timezone: { type: 'string', title: 'Timezone' },
      node_type: { type: 'string', enum: ['hub', 'zone', 'node'], title: 'Node Type' },
    },
    additionalProperties: true,
  },
  Skill: {
    type: 'object',
    title: 'Skill',
    required: ['model', 'days_ahead', 'n', 'mae', 'rmse', 'bias', 'mape', 'mape_skipped'],
    properties: {
      model: { type: 'string', title: 'Model', description: 'The model or stored source scored.' },
      month: { type: 'string', title: 'Month', description: 'by=month: the local month, YYYY-MM.' },
      hour_of_day: { type: 'integer', title: 'Hour Of Day', description: 'by=hour_of_day: the local hour (hour beginning), 0–23.' },
      day_of_week: { type: 'integer', title: 'Day Of Week', description: 'by=day_of_week: ISO day of week, 1 Monday … 7 Sunday.' },
      date: { type: 'string', format: 'date', title: 'Date', description: 'window=Nd: the last local day of the rolling window.' },
      days_ahead: { ...nullable({ type: 'integer' }), title: 'Days Ahead', description: 'null for by=none over several lead days.' },
      n: { type: 'integer', title: 'N', description: 'Hours (days for daily series) with both a forecast and an actual.' },
      mae: { ...nullable({ type: 'number' }), title: 'Mae', description: 'Mean absolute error, in the unit of the metric.' },
      rmse: { ...nullable({ type: 'number' }), title: 'Rmse', description: 'Root mean squared error, in the unit.' },
      bias: { ...nullable({ type: 'number' }), title: 'Bias', description: 'Mean of forecast − actual, in the unit.' },
      mape: {
        ...nullable({ type: 'number' }),
        title: 'Mape',
        description: 'Mean absolute percentage error, %, over the hours whose |actual| is at least 1 % of the mean |actual|.',
      },
      mape_skipped: { type: 'integer', title: 'Mape Skipped', description: 'Hours left out of mape.' },
      nmae_pct_capacity: {
        ...nullable({ type: 'number' }),
        title: 'Nmae Pct Capacity',
        description: 'Wind and solar: mean of |error| / capacity in operation, %.',
      },
      skill_vs_normal: {
        ...nullable({ type: 'number' }),
        title: 'Skill Vs Normal',
        description: '1 − MAE / MAE of normal over the hours both have (regions).',
      },
      coverage_p10_p90: { ...nullable({ type: 'number' }), title: 'Coverage P10 P90', description: 'Share of hours within P10–P90, %.' },
      pinball: { ...nullable({ type: 'number' }), title: 'Pinball', description: 'Mean pinball loss over P10, P50, P90, in the unit.' },
      crps: { ...nullable({ type: 'number' }), title: 'Crps', description: 'Mean CRPS of the ensemble members, in the unit.' },
    },
  },
  ...ERROR_SCHEMAS,
};

/** FastAPI's operationId: function name + path with non-word characters as '_' + method. */
export function operationId(route: RouteDef): string {
  return `${route.name}${route.path.replace(/\W/g, '_')}_get`;
}

function responseSchema(route: RouteDef): object {
  if (route.response.kind === 'timeseries') return { $ref: '#/components/schemas/TimeseriesResponse' };
  return { type: 'array', items: { $ref: `#/components/schemas/${route.response.schema}` }, title: `Response ${route.name}` };
}

export const errorResponse = (description: string, schema = 'ErrorResponse') => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] = {
      get: {
        tags: [route.tag],
        summary: route.summary,
        description: `${route.description}\n\nAccess level: ${route.level}.`,
        operationId: operationId(route),
        security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }],
        parameters: route.params.map(openApiParameter),
        responses: {
          '200': { description: 'Successful Response', content: openApiContent(responseSchema(route)) },
          '401': errorResponse('Missing or invalid API key'),
          '403': errorResponse('The key has no subscription at the needed level for this ISO'),
          '422': errorResponse('Validation Error', 'HTTPValidationError'),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'gridcast',
      version,
      description:
        'Forecasts, historical forecasts and actuals for North American electricity markets, ' +
        'compatible with the Forecast Data Service Interface Specification.',
    },
    servers: [{ url: '/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Your API key (recommended).' },
        APIKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'api_key',
          description: 'Your API key as a query parameter; the header wins if both are sent.',
        },
      },
    },
  };
}
