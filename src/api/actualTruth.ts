/**
 * GRIDCAST_ACTUAL_SOURCE: the stored sources an ISO's actuals come from, by configuration, instead
 * of the synthetic world's truth — e.g. `ercot=eia930,pjm/demand=ops,pjm/dalmp=vendor_p`.
 *
 * An entry `ISO=SOURCE` makes SOURCE the truth of every series of the ISO that has actuals (the
 * regions' metrics and the LMP types); `ISO/METRIC=SOURCE` of one metric (demand, wind, solar,
 * poptemp, outage) or LMP type (dalmp, rtlmp), and wins over the ISO's entry. Where one applies,
 * `/actual` without `source` serves that source's actuals (as `source=SOURCE` would), `/skill`
 * without `actual_source` scores against them, and the ISO summary's "actual" columns are theirs:
 * one truth per series everywhere. An explicit `source`/`actual_source` still chooses another.
 *
 * Read from the environment like GRIDCAST_WORLD (the compute workers inherit it): `gridcast serve`
 * parses it at start, so a malformed setting stops the start with the entry at fault.
 */
import { ISO_CODES } from '../catalog/isos.ts';
import type { ParamValue } from './params.ts';
import type { RouteDef } from './route.ts';
import { metricsOf } from '../catalog/metrics.ts';
import { SOURCE_NAME, SOURCE_NAME_RULE } from '../sources/names.ts';
import { FORECAST_MODEL_NAMES } from '../models/forecastModels.ts';

/** The metrics and LMP types an entry may name: the series that have actuals. */
const TRUTH_METRICS: readonly string[] = [...metricsOf('region'), ...metricsOf('lmp')];

/** The configured truth: source by `iso` and by `iso/metric`. */
export type ActualSources = ReadonlyMap<string, string>;

/** Parses GRIDCAST_ACTUAL_SOURCE (empty or unset: none); a malformed entry throws, naming it and the form expected. */
export function parseActualSources(text: string | undefined): ActualSources {
  const out = new Map<string, string>();
  if (!text?.trim()) return out;
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const bad = (why: string): never => {
      throw new Error(
        `GRIDCAST_ACTUAL_SOURCE: bad entry '${entry}': ${why} (expected ISO=SOURCE or ISO/METRIC=SOURCE, comma-separated, ` +
          `e.g. ercot=eia930,pjm/demand=ops; ISO one of ${ISO_CODES.join(', ')}; METRIC one of ${TRUTH_METRICS.join(', ')})`,
      );
    };
    const eq = entry.indexOf('=');
    if (eq < 0) bad('no =');
    const key = entry.slice(0, eq).trim();
    const source = entry.slice(eq + 1).trim();
    const [iso, metric, ...rest] = key.split('/');
    if (!(ISO_CODES as readonly string[]).includes(iso)) bad(`unknown ISO '${iso}'`);
    if (rest.length > 0 || (metric !== undefined && !TRUTH_METRICS.includes(metric))) bad(`unknown metric '${key.slice(iso.length + 1)}'`);
    if (!SOURCE_NAME.test(source)) bad(`the source must be ${SOURCE_NAME_RULE} (got '${source}')`);
    if ((FORECAST_MODEL_NAMES as readonly string[]).includes(source)) bad(`'${source}' is a synthetic model, not a stored source`);
    if (out.has(key)) bad(`${key} is named twice`);
    out.set(key, source);
  }
  return out;
}

let parsed: { text: string | undefined; sources: ActualSources } | undefined;

/** The setting of this process (parsed once per value of the environment variable). */
export function configuredActualSources(): ActualSources {
  const text = process.env.GRIDCAST_ACTUAL_SOURCE;
  if (parsed && parsed.text === text) return parsed.sources;
  parsed = { text, sources: parseActualSources(text) };
  return parsed.sources;
}

/** The stored source configured as the truth of `metric` (a region metric or LMP type) in `iso`, if any. */
export function actualSourceOf(iso: string, metric: string): string | undefined {
  const sources = configuredActualSources();
  return sources.get(`${iso}/${metric}`) ?? sources.get(iso);
}

/** Whether any series of `iso` has a configured truth. */
export function hasActualSource(iso: string): boolean {
  return [...configuredActualSources().keys()].some((k) => k === iso || k.startsWith(`${iso}/`));
}

/**
 * The route's parameter naming the stored source its truth comes from: `source` of /actual,
 * `actual_source` of /skill (where the group serves stored actuals); none elsewhere.
 */
/** Whether the route's truth may come from a configured source (truthParam). */
export function hasTruthParam(def: RouteDef): boolean {
  return truthParam(def) !== undefined;
}

function truthParam(def: RouteDef): 'source' | 'actual_source' | undefined {
  // The ISO's actuals are its regions' and its LMPs' (plants' skill takes actual_source too, but a plant's truth is its own).
  if (!def.path.startsWith('/region/') && !def.path.startsWith('/lmp/')) return undefined;
  if (def.name === 'actual' && def.params.some((p) => p.name === 'source')) return 'source';
  return def.params.some((p) => p.name === 'actual_source') ? 'actual_source' : undefined;
}

/**
 * Sets the request's truth parameter to the configured source of its ISO and metric (or LMP
 * type) when the request names none; returns that parameter and source, or undefined.
 */
export function applyActualSource(
  def: RouteDef,
  values: Record<string, ParamValue>,
): { param: 'source' | 'actual_source'; source: string } | undefined {
  const param = truthParam(def);
  if (param === undefined || values[param] !== undefined || typeof values.iso !== 'string') return undefined;
  const source = actualSourceOf(values.iso, String(values.metric ?? values.type));
  if (source === undefined) return undefined;
  values[param] = source;
  return { param, source };
}

/** Whether the request reads a configured truth besides its own parameters (an ISO summary of such an ISO). */
export function readsActualSource(def: RouteDef, values: Record<string, ParamValue>): boolean {
  return def.actualsOfIso === true && typeof values.iso === 'string' && hasActualSource(values.iso);
}
