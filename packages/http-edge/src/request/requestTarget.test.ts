import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenHeaders, parseRequestTarget } from './requestTarget.js';

describe('parseRequestTarget', () => {
  it('parses //a:b as a path (new URL(req.url, base) throws on it)', () => {
    expect(() => new URL('//a:b', 'http://local')).toThrow();
    expect(parseRequestTarget('//a:b')).toEqual({ ok: true, target: { path: '//a:b', search: '', query: {} } });
  });

  it('splits path and query, last value wins, and the query has no prototype', () => {
    const parsed = parseRequestTarget('/api/at-risk?limit=5&band=high&limit=7&__proto__=x');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.target.path).toBe('/api/at-risk');
    expect(parsed.target.search).toBe('?limit=5&band=high&limit=7&__proto__=x');
    expect({ ...parsed.target.query }).toEqual({ limit: '7', band: 'high', ['__proto__']: 'x' });
    expect(Object.getPrototypeOf(parsed.target.query)).toBeNull();
  });

  it('accepts the absolute form a proxy sends', () => {
    expect(parseRequestTarget('http://example.com:8080/health?x=1')).toMatchObject({ ok: true, target: { path: '/health', query: { x: '1' } } });
  });

  it('keeps malformed percent-escapes as sent (routes decide), without throwing', () => {
    expect(parseRequestTarget('/a%zz?b=%')).toMatchObject({ ok: true, target: { path: '/a%zz', query: { b: '%' } } });
  });

  it('rejects targets that are not a path: empty, *, a bare word, spaces, raw non-ASCII', () => {
    for (const bad of [undefined, '', '*', 'a', '/a b', '/é', 'http://', 'ftp://x/y']) expect(parseRequestTarget(bad).ok).toBe(false);
  });

  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `/${s}`), fc.string().map((s) => `//${s}`), fc.string().map((s) => `http://${s}`)), (url) => {
        const parsed = parseRequestTarget(url);
        if (parsed.ok) expect(parsed.target.path.startsWith('/')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('flattenHeaders', () => {
  it('joins repeated headers and keeps single ones', () => {
    expect({ ...flattenHeaders({ a: 'x', 'set-cookie': ['1', '2'], b: undefined }) }).toEqual({ a: 'x', 'set-cookie': '1, 2', b: undefined });
  });
});
