/** The world's weather fields, truth and forecast errors, fixed by one seed. */
import { SpectralField, type FieldSpec } from '../field.ts';
import { ExtremeCatalogue } from './extremes.ts';
import { GROUP_SPECS, type GroupName } from './fields.ts';

/** The seed of the world every gridcast serves unless told otherwise. */
export const DEFAULT_WORLD_SEED = 20260101;

/**
 * What the world's fields compute per instant, precomputed over a span of hours
 * (SpectralField.hourTable): the truth fields' time bases and the wave phases of the error fields
 * of some forecasts, one buffer per field. Made once by the compute pool in shared memory and
 * given to every worker; the values are the fields' own, so nothing served changes.
 */
export interface HourTables {
  /** The world they were computed for. */
  seed: number;
  firstHour: number;
  hours: number;
  /** By truth group name, and by error field key (`${errorSeedName}:${group}`). */
  truth: Partial<Record<GroupName, ArrayBufferLike>>;
  errors: Record<string, ArrayBufferLike>;
}

/** The world: its fields are fixed by the seed. One instance serves the whole process. */
export class WeatherWorld {
  readonly seed: number;
  /** Arctic outbreaks and heat domes (extremes.ts). */
  readonly extremes: ExtremeCatalogue;
  private readonly truth = new Map<GroupName, SpectralField>();
  private readonly errors = new Map<string, SpectralField>();

  constructor(seed = DEFAULT_WORLD_SEED) {
    this.seed = seed;
    this.extremes = new ExtremeCatalogue(seed);
    for (const [name, spec] of Object.entries(GROUP_SPECS) as [GroupName, Omit<FieldSpec, 'name'>][]) {
      this.truth.set(name, new SpectralField({ name, ...spec }, seed));
    }
  }

  /** Tables this world reads (useHourTables), also for the error fields it makes later. */
  private tables: HourTables | null = null;

  /**
   * The tables of the truth fields and of the error fields of these forecasts (their error seed
   * names) over [firstHour, firstHour + hours), in shared memory (~1.2 kB an hour for the truth,
   * ~0.7 kB for each forecast's errors); this world reads them from now on.
   */
  hourTables(firstHour: number, hours: number, errorSeedNames: readonly string[]): HourTables {
    const shared = (field: SpectralField, kind: 'truth' | 'error') => {
      const buffer = new SharedArrayBuffer(8 * 2 * field.k * hours);
      field.hourTable(kind, firstHour, hours, buffer);
      return buffer;
    };
    const tables: HourTables = { seed: this.seed, firstHour, hours, truth: {}, errors: {} };
    for (const [name, field] of this.truth) tables.truth[name] = shared(field, 'truth');
    for (const seedName of errorSeedNames) {
      for (const group of this.truth.keys()) tables.errors[errorKey(seedName, group)] = shared(this.errorField(group, seedName), 'error');
    }
    this.useHourTables(tables);
    return tables;
  }

  /** Reads the per-instant values of its fields from tables hourTables made (for a world of this seed) where they hold the rows. */
  useHourTables(tables: HourTables): void {
    if (tables.seed !== this.seed) throw new Error(`hour tables of world ${tables.seed} offered to world ${this.seed}`);
    this.tables = tables;
    for (const [name, field] of this.truth) this.useTable(field, 'truth', tables.truth[name]);
    for (const [key, field] of this.errors) this.useTable(field, 'error', tables.errors[key]);
  }

  private useTable(field: SpectralField, kind: 'truth' | 'error', buffer: ArrayBufferLike | undefined): void {
    const tables = this.tables;
    if (tables && buffer) field.useTable({ kind, firstHour: tables.firstHour, hours: tables.hours, values: new Float64Array(buffer) });
  }

  truthField(group: GroupName): SpectralField {
    return this.truth.get(group)!;
  }

  errorField(group: GroupName, errorSeedName: string): SpectralField {
    const key = errorKey(errorSeedName, group);
    let f = this.errors.get(key);
    if (!f) {
      // Errors need less spatial detail than the weather itself: about half the waves.
      const spec = GROUP_SPECS[group];
      f = new SpectralField({ name: `error:${key}`, ...spec, components: Math.ceil(spec.components / 2) + 1 }, this.seed);
      this.errors.set(key, f);
      this.useTable(f, 'error', this.tables?.errors[key]);
    }
    return f;
  }
}

/** An error field's name among a world's: its forecast's error seed name and the group. */
function errorKey(errorSeedName: string, group: GroupName): string {
  return `${errorSeedName}:${group}`;
}
