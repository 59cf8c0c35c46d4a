// API v2 objects to webhook events: each status and what the transactions tell, stable ids, and
// (property) the events do not depend on the order the API lists transactions in, have distinct
// ids, and are all accepted by parseWebhook.
import { foldEvents, parseWebhook, type HandledEvent } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiPurchase, ApiSubscription, ApiTransaction } from '../../src/backfill/apiObjects.js';
import { customerEvents, purchaseEvents, subscriptionEvents } from '../../src/backfill/deriveBackfillEvents.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const money = (gross: number) => ({ currency: 'USD', gross, commission: Math.round(gross * 15) / 100, tax: 0, proceeds: Math.round(gross * 85) / 100 });

const sub = (over: Partial<ApiSubscription> = {}): ApiSubscription => ({
  id: 'sub_1', customer_id: 'c1', original_customer_id: 'c1', product_id: 'monthly', starts_at: T0,
  current_period_starts_at: T0 + 37 * DAY, current_period_ends_at: T0 + 67 * DAY, ends_at: null,
  auto_renewal_status: 'will_renew', status: 'active', total_revenue_in_usd: money(19.98), presented_offering_id: null,
  environment: 'production', store: 'app_store', store_subscription_identifier: 'tx3', country: 'US', ...over,
});
// A 7-day trial, then two paid months.
const txs: ApiTransaction[] = [
  { id: 'tx1', purchased_at: T0, product_store_identifier: 'monthly', expiration_date: T0 + 7 * DAY, effective_expiration_date: T0 + 7 * DAY },
  { id: 'tx2', purchased_at: T0 + 7 * DAY, product_store_identifier: 'monthly', expiration_date: T0 + 37 * DAY, effective_expiration_date: T0 + 37 * DAY },
  { id: 'tx3', purchased_at: T0 + 37 * DAY, product_store_identifier: 'monthly', expiration_date: T0 + 67 * DAY, effective_expiration_date: T0 + 67 * DAY },
];

const fold = (events: Record<string, unknown>[]) => {
  const handled: HandledEvent[] = events.map((event) => {
    const parsed = parseWebhook({ api_version: '1.0', event });
    if (!parsed.ok || !parsed.value.handled) throw new Error(JSON.stringify(parsed));
    return parsed.value.event;
  });
  const s = foldEvents(handled);
  if (s === undefined) throw new Error('no subscriber');
  return s;
};

