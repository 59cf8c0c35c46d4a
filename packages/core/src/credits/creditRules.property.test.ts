// Invariants of the credit rules the simulator used to apply by hand: refund clawback, currency
// deletion and the next expiry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyGrants } from './applyGrants.js';
import { balancesOf } from './balancesOf.js';
import { clawbackCredits, refundFraction } from './clawbackCredits.js';
import { expireCredits } from './expireCredits.js';
import type { PlannedGrant } from './grantsFor.js';
import { emptyLedger, type Ledger } from './ledger.js';
import { nextCreditExpiry } from './nextCreditExpiry.js';
import { removeCurrency } from './removeCurrency.js';
import { adjustBalances } from './adjustBalances.js';

const CODES = ['CRD', 'GEM', '__proto__', 'constructor'] as const;
const code = fc.constantFrom(...CODES);

const grantArb = (at: number) =>
  fc.record({
    currency: code,
    amount: fc.integer({ min: 1, max: 5000 }),
    expires_at: fc.option(fc.integer({ min: at + 1, max: at + 1000 }), { nil: null }),
  }).map((g): PlannedGrant => ({ ...g, at, source: 'renewal', product_id: 'p' }));

/** A ledger built by grants at time 0..100 and some spends, observed at `now` (≥ every grant time). */
const ledgerArb: fc.Arbitrary<{ ledger: Ledger; now: number }> = fc
  .record({
    grants: fc.array(fc.integer({ min: 0, max: 100 }).chain(grantArb), { maxLength: 12 }),
    spends: fc.array(fc.dictionary(code, fc.integer({ min: -3000, max: 0 }), { minKeys: 1 }), { maxLength: 4 }),
    now: fc.integer({ min: 100, max: 600 }),
  })
  .map(({ grants, spends, now }) => {
    let ledger = applyGrants(emptyLedger(), [...grants].sort((a, b) => a.at - b.at)).ledger;
    for (const s of spends) {
      const out = adjustBalances(ledger, s, now);
      if (out.ok) ledger = out.value.ledger;
    }
    return { ledger, now };
  });

const periodArb = fc.option(
  fc.record({ starts_at: fc.integer({ min: 0, max: 600 }), length: fc.integer({ min: 0, max: 600 }) }).map((p) => ({ starts_at: p.starts_at, ends_at: p.starts_at + p.length })),
  { nil: null },
);

const sumBy = (items: readonly { currency: string; amount: number }[]) => {
  const out = new Map<string, number>();
  for (const i of items) out.set(i.currency, (out.get(i.currency) ?? 0) + i.amount);
  return out;
};

