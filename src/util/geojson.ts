/**
 * GeoJSON coordinates rounded to 6 decimals (~0.1 m), the precision RFC 7946 §11.2 suggests:
 * the computed geometry carries 15+ digits that only make responses bigger. Equal inputs
 * round to equal outputs, so shapes that share vertices still share them.
 */
type Coordinates = number | Coordinates[];

function roundCoordinates(c: Coordinates): Coordinates {
  return typeof c === 'number' ? Math.round(c * 1e6) / 1e6 : c.map(roundCoordinates);
}

/** A copy of a Polygon / MultiPolygon geometry with rounded coordinates. */
export function roundGeometry<G extends { type: string; coordinates: unknown }>(geometry: G): G {
  return { ...geometry, coordinates: roundCoordinates(geometry.coordinates as Coordinates) };
}
