// Invariants of the population model, for arbitrary seeds, windows and model parameters (every
// hazard anywhere in 0..1): one invariant per `it`.
import { foldEvents, parseWebhook, type HandledEvent } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatePopulation, populationWindow, type GeneratedCustomer, type PopulationOptions } from '../../src/population/generatePopulation.js';
import { DEFAULT_POPULATION_MODEL, type PopulationModel } from '../../src/population/populationModel.js';

const share = fc.double({ min: 0, max: 1, noNaN: true });
const model: fc.Arbitrary<PopulationModel> = fc
  .record({
    trial_share: share,
    trial_conversion: share,
    cancel_per_month: share,
    uncancel: share,
    refund_per_period: share,
    pause_per_month: share,
    early_resume: share,
    change_per_month: share,
    billing_failure: share,
    grace_share: share,
    recovery: share,
    winback_per_month: share,
    declining_share: share,
    propensity_sigma: fc.double({ min: 0, max: 2, noNaN: true }),
  })
  .map((overrides) => ({ ...DEFAULT_POPULATION_MODEL, ...overrides }));

const options: fc.Arbitrary<PopulationOptions> = fc.record({
  customers: fc.integer({ min: 1, max: 25 }),
  months: fc.integer({ min: 1, max: 30 }),
  seed: fc.string({ maxLength: 8 }),
  start: fc.integer({ min: 0, max: 60 * 24 * 365 }).map((minutes) => Date.UTC(2025, 0, 1) + minutes * 60_000),
  model,
});

const generated = (o: PopulationOptions) => [...generatePopulation(o)];

type Standing = 'live' | 'cancelled' | 'grace' | 'pause_planned' | 'paused' | 'ended';

/**
 * Replays a customer's events through a deliberately small model of one subscription at a time and
 * returns the first thing the model does not allow, or null.
 */
function lifecycleProblem(c: GeneratedCustomer): string | null {
  const standing = new Map<string, Standing>();
  let live: string | null = null;
  let purchases = 0;
  for (const { event: e } of c.events) {
    const sub = 'original_transaction_id' in e ? (e.original_transaction_id as string) : '';
    const now = standing.get(sub);
    const where = `${e.type} of ${sub} at ${e.event_timestamp_ms} (${now ?? 'none'})`;
    switch (e.type) {
      case 'INITIAL_PURCHASE':
        if (live !== null) return `purchase while ${live} is live: ${where}`;
        if (purchases > 0 && e.presented_offering_id !== 'winback') return `a purchase after the first that is not a win-back: ${where}`;
        purchases += 1;
        standing.set(sub, 'live');
        live = sub;
        break;
      case 'RENEWAL':
        if (now !== 'live' && now !== 'grace' && now !== 'paused') return `renewal while not subscribed: ${where}`;
        standing.set(sub, 'live');
        break;
      case 'CANCELLATION':
        if (e.cancel_reason === 'UNSUBSCRIBE' && now === 'live') standing.set(sub, 'cancelled');
        else if (e.cancel_reason === 'BILLING_ERROR' && now === 'grace') break;
        else if (e.cancel_reason === 'CUSTOMER_SUPPORT' && now === 'live') break;
        else return `cancellation ${e.cancel_reason} not allowed: ${where}`;
        break;
      case 'UNCANCELLATION':
        if (now !== 'cancelled') return `uncancellation of a subscription not cancelled: ${where}`;
        standing.set(sub, 'live');
        break;
      case 'BILLING_ISSUE':
        if (now !== 'live') return `billing issue while not renewing: ${where}`;
        standing.set(sub, 'grace');
        break;
      case 'SUBSCRIPTION_PAUSED':
        if (now !== 'live') return `pause planned while not renewing: ${where}`;
        standing.set(sub, 'pause_planned');
        break;
      case 'PRODUCT_CHANGE':
        if (now !== 'live') return `plan change while not renewing: ${where}`;
        break;
      case 'EXPIRATION':
        if (e.expiration_reason === 'SUBSCRIPTION_PAUSED') {
          if (now !== 'pause_planned') return `pause without a plan: ${where}`;
          standing.set(sub, 'paused');
        } else {
          if (now === undefined || now === 'ended' || now === 'paused') return `expiration of a subscription not live: ${where}`;
          standing.set(sub, 'ended');
          live = null;
        }
        break;
      default:
        return `an event the model never sends: ${where}`;
    }
  }
  return null;
}

