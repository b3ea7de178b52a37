/**
 * GRIDCAST_WORLD=off: the service serves only the sources users ingested, not the synthetic
 * world. Read from the environment at each use (the compute workers inherit it), so one process
 * has one answer everywhere.
 */
export function worldServed(): boolean {
  return process.env.GRIDCAST_WORLD !== 'off';
}
