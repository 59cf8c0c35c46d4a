/** fast-check arbitraries of identifiers: every id tenure accepts, up to the longest. */
import fc from 'fast-check';
import { MAX_ID_BYTES, utf8Length } from '../events/identifier.js';

/** Drops whole characters from the end until the text fits in `MAX_ID_BYTES` of UTF-8. */
function fit(text: string): string {
  let chars = [...text];
  while (utf8Length(chars.join('')) > MAX_ID_BYTES) chars = chars.slice(0, -1);
  return chars.join('');
}

/**
 * Every identifier tenure accepts (see `identifierProblem`), up to `MAX_ID_BYTES` (256) bytes of
 * UTF-8: any code point but U+0000, astral ones included, with runs of control characters, quotes
 * and backslashes (which JSON escapes, so they make the longest cursors and export lines).
 *
 * @example
 * fc.assert(fc.property(storableIdArb, (id) => identifierProblem(id) === null));
 */
export const storableIdArb: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('\u0001', '\u001f', '"', '\\', '\u{1F600}', 'ユ', 'é', 'a'),
    ),
    { minLength: 1, maxLength: 300, size: 'max' },
  )
  .map((chars) => fit(chars.filter((c) => c !== '\u0000').join('')))
  .filter((id) => id.length > 0);
