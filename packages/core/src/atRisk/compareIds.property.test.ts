import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareIds } from './compareIds.js';

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
/** Well-formed strings over every plane, so surrogate pairs meet U+E000..U+FFFF. */
const idArb = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'z', '\uE000', '\uFFFD', '\u{1F600}', '\u{10FFFF}', 'é'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 6 });

describe('compareIds', () => {
  it('orders like the UTF-8 bytes (SQLite BINARY, PostgreSQL "C")', () => {
    fc.assert(
      fc.property(idArb, idArb, (a, b) => {
        expect(sign(compareIds(a, b))).toBe(sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts an astral character after U+FFFD, unlike JavaScript <', () => {
    expect(compareIds('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFFFD').toBe(true);
  });
});
