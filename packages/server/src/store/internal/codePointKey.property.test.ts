// codePointKey against the core's compareIds: comparing keys natively orders ids like compareIds,
// for any strings (astral characters, U+E000..U+FFFF, lone surrogates).
import fc from 'fast-check';
import { compareIds } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { codePointKey, compareKeys } from './codePointKey.js';

const idArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: fc.constantFrom('a', 'b', '\uD7FF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uE000', '\uFFFD', '\uFFFF'), maxLength: 5 }),
  fc.string({ maxLength: 8 }),
);

describe('codePointKey (property)', () => {
  it('orders keys natively exactly as compareIds orders the ids', () => {
    fc.assert(
      fc.property(idArb, idArb, (a, b) => {
        expect(Math.sign(compareKeys(codePointKey(a), codePointKey(b)))).toBe(Math.sign(compareIds(a, b)));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps an id without code units at or above U+D800 as its own key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (id) => {
        expect(codePointKey(id)).toBe(id);
      }),
    );
  });
});
