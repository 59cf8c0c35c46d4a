/**
 * Draws from a seeded stream of uniform numbers in [0, 1) (the core's `seededRandom`): chances,
 * normal and exponential variates, instants inside an interval, weighted picks. Pure functions of
 * the stream: the same stream gives the same draws.
 */

/** A stream of numbers in [0, 1). */
export type Uniform = () => number;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** The model's month for hazards and waits: a twelfth of a 365.25-day year. */
export const MONTH_MS = (365.25 / 12) * DAY_MS;

/** True with probability `p`. */
export const chance = (u: Uniform, p: number): boolean => p > 0 && u() < p;

/** A standard normal variate (Box–Muller; one of the pair). */
export function normal(u: Uniform): number {
  const a = 1 - u(); // (0, 1]: log is finite
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u());
}

/** An exponential wait (ms) of a process with `perMs` events per ms; Infinity when the rate is 0. */
export function exponentialWait(u: Uniform, perMs: number): number {
  return perMs > 0 ? -Math.log(1 - u()) / perMs : Infinity;
}

/** A whole number uniform in [min, max]. */
export const integerIn = (u: Uniform, min: number, max: number): number => min + Math.floor(u() * (max - min + 1));

/**
 * A whole minute strictly inside (from, to), both whole minutes apart by at least two minutes; else
 * `from + 1 minute` (events of one customer never share an instant). Whole minutes keep every
 * instant exact in the data export, which writes whole seconds.
 */
export function minuteInside(u: Uniform, from: number, to: number): number {
  const minutes = Math.floor((to - from) / MINUTE_MS) - 1;
  return from + MINUTE_MS * (1 + (minutes > 0 ? Math.floor(u() * minutes) : 0));
}

/** Rounds an instant up to a whole minute. */
export const ceilMinute = (at: number): number => Math.ceil(at / MINUTE_MS) * MINUTE_MS;

/** A key drawn by weight (weights need not sum to 1). */
export function pickWeighted<K extends string>(u: Uniform, weights: Readonly<Record<K, number>>): K {
  const keys = Object.keys(weights) as K[];
  let total = 0;
  for (const k of keys) total += weights[k];
  let x = u() * total;
  for (const k of keys) {
    x -= weights[k];
    if (x < 0) return k;
  }
  return keys[keys.length - 1]!;
}

/** The chance that an event of monthly hazard `h` happens within `months` months. */
export const withinMonths = (h: number, months: number): number => 1 - Math.pow(1 - Math.min(Math.max(h, 0), 1), months);
