import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustBalances } from './adjustBalances.js';
import { applyGrants } from './applyGrants.js';
import { balancesOf } from './balancesOf.js';
import { expireCredits } from './expireCredits.js';
import { grantsForPurchase, type PlannedGrant } from './grantsFor.js';
import { emptyLedger, type Ledger, type LedgerEntry } from './ledger.js';
import { BALANCE_MAX, type VirtualCurrency } from './virtualCurrency.js';

const CODES = ['CRD', 'GEM'] as const;
const code = fc.constantFrom(...CODES);
const amount = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: BALANCE_MAX }));

/** A step on a ledger: a grant (maybe expiring), an adjustment, or time passing with expiry. */
type Op =
  | { kind: 'grant'; currency: string; amount: number; ttl: number | null }
  | { kind: 'adjust'; adjustments: Record<string, number> }
  | { kind: 'tick'; by: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), currency: code, amount, ttl: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }) }),
  fc.record({
    kind: fc.constant('adjust' as const),
    adjustments: fc.dictionary(code, fc.integer({ min: -3000, max: 3000 }), { minKeys: 1 }),
  }),
  fc.record({ kind: fc.constant('tick' as const), by: fc.integer({ min: 0, max: 30 }) }),
);

/** Runs ops from an empty ledger, returning every ledger seen and every entry recorded. */
function run(ops: readonly Op[]): { ledgers: { ledger: Ledger; now: number }[]; entries: LedgerEntry[]; ledger: Ledger; now: number } {
  let ledger = emptyLedger();
  let now = 0;
  const entries: LedgerEntry[] = [];
  const ledgers = [{ ledger, now }];
  for (const op of ops) {
    if (op.kind === 'grant') {
      const g: PlannedGrant = { currency: op.currency, amount: op.amount, at: now, expires_at: op.ttl === null ? null : now + op.ttl, source: 'renewal', product_id: 'p' };
      const out = applyGrants(ledger, [g]);
      ledger = out.ledger;
      entries.push(...out.entries);
    } else if (op.kind === 'adjust') {
      const out = adjustBalances(ledger, op.adjustments, now);
      if (out.ok) {
        ledger = out.value.ledger;
        entries.push(...out.value.entries);
      }
    } else {
      now += op.by;
      const out = expireCredits(ledger, now);
      ledger = out.ledger;
      entries.push(...out.entries);
    }
    ledgers.push({ ledger, now });
  }
  return { ledgers, entries, ledger, now };
}

describe('credit ledger properties', () => {
  it('balances are never negative and never above 2,000,000,000', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        for (const { ledger, now } of run(ops).ledgers) {
          for (const b of Object.values(balancesOf(ledger, now))) {
            expect(b).toBeGreaterThanOrEqual(0);
            expect(b).toBeLessThanOrEqual(BALANCE_MAX);
          }
        }
      }),
    );
  });

  it('an adjustment either applies completely or changes nothing', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 20 }), fc.dictionary(code, fc.integer({ min: -5000, max: 5000 }), { minKeys: 1 }), (ops, adj) => {
        const { ledger, now } = run(ops);
        const snapshot = structuredClone(ledger);
        const before = balancesOf(ledger, now);
        const out = adjustBalances(ledger, adj, now);
        expect(ledger).toEqual(snapshot);
        if (!out.ok) return;
        for (const [c, delta] of Object.entries(adj)) expect(out.value.balances[c] ?? 0).toBe((before[c] ?? 0) + delta);
      }),
    );
  });

  it('grants + deposits − spends − expiries = balance', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
        const { entries, ledger, now } = run(ops);
        const settled = expireCredits(ledger, now);
        const all = [...entries, ...settled.entries];
        for (const c of CODES) {
          const sum = all.filter((e) => e.currency === c).reduce((s, e) => s + e.amount, 0);
          expect(sum).toBe(balancesOf(settled.ledger, now)[c] ?? 0);
        }
      }),
    );
  });

  it('a spend takes credits in order of expiry, non-expiring last', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.integer({ min: 1, max: 5000 }), (ops, spend) => {
        const { ledger, now } = run(ops);
        const out = adjustBalances(ledger, { CRD: -spend }, now);
        if (!out.ok) return;
        const expiryOf = new Map(ledger.lots.map((l) => [l.lot_id, l.expires_at ?? Number.POSITIVE_INFINITY]));
        const touched = out.value.entries.map((e) => expiryOf.get(e.lot_id ?? '') ?? Number.NaN);
        const sorted = [...touched].sort((a, b) => a - b);
        expect(touched).toEqual(sorted);
        // Every lot left untouched expires no sooner than the last lot touched.
        const last = touched.at(-1) ?? Number.NEGATIVE_INFINITY;
        const spentIds = new Set(out.value.entries.map((e) => e.lot_id));
        for (const lot of ledger.lots) {
          if (lot.currency === 'CRD' && !spentIds.has(lot.lot_id) && (lot.expires_at ?? Infinity) > now) {
            expect(lot.expires_at ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(last);
          }
        }
      }),
    );
  });

  it('a trial of a grant with trial_amount 0 grants nothing', () => {
    fc.assert(
      fc.property(amount, fc.boolean(), fc.integer({ min: 0, max: 1e12 }), (amt, expiring, at) => {
        const c: VirtualCurrency = {
          code: 'CRD', name: 'Credits', description: null, state: 'active',
          product_grants: [{ product_ids: ['p'], amount: amt, expire_at_cycle_end: expiring, trial_amount: 0 }],
        };
        expect(grantsForPurchase([c], { product_id: 'p', kind: 'trial', cycle_ends_at: at + 1, at })).toEqual([]);
      }),
    );
  });
});
