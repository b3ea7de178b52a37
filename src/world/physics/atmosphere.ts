/**
 * Constants of the standard atmosphere and of the world's wind, used by every model that moves
 * air between heights or converts pressure and temperature to density (docs/references.md).
 */

/** Temperature lapse rate of the standard atmosphere (troposphere), K/m: T(z) = T₀ − Γ·z. */
export const STANDARD_LAPSE_K_PER_M = 0.0065;

/** Sea-level pressure of the standard atmosphere, Pa. */
export const STANDARD_PRESSURE_PA = 101_325;

/** Standard gravity, m/s². */
export const G0 = 9.80665;

/** Specific gas constant of dry air, J/(kg·K). */
export const R_DRY = 287.05;

/** Air density of the standard atmosphere at sea level, kg/m³ (the power curves' reference density). */
export const RHO_STD = 1.225;

/** Height above ground of the world's wind speed (weather/batch.ts wind100Ms), m; also a hub's height when a plant gives none. */
export const REFERENCE_WIND_HEIGHT_M = 100;

/** Height above ground of the world's air temperature, m. */
export const SCREEN_HEIGHT_M = 2;

/** A turbine's hub height, m: the plant's own, or the reference height when the record has none. */
export function hubHeightM(plant: { hub_height_m: number }): number {
  return plant.hub_height_m > 0 ? plant.hub_height_m : REFERENCE_WIND_HEIGHT_M;
}
