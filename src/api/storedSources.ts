/**
 * The HTTP thread's view of the stored sources, for validating requests: `model` accepts the
 * synthetic models and every stored source, and a request that names a stored source is
 * answered fresh (its data can change with any ingest, so no ETag, no cached body).
 *
 * The names are cached briefly (several processes may share one database, and another one may
 * ingest); a name not in the cache is looked up again at once, so a source is usable the moment
 * its ingest has committed.
 */
import type { SourceStore } from '../store/sources.ts';
import type { ParamSpec, ParamValue } from './params.ts';

const NAMES_TTL_MS = 5_000;

export class StoredSourceNames {
  private names: Set<string> = new Set();
  private fetchedAt = -Infinity;

  constructor(private readonly store: Pick<SourceStore, 'names'>) {}

  /** The stored source names; re-read when stale or when `wanted` is not among them. */
  async get(wanted?: string): Promise<Set<string>> {
    if (Date.now() - this.fetchedAt > NAMES_TTL_MS || (wanted !== undefined && !this.names.has(wanted))) {
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

/** Does the (validated) request read a stored source? */
export function readsStoredSource(params: Record<string, ParamValue>, names: ReadonlySet<string>): boolean {
  return (typeof params.model === 'string' && names.has(params.model)) || typeof params.source === 'string';
}
