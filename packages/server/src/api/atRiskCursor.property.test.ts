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
        expect(decodeCursor(cursor, 'score')).toEqual({ score, customer_id });
        expect(atRiskQuerySchema.safeParse({ cursor }).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trip in revenue order for every id and monthly value in whole cents, and only there', () => {
    fc.assert(
      fc.property(storableIdArb, fc.integer({ min: 0, max: 1_000_000_000 }), (customer_id, cents) => {
        const cursor = encodeCursor({ monthly_value_usd: cents / 100, customer_id });
        expect(decodeCursor(cursor, 'revenue')).toEqual({ monthly_value_usd: cents / 100, customer_id });
        expect(decodeCursor(cursor, 'score')).toBeUndefined();
        expect(decodeCursor(encodeCursor({ score: 50, customer_id }), 'revenue')).toBeUndefined();
        expect(atRiskQuerySchema.safeParse({ cursor, sort: 'revenue' }).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('accepts the worst case: an id of 256 control characters at score 100 or at the largest value', () => {
    for (const cursor of [
      encodeCursor({ score: 100, customer_id: '\u0001'.repeat(MAX_ID_BYTES) }),
      encodeCursor({ monthly_value_usd: Number.MAX_SAFE_INTEGER / 100, customer_id: '\u0001'.repeat(MAX_ID_BYTES) }),
    ]) {
      expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
      expect(atRiskQuerySchema.safeParse({ cursor }).success).toBe(true);
    }
  });

  it('refuses what it did not issue', () => {
    for (const cursor of [
      '',
      'x',
      encodeCursor({ score: 1, customer_id: '' }),
      Buffer.from('[1.5,"u"]').toString('base64url'),
      Buffer.from('["revenue",-1,"u"]').toString('base64url'),
      Buffer.from('["revenue",1.5,"u"]').toString('base64url'),
    ]) {
      expect(decodeCursor(cursor, 'score')).toBeUndefined();
      expect(decodeCursor(cursor, 'revenue')).toBeUndefined();
    }
  });
});
