/**
 * 32-bit avalanche mix (the murmur3 finaliser constants): the building block of every
 * deterministic pseudo-random number in gridcast (plant registry, weather world).
 */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
