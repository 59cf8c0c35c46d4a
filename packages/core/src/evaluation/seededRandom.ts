/** A small seeded pseudo-random generator: deterministic streams for searches, benches and tests, never `Math.random`. */

/**
 * Given a seed, returns a generator of numbers in [0, 1) (mulberry32): the same seed gives the same
 * stream on every run and machine. Pure apart from the returned closure's own state.
 *
 * @example
 * const random = seededRandom(7);
 * random(); // the same first value for seed 7, every time
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