describe('population model invariants', () => {
  it('sends nothing after a subscription ends except a win-back purchase, and renews only while subscribed', () => {
    fc.assert(
      fc.property(options, (o) => {
        for (const c of generated(o)) expect(lifecycleProblem(c), c.customer_id).toBeNull();
      }),
      { numRuns: 120 },
    );
  });

  it('keeps each customer in time order inside its window, on whole minutes (exact in the data export)', () => {
    fc.assert(
      fc.property(options, (o) => {
        const { start, end } = populationWindow(o);
        for (const c of generated(o)) {
          const times = c.events.map((b) => b.event.event_timestamp_ms);
          expect(times).toEqual([...times].sort((a, b) => a - b));
          for (const at of times) expect(at >= start && at <= end && at % 60_000 === 0, `${at}`).toBe(true);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('reports activity only while subscribed, ascending, before the window ends', () => {
    fc.assert(
      fc.property(options, (o) => {
        const { end } = populationWindow(o);
        for (const c of generated(o)) {
          const spans: [number, number][] = [];
          let from: number | null = null;
          for (const { event: e } of c.events) {
            if (e.type === 'INITIAL_PURCHASE') from = e.event_timestamp_ms;
            if (e.type === 'EXPIRATION' && e.expiration_reason !== 'SUBSCRIPTION_PAUSED' && from !== null) {
              spans.push([from, e.event_timestamp_ms]);
              from = null;
            }
          }
          if (from !== null) spans.push([from, end]);
          const outside = c.activity.filter((at, i) => (i > 0 && at <= c.activity[i - 1]!) || !spans.some(([a, b]) => at > a && at < b));
          expect(outside, c.customer_id).toEqual([]);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('tells the truth: churned exactly when ended at the end, at its last ending; one win-back per later purchase', () => {
    fc.assert(
      fc.property(options, (o) => {
        for (const c of generated(o)) {
          const t = c.truth;
          expect(t.churned).toBe(t.state === 'churned' || t.state === 'refunded');
          expect(t.churned_at).toBe(t.churned ? (t.endings.at(-1)?.at ?? null) : null);
          expect(t.win_backs).toBe(c.events.filter((b) => b.event.type === 'INITIAL_PURCHASE').length - 1);
          const finalExpirations = c.events.filter((b) => b.event.type === 'EXPIRATION' && b.event.expiration_reason !== 'SUBSCRIPTION_PAUSED');
          expect(t.endings.map((e) => e.at)).toEqual(finalExpirations.map((b) => b.event.event_timestamp_ms));
          expect(t.propensity).toBeGreaterThan(0);
        }
      }),
      { numRuns: 120 },
    );
  });

  it("folds, with the core, to the truth's state, product, renewals and billing failures under any model", () => {
    fc.assert(
      fc.property(options, (o) => {
        for (const c of generated(o)) {
          const events = c.events.flatMap((b): HandledEvent[] => {
            const parsed = parseWebhook(JSON.parse(JSON.stringify(b)));
            return parsed.ok && parsed.value.handled ? [parsed.value.event] : [];
          });
          expect(events).toHaveLength(c.events.length);
          const s = foldEvents(events)!;
          expect({ state: s.state, product_id: s.product_id, renewals: s.renewals, billing_failures: s.billing_failures }).toEqual({
            state: c.truth.state,
            product_id: c.truth.product_id,
            renewals: c.truth.renewals,
            billing_failures: c.truth.billing_failures,
          });
        }
      }),
      { numRuns: 120 },
    );
  });

  it('gives every transaction its own id across the population (the export keys rows by it)', () => {
    fc.assert(
      fc.property(options, (o) => {
        const ids = new Map<string, string>();
        for (const c of generated(o)) {
          for (const { event: e } of c.events) {
            if (e.type !== 'INITIAL_PURCHASE' && e.type !== 'RENEWAL') continue;
            const tx = e.transaction_id as string;
            expect(ids.get(tx) ?? c.customer_id).toBe(c.customer_id);
            ids.set(tx, c.customer_id);
          }
        }
      }),
      { numRuns: 80 },
    );
  });
});
