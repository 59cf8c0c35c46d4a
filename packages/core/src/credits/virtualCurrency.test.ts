import { describe, expect, it } from 'vitest';
import {
  SINGULAR_PRODUCT_ID_MESSAGE,
  createVirtualCurrency,
  updateVirtualCurrency,
  virtualCurrencyCreateSchema,
  virtualCurrencyUpdateSchema,
} from './virtualCurrency.js';

const create = (body: unknown) => virtualCurrencyCreateSchema.safeParse(body);

describe('virtualCurrencyCreateSchema', () => {
  it('accepts a code of 1–10 letters, digits or underscores', () => {
    expect(create({ code: 'A', name: 'n' }).success).toBe(true);
    expect(create({ code: 'Abc_123456', name: 'n' }).success).toBe(true);
    expect(create({ code: '', name: 'n' }).success).toBe(false);
    expect(create({ code: 'ABCDEFGHIJK', name: 'n' }).success).toBe(false);
    expect(create({ code: 'AB-C', name: 'n' }).success).toBe(false);
  });
  it('requires a name of 1–50 characters', () => {
    expect(create({ code: 'C', name: '' }).success).toBe(false);
    expect(create({ code: 'C', name: 'x'.repeat(51) }).success).toBe(false);
    expect(create({ code: 'C', name: 'x'.repeat(50) }).success).toBe(true);
  });
  it('allows a description of up to 1500 characters', () => {
    expect(create({ code: 'C', name: 'n', description: 'd'.repeat(1500) }).success).toBe(true);
    expect(create({ code: 'C', name: 'n', description: 'd'.repeat(1501) }).success).toBe(false);
  });
  it('rejects unknown fields', () => {
    expect(create({ code: 'C', name: 'n', colour: 'gold' }).success).toBe(false);
  });
});

describe('productGrantInputSchema', () => {
  const grant = (g: unknown) => virtualCurrencyUpdateSchema.safeParse({ product_grants: [g] });

  it('defaults expire_at_cycle_end to false and trial_amount to 0', () => {
    const out = virtualCurrencyUpdateSchema.parse({ product_grants: [{ product_ids: ['m'], amount: 5 }] });
    expect(out.product_grants).toEqual([{ product_ids: ['m'], amount: 5, expire_at_cycle_end: false, trial_amount: 0 }]);
  });
  it('treats null expire_at_cycle_end and trial_amount as their defaults', () => {
    const out = virtualCurrencyUpdateSchema.parse({
      product_grants: [{ product_ids: ['m'], amount: 5, expire_at_cycle_end: null, trial_amount: null }],
    });
    expect(out.product_grants?.[0]).toMatchObject({ expire_at_cycle_end: false, trial_amount: 0 });
  });
  it('rejects a singular product_id with a message pointing to the product_ids array', () => {
    const out = grant({ product_id: 'm', amount: 5 });
    expect(out.success).toBe(false);
    const messages = out.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain(SINGULAR_PRODUCT_ID_MESSAGE);
    expect(SINGULAR_PRODUCT_ID_MESSAGE).toMatch(/product_ids/);
  });
  it('requires amount to be an integer of at least 1', () => {
    expect(grant({ product_ids: ['m'], amount: 0 }).success).toBe(false);
    expect(grant({ product_ids: ['m'], amount: 1.5 }).success).toBe(false);
    expect(grant({ product_ids: ['m'], amount: 1 }).success).toBe(true);
  });
  it('requires trial_amount to be an integer of at least 0', () => {
    expect(grant({ product_ids: ['m'], amount: 1, trial_amount: -1 }).success).toBe(false);
    expect(grant({ product_ids: ['m'], amount: 1, trial_amount: 0 }).success).toBe(true);
  });
  it('requires a non-empty product_ids array of 1–255-character strings', () => {
    expect(grant({ product_ids: [], amount: 1 }).success).toBe(false);
    expect(grant({ product_ids: [''], amount: 1 }).success).toBe(false);
    expect(grant({ product_ids: ['p'.repeat(256)], amount: 1 }).success).toBe(false);
  });
});

describe('createVirtualCurrency', () => {
  it('creates an active currency with an empty grant list', () => {
    const c = createVirtualCurrency(virtualCurrencyCreateSchema.parse({ code: 'CRD', name: 'Credits' }));
    expect(c).toEqual({ code: 'CRD', name: 'Credits', description: null, state: 'active', product_grants: [] });
  });
});

describe('updateVirtualCurrency', () => {
  const base = createVirtualCurrency(
    virtualCurrencyCreateSchema.parse({
      code: 'CRD',
      name: 'Credits',
      product_grants: [{ product_ids: ['a'], amount: 1 }],
    }),
  );
  it('replaces the whole grant list when product_grants is given', () => {
    const next = updateVirtualCurrency(base, virtualCurrencyUpdateSchema.parse({ product_grants: [{ product_ids: ['b'], amount: 2 }] }));
    expect(next.product_grants.map((g) => g.product_ids)).toEqual([['b']]);
  });
  it('keeps the grants when product_grants is omitted', () => {
    const next = updateVirtualCurrency(base, virtualCurrencyUpdateSchema.parse({ name: 'Coins' }));
    expect(next.name).toBe('Coins');
    expect(next.product_grants).toEqual(base.product_grants);
  });
});
