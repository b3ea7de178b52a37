/** The world's weather fields, truth and forecast errors, fixed by one seed. */
import { SpectralField, type FieldSpec } from '../field.ts';
import { ExtremeCatalogue } from './extremes.ts';
import { GROUP_SPECS, type GroupName } from './fields.ts';

/** The seed of the world every gridcast serves unless told otherwise. */
export const DEFAULT_WORLD_SEED = 20260101;

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

  truthField(group: GroupName): SpectralField {
    return this.truth.get(group)!;
  }

  errorField(group: GroupName, errorSeedName: string): SpectralField {
    const key = `${errorSeedName}:${group}`;
    let f = this.errors.get(key);
    if (!f) {
      // Errors need less spatial detail than the weather itself: about half the waves.
      const spec = GROUP_SPECS[group];
      f = new SpectralField({ name: `error:${key}`, ...spec, components: Math.ceil(spec.components / 2) + 1 }, this.seed);
      this.errors.set(key, f);
    }
    return f;
  }
}
