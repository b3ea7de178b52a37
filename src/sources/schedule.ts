/**
 * When a source's runs were issued and which valid hours each holds: all the query layer's
 * semantics (which run a request means, stitching, runs, vintages) need to know about runs.
 *
 * A synthetic model's runs follow its fixed cadence forever (modelSchedule); a stored source's
 * runs are the ones ingested, at any instants (storedSchedule). Issue times are epoch hours,
 * fractional for a run issued within an hour (09:30 is x.5), so that "the latest run issued at
 * or before X" compares instants, not hours.
 */
import { latestRunAtOrBefore, type ForecastModel } from '../models/forecastModels.ts';

export interface RunSchedule {
  /** Issue time of the latest run issued at or before `hour` (fractional allowed), or NaN when there is none. */
  latestAtOrBefore(hour: number): number;
  /** Runs issued in [fromHour, toHour], oldest first. */
  between(fromHour: number, toHour: number): number[];
  /** The valid hours [first, end) the run issued at `created` holds (NaN run: none). */
  span(created: number): { first: number; end: number };
  /** Runs whose valid hours meet [firstValid, lastValid], issued in [fromHour, toHour], oldest first. */
  covering(firstValid: number, lastValid: number, fromHour: number, toHour: number): number[];
}

/** True when the run issued at `created` holds a value slot for `valid`. */
export function covers(runs: RunSchedule, created: number, valid: number): boolean {
  if (Number.isNaN(created)) return false;
  const { first, end } = runs.span(created);
  return valid >= first && valid < end;
}

/** A synthetic model's runs: every `cadenceHours` from `phaseHours`, each holding [created, created + horizon). */
export function modelSchedule(model: ForecastModel): RunSchedule {
  const between = (fromHour: number, toHour: number): number[] => {
    const runs: number[] = [];
    for (let h = latestRunAtOrBefore(model, toHour); h >= fromHour; h -= model.cadenceHours) runs.push(h);
    return runs.reverse();
  };
  return {
    latestAtOrBefore: (hour) => latestRunAtOrBefore(model, hour),
    between,
    span: (created) => ({ first: created, end: created + model.horizonHours }),
    covering: (firstValid, lastValid, fromHour, toHour) =>
      between(Math.max(firstValid - model.horizonHours + 1, fromHour), Math.min(lastValid, toHour)),
  };
}

/** A stored run: issued at `issued` (epoch hours), holding `length` hourly values from `first`. */
export interface StoredRun {
  issued: number;
  first: number;
  length: number;
}

/** The runs a stored source holds (for one series or the union of several), in any order. */
export function storedSchedule(stored: readonly StoredRun[]): RunSchedule {
  const runs = [...stored].sort((a, b) => a.issued - b.issued);
  const issued = runs.map((r) => r.issued);
  const byIssued = new Map(runs.map((r) => [r.issued, r]));
  /** Index of the first run issued after `hour`. */
  const after = (hour: number): number => {
    let lo = 0;
    let hi = issued.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (issued[mid] <= hour) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const between = (fromHour: number, toHour: number) => issued.slice(after(fromHour - 1e-9), after(toHour));
  return {
    latestAtOrBefore: (hour) => {
      const i = after(hour);
      return i === 0 ? Number.NaN : issued[i - 1];
    },
    between,
    span: (created) => {
      const run = byIssued.get(created);
      return run ? { first: run.first, end: run.first + run.length } : { first: 0, end: 0 };
    },
    covering: (firstValid, lastValid, fromHour, toHour) =>
      between(fromHour, toHour).filter((c) => {
        const run = byIssued.get(c)!;
        return run.first <= lastValid && run.first + run.length > firstValid;
      }),
  };
}
