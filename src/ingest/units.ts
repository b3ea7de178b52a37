/**
 * Units of a file's values: declared with --unit, or stated by the file (a `unit` column, a
 * header such as `Load Forecast (GW)`, Parquet/Arrow metadata `units`), checked against the
 * metric's unit and turned into a conversion. The conversions themselves are catalog facts
 * (catalog/metrics.ts UNIT_CONVERSIONS).
 */
import { UNIT_CONVERSIONS, type Unit } from '../catalog/metrics.ts';
import type { Scale } from './observations.ts';

/** The conversion of `unit` (case-insensitive) into `served`, if the two measure the same quantity. */
export function conversionInto(served: Unit, unit: string): Scale | undefined {
  const table = UNIT_CONVERSIONS[served];
  const wanted = unit.trim().toLowerCase();
  const key = Object.keys(table).find((k) => k.toLowerCase() === wanted);
  return key === undefined ? undefined : { scale: table[key].scale, offset: table[key].offset ?? 0 };
}

/** The reason `unit` cannot be the metric's, or undefined when it can. */
export function unitProblem(served: Unit, metric: string, unit: string): string | undefined {
  if (conversionInto(served, unit)) return undefined;
  return `${unit} cannot be ${metric}, which is in ${served} (${Object.keys(UNIT_CONVERSIONS[served]).join(', ')} can)`;
}

/**
 * The unit resolver of an ingest: a unit the file states must agree with --unit when both are
 * given; a file that states none has --unit's (default: the metric's own).
 */
export function unitResolver(served: Unit, metric: string, declared: string | undefined): (unit: string | undefined) => Scale | string {
  const resolved = new Map<string, Scale | string>();
  const fallback = conversionInto(served, declared ?? served)!;
  return (unit) => {
    if (unit === undefined || unit.trim() === '') return fallback;
    let known = resolved.get(unit);
    if (known === undefined) {
      const scale = conversionInto(served, unit);
      if (!scale) known = `unit ${unitProblem(served, metric, unit)}`;
      else if (declared !== undefined && (scale.scale !== fallback.scale || scale.offset !== fallback.offset))
        known = `the file gives the unit ${unit.trim()} where --unit says ${declared}`;
      else known = scale;
      resolved.set(unit, known);
    }
    return known;
  };
}

const HEADER_UNIT = /^(.*?)\s*[([]\s*([^()[\]]+?)\s*[)\]]$/;

/** A column header and the unit it states in brackets: `Load Forecast (GW)` → `Load Forecast`, `GW`. */
export function headerUnit(header: string): { name: string; unit: string | undefined } {
  const m = HEADER_UNIT.exec(header.trim());
  return m ? { name: m[1], unit: m[2] } : { name: header.trim(), unit: undefined };
}

/** A value of the file converted (NaN stays NaN). */
export function convert(value: number, s: Scale): number {
  return s.scale === 1 && s.offset === 0 ? value : value * s.scale + s.offset;
}
