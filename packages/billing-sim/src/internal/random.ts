/**
 * Seeded randomness for the simulator: a small PRNG (mulberry32) seeded from a string, and the id
 * makers built on it, so runs started with the same seed produce the same ids.
 */

/** A source of numbers in [0, 1), deterministic for a given seed. */
export type Random = () => number;

/** FNV-1a hash of a string to a 32-bit seed (the state a seeded PRNG starts from). */
export function hashSeed(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Given a seed, returns a deterministic PRNG (mulberry32).
 *
 * @example
 * const rnd = seededRandom('demo'); rnd(); // always the same first number for 'demo'
 */
export function seededRandom(seed: string): Random {
  return randomFromState(hashSeed(seed)).random;
}

/**
 * Given a PRNG state (a uint32), returns the PRNG continuing from it and a reader of its current
 * state, so a pure machine can keep the state in its data and resume from it.
 *
 * @example
 * const r = randomFromState(hashSeed('demo')); r.random(); const saved = r.state();
 */
export function randomFromState(initial: number): { random: Random; state: () => number } {
  let a = initial >>> 0;
  return {
    random: () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
    state: () => a,
  };
}

const hex = (rnd: Random, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(rnd() * 16).toString(16);
  return s;
};

/**
 * Given a PRNG, returns a version-4-shaped UUID in upper case, as the billing service's event ids look.
 *
 * @example
 * uuidFrom(seededRandom('x')); // e.g. '1F3A…-…'
 */
export function uuidFrom(rnd: Random): string {
  const variant = (8 + Math.floor(rnd() * 4)).toString(16);
  return `${hex(rnd, 8)}-${hex(rnd, 4)}-4${hex(rnd, 3)}-${variant}${hex(rnd, 3)}-${hex(rnd, 12)}`.toUpperCase();
}

/** Given a PRNG and a number of characters, returns lowercase hex. */
export function hexFrom(rnd: Random, n: number): string {
  return hex(rnd, n);
}
