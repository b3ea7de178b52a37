/**
 * Constants of the standard atmosphere and of the world's wind, used by every model that moves
 * air between heights or converts pressure and temperature to density. Sources and equations:
 * docs/physics.md §Atmosphere.
 */

/**
 * Temperature lapse rate of the standard atmosphere (troposphere): T(z) = T₀ − Γ·z.
 *
 * Units: K/m. Source: U.S. Standard Atmosphere 1976; ISO 2533:1975.
 */
export const STANDARD_LAPSE_K_PER_M = 0.0065;

/**
 * Sea-level pressure of the standard atmosphere, p₀.
 *
 * Units: Pa. Source: U.S. Standard Atmosphere 1976; ISO 2533:1975.
 */
export const STANDARD_PRESSURE_PA = 101_325;

/**
 * Standard gravity, g₀.
 *
 * Units: m/s². Source: CGPM 1901 (the conventional value), U.S. Standard Atmosphere 1976.
 */
export const G0 = 9.80665;

/**
 * Specific gas constant of dry air, R_d, in ρ = p / (R_d·T).
 *
 * Units: J/(kg·K). Source: U.S. Standard Atmosphere 1976; IEC 61400-12-1 uses the same value.
 */
export const R_DRY = 287.05;

/**
 * Air density of the standard atmosphere at sea level, the reference density of power curves:
 * v_eq = v·(ρ / ρ_std)^(1/3).
 *
 * Units: kg/m³. Source: IEC 61400-12-1:2017 §9.1.5; docs/physics.md §Wind.
 */
export const RHO_STD = 1.225;

/** Height above ground of the world's wind speed (weather/batch.ts wind100Ms), m; also a hub's height when a plant gives none. */
export const REFERENCE_WIND_HEIGHT_M = 100;

/** Height above ground of the world's air temperature (screen height), m. */
export const SCREEN_HEIGHT_M = 2;

/** A turbine's hub height, m: the plant's own, or the reference height when the record has none. */
export function hubHeightM(plant: { hub_height_m: number }): number {
  return plant.hub_height_m > 0 ? plant.hub_height_m : REFERENCE_WIND_HEIGHT_M;
}

/**
 * Pressure of the standard atmosphere at an elevation, as a fraction of sea level:
 *
 *   p(h) / p₀ = (1 − 2.25577·10⁻⁵·h)^5.25588
 *
 * Units: h in m above sea level; the result is dimensionless. Source: U.S. Standard Atmosphere
 * 1976 (barometric formula, troposphere); pvlib atmosphere.alt2pres. docs/physics.md §Atmosphere.
 */
export function standardPressureRatio(elevationM: number): number {
  return Math.pow(1 - 2.25577e-5 * elevationM, 5.25588);
}
