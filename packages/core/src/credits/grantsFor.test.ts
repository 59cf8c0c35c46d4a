import { describe, expect, it } from 'vitest';
import { grantsForPurchase } from './grantsFor.js';
import type { VirtualCurrency } from './virtualCurrency.js';

const currency = (code: string, grants: VirtualCurrency['product_grants']): VirtualCurrency => ({
  code,
  name: code,
  description: null,
  state: 'active',
  product_grants: grants,
});
const crd = currency('CRD', [
  { product_ids: ['monthly'], amount: 100, expire_at_cycle_end: true, trial_amount: 0 },
  { product_ids: ['annual'], amount: 1500, expire_at_cycle_end: false, trial_amount: 20 },
  { product_ids: ['pack'], amount: 500, expire_at_cycle_end: true, trial_amount: 0 },
]);
const at = 1_000;
const end = 5_000;

describe('grantsForPurchase', () => {
  it('grants amount on a purchase of a listed product', () => {
    expect(grantsForPurchase([crd], { product_id: 'annual', kind: 'purchase', cycle_ends_at: end, at })).toEqual([
      { currency: 'CRD', amount: 1500, expires_at: null, source: 'purchase', product_id: 'annual', at },
    ]);
  });
  it('grants nothing on a trial start when trial_amount is 0', () => {
    expect(grantsForPurchase([crd], { product_id: 'monthly', kind: 'trial', cycle_ends_at: end, at })).toEqual([]);
  });
  it('grants trial_amount on a trial start when it is above 0', () => {
    expect(grantsForPurchase([crd], { product_id: 'annual', kind: 'trial', cycle_ends_at: end, at })[0]?.amount).toBe(20);
  });
  it('grants amount again on each renewal', () => {
    expect(grantsForPurchase([crd], { product_id: 'monthly', kind: 'renewal', cycle_ends_at: end, at })[0]?.amount).toBe(100);
  });
  it('makes credits expire at the cycle end when expire_at_cycle_end is true', () => {
    expect(grantsForPurchase([crd], { product_id: 'monthly', kind: 'renewal', cycle_ends_at: end, at })[0]?.expires_at).toBe(end);
  });
  it('never makes top-up credits expire', () => {
    expect(grantsForPurchase([crd], { product_id: 'pack', kind: 'top_up', cycle_ends_at: null, at })[0]?.expires_at).toBeNull();
  });
  it('grants nothing for a product no grant lists', () => {
    expect(grantsForPurchase([crd], { product_id: 'other', kind: 'purchase', cycle_ends_at: end, at })).toEqual([]);
  });
  it('grants in every currency whose rules list the product', () => {
    const gem = currency('GEM', [{ product_ids: ['annual'], amount: 3, expire_at_cycle_end: false, trial_amount: 0 }]);
    const out = grantsForPurchase([crd, gem], { product_id: 'annual', kind: 'purchase', cycle_ends_at: end, at });
    expect(out.map((g) => [g.currency, g.amount])).toEqual([['CRD', 1500], ['GEM', 3]]);
  });
});
