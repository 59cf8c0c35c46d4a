import { MAX_ID_BYTES, utf8Length } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH } from './atRiskCursor.js';
import { atRiskQuerySchema } from './schemas.js';

/** Drops whole characters from the end until the text fits in `MAX_ID_BYTES` of UTF-8. */
const fit = (chars: string[]): string => {
  let text = chars.join('');
  while (utf8Length(text) > MAX_ID_BYTES) text = [...text].slice(0, -1).join('');
  return text;
};

/**
 * Every id the service stores, up to the longest: any code point but U+0000 (astral ones included),
 * with runs of control characters (6 JSON characters per byte: the longest cursors).
 */
const storableIdArb = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('\u0001', '\u001f', '"', '\\', '\u{1F600}', 'ユ', 'é'),
    ),
    { minLength: 1, maxLength: 300, size: 'max' },
  )
  .map((chars) => fit(chars.filter((c) => c !== '\u0000')))
  .filter((id) => id.length > 0);

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
