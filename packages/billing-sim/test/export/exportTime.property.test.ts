// The export's time text is `toISOString`'s, to the second, for every instant the retention service accepts.
import { EPOCH_MS_END, EPOCH_MS_MIN } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportTime } from '../../src/export/exportRows.js';

describe('exportTime', () => {
  it('writes the UTC date and time of toISOString, whole seconds, for any accepted instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: EPOCH_MS_MIN, max: EPOCH_MS_END - 1 }), (ms) => {
        expect(exportTime(ms)).toBe(new Date(ms).toISOString().slice(0, 19).replace('T', ' '));
      }),
      { numRuns: 5000 },
    );
  });

  it('writes day boundaries and leap days', () => {
    expect(exportTime(Date.UTC(2028, 1, 29, 23, 59, 59, 999))).toBe('2028-02-29 23:59:59');
    expect(exportTime(Date.UTC(2100, 0, 1) - 1)).toBe('2099-12-31 23:59:59');
    expect(exportTime(Date.UTC(2000, 0, 1))).toBe('2000-01-01 00:00:00');
  });
});
