/**
 * Checks a report page is one self-contained document: no URL, script, stylesheet link, image
 * source or CSS import, and every element closed in order (a tag-balance parse of the whole page).
 */
import { expect } from 'vitest';

const VOID = new Set(['meta', 'br', 'img', 'input', 'link', 'hr', 'col', 'source', 'wbr']);
/** Elements whose content is text, not markup. */
const RAW = new Set(['style', 'title', 'script']);

/**
 * Given an HTML page, fails the test unless it has no external reference and its elements nest:
 * returns the number of each element found.
 *
 * @example
 * checkSelfContained(readFileSync('report.html', 'utf8')).svg; // 4
 */
export function checkSelfContained(html: string): Record<string, number> {
  expect(html.startsWith('<!doctype html>')).toBe(true);
  for (const forbidden of [/https?:/i, /<script/i, /<link/i, /\ssrc=/i, /url\(/i, /@import/i, /<iframe/i, /<object/i, /\shref=/i]) expect(html).not.toMatch(forbidden);
  const stack: string[] = [];
  const counts: Record<string, number> = {};
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"<>]*")?)*)\s*(\/?)>|<!doctype html>|<!--[\s\S]*?-->/g;
  let at = 0;
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    // Between tags only text: a stray `<` means a tag the pattern could not read (a broken attribute).
    expect(html.slice(at, match.index)).not.toMatch(/[<>]/);
    at = match.index + match[0].length;
    const [, closing, rawName, , selfClosing] = match;
    if (rawName === undefined) continue;
    const name = rawName.toLowerCase();
    if (closing === '/') {
      expect(stack.pop(), `</${name}> at ${match.index}`).toBe(name);
      continue;
    }
    counts[name] = (counts[name] ?? 0) + 1;
    if (VOID.has(name) || selfClosing === '/') continue;
    if (RAW.has(name)) {
      const end = html.indexOf(`</${name}>`, at);
      expect(end).toBeGreaterThan(-1);
      expect(html.slice(at, end)).not.toMatch(/</);
      at = end + name.length + 3;
      tag.lastIndex = at;
      continue;
    }
    stack.push(name);
  }
  expect(html.slice(at).trim()).toBe('');
  expect(stack).toEqual([]);
  return counts;
}
