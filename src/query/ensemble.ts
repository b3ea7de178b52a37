/**
 * Ensemble forecasts of one region (`/region/{iso}/{metric}/ensemble`): one run of an
 * ensemble model (the latest created at or before `forecasted_by`, default now), one column
 * per member labelled [region_id, "m00"] … [region_id, "m50"].
 *
 * - demand and poptemp: each member is the region's demand / population-weighted temperature
 *   computed exactly as for the deterministic models (world/demand.ts), from the member's
 *   weather and load noise (models/ensembleModels.ts, world/weather/skill.ts).
 * - wind and solar, euro_ens: Σ plants per member, exactly like the deterministic models
 *   (1–2.5 s for an ISO total: the members share their truth and common-error parts, the sun
 *   positions and the shared local perturbations through an EnsembleShare).
 * - wind and solar, euro_ec46 and euro_seas5: Σ plants × 51 members over 46 or 215 days would
 *   cost 4–8 s and tens of seconds, so members come from a fleet proxy: each zone's plants are
 *   split into ceil(√n · proxyDensity) spatial groups (longitude columns × latitude rows), each
 *   group is represented by the plant nearest its capacity-weighted centre, and a member's zone
 *   output is Σ groups (the group's operating capacity / the representative's capacity) × the
 *   representative's output under the member's weather (full plant physics; with density 1 the
 *   proxy differs from Σ plants by ~2–4 % of the mean output per hour). For SEAS5's
 *   daily means only every sampleStep-th hour of a day is computed (the mean of the samples;
 *   wind every 3rd hour, solar every 2nd: within ~0.5 % of the full daily mean).
 * Solar hours in which every plant (or representative) is dark are exactly 0 and are not
 * computed. The ISO total is the sum of its zones.
 *
 * Rows: euro_ens hourly; euro_ec46 6-hourly means at 00/06/12/18 UTC; euro_seas5 daily means
 * over local days (period-beginning at local midnight). Computed members are kept in the block
 * cache: a run never changes.
 */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { fleetGroups } from '../catalog/fleetGroups.ts';
import { decimalsOf, metricsOf, unitOf, type MetricsOf } from '../catalog/metrics.ts';
import { zoneRegionsOf, type Region } from '../catalog/regions.ts';
import { ENSEMBLE_MODELS, memberLabel, memberSkill, type EnsembleModel, type EnsembleModelName } from '../models/ensembleModels.ts';
import { HOUR_MS } from '../time/hours.ts';
import { addDays, localDateOfHour, localDayStartHour } from '../time/zones.ts';
import { RegionWeatherComputer } from '../world/demand.ts';
import { FleetProxy, sunUpAtAny } from '../world/fleetProxy.ts';
import { EnsembleShare } from '../world/weather/groups.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { blockCache } from './blockCache.ts';
import type { StoredSegment } from './diskBlocks.ts';
import { QueryError, queryValueError } from './errors.ts';
import type { Frame } from './frame.ts';
import { regionOf } from './regions.ts';
import type { RequestInstant } from './window.ts';

/** The hourly region metrics ensembles are served for. */
export const ENSEMBLE_METRICS = metricsOf('ensemble');
export type EnsembleMetric = MetricsOf<'ensemble'>;

/** Ensemble history begins with the runs of 2025-12-01 (00 UTC), SEAS5's December run among them. */
export const ENSEMBLE_HISTORY_START_HOUR = Date.UTC(2025, 11, 1) / HOUR_MS;

export interface EnsembleRequest {
  iso: IsoCode;
  /** A region metric as the path gave it; only ENSEMBLE_METRICS are served. */
  metric: string;
  id: string;
  model: EnsembleModelName;
  forecastedBy?: RequestInstant;
  nowMs: number;
}

/** Rows of a run: row r averages the hours [from[r], to[r]); starts are the row labels. */
export interface EnsembleLayout {
  starts: number[];
  from: number[];
  to: number[];
}

export function ensembleLayout(model: EnsembleModel, created: number, timezone: string): EnsembleLayout {
  const layout: EnsembleLayout = { starts: [], from: [], to: [] };
  const push = (from: number, to: number) => {
    layout.starts.push(from);
    layout.from.push(from);
    layout.to.push(to);
  };
  if (model.rows === 'hourly') {
    for (let h = created; h < created + model.horizonHours; h++) push(h, h + 1);
  } else if (model.rows === 'six_hourly') {
    for (let h = created; h < created + model.horizonHours; h += 6) push(h, h + 6);
  } else {
    let day = localDateOfHour(timezone, created);
    if (localDayStartHour(timezone, day) < created) day = addDays(day, 1);
    for (let k = 0; k < model.horizonDays; k++, day = addDays(day, 1))
      push(localDayStartHour(timezone, day), localDayStartHour(timezone, addDays(day, 1)));
  }
  return layout;
}

function isEnsembleMetric(metric: string): metric is EnsembleMetric {
  return (ENSEMBLE_METRICS as readonly string[]).includes(metric);
}

/** The run a request means: the latest created at or before forecasted_by (default and at most now). */
export function ensembleRunAsOf(model: EnsembleModel, forecastedByMs: number | undefined, nowMs: number): number {
  return model.latestRunAtOrBefore(Math.floor(Math.min(forecastedByMs ?? nowMs, nowMs) / HOUR_MS));
}

