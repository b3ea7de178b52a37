/**
 * The county group: an ISO's demand disaggregated to its member counties (5-digit FIPS ids)
 * by population (catalog/disaggregation.ts), so the counties add up to the ISO total for any
 * model, run and hour. Counties carry demand only, as in the public service.
 */
import { vintageQueriesFor } from './vintages.ts';
import { countyShares } from '../catalog/disaggregation.ts';
import { countiesOf, countyGeometry, type IsoCounty } from '../catalog/geography.ts';
import { ISOS, type IsoCode } from '../catalog/isos.ts';
import { unitOf } from '../catalog/metrics.ts';
import type { WeatherWorld } from '../world/weather/world.ts';
import { sharedDemand } from './aggregates.ts';
import { queryValueError } from './errors.ts';
import { queriesFor, type SeriesGroup } from './kinds.ts';

export interface CountyRequest {
  iso: IsoCode;
  id?: string;
}

/** The public county record (reference isoview-api.md §2) plus the ISO and zone it is counted in. */
export function countyList(iso: IsoCode): Record<string, unknown>[] {
  return countiesOf(iso).map((c) => ({
    id: c.fips,
    name: c.name,
    state: c.state,
    iso,
    region_id: `${iso}_${c.zone}`,
    geojson: countyGeometry(c.fips),
  }));
}

function selectCounties(iso: IsoCode, id: string | undefined): readonly IsoCounty[] {
  const all = countiesOf(iso);
  if (id === undefined) return all;
  const county = all.find((c) => c.fips === id.trim());
  if (!county)
    throw queryValueError('id', id, `unknown county id '${id}' in ${iso} (a 5-digit FIPS code); GET /v1/county/${iso}/list lists them`);
  return [county];
}

function countyGroup(world: WeatherWorld, { iso, id }: CountyRequest): SeriesGroup<IsoCounty> {
  const shares = countyShares(iso);
  return {
    timezone: ISOS[iso].timezone,
    units: unitOf('demand'),
    targets: selectCounties(iso, id),
    label: (county) => [county.fips],
    source: (rows, model) => {
      const demand = sharedDemand(world, iso, rows, model);
      return (county) => demand(shares.get(county.fips)!);
    },
  };
}

/** forecast and continuous of county demand (the group has no actuals or backcast routes). */
export const countyQueries = queriesFor(countyGroup);
export const countyVintages = vintageQueriesFor(countyGroup);
