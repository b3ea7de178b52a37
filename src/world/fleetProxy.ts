/**
 * The output of a fleet seen through its groups (catalog/fleetGroups.ts): on each hour,
 * Σ groups (the group's operating capacity / its representative's capacity) × the
 * representative's output under the batch's weather (full plant physics). The ensemble's
 * long-range models use it instead of Σ plants × 51 members.
 */
import type { FleetGroup } from '../catalog/fleetGroups.ts';
import { createSolarTimeTerms, createSunPosition, solarTimeTerms, sunPosition } from './physics/solar.ts';
import { PlantSeriesComputer, SunPositionCache, weatherNeedsFor } from './plantOutput.ts';
import { WeatherBatch } from './weather/batch.ts';
import type { WeatherSkill } from './weather/skill.ts';
import type { WeatherWorld } from './weather/world.ts';

const sunTerms = createSolarTimeTerms();
const sun = createSunPosition();

/** True when the sun is above the horizon at some representative at :15 or :45 of the hour (the instants plant output uses). */
export function sunUpAtAny(groups: readonly FleetGroup[], hour: number): boolean {
  for (const offset of [0.25, 0.75]) {
    solarTimeTerms(hour + offset, sunTerms);
    for (const g of groups) {
      sunPosition(sunTerms, hour + offset, g.rep.latitude, g.rep.longitude, sun);
      if (sun.cosZenith > 0) return true;
    }
  }
  return false;
}

/**
 * A fleet's proxy output on fixed hours, summed into rows (hour j adds to row rowOf[j]), for any
 * number of skills (ensemble members) of one run.
 */
export class FleetProxy {
  /** Per group and hour: operating capacity / the representative's capacity. */
  private readonly weights: Float64Array[];
  private readonly active: boolean[];
  private readonly suns = new SunPositionCache();

  constructor(
    private readonly world: WeatherWorld,
    private readonly metric: 'wind' | 'solar',
    private readonly groups: readonly FleetGroup[],
    private readonly hours: readonly number[],
    private readonly rowOf: readonly number[],
    private readonly rowCount: number,
  ) {
    this.weights = groups.map((g) =>
      Float64Array.from(hours, (h) => {
        let cap = 0;
        for (let k = 0; k < g.begins.length; k++) if (g.begins[k] <= h) cap += g.capacities[k];
        return cap / g.rep.capacity_mw;
      }),
    );
    this.active = this.weights.map((w) => w.some((x) => x > 0));
  }

  /** Per row, the sum of the fleet's output (MW) over its hours as the run created at `created` with `skill` sees it. */
  rowSums(skill: WeatherSkill, created: number): Float64Array {
    const n = this.hours.length;
    const out = new Float64Array(this.rowCount);
    if (n === 0) return out;
    const batch = new WeatherBatch(
      this.world,
      { valid: this.hours, created: this.hours.map(() => created) },
      skill,
      weatherNeedsFor(this.metric, skill),
    );
    const computer = new PlantSeriesComputer(batch, this.metric, this.hours, this.suns);
    const values = new Float64Array(n);
    this.groups.forEach((g, k) => {
      if (!this.active[k]) return;
      // The representative stands for its group's weather whether or not it already operates.
      computer.compute(g.rep, -Infinity, values);
      const w = this.weights[k];
      for (let j = 0; j < n; j++) out[this.rowOf[j]] += w[j] * values[j];
    });
    return out;
  }
}
