/**
 * The two random streams of a generated customer: one for the model's draws, one for its ids.
 *
 * Each is an sfc32 generator (128 bits of state) whose state starts from the seed's hash, the
 * customer's index and the stream's tag, so no two customers start in the same state. A 32-bit
 * generator (mulberry32) seeded by a hash of `seed:index` could not promise that: its states all lie
 * on one cycle of 2^32, a customer's stream is a window of it, and at a million customers windows
 * overlap (1,070 event ids of 571 customers repeated another customer's with seed `bench`).
 * In a 2^128 state space, windows of a few thousand draws of ten million customers meet with a chance
 * of the order of 2^-66 (a population's ids are also checked unique in its tests).
 */
import { hashSeed, type Random } from '../internal/random.js';

/** Which of a customer's streams: the model's draws or the event and subscription ids. */
export type CustomerStreamTag = 'model' | 'ids';

const TAG_WORD: Readonly<Record<CustomerStreamTag, number>> = { model: 0x6d6f646c, ids: 0x69647321 };

/** Draws thrown away after seeding, so states that start close (neighbouring indexes) diverge. */
const WARM_UP = 16;

/**
 * Given four 32-bit words, returns the sfc32 generator (Chris Doty-Humphrey's Small Fast Chaotic
 * PRNG, 32-bit variant) starting from them: numbers in [0, 1), each a uint32 / 2^32.
 *
 * @example
 * const r = sfc32(1, 2, 3, 4); r(); // the same first number every time
 */
export function sfc32(a: number, b: number, c: number, d: number): Random {
  let s0 = a | 0;
  let s1 = b | 0;
  let s2 = c | 0;
  let s3 = d | 0;
  return () => {
    const t = (((s0 + s1) | 0) + s3) | 0; // a + b + counter++
    s3 = (s3 + 1) | 0;
    s0 = s1 ^ (s1 >>> 9);
    s1 = (s2 + (s2 << 3)) | 0;
    s2 = (((s2 << 21) | (s2 >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/**
 * Given the population's seed, a customer's index and a tag, returns that customer's stream: the
 * same for the same three, whatever else is generated, and distinct in state from every other
 * customer's and tag's.
 *
 * @example
 * const ids = customerStream('bench', 5276, 'ids'); ids(); // customer 5,277's first id word
 */
export function customerStream(seed: string, index: number, tag: CustomerStreamTag): Random {
  const r = sfc32(hashSeed(seed), hashSeed(`${seed}\u0000${tag}`), index >>> 0, TAG_WORD[tag]);
  for (let i = 0; i < WARM_UP; i += 1) r();
  return r;
}