describe('subscriptionEvents', () => {
  it('a trial and two paid periods: INITIAL_PURCHASE (TRIAL), RENEWAL (conversion), RENEWAL', () => {
    const events = subscriptionEvents(sub(), txs);
    expect(events.map((e) => [e.type, e.id, e['price'], e['period_type']])).toEqual([
      ['INITIAL_PURCHASE', 'backfill:sub_1:tx1:INITIAL_PURCHASE', 0, 'TRIAL'],
      ['RENEWAL', 'backfill:sub_1:tx2:RENEWAL', 9.99, 'NORMAL'],
      ['RENEWAL', 'backfill:sub_1:tx3:RENEWAL', 9.99, 'NORMAL'],
    ]);
    const s = fold(events);
    expect(s).toMatchObject({ state: 'active', renewals: 2, period_ends_at: T0 + 67 * DAY, trial_started_at: T0, trial_ends_at: T0 + 7 * DAY, trial_converted_at: T0 + 7 * DAY });
    expect(s.revenue).toMatchObject({ price: 9.99, currency: 'USD', store: 'APP_STORE', takehome_percentage: 0.85 });
  });

  it('auto-renew off: pending_cancel, then churned once expired', () => {
    expect(fold(subscriptionEvents(sub({ auto_renewal_status: 'will_not_renew' }), txs)).state).toBe('pending_cancel');
    const expired = subscriptionEvents(sub({ auto_renewal_status: 'will_not_renew', status: 'expired', ends_at: T0 + 67 * DAY }), txs);
    expect(expired.at(-1)).toMatchObject({ type: 'EXPIRATION', expiration_reason: 'UNSUBSCRIBE', event_timestamp_ms: T0 + 67 * DAY });
    expect(fold(expired).state).toBe('churned');
  });

  it('in a grace period: billing_issue with the grace end; a grace that ran out: churned, the failure kept', () => {
    const grace = [...txs.slice(0, 2), { ...txs[2]!, effective_expiration_date: T0 + 70 * DAY }];
    const now = fold(subscriptionEvents(sub({ status: 'in_grace_period' }), grace));
    expect(now).toMatchObject({ state: 'billing_issue', grace_ends_at: T0 + 70 * DAY, billing_failures: 1 });
    const over = fold(subscriptionEvents(sub({ status: 'expired', ends_at: T0 + 70 * DAY }), grace));
    expect(over).toMatchObject({ state: 'churned', grace_ends_at: T0 + 70 * DAY, billing_failures: 1 });
  });

  it('ended before its paid period did: refunded; paused: paused', () => {
    const cut = [...txs.slice(0, 2), { ...txs[2]!, effective_expiration_date: T0 + 40 * DAY }];
    expect(fold(subscriptionEvents(sub({ status: 'expired', ends_at: T0 + 40 * DAY }), cut)).state).toBe('refunded');
    expect(fold(subscriptionEvents(sub({ status: 'paused' }), txs)).state).toBe('paused');
  });

  it('without transactions, the current period stands for the subscription', () => {
    const events = subscriptionEvents(sub({ status: 'trialing', total_revenue_in_usd: money(0) }), []);
    expect(events.map((e) => [e.type, e['period_type'], e['transaction_id']])).toEqual([['INITIAL_PURCHASE', 'TRIAL', 'tx3']]);
  });

  it('hashes an id past the 256-byte limit, the same way every time', () => {
    const long = sub({ id: 's'.repeat(250) });
    const [a] = subscriptionEvents(long, txs);
    expect(a?.id).toMatch(/^backfill:sha256:[0-9a-f]{64}$/);
    expect(subscriptionEvents(long, txs)[0]?.id).toBe(a?.id);
  });

  it('(property) events do not depend on the transactions\' order, have distinct ids and all parse', () => {
    const status = fc.constantFrom('trialing', 'active', 'expired', 'in_grace_period', 'in_billing_retry', 'paused', 'unknown');
    const renewal = fc.constantFrom('will_renew', 'will_not_renew', 'will_change_product');
    const periods = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(status, renewal, periods, fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 10_000 }), (st, ar, days, graceDays, cents) => {
        let at = T0;
        const list: ApiTransaction[] = days.map((d, i) => {
          const t = { id: `t${i}`, purchased_at: at, expiration_date: at + d * DAY, effective_expiration_date: at + d * DAY + (i === days.length - 1 ? graceDays * DAY : 0) };
          at += d * DAY;
          return t;
        });
        const s = sub({ status: st, auto_renewal_status: ar, total_revenue_in_usd: money(cents / 100), ends_at: st === 'expired' ? at : null });
        const events = subscriptionEvents(s, list);
        expect(subscriptionEvents(s, [...list].reverse())).toEqual(events);
        expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
        for (const event of events) expect(parseWebhook({ api_version: '1.0', event }).ok).toBe(true);
      }),
    );
  });
});

describe('purchaseEvents', () => {
  const p: ApiPurchase = {
    id: 'p1', customer_id: 'c1', original_customer_id: 'c1', product_id: 'pack', purchased_at: T0, revenue_in_usd: money(4.99), status: 'owned',
    presented_offering_id: null, environment: 'production', store: 'app_store', store_purchase_identifier: 'p1', country: null,
  };
  it('a one-time purchase, and its refund as CANCELLATION CUSTOMER_SUPPORT', () => {
    expect(purchaseEvents(p).map((e) => [e.type, e.id, e['price']])).toEqual([['NON_RENEWING_PURCHASE', 'backfill:purchase:p1:NON_RENEWING_PURCHASE', 4.99]]);
    const refunded = purchaseEvents({ ...p, status: 'refunded' });
    expect(refunded.map((e) => [e.type, e['cancel_reason'], e['expiration_at_ms']])).toEqual([['NON_RENEWING_PURCHASE', undefined, null], ['CANCELLATION', 'CUSTOMER_SUPPORT', null]]);
    // A one-time purchase is not the subscription: the subscriber's state does not change.
    const s = fold(customerEvents({ customer: { id: 'c1' }, subscriptions: [{ subscription: sub(), transactions: txs }], purchases: [{ ...p, status: 'refunded' }] }));
    expect(s.state).toBe('active');
  });
});
