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

// Ids are drawn for every event. Each is built from character codes into one flat string: string
// concatenation and slices would leave trees of cons and sliced strings behind every id (~400 bytes
// each, the largest allocation of a month advance in the heap profile).
const LOWER = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const UPPER = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));
const DASH = 45;

/** 32 random bits: the generator's output is a uint32 divided by 2^32, so this is exact. */
export const randomWord = (rnd: Random): number => (rnd() * 4294967296) >>> 0;

/** Writes the 8 hex digits of a word into `codes` from `at`. */
function writeWord(codes: number[], at: number, w: number, digits: readonly number[]): void {
  for (let shift = 28; shift >= 0; shift -= 4) codes[at++] = digits[(w >>> shift) & 15]!;
}

const fromCodes = (codes: number[]): string => String.fromCharCode.apply(null, codes);

/** One reusable array of character codes per id length: an id costs its string and nothing else. */
const codesByLength = new Map<number, number[]>();

/** The reusable code array of an id of that length, its prefix written. */
function codesFor(prefix: string, n: number): number[] {
  const length = prefix.length + n;
  let codes = codesByLength.get(length);
  if (codes === undefined) {
    codes = new Array<number>(length).fill(0);
    if (codesByLength.size < 64) codesByLength.set(length, codes);
  }
  for (let i = 0; i < prefix.length; i++) codes[i] = prefix.charCodeAt(i);
  return codes;
}

/**
 * Given a PRNG, a prefix and a number of characters, returns the prefix and that many lowercase
 * hex digits (8 per draw), as one flat string.
 */
export function prefixedHex(rnd: Random, prefix: string, n: number): string {
  const codes = codesFor(prefix, n);
  const start = prefix.length;
  // The last draw may have more digits than fit: only its leading ones are kept, as before.
  for (let i = 0; i < n; i += 8) {
    const w = randomWord(rnd);
    for (let k = 0, shift = 28; k < 8 && i + k < n; k += 1, shift -= 4) codes[start + i + k] = LOWER[(w >>> shift) & 15]!;
  }
  return fromCodes(codes);
}

/**
 * Given a prefix and two words, returns the prefix and their 16 lowercase hex digits: what
 * `prefixedHex(rnd, prefix, 16)` returns for a PRNG that draws these two words.
 *
 * @example
 * prefixedHexOfWords('vctx_', 0xdeadbeef, 1); // 'vctx_deadbeef00000001'
 */
export function prefixedHexOfWords(prefix: string, first: number, second: number): string {
  const codes = codesFor(prefix, 16);
  writeWord(codes, prefix.length, first, LOWER);
  writeWord(codes, prefix.length + 8, second, LOWER);
  return fromCodes(codes);
}

/** The second word of a UUID with its version bits set (version 4, RFC 9562). */
export const uuidVersionWord = (w: number): number => ((w & 0xffff0fff) | 0x00004000) >>> 0;
/** The third word of a UUID with its variant bits set (10xx). */
export const uuidVariantWord = (w: number): number => ((w & 0x3fffffff) | 0x80000000) >>> 0;

const uuidCodes: number[] = new Array<number>(36).fill(DASH);

/**
 * Given the four words of a UUID (the second and third with version and variant set), returns it in
 * upper case, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
 *
 * @example
 * uuidOfWords(0, uuidVersionWord(0), uuidVariantWord(0), 0); // '00000000-0000-4000-8000-000000000000'
 */
export function uuidOfWords(a: number, b: number, c: number, d: number): string {
  const codes = uuidCodes;
  // a | b (split by a dash) | c (split) then d
  writeWord(codes, 0, a, UPPER);
  codes[8] = DASH;
  writeWord(codes, 9, b, UPPER); // 9..16, then its last four move to 14..17
  for (let i = 17; i > 13; i -= 1) codes[i] = codes[i - 1]!;
  codes[13] = DASH;
  codes[18] = DASH;
  writeWord(codes, 19, c, UPPER); // 19..26, then its last four move to 24..27
  for (let i = 27; i > 23; i -= 1) codes[i] = codes[i - 1]!;
  codes[23] = DASH;
  writeWord(codes, 28, d, UPPER);
  return fromCodes(codes);
}

/**
 * Given a PRNG, returns a version-4-shaped UUID in upper case, as the billing service's event ids look.
 * Four draws of 32 bits, the version and variant bits set as RFC 9562 says.
 *
 * @example
 * uuidFrom(seededRandom('x')); // e.g. '1F3A…-…'
 */
export function uuidFrom(rnd: Random): string {
  const a = randomWord(rnd);
  const b = uuidVersionWord(randomWord(rnd));
  const c = uuidVariantWord(randomWord(rnd));
  return uuidOfWords(a, b, c, randomWord(rnd));
}

/** Given a PRNG and a number of characters, returns lowercase hex. */
export function hexFrom(rnd: Random, n: number): string {
  return prefixedHex(rnd, '', n);
}
