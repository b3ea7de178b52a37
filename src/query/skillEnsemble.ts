/**
 * The ensemble as /skill scores it: euro_ens's continuous ("stitched") series. For each local day D
 * and days_ahead, the run /ensemble?model=euro_ens&forecasted_by=<cutoff> serves — the latest
 * created at or before (D − days_ahead) at latest_hour:00 local, the continuous rule
 * (query/continuous.ts) — cut to D's hours. Each of the 51 members is computed on exactly those
 * rows (a member's value at an hour depends only on the hour, its run and the member, so it is the
 * value the run's /ensemble response holds), every requested lead in one batch per member so the
 * members share their truth and common-error parts (EnsembleShare).
 *
 * Only euro_ens: its values are hourly like the actuals. euro_ec46 (6-hourly means) and
 * euro_seas5 (daily means) would need actuals averaged to their rows.
 *
 * Demand and poptemp only: a wind or solar member is Σ plants (1–2.5 s per run for an ISO
 * total), so a stitched month of eight leads would take minutes.
 */
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { ENSEMBLE_MODELS, memberSkill } from '../models/ensembleModels.ts';
import type { RunSchedule } from '../sources/schedule.ts';
import { RegionWeatherComputer } from '../world/demand.ts';
import { WeatherBatch } from '../world/weather/batch.ts';
import { EnsembleShare } from '../world/weather/groups.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { stitchRows, type StitchOptions } from './continuous.ts';
import { ENSEMBLE_HISTORY_START_HOUR } from './ensemble.ts';
import { quantileType7 } from './ensembleStats.ts';
import { regionOf } from './regions.ts';
import type { ForecastSeries } from './skill.ts';
import { SCORED_QUANTILES } from './skillScores.ts';
import type { HourWindow } from './window.ts';

/** The ensemble /skill scores (model name as `model` takes it). */
export const SKILL_ENSEMBLE = 'euro_ens';
/** The region metrics its stitched series is computed for. */
export const SKILL_ENSEMBLE_METRICS = ['demand', 'poptemp'] as const;
export type EnsembleSkillMetric = (typeof SKILL_ENSEMBLE_METRICS)[number];

export function isEnsembleSkillMetric(metric: string): metric is EnsembleSkillMetric {
  return (SKILL_ENSEMBLE_METRICS as readonly string[]).includes(metric);
}

const model = ENSEMBLE_MODELS.euro_ens;

/** euro_ens's runs: every 6 hours from the runs of 2025-12-01, each holding 360 hourly values. */
const ensembleRuns: RunSchedule = {
  latestAtOrBefore: (hour) => {
    const run = model.latestRunAtOrBefore(hour);
    return run >= ENSEMBLE_HISTORY_START_HOUR ? run : Number.NaN;
  },
  between: (fromHour, toHour) => {
    const runs: number[] = [];
    for (let h = model.latestRunAtOrBefore(toHour); h >= Math.max(fromHour, ENSEMBLE_HISTORY_START_HOUR); h -= 6) runs.unshift(h);
    return runs;
  },
  span: (created) => ({ first: created, end: created + model.horizonHours }),
  covering: (firstValid, lastValid, fromHour, toHour) =>
    ensembleRuns.between(Math.max(firstValid - model.horizonHours + 1, fromHour), Math.min(lastValid, toHour)),
};

export interface EnsembleSkillRequest {
  iso: IsoCode;
  metric: EnsembleSkillMetric;
  id: string;
  latestHour: number;
  daysAhead: readonly number[];
  window: HourWindow;
  nowMs: number;
}

/** One lead's stitched ensemble: its hours, each member's values and the type-7 quantiles and mean across them. */
export interface EnsembleContinuous {
  daysAhead: number;
  hours: number[];
  members: Float64Array[];
}

/** The stitched rows of one lead: hours whose run exists (issued by now, from the first ensemble run) and holds them. */
function leadRows(r: EnsembleSkillRequest, daysAhead: number): { valid: number[]; created: number[] } {
  const stitch: StitchOptions = { timezone: ISOS[r.iso].timezone, runs: ensembleRuns, latestHour: r.latestHour, daysAhead };
  const rows = stitchRows(stitch, r.window, r.window.startHour, r.nowMs);
  const out = { valid: [] as number[], created: [] as number[] };
  rows.valid.forEach((h, i) => {
    const created = rows.created[i];
    if (!(created <= h && h < created + model.horizonHours)) return;
    out.valid.push(h);
    out.created.push(created);
  });
  return out;
}

/** euro_ens's continuous series of every requested lead, members unrounded (as the runs hold them). */
export function ensembleContinuous(world: WeatherWorld, r: EnsembleSkillRequest): EnsembleContinuous[] {
  const leads = r.daysAhead.map((d) => ({ daysAhead: d, ...leadRows(r, d) }));
  const valid = leads.flatMap((l) => l.valid);
  const created = leads.flatMap((l) => l.created);
  const region = regionOf(r.iso, r.metric, r.id);
  const share = new EnsembleShare();
  const members = Array.from({ length: model.members }, (_, m) => {
    const out = new Float64Array(valid.length);
    if (valid.length === 0) return out;
    const batch = new WeatherBatch(world, { valid, created }, memberSkill(model, m, share), {});
    const computer = new RegionWeatherComputer(batch, valid, region.timezone);
    if (r.metric === 'demand') computer.demand(region, out);
    else computer.poptemp(region, out);
    return out;
  });
  let at = 0;
  return leads.map((l) => {
    const from = at;
    at += l.valid.length;
    return { daysAhead: l.daysAhead, hours: l.valid, members: members.map((m) => m.subarray(from, at)) };
  });
}

/** Per row, the p-quantile (Hyndman–Fan type 7) across the members, as /ensemble?quantiles=p computes it. */
export function memberQuantile(members: readonly Float64Array[], p: number): Float64Array {
  const rows = members[0]?.length ?? 0;
  const out = new Float64Array(rows);
  const values = new Float64Array(members.length);
  for (let r = 0; r < rows; r++) {
    let k = 0;
    for (const m of members) if (Number.isFinite(m[r])) values[k++] = m[r];
    out[r] = k === 0 ? Number.NaN : quantileType7(values.subarray(0, k).sort(), p);
  }
  return out;
}

/** Per row, the arithmetic mean of the members, as /ensemble?stats=mean computes it. */
export function memberMean(members: readonly Float64Array[]): Float64Array {
  const rows = members[0]?.length ?? 0;
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    let k = 0;
    for (const m of members) {
      if (!Number.isFinite(m[r])) continue;
      sum += m[r];
      k++;
    }
    out[r] = k === 0 ? Number.NaN : sum / k;
  }
  return out;
}

/** The quantile levels the ensemble's series carry for coverage and pinball (computed from the members). */
const ENSEMBLE_SKILL_QUANTILES = SCORED_QUANTILES;

/**
 * euro_ens's continuous series as /skill scores it, one per lead: the point forecast is the
 * members' mean (/ensemble?stats=mean), the quantiles are P10, P50, P90 across the members
 * (/ensemble?quantiles=0.1,0.5,0.9) and the members themselves give CRPS.
 */
export function ensembleSkillSeries(world: WeatherWorld, r: EnsembleSkillRequest): ForecastSeries[] {
  return ensembleContinuous(world, r).map((lead) => ({
    model: SKILL_ENSEMBLE,
    daysAhead: lead.daysAhead,
    hours: lead.hours,
    values: memberMean(lead.members),
    quantiles: ENSEMBLE_SKILL_QUANTILES.map((p) => ({ p, values: memberQuantile(lead.members, p) })),
    members: lead.members,
  }));
}
