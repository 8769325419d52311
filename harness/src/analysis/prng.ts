/**
 * mulberry32: small, fast, seedable; good enough for resampling. Its state is one 32-bit integer
 * that advances by a constant, and each value is a pure function of the state: a hot loop can keep
 * the state in a local variable (median-bootstrap.ts) and draw the very same sequence as `prng`.
 */
export const MULBERRY_INCREMENT = 0x6d2b79f5;

/** The value in [0, 1) of a state (the state already advanced by MULBERRY_INCREMENT). */
export function mulberry32(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A seeded generator of values in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + MULBERRY_INCREMENT) >>> 0;
    return mulberry32(a);
  };
}
