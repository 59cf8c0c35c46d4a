import { describe, expect, it } from 'vitest';
import { adjustBalances } from './adjustBalances.js';
import { applyGrants } from './applyGrants.js';
import { balancesOf } from './balancesOf.js';
import { expireCredits } from './expireCredits.js';
import { emptyLedger, type Ledger } from './ledger.js';
import { setBalances } from './setBalances.js';
import { BALANCE_MAX } from './virtualCurrency.js';

const grant = (currency: string, amount: number, at: number, expires_at: number | null) =>
  ({ currency, amount, at, expires_at, source: 'renewal', product_id: 'p' }) as const;

/** 1000 expiring at t=100 plus 500 permanent, as in the billing service's documented example. */
const mixed = (): Ledger =>
  applyGrants(emptyLedger(), [grant('CRD', 500, 0, null), grant('CRD', 1000, 1, 100)]).ledger;

describe('applyGrants', () => {
  it('adds one lot per grant with deterministic ids', () => {
    const { ledger, entries } = applyGrants(emptyLedger(), [grant('CRD', 5, 0, null), grant('GEM', 2, 0, 10)]);
    expect(ledger.lots.map((l) => l.lot_id)).toEqual(['lot_1', 'lot_2']);
    expect(entries).toEqual([
      { kind: 'grant', currency: 'CRD', amount: 5, lot_id: 'lot_1', at: 0 },
      { kind: 'grant', currency: 'GEM', amount: 2, lot_id: 'lot_2', at: 0 },
    ]);
  });
  it('cuts a grant to what fits under the balance cap', () => {
    const { ledger } = applyGrants(emptyLedger(), [grant('CRD', BALANCE_MAX - 1, 0, null), grant('CRD', 5, 0, null)]);
    expect(balancesOf(ledger, 0)).toEqual({ CRD: BALANCE_MAX });
  });
});

describe('expireCredits', () => {
  it('drops lots whose expiry has come, with an expire entry dated at the expiry', () => {
    const { ledger, entries } = expireCredits(mixed(), 100);
    expect(balancesOf(ledger, 100)).toEqual({ CRD: 500 });
    expect(entries).toEqual([{ kind: 'expire', currency: 'CRD', amount: -1000, lot_id: 'lot_2', at: 100 }]);
  });
  it('leaves the ledger unchanged before the expiry', () => {
    const before = mixed();
    expect(expireCredits(before, 99).ledger).toBe(before);
  });
});

describe('balancesOf', () => {
  it('excludes expired lots even before they are dropped', () => {
    expect(balancesOf(mixed(), 99)).toEqual({ CRD: 1500 });
    expect(balancesOf(mixed(), 100)).toEqual({ CRD: 500 });
  });
});

