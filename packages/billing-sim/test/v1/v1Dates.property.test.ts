// API v1's instants are written from numbers: the same text `Date#toISOString` gives (without a zero
// fraction) for every instant, inside and outside the four-digit years.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoV1 } from '../../src/v1/v1Dates.js';

const byDate = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const writesAsDate = (ms: number) => {
  expect(isoV1(ms)).toBe(byDate(ms));
};
/** The range `Date` accepts. */
const MAX = 8.64e15;

describe('isoV1', () => {
  it('writes what Date writes for any whole millisecond', () => {
    fc.assert(fc.property(fc.integer({ min: -MAX, max: MAX }), writesAsDate), { numRuns: 2000 });
  });

  it('writes what Date writes for whole seconds, days and the edges of the four-digit years', () => {
    const edges = [0, 1, 999, 1000, 86_399_999, 86_400_000, -1, -86_400_000, 951_782_400_000, 253_402_300_799_999, 253_402_300_800_000, 1.5, -0.5];
    const seconds = fc.integer({ min: 0, max: 253_402_300_799 }).map((s) => s * 1000);
    const days = fc.integer({ min: 0, max: 2_932_896 }).map((d) => d * 86_400_000);
    fc.assert(fc.property(fc.oneof(fc.constantFrom(...edges), seconds, days), writesAsDate), { numRuns: 2000 });
  });
});
