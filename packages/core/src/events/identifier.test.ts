import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ID_TOO_LONG_MESSAGE, identifierProblem, isStorableId, MAX_ID_BYTES, UNSTORABLE_ID_MESSAGE, utf8Length } from './identifier.js';

// The reference encoder: what a database stores.
const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('counts 1, 2, 3 and 4 bytes per character as UTF-8 does', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('ユ')).toBe(3);
    expect(utf8Length('\u{1F600}')).toBe(4);
  });

  it('equals the length of the UTF-8 encoding of any well-formed text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
      expect(utf8Length(text)).toBe(encoded(text));
    }));
  });
});

describe('identifierProblem', () => {
  it('accepts a RevenueCat anonymous id and a UUID', () => {
    expect(identifierProblem('$RCAnonymousID:8069238d6049ce87cc529853916d624c')).toBeNull();
    expect(identifierProblem('8f1e6a9c-0001-4f00-9a11-000000000001')).toBeNull();
  });

  it('rejects exactly the storable texts longer than MAX_ID_BYTES in UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }), (text) => {
        fc.pre(!text.includes('\u0000'));
        expect(identifierProblem(text) === null).toBe(encoded(text) <= MAX_ID_BYTES);
      }),
    );
  });

  it('answers as its two rules apart (utf8Length, then isStorableId) for any text of code units, surrogates and U+0000 included', () => {
    // The rules as they read, checked one after the other: identifierProblem checks both in one pass.
    const reference = (text: string): string | null =>
      text.length === 0 ? 'Must not be empty' : utf8Length(text) > MAX_ID_BYTES ? ID_TOO_LONG_MESSAGE : isStorableId(text) ? null : UNSTORABLE_ID_MESSAGE;
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D\uDE00', 'a', 'é', 'ユ'),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 12 }), fc.string({ unit, minLength: 60, maxLength: 270 })), (text) => {
        expect(identifierProblem(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});
