/**
 * Index keys whose plain JavaScript order (`<`, UTF-16 code units) is the code point order of the
 * ids they stand for, so the indexes compare with the engine's native string comparison instead of
 * the core's `compareIds` loop. Most ids have no code unit at or above U+D800 and are their own key.
 */

/** Code units at or above U+D800 (surrogates and U+E000..U+FFFF) are the only ones that move. */
const NEEDS_MAPPING = /[\uD800-\uFFFF]/;

/**
 * Given an id, returns a string of the same length whose code unit order is the id's code point
 * order: surrogates move above U+E000..U+FFFF, which move down to make room (the mapping the core's
 * `compareIds` applies per unit). Pure.
 *
 * @example
 * codePointKey('alice') === 'alice'; // true: nothing to map
 * codePointKey('\uFFFD') < codePointKey('\u{1F600}'); // true, as in UTF-8
 */
export function codePointKey(id: string): string {
  if (!NEEDS_MAPPING.test(id)) return id;
  let key = '';
  for (let i = 0; i < id.length; i++) {
    const unit = id.charCodeAt(i);
    key += String.fromCharCode(unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);
  }
  return key;
}

/** Compares two keys made by `codePointKey`: negative, 0 or positive. */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
