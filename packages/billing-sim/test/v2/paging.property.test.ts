import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/http/httpTypes.js';

/** Follows next_page from the first page, as a client does, parsing the query the way the edge does. */
function walk(ids: string[], limit: number, filter: string | undefined) {
  const seen: string[] = [];
  let query: Record<string, string> = { limit: String(limit), ...(filter === undefined ? {} : { search: filter }) };
  for (let pages = 0; pages <= ids.length + 1; pages++) {
    const page = paginate(ids, (id) => id, query, '/v2/projects/p/customers', ['search']);
    if (!page.ok) throw new Error(page.error.message);
    seen.push(...page.value.items);
    if (page.value.next_page === null) return seen;
    const params = new URLSearchParams(page.value.next_page.split('?')[1]);
    query = Object.fromEntries(params);
    if (filter !== undefined) expect(query['search']).toBe(filter);
  }
  throw new Error('next_page never ended');
}

describe('paginate', () => {
  it('visits every item exactly once, in order, whatever the limit, and keeps the filters in next_page', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 40 }), fc.integer({ min: 1, max: 100 }), fc.option(fc.string({ minLength: 1 }), { nil: undefined }), (ids, limit, filter) => {
        expect(walk(ids, limit, filter)).toEqual(ids);
      }),
    );
  });
});
