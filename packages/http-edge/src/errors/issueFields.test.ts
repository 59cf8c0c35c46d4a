import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldOf, issuesToFields } from './issueFields.js';

const issues = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  return result.error.issues;
};

describe('fieldOf', () => {
  it('names the dotted path of a zod issue', () => {
    const [issue] = issues(z.object({ grants: z.array(z.object({ amount: z.number() })) }), { grants: [{ amount: 'x' }] });
    expect(fieldOf(issue!)).toBe('grants.0.amount');
  });

  it('names the unexpected key of an unrecognized_keys issue', () => {
    const [issue] = issues(z.strictObject({ a: z.number().optional() }), { a: 1, extra: 2 });
    expect(fieldOf(issue!)).toBe('extra');
    const [nested] = issues(z.object({ o: z.strictObject({}) }), { o: { k: 1 } });
    expect(fieldOf(nested!)).toBe('o.k');
  });

  it('is null for an issue about the whole value, and takes a prefix', () => {
    const [issue] = issues(z.object({}), 5);
    expect(fieldOf(issue!)).toBeNull();
    expect(fieldOf(issue!, ['event'])).toBe('event');
  });
});

describe('issuesToFields', () => {
  it('keeps the first issue of each field, in order, and names the whole value body', () => {
    const all = issues(z.object({ a: z.string().min(3).regex(/x/), b: z.number() }), { a: 'y', b: 'n' });
    expect(issuesToFields(all)).toEqual([
      { field: 'a', message: expect.any(String) },
      { field: 'b', message: expect.any(String) },
    ]);
    expect(issuesToFields(issues(z.string(), 1))).toEqual([{ field: 'body', message: expect.any(String) }]);
    expect(issuesToFields(issues(z.string(), 1), { whole: 'query' })[0]?.field).toBe('query');
  });
});
