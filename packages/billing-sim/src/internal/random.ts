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

// Two hex digits per byte, looked up: ids are drawn for every event, so no per-digit toString.
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const BYTE_HEX_UPPER = BYTE_HEX.map((h) => h.toUpperCase());

/** 32 random bits: the generator's output is a uint32 divided by 2^32, so this is exact. */
const word = (rnd: Random): number => (rnd() * 4294967296) >>> 0;

/** The 4 bytes of a word as 8 hex digits. */
const wordHex = (w: number, table: readonly string[]): string =>
  table[w >>> 24]! + table[(w >>> 16) & 0xff]! + table[(w >>> 8) & 0xff]! + table[w & 0xff]!;

const hex = (rnd: Random, n: number): string => {
  let s = '';
  while (s.length < n) s += wordHex(word(rnd), BYTE_HEX);
  return s.length === n ? s : s.slice(0, n);
};

/**
 * Given a PRNG, returns a version-4-shaped UUID in upper case, as the billing service's event ids look.
 * Four draws of 32 bits, the version and variant bits set as RFC 9562 says.
 *
 * @example
 * uuidFrom(seededRandom('x')); // e.g. '1F3A…-…'
 */
export function uuidFrom(rnd: Random): string {
  const a = word(rnd);
  const b = (word(rnd) & 0xffff0fff) | 0x00004000; // version 4
  const c = ((word(rnd) & 0x3fffffff) | 0x80000000) >>> 0; // variant 10xx
  const d = word(rnd);
  const t = BYTE_HEX_UPPER;
  const bh = wordHex(b >>> 0, t);
  const ch = wordHex(c, t);
  return `${wordHex(a, t)}-${bh.slice(0, 4)}-${bh.slice(4)}-${ch.slice(0, 4)}-${ch.slice(4)}${wordHex(d, t)}`;
}

/** Given a PRNG and a number of characters, returns lowercase hex. */
export function hexFrom(rnd: Random, n: number): string {
  return hex(rnd, n);
}
