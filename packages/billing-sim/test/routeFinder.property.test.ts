// The route finder (the request metrics' labels) finds what the first matching route of a linear
// search finds, for paths made from every route's pattern and for any other path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../src/http/handleRequest.js';
import { compilePattern, createRouteFinder } from '../src/http/route.js';
import { v1Routes } from '../src/http/v1Routes.js';

const ALL = [...ROUTES, ...v1Routes];
const LINEAR = ALL.map((route) => ({ route, match: compilePattern(route.pattern) }));
const linearFind = (method: string, path: string) => LINEAR.find(({ route, match }) => route.method === method && match(path) !== null)?.route;

const segment = fc.oneof(fc.constantFrom('v1', 'v2', 'sim', 'rcbilling', 'subscribers', 'projects', 'proj_sim', 'u1', '%E2%82%AC', '%zz', '', ':x'), fc.string({ maxLength: 6 }));
/** A route's pattern with its parameters filled in, and sometimes a trailing slash. */
const fromPattern = fc.tuple(fc.constantFrom(...ALL), fc.array(segment, { minLength: 4, maxLength: 4 }), fc.boolean()).map(([route, values, slash]) => {
  let i = 0;
  const path = route.pattern.split('/').map((s) => (s.startsWith(':') ? values[i++ % values.length]! : s)).join('/');
  return slash ? `${path}/` : path;
});
const anyPath = fc.array(segment, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`);
const method = fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS', 'PATCH');

describe('createRouteFinder', () => {
  it('finds the route a linear search over every route finds, in the same order', () => {
    const find = createRouteFinder(ALL);
    const findsAsLinear = (m: string, path: string) => {
      expect(find(m, path)).toBe(linearFind(m, path));
    };
    fc.assert(fc.property(method, fc.oneof(fromPattern, anyPath), findsAsLinear), { numRuns: 3000 });
  });

  it('tries a pattern that starts with a parameter for every path, in its place', () => {
    const routes = [
      { method: 'GET' as const, pattern: '/v2/a' },
      { method: 'GET' as const, pattern: '/:any/a' },
      { method: 'GET' as const, pattern: '/x/:id' },
    ];
    const find = createRouteFinder(routes);
    expect(find('GET', '/v2/a')).toBe(routes[0]);
    expect(find('GET', '/x/a')).toBe(routes[1]);
    expect(find('GET', '/x/b')).toBe(routes[2]);
    expect(find('GET', '/y/a')).toBe(routes[1]);
    expect(find('GET', '/y/b')).toBeUndefined();
  });
});
