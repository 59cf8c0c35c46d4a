/**
 * What an identifier tenure stores and keys by must be: `app_user_id`, `original_app_user_id`,
 * aliases, transferred ids and event ids. Plain functions, no schema library, so callers on the hot
 * path and the HTTP edge share one rule.
 */

/**
 * The longest identifier tenure accepts, in UTF-8 bytes: what every store writes and indexes, and
 * the same count in any language or database (`octet_length`). RevenueCat app user ids are
 * typically UUIDs (36 bytes) or `$RCAnonymousID:` + 32 hex digits (47 bytes); 256 bytes leaves
 * room for custom ids of 256 ASCII, 85 CJK or 64 emoji characters.
 *
 * @example
 * utf8Length(id) <= MAX_ID_BYTES;
 */
export const MAX_ID_BYTES = 256;

/** A lone UTF-16 surrogate: not encodable as UTF-8, so a database would store U+FFFD in its place. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Given a text, returns the number of bytes of its UTF-8 encoding (a lone surrogate counts 3, as
 * its replacement character would). Pure.
 *
 * @example
 * utf8Length('é'); // 2
 * utf8Length('\u{1F600}'); // 4
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Whether a text can be stored as an identifier unchanged: no U+0000 (PostgreSQL text cannot hold
 * it) and no lone surrogate (UTF-8 cannot encode it; two different ids would be stored as one).
 * Length is checked separately (`identifierProblem`). Pure.
 *
 * @example
 * isStorableId('user_1'); // true
 * isStorableId('a\u0000b'); // false
 */
export function isStorableId(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** The message of an identifier that is not storable unchanged. */
export const UNSTORABLE_ID_MESSAGE = 'Must be well-formed Unicode without U+0000';
/** The message of an identifier longer than `MAX_ID_BYTES`. */
export const ID_TOO_LONG_MESSAGE = `Must be at most ${MAX_ID_BYTES} bytes of UTF-8`;

/**
 * Given a text, returns why it is not an acceptable identifier (empty, longer than `MAX_ID_BYTES`
 * in UTF-8, or not storable unchanged), or null when it is one. Pure.
 *
 * @example
 * identifierProblem('user_1'); // null
 * identifierProblem('x'.repeat(257)); // 'Must be at most 256 bytes of UTF-8'
 */
export function identifierProblem(text: string): string | null {
  if (text.length === 0) return 'Must not be empty';
  // A code unit is at least one byte, so a long text is rejected before it is scanned.
  if (text.length > MAX_ID_BYTES) return ID_TOO_LONG_MESSAGE;
  // One pass for both rules (this runs on every id of every webhook): the UTF-8 length as
  // `utf8Length` counts it, and `isStorableId`'s U+0000 and lone surrogates.
  let bytes = 0;
  let storable = true;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      bytes += 1;
      if (unit === 0) storable = false;
    } else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = unit <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
        storable = false;
      }
    } else bytes += 3;
  }
  if (bytes > MAX_ID_BYTES) return ID_TOO_LONG_MESSAGE;
  return storable ? null : UNSTORABLE_ID_MESSAGE;
}