describe('clawbackCredits', () => {
  const input = fc.tuple(ledgerArb, fc.array(grantArb(0), { maxLength: 5 }), periodArb);

  it('never leaves a balance below 0', () => {
    fc.assert(
      fc.property(input, ([{ ledger, now }, grants, period]) => {
        const out = clawbackCredits(ledger, grants, period, now);
        for (const b of Object.values(balancesOf(out.ledger, now))) expect(b).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('never takes back more than was granted, nor more than the balance', () => {
    fc.assert(
      fc.property(input, ([{ ledger, now }, grants, period]) => {
        const out = clawbackCredits(ledger, grants, period, now);
        const granted = sumBy(grants);
        const before = balancesOf(ledger, now);
        for (const [currency, taken] of sumBy(out.entries)) {
          expect(-taken).toBeLessThanOrEqual(granted.get(currency) ?? 0);
          expect(-taken).toBeLessThanOrEqual(before[currency] ?? 0);
        }
      }),
    );
  });

  it('takes exactly min(owed, balance) per currency, owed being each grant prorated and rounded up', () => {
    fc.assert(
      fc.property(input, ([{ ledger, now }, grants, period]) => {
        const out = clawbackCredits(ledger, grants, period, now);
        const fraction = refundFraction(period, now);
        const before = balancesOf(ledger, now);
        const after = balancesOf(out.ledger, now);
        for (const c of CODES) {
          const owed = grants.filter((g) => g.currency === c).reduce((s, g) => s + Math.ceil(g.amount * fraction), 0);
          expect(after[c] ?? 0).toBe((before[c] ?? 0) - Math.min(owed, before[c] ?? 0));
        }
      }),
    );
  });

  it('takes back the whole grant of a one-time purchase when the balance allows', () => {
    fc.assert(
      fc.property(fc.array(grantArb(0), { minLength: 1, maxLength: 5 }), (grants) => {
        const ledger = applyGrants(emptyLedger(), grants.map((g) => ({ ...g, expires_at: null }))).ledger;
        const out = clawbackCredits(ledger, grants, null, 1);
        expect(Object.values(balancesOf(out.ledger, 1)).every((b) => b === 0)).toBe(true);
      }),
    );
  });
});

describe('removeCurrency', () => {
  it('removes exactly the lots of that currency and keeps every other lot in order', () => {
    fc.assert(
      fc.property(ledgerArb, code, ({ ledger }, c) => {
        const out = removeCurrency(ledger, c);
        expect(out.ledger.lots).toEqual(ledger.lots.filter((l) => l.currency !== c));
        expect(out.removed).toEqual(ledger.lots.filter((l) => l.currency === c));
        expect(out.ledger.next_lot).toBe(ledger.next_lot);
      }),
    );
  });

  it('leaves every other balance unchanged and the removed one absent', () => {
    fc.assert(
      fc.property(ledgerArb, code, ({ ledger, now }, c) => {
        const before = balancesOf(ledger, now);
        const after = balancesOf(removeCurrency(ledger, c).ledger, now);
        expect(Object.keys(after)).not.toContain(c);
        for (const other of CODES) if (other !== c) expect(after[other]).toBe(before[other]);
      }),
    );
  });
});

describe('nextCreditExpiry', () => {
  it('is the earliest lot expiry: nothing expires before it, something expires at it', () => {
    fc.assert(
      fc.property(ledgerArb, ({ ledger }) => {
        const next = nextCreditExpiry(ledger);
        if (next === null) {
          expect(ledger.lots.every((l) => l.expires_at === null)).toBe(true);
          return;
        }
        expect(expireCredits(ledger, next - 1).ledger).toBe(ledger);
        expect(expireCredits(ledger, next).ledger.lots.length).toBeLessThan(ledger.lots.length);
      }),
    );
  });

  it('following it step by step expires lots in expiry order and ends with no expiring lot', () => {
    fc.assert(
      fc.property(ledgerArb, ({ ledger }) => {
        let current = ledger;
        const stamps: number[] = [];
        for (let next = nextCreditExpiry(current); next !== null; next = nextCreditExpiry(current)) {
          const out = expireCredits(current, next);
          stamps.push(...out.entries.map((e) => e.at));
          current = out.ledger;
        }
        expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
        expect(current.lots.every((l) => l.expires_at === null)).toBe(true);
      }),
    );
  });
});

// applyGrants and expireCredits are written as loops for speed (the simulator applies them 200 k
// times a month); a plain model of each, with spreads and filters, must give the same result.
describe('ledger operations against a plain model', () => {
  it('applyGrants adds what one grant at a time onto a copied list adds', () => {
    fc.assert(
      fc.property(ledgerArb, fc.array(grantArb(300), { maxLength: 5 }), ({ ledger }, grants) => {
        let model = ledger;
        const entries = [];
        for (const g of grants) {
          if (g.expires_at !== null && g.expires_at <= g.at) continue;
          const room = 2_000_000_000 - model.lots.filter((l) => l.currency === g.currency && (l.expires_at === null || l.expires_at > g.at)).reduce((s, l) => s + l.remaining, 0);
          const amount = Math.min(g.amount, Math.max(0, room));
          if (amount <= 0) continue;
          const lot = { lot_id: `lot_${model.next_lot}`, currency: g.currency, remaining: amount, granted_at: g.at, expires_at: g.expires_at, source: g.source };
          model = { lots: [...model.lots, lot], next_lot: model.next_lot + 1 };
          entries.push({ kind: 'grant', currency: g.currency, amount, lot_id: lot.lot_id, at: g.at });
        }
        const out = applyGrants(ledger, grants);
        expect(out).toEqual({ ledger: model, entries });
        if (entries.length === 0) expect(out.ledger).toBe(ledger);
      }),
    );
  });

  it('expireCredits keeps the unexpired lots in order and reports the others in expiry order', () => {
    fc.assert(
      fc.property(ledgerArb, fc.integer({ min: 0, max: 1200 }), ({ ledger }, now) => {
        const expired = (l: (typeof ledger.lots)[number]) => l.expires_at !== null && l.expires_at <= now;
        const out = expireCredits(ledger, now);
        if (!ledger.lots.some(expired)) {
          expect(out).toEqual({ ledger, entries: [] });
          expect(out.ledger).toBe(ledger);
          return;
        }
        const entries = ledger.lots
          .filter((l) => expired(l) && l.remaining > 0)
          .sort((a, b) => (a.expires_at ?? 0) - (b.expires_at ?? 0))
          .map((l) => ({ kind: 'expire', currency: l.currency, amount: -l.remaining, lot_id: l.lot_id, at: l.expires_at }));
        expect(out).toEqual({ ledger: { ...ledger, lots: ledger.lots.filter((l) => !expired(l)) }, entries });
      }),
    );
  });
});
