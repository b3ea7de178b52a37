/** Every route of the public API, in the order of the OpenAPI document; shared by the app and the compute workers. */
import type { RouteDef } from '../route.ts';
import { cellRoutes } from './cells.ts';
import { countyRoutes } from './county.ts';
import { gasRoutes } from './gas.ts';
import { lmpRoutes } from './lmp.ts';
import { plantRoutes } from './plant.ts';
import { regionRoutes, summaryRoute } from './region.ts';
import { statusRoute } from './status.ts';
import { withOutputParams } from '../writers/registry.ts';

export const API_PREFIX = '/v1';

export const ROUTES: readonly RouteDef[] = [
  ...regionRoutes,
  summaryRoute,
  ...plantRoutes,
  ...countyRoutes,
  ...gasRoutes,
  ...lmpRoutes,
  ...cellRoutes,
  statusRoute,
].map(withOutputParams);

/** A route by its OpenAPI path (e.g. /plant/{iso}/{metric}/continuous). */
export const ROUTE_BY_PATH: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((r) => [r.path, r]));