export function ensembleFrame(world: WeatherWorld, r: EnsembleRequest): Frame {
  if (!isEnsembleMetric(r.metric)) {
    throw new QueryError([
      {
        type: 'value_error',
        loc: ['path', 'metric'],
        msg: `Value error, ensembles are served for the hourly metrics ${ENSEMBLE_METRICS.join(', ')}`,
        input: r.metric,
      },
    ]);
  }
  const metric = r.metric;
  const region = regionOf(r.iso, metric, r.id);
  const model = ENSEMBLE_MODELS[r.model];
  const created = ensembleRunAsOf(model, r.forecastedBy?.epochMs, r.nowMs);
  if (created < ENSEMBLE_HISTORY_START_HOUR) {
    throw queryValueError(
      'forecasted_by',
      r.forecastedBy?.raw ?? null,
      'no ensemble run at or before forecasted_by: ensemble history begins with the runs of 2025-12-01',
    );
  }
  const tz = ISOS[r.iso].timezone;
  const layout = ensembleLayout(model, created, tz);
  const members = memberSource(world, r.iso, metric, region, model, created, layout);
  return {
    model: model.name,
    createdAtHour: created,
    units: unitOf(metric),
    timezone: tz,
    hours: layout.starts,
    decimals: decimalsOf(metric),
    columns: Array.from({ length: model.members }, (_, m) => ({
      label: [region.id, memberLabel(m)],
      fill: (out: Float64Array) => out.set(members(m)),
    })),
  };
}

/** Values of member m on the layout's rows, computed once per (model, run, metric, region, member). */
function memberSource(
  world: WeatherWorld,
  iso: IsoCode,
  metric: EnsembleMetric,
  region: Region,
  model: EnsembleModel,
  created: number,
  layout: EnsembleLayout,
) {
  const compute =
    metric === 'wind' || metric === 'solar'
      ? fleetProxy(world, iso, metric, region, model, created, layout)
      : loadMembers(world, metric, region, model, created, layout);
  // The run's members share a segment on disk, read at most once here.
  const segment = `ensemble:${model.name}:${metric}:${region.id}:${created}`;
  let stored: StoredSegment | null | undefined;
  return (m: number): Float64Array => {
    if (!blockCache.enabled) return compute(m);
    const key = `${segment}:${m}`;
    const hit = blockCache.get(key) ?? (stored === undefined ? (stored = blockCache.segment(segment)) : stored)?.get(String(m));
    if (hit) return hit;
    const values = compute(m);
    blockCache.set(key, values, { segment, key: String(m) });
    return values;
  };
}

/** Mean over each row of hourly values laid out from layout.from[0]. */
function rowMeans(layout: EnsembleLayout, hourly: Float64Array): Float64Array {
  const first = layout.from[0];
  const out = new Float64Array(layout.starts.length);
  for (let r = 0; r < out.length; r++) {
    let sum = 0;
    for (let h = layout.from[r]; h < layout.to[r]; h++) sum += hourly[h - first];
    out[r] = sum / (layout.to[r] - layout.from[r]);
  }
  return out;
}

function loadMembers(
  world: WeatherWorld,
  metric: 'demand' | 'poptemp',
  region: Region,
  model: EnsembleModel,
  created: number,
  layout: EnsembleLayout,
) {
  const first = layout.from[0];
  const last = layout.to[layout.to.length - 1];
  const valid = Array.from({ length: last - first }, (_, i) => first + i);
  const runs = valid.map(() => created);
  const share = new EnsembleShare();
  return (m: number): Float64Array => {
    const batch = new WeatherBatch(world, { valid, created: runs }, memberSkill(model, m, share), {});
    const computer = new RegionWeatherComputer(batch, valid, region.timezone);
    const hourly = new Float64Array(valid.length);
    if (metric === 'demand') computer.demand(region, hourly);
    else computer.poptemp(region, hourly);
    return rowMeans(layout, hourly);
  };
}

// ---------------------------------------------------------------------------------------------
// The wind and solar fleet proxy (catalog/fleetGroups.ts, world/fleetProxy.ts)

function fleetProxy(
  world: WeatherWorld,
  iso: IsoCode,
  metric: 'wind' | 'solar',
  region: Region,
  model: EnsembleModel,
  created: number,
  layout: EnsembleLayout,
) {
  const zones = region.region_type === 'iso' ? zoneRegionsOf(iso) : [region];
  const groups = zones.flatMap((z) => fleetGroups(z, metric, model.proxyDensity));
  const step = model.rows === 'daily' ? model.sampleStep[metric] : 1;

  // Sampled hours of each row (the middle of each step), and which of them need computing.
  const rowOf: number[] = [];
  const hours: number[] = [];
  const samples = new Float64Array(layout.starts.length);
  for (let r = 0; r < layout.starts.length; r++) {
    for (let h = layout.from[r] + Math.floor((step - 1) / 2); h < layout.to[r]; h += step) {
      samples[r]++;
      rowOf.push(r);
      hours.push(h);
    }
  }
  let keep = hours.map(() => true);
  if (metric === 'solar') keep = hours.map((h) => sunUpAtAny(groups, h));
  const proxy = new FleetProxy(
    world,
    metric,
    groups,
    hours.filter((_, j) => keep[j]),
    rowOf.filter((_, j) => keep[j]),
    layout.starts.length,
  );
  const share = new EnsembleShare();
  return (m: number): Float64Array => {
    const out = proxy.rowSums(memberSkill(model, m, share), created);
    for (let r = 0; r < out.length; r++) out[r] /= samples[r];
    return out;
  };
}
