import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identifierProblem, MAX_ID_BYTES, utf8Length } from './identifier.js';

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
});
