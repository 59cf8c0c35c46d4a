import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import { DAY, T0 } from '@tenure/testkit';
import { loadFixture } from '@tenure/testkit';
import { parseWebhook } from '../events/parseWebhook.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { applyEvent } from './applyEvent.js';
import type { Subscriber } from './subscriber.js';
import { foldEvents } from './foldEvents.js';

const fold = (...events: HandledEvent[]) => {
  const s = foldEvents(events);
  if (!s) throw new Error('no subscriber');
  return s;
};

describe('applyEvent', () => {
  it("builds a new customer's record and every later one with the same fields in the same order", () => {
    // Two object literals build records (the first event's and a copy's): one field order keeps
    // them one shape, and stored records and API answers keep that order.
    const first = applyEvent(undefined, ev('INITIAL_PURCHASE', T0));
    const later = applyEvent(first, ev('RENEWAL', T0 + 30 * DAY));
    // A record as an older version stored it, without the fields added since.
    const stored: Subscriber = { ...first };
    delete stored.customer_key;
    delete stored.aliases;
    delete stored.revenue;
    const older = applyEvent(stored, ev('RENEWAL', T0 + 30 * DAY));
    expect(Object.keys(later)).toEqual(Object.keys(first));
    expect(Object.keys(older)).toEqual(Object.keys(first));
  });
  describe('transitions (seed table)', () => {
    it('moves INITIAL_PURCHASE with a trial period to trialing', () => {
      expect(applyEvent(undefined, ev('INITIAL_PURCHASE', T0, { period_type: 'TRIAL' })).state).toBe('trialing');
    });
    it('moves INITIAL_PURCHASE without a trial period to active', () => {
      for (const period_type of ['NORMAL', 'INTRO', 'PROMOTIONAL', null, undefined]) {
        const event = ev('INITIAL_PURCHASE', T0, period_type === undefined ? {} : { period_type });
        expect(applyEvent(undefined, event).state).toBe('active');
      }
    });
    it('moves RENEWAL to active and counts one renewal', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY), ev('RENEWAL', T0 + 30 * DAY));
      expect(s.state).toBe('active');
      expect(s.renewals).toBe(1);
    });
    it('moves CANCELLATION to pending_cancel, not churned', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY, { cancel_reason: 'UNSUBSCRIBE' }));
      expect(s.state).toBe('pending_cancel');
    });
    it('moves CANCELLATION with cancel_reason BILLING_ERROR to billing_issue without recording a failure', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY, { cancel_reason: 'BILLING_ERROR' }));
      expect(s.state).toBe('billing_issue');
      expect(s.billing_failures).toBe(0);
    });
    it('moves EXPIRATION to churned', () => {
      expect(fold(ev('INITIAL_PURCHASE', T0), ev('EXPIRATION', T0 + 30 * DAY)).state).toBe('churned');
    });
    it('moves BILLING_ISSUE to billing_issue and records one billing failure', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('BILLING_ISSUE', T0 + 30 * DAY));
      expect(s.state).toBe('billing_issue');
      expect(s.billing_failures).toBe(1);
    });
    it('moves PRODUCT_CHANGE to active and records new_product_id as the current product', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('PRODUCT_CHANGE', T0 + DAY, { new_product_id: 'pro_annual' }));
      expect(s.state).toBe('active');
      expect(s.product_id).toBe('pro_annual');
    });
    it('falls back to product_id when PRODUCT_CHANGE has no new_product_id', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('PRODUCT_CHANGE', T0 + DAY, { product_id: 'pro_weekly', new_product_id: null }));
      expect(s.product_id).toBe('pro_weekly');
    });
    it('moves UNCANCELLATION to active', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY), ev('UNCANCELLATION', T0 + 2 * DAY));
      expect(s.state).toBe('active');
    });
    it('keeps a trial that is un-cancelled or changes product during the trial trialing (period_type TRIAL)', () => {
      const trial = { period_type: 'TRIAL' } as const;
      const start = ev('INITIAL_PURCHASE', T0, trial);
      expect(fold(start, ev('CANCELLATION', T0 + DAY, trial), ev('UNCANCELLATION', T0 + 2 * DAY, trial)).state).toBe('trialing');
      expect(fold(start, ev('PRODUCT_CHANGE', T0 + DAY, { ...trial, new_product_id: 'pro_annual' })).state).toBe('trialing');
      expect(fold(start, ev('UNCANCELLATION', T0 + DAY, { period_type: 'NORMAL' })).state).toBe('active');
    });
    it('applies a transition from any current state (no transition is rejected)', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('EXPIRATION', T0 + DAY), ev('UNCANCELLATION', T0 + 2 * DAY));
      expect(s.state).toBe('active');
    });
  });

  describe('the subscriber record', () => {
    it('creates the subscriber from its first event, keyed by app_user_id', () => {
      const s = applyEvent(undefined, ev('RENEWAL', T0, { app_user_id: 'abc' }));
      expect(s.customer_id).toBe('abc');
      expect(s.first_event_at).toBe(T0);
      expect(s.event_count).toBe(1);
    });
    it('records the trial start and end from a TRIAL initial purchase', () => {
      const s = applyEvent(undefined, ev('INITIAL_PURCHASE', T0, { period_type: 'TRIAL', purchased_at_ms: T0 - 5, expiration_at_ms: T0 + 14 * DAY }));
      expect(s.trial_started_at).toBe(T0 - 5);
      expect(s.trial_ends_at).toBe(T0 + 14 * DAY);
    });
    it('records the trial conversion time from a RENEWAL with is_trial_conversion', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0, { period_type: 'TRIAL' }), ev('RENEWAL', T0 + 14 * DAY, { is_trial_conversion: true }));
      expect(s.trial_converted_at).toBe(T0 + 14 * DAY);
      expect(s.renewals).toBe(1);
    });
    it('records no conversion for an ordinary renewal', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('RENEWAL', T0 + 30 * DAY, { is_trial_conversion: false }));
      expect(s.trial_converted_at).toBeNull();
    });
    it('records expiration_at_ms as the end of the current period', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0, { expiration_at_ms: T0 + 30 * DAY }), ev('RENEWAL', T0 + 30 * DAY, { expiration_at_ms: T0 + 60 * DAY }));
      expect(s.period_ends_at).toBe(T0 + 60 * DAY);
    });
    it('does not mutate the subscriber it is given', () => {
      const s1 = applyEvent(undefined, ev('INITIAL_PURCHASE', T0));
      const copy = structuredClone(s1);
      applyEvent(s1, ev('BILLING_ISSUE', T0 + DAY));
      expect(s1).toEqual(copy);
    });
    it('applies a real-format payload end to end', () => {
      const parsed = parseWebhook(loadFixture('initial_purchase_trial'));
      if (!parsed.ok || !parsed.value.handled) throw new Error('fixture did not parse');
      const s = applyEvent(undefined, parsed.value.event);
      expect(s).toMatchObject({ customer_id: 'user_1234', state: 'trialing', product_id: 'pro_monthly' });
    });
  });

  describe('order independence', () => {
    it('lets the latest event_timestamp_ms decide the state, whatever the delivery order', () => {
      const purchase = ev('INITIAL_PURCHASE', T0);
      const cancel = ev('CANCELLATION', T0 + DAY);
      expect(fold(cancel, purchase).state).toBe('pending_cancel');
      expect(fold(purchase, cancel).state).toBe('pending_cancel');
    });
    it('ends churned when BILLING_ISSUE, CANCELLATION(BILLING_ERROR) and EXPIRATION share a timestamp, in any order', () => {
      const t = T0 + 30 * DAY;
      const events = [
        ev('BILLING_ISSUE', t),
        ev('CANCELLATION', t, { cancel_reason: 'BILLING_ERROR' }),
        ev('EXPIRATION', t, { expiration_reason: 'BILLING_ERROR' }),
      ];
      for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]]) {
        const s = fold(ev('INITIAL_PURCHASE', T0), ...order.map((i) => events[i]!));
        expect(s.state).toBe('churned');
        expect(s.billing_failures).toBe(1);
      }
    });
    it('keeps a late-delivered cancellation from overriding a later uncancellation', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('UNCANCELLATION', T0 + 2 * DAY), ev('CANCELLATION', T0 + DAY));
      expect(s.state).toBe('active');
    });
    it('keeps the current product of the latest event that names one', () => {
      const change = ev('PRODUCT_CHANGE', T0 + 2 * DAY, { new_product_id: 'pro_annual' });
      const purchase = ev('INITIAL_PURCHASE', T0, { product_id: 'pro_monthly' });
      expect(fold(change, purchase).product_id).toBe('pro_annual');
    });
  });

  describe('activity', () => {
    it('counts purchases, product changes, uncancellations and top-ups as activity', () => {
      for (const type of ['INITIAL_PURCHASE', 'PRODUCT_CHANGE', 'UNCANCELLATION', 'NON_RENEWING_PURCHASE'] as const) {
        expect(applyEvent(undefined, ev(type, T0)).last_activity_at, type).toBe(T0);
      }
    });
    it('does not count renewals, cancellations, expirations or billing issues as activity', () => {
      for (const type of ['RENEWAL', 'CANCELLATION', 'EXPIRATION', 'BILLING_ISSUE'] as const) {
        expect(applyEvent(undefined, ev(type, T0)).last_activity_at, type).toBeNull();
      }
    });
    it('keeps the latest activity when an older activity event arrives late', () => {
      const s = fold(ev('PRODUCT_CHANGE', T0 + 5 * DAY), ev('INITIAL_PURCHASE', T0));
      expect(s.last_activity_at).toBe(T0 + 5 * DAY);
    });
  });

  describe('top-ups (NON_RENEWING_PURCHASE)', () => {
    it('does not change the state or the subscription product', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0, { period_type: 'TRIAL' }), ev('NON_RENEWING_PURCHASE', T0 + DAY, { product_id: 'credits_500' }));
      expect(s.state).toBe('trialing');
      expect(s.product_id).toBe('pro_monthly');
    });
    it('creates an active subscriber with no lifecycle event yet when it comes first', () => {
      const s = applyEvent(undefined, ev('NON_RENEWING_PURCHASE', T0, { product_id: 'credits_500' }));
      expect(s).toMatchObject({ state: 'active', state_key: null, product_id: null });
    });
  });
});
