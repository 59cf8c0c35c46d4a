import { MAX_ID_BYTES } from '@tenure/core';
import { storableIdArb } from '@tenure/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH } from './atRiskCursor.js';
import { atRiskQuerySchema } from './schemas.js';

describe('at-risk cursors', () => {
  it('round-trip and are accepted by the query schema for every storable id up to the longest, and every score', () => {
    fc.assert(
      fc.property(storableIdArb, fc.integer({ min: 0, max: 100 }), (customer_id, score) => {
        const cursor = encodeCursor({ score, customer_id });
        expect(decodeCursor(cursor)).toEqual({ score, customer_id });
        expect(atRiskQuerySchema.safeParse({ cursor }).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts the worst case: an id of 256 control characters at score 100', () => {
    const cursor = encodeCursor({ score: 100, customer_id: '\u0001'.repeat(MAX_ID_BYTES) });
    expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
    expect(atRiskQuerySchema.safeParse({ cursor }).success).toBe(true);
  });

  it('refuses what it did not issue', () => {
    for (const cursor of ['', 'x', encodeCursor({ score: 1, customer_id: '' }), Buffer.from('[1.5,"u"]').toString('base64url')]) {
      expect(decodeCursor(cursor)).toBeUndefined();
    }
  });
});