describe('adjustBalances', () => {
  it('spends expiring credits before non-expiring ones (750 of 1000+500 leaves 250+500)', () => {
    const out = adjustBalances(mixed(), { CRD: -750 }, 10);
    if (!out.ok) throw new Error(out.errors[0]!.message);
    expect(out.value.ledger.lots.map((l) => [l.lot_id, l.remaining])).toEqual([['lot_1', 500], ['lot_2', 250]]);
    expect(out.value.entries).toEqual([{ kind: 'spend', currency: 'CRD', amount: -750, lot_id: 'lot_2', at: 10 }]);
  });
  it('spends the soonest-expiring lot first', () => {
    const l = applyGrants(emptyLedger(), [grant('CRD', 10, 0, 300), grant('CRD', 10, 0, 200)]).ledger;
    const out = adjustBalances(l, { CRD: -15 }, 1);
    expect(out.ok && out.value.entries.map((e) => [e.lot_id, e.amount])).toEqual([['lot_2', -10], ['lot_1', -5]]);
  });
  it('spends non-expiring credits oldest first', () => {
    const l = applyGrants(emptyLedger(), [grant('CRD', 10, 5, null), grant('CRD', 10, 2, null)]).ledger;
    const out = adjustBalances(l, { CRD: -12 }, 6);
    expect(out.ok && out.value.entries.map((e) => e.lot_id)).toEqual(['lot_2', 'lot_1']);
  });
  it('deposits a positive amount as a non-expiring lot', () => {
    const out = adjustBalances(emptyLedger(), { CRD: 7 }, 3, { reference: 'r1' });
    expect(out.ok && out.value.ledger.lots).toEqual([
      { lot_id: 'lot_1', currency: 'CRD', remaining: 7, granted_at: 3, expires_at: null, source: 'deposit' },
    ]);
    expect(out.ok && out.value.entries[0]).toEqual({ kind: 'deposit', currency: 'CRD', amount: 7, lot_id: 'lot_1', at: 3, reference: 'r1' });
  });
  it('refuses the whole adjustment when any currency would go below 0', () => {
    const out = adjustBalances(mixed(), { GEM: 5, CRD: -1501 }, 10);
    expect(out).toEqual({
      ok: false,
      errors: [{ code: 'insufficient_balance', currency: 'CRD', message: "Customer's balance is not enough to perform the transaction." }],
    });
  });
  it('refuses a balance above 2,000,000,000', () => {
    const out = adjustBalances(mixed(), { CRD: BALANCE_MAX }, 10);
    expect(!out.ok && out.errors[0]!.code).toBe('balance_limit');
  });
  it('refuses an amount that is not an integer', () => {
    expect(adjustBalances(mixed(), { CRD: 1.5 }, 10)).toMatchObject({ ok: false, errors: [{ code: 'invalid_amount' }] });
  });
  it('refuses a currency outside known_currencies', () => {
    const out = adjustBalances(mixed(), { XYZ: 1 }, 10, { known_currencies: ['CRD'] });
    expect(!out.ok && out.errors[0]!.code).toBe('unknown_currency');
  });
  it('ignores expired lots when spending', () => {
    expect(adjustBalances(mixed(), { CRD: -501 }, 100)).toMatchObject({ ok: false });
  });
  it('records a balance update as set entries', () => {
    const out = adjustBalances(mixed(), { CRD: -10, GEM: 3 }, 10, { record: 'update' });
    expect(out.ok && out.value.entries.map((e) => e.kind)).toEqual(['set', 'set']);
  });
});

describe('setBalances', () => {
  it('sets each balance to its target', () => {
    const out = setBalances(mixed(), { CRD: 200, GEM: 9 }, 10);
    expect(out.ok && out.value.balances).toEqual({ CRD: 200, GEM: 9 });
  });
  it('refuses a target outside 0..2,000,000,000', () => {
    expect(setBalances(mixed(), { CRD: -1 }, 10)).toMatchObject({ ok: false, errors: [{ code: 'invalid_amount' }] });
    expect(setBalances(mixed(), { CRD: BALANCE_MAX + 1 }, 10)).toMatchObject({ ok: false });
  });
});

describe('currency codes named like Object.prototype members', () => {
  it('treats them as ordinary currencies: spending with no balance is refused, deposits are numbers', () => {
    const spend = adjustBalances(emptyLedger(), { toString: -5 }, 1000);
    expect(spend.ok ? 'applied' : spend.errors[0]!.code).toBe('insufficient_balance');
    const deposit = adjustBalances(emptyLedger(), { constructor: 5, valueOf: 7 }, 1000);
    expect(deposit.ok && { ...deposit.value.balances }).toEqual({ constructor: 5, valueOf: 7 });
  });

  it('sets a balance of a currency coded "__proto__" like any other', () => {
    const targets = JSON.parse('{"__proto__": 40}') as Record<string, number>;
    const out = setBalances(emptyLedger(), targets, 1000);
    expect(out.ok && Object.entries(out.value.balances)).toEqual([['__proto__', 40]]);
  });
});
