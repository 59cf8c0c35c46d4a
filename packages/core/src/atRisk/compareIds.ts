/**
 * The one order of customer ids every store shares: Unicode code point order, which is the byte
 * order of UTF-8 (SQLite's BINARY collation, PostgreSQL's "C" collation). JavaScript's own `<`
 * compares UTF-16 code units, which puts U+E000..U+FFFF after astral characters; this does not.
 */

/** Maps a UTF-16 code unit so that code-unit order becomes code-point order. */
const fix = (unit: number): number => (unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit);

/**
 * Given two ids, returns a negative number, 0 or a positive number as `a` sorts before, with or
 * after `b` in code point order (UTF-8 byte order). Pure.
 *
 * @example
 * compareIds('a', 'b'); // -1
 * compareIds('\u{1F600}', '\uFFFD'); // 1: U+1F600 is after U+FFFD, as in UTF-8
 */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : fix(x) - fix(y);
  }
  return a.length - b.length;
}
