/**
 * The HTTP thread's view of the stored sources, for validating requests: `model` accepts the
 * synthetic models and every stored source, and a request that names a stored source is
 * answered fresh (its data can change with any ingest, so no ETag, no cached body).
 *
 * The names are cached briefly (several processes may share one database, and another one may
 * ingest); a name not in the cache is looked up again at once, so a source is usable the moment
 * its ingest has committed.
 */
import type { SourceStore, SourceSummary } from '../store/sources.ts';
import { HttpError, serviceError } from './errors.ts';
import { errorItem, type ParamSpec, type ParamValue } from './params.ts';
import type { RouteDef } from './route.ts';

const NAMES_TTL_MS = 5_000;

export class StoredSourceNames {
  private names: Set<string> = new Set();
  private fetchedAt = -Infinity;

  constructor(private readonly store: Pick<SourceStore, 'names'>) {}

  /** The stored source names; re-read when stale or when one of `wanted` is not among them. */
  async get(...wanted: (string | undefined)[]): Promise<Set<string>> {
    if (Date.now() - this.fetchedAt > NAMES_TTL_MS || wanted.some((w) => w !== undefined && !this.names.has(w))) {
      this.names = new Set(await this.store.names());
      this.fetchedAt = Date.now();
    }
    return this.names;
  }

  /** Forget the cached names (after an ingest or a deletion in this process). */
  invalidate(): void {
    this.fetchedAt = -Infinity;
  }
}

/** The `model` parameter a request names, when it is not one the route declares (perhaps a stored source). */
export function undeclaredModel(params: readonly ParamSpec[], query: Record<string, unknown>): string | undefined {
  const spec = params.find((p) => p.name === 'model');
  const raw = query.model;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (!spec || spec.kind !== 'enum' || typeof value !== 'string' || spec.values.includes(value)) return undefined;
  return value;
}

/** The route's parameters with `model` also accepting the stored sources (validation lists them in its error). */
export function withStoredModels(params: readonly ParamSpec[], names: ReadonlySet<string>): readonly ParamSpec[] {
  if (names.size === 0) return params;
  return params.map((p) => (p.name === 'model' && p.kind === 'enum' ? { ...p, values: [...p.values, ...[...names].sort()] } : p));
}

/** The parameters that name a stored source to read actuals (or a list) from: /actual's `source`, /skill's `actual_source`. */
export const SOURCE_PARAMS = ['source', 'actual_source'] as const;

/** The `source` (or `actual_source`) a request names (the last one when repeated), before validation. */
export function namedSource(query: Record<string, unknown>, param: (typeof SOURCE_PARAMS)[number] = 'source'): string | undefined {
  const raw = query[param];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof value === 'string' ? value : undefined;
}

/** Does the (validated) request read a stored source? */
export function readsStoredSource(params: Record<string, ParamValue>, names: ReadonlySet<string>): boolean {
  return (typeof params.model === 'string' && names.has(params.model)) || typeof params.source === 'string';
}

/**
 * The routes as the OpenAPI document served describes them, given the stored sources and whether
 * the synthetic world is served. Once a source exists (or the world is off), `model` of the routes
 * that serve stored sources is a plain string parameter whose description names the synthetic
 * models (when served) and the stored sources: a client that caches the document (the official
 * client keeps it an hour) must not refuse a source ingested since, and the SDK's types take any
 * name. `source` (actuals, lists) names the stored sources too. With neither, the document is the
 * public service's, `model` an enum of the synthetic models.
 */
export function withStoredSourceRoutes(routes: readonly RouteDef[], names: ReadonlySet<string>, world: boolean): RouteDef[] {
  if (names.size === 0 && world) return [...routes];
  const listed = names.size ? [...names].sort().join(', ') : 'none yet (gridcast ingest, POST /admin/ingest)';
  const stored = `Stored (ingested) sources: ${listed}; /v1/status lists what each holds.`;
  return routes.map((r) => ({
    ...r,
    params: r.params.map((p): ParamSpec => {
      if (p.name === 'source') return { ...p, description: `${p.description ?? ''} ${stored}`.trim() };
      if (p.name !== 'model' || !r.storedModels || p.kind !== 'enum') return p;
      const models = world ? `${p.description ?? ''} Or a stored source. ` : 'The synthetic models are off (GRIDCAST_WORLD=off). ';
      return {
        name: p.name,
        in: p.in,
        kind: 'string',
        minLength: 1,
        examples: [...(world ? p.values : []), ...[...names].sort()],
        ...(world && p.default !== undefined ? { default: p.default } : {}),
        description: `${models}${stored}`,
      };
    }),
  }));
}

/** What the stored sources hold, for messages: `vendor_a (region ercot demand)`. */
export function describeSources(
  sources: readonly { name: string; series: readonly { group: string; iso: string | null; metric: string }[] }[],
): string {
  if (sources.length === 0) return 'no source has been ingested yet (gridcast ingest, POST /admin/ingest)';
  return sources
    .map((s) => `${s.name} (${s.series.map((k) => [k.group, k.iso, k.metric].filter(Boolean).join(' ')).join(', ')})`)
    .join('; ');
}

/**
 * A request's `source` (or /skill's `actual_source`) that names no stored source: a 422 on that
 * parameter (not `model`) naming the sources that exist and what they hold.
 */
export function unknownSourceError(
  name: string,
  sources: readonly SourceSummary[],
  param: (typeof SOURCE_PARAMS)[number] = 'source',
): HttpError {
  return new HttpError(422, {
    detail: [errorItem('value_error', ['query', param], `Value error, no stored source '${name}': ${describeSources(sources)}`, name)],
  });
}

/**
 * GRIDCAST_ACTUAL_SOURCE names a source no ingest has stored (yet): a 422 on the request's truth
 * parameter (`source`, `actual_source`), which may name another source, saying where the name came from.
 */
export function unstoredTruthError(param: string, name: string, iso: string, sources: readonly SourceSummary[]): HttpError {
  return new HttpError(422, {
    detail: [
      errorItem(
        'value_error',
        ['query', param],
        `Value error, GRIDCAST_ACTUAL_SOURCE makes '${name}' the source of ${iso}'s actuals, and no source '${name}' is stored: ` +
          describeSources(sources),
        null,
      ),
    ],
  });
}

/**
 * GRIDCAST_WORLD=off and a request that would read the synthetic world: a 422 on the parameter
 * that should name a stored source, or a 404 for a path no stored source serves; naming what exists.
 */
export function worldOffError(def: RouteDef, values: Record<string, ParamValue>, sources: readonly SourceSummary[]): HttpError {
  const off = 'the synthetic world is off (GRIDCAST_WORLD=off)';
  const exist = describeSources(sources);
  if (def.storedModels) {
    return new HttpError(422, {
      detail: [
        errorItem(
          'value_error',
          ['query', 'model'],
          `Value error, ${off}: model must name a stored source: ${exist}`,
          values.model ?? null,
        ),
      ],
    });
  }
  if (def.params.some((p) => p.name === 'source')) {
    return new HttpError(422, {
      detail: [errorItem('missing', ['query', 'source'], `Field required: ${off}; actuals come from a stored source: ${exist}`, null)],
    });
  }
  return serviceError(404, `The synthetic world is off (GRIDCAST_WORLD=off) and ${def.path} has no stored data. Stored sources: ${exist}.`);
}
