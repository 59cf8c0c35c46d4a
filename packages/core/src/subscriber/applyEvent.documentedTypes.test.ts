import { describe, expect, it } from 'vitest';
import { DAY, T0, loadFixture } from '@tenure/testkit';
import { ev } from '../../test/events.js';
import { parseWebhook } from '../events/parseWebhook.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { applyEvent, MAX_ALIASES } from './applyEvent.js';
import { foldEvents } from './foldEvents.js';

const fold = (...events: HandledEvent[]) => {
  const s = foldEvents(events);
  if (!s) throw new Error('no subscriber');
  return s;
};

/** Every order of a few events folds to the same record (the rule and its order independence, together). */
const everyOrder = (events: HandledEvent[]) => {
  const orders: HandledEvent[][] = [events, [...events].reverse(), [...events.slice(1), events[0]!]];
  const first = fold(...orders[0]!);
  for (const order of orders) expect(fold(...order)).toEqual(first);
  return first;
};

describe('applyEvent: the documented types beyond the seed', () => {
  describe('pause (Play)', () => {
    it('keeps access on SUBSCRIPTION_PAUSED (state unchanged) and records when it resumes', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('SUBSCRIPTION_PAUSED', T0 + DAY, { auto_resume_at_ms: T0 + 60 * DAY }));
      expect(s).toMatchObject({ state: 'active', auto_resume_at: T0 + 60 * DAY });
    });
    it('makes an EXPIRATION with reason SUBSCRIPTION_PAUSED paused, not churned', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0),
        ev('SUBSCRIPTION_PAUSED', T0 + DAY, { auto_resume_at_ms: T0 + 60 * DAY }),
        ev('EXPIRATION', T0 + 30 * DAY, { expiration_reason: 'SUBSCRIPTION_PAUSED' }),
      ]);
      expect(s).toMatchObject({ state: 'paused', auto_resume_at: T0 + 60 * DAY });
      expect(scoreSubscriber(s, T0 + 30 * DAY).breakdown.state).toBe(50);
    });
    it('resumes on a later RENEWAL, INITIAL_PURCHASE or UNCANCELLATION', () => {
      for (const type of ['RENEWAL', 'INITIAL_PURCHASE', 'UNCANCELLATION'] as const) {
        const s = everyOrder([
          ev('SUBSCRIPTION_PAUSED', T0 + DAY),
          ev('EXPIRATION', T0 + 30 * DAY, { expiration_reason: 'SUBSCRIPTION_PAUSED' }),
          ev(type, T0 + 60 * DAY),
        ]);
        expect(s.state, type).toBe('active');
      }
    });
    it('reads the real-format fixture: a handled event with its resume time', () => {
      const parsed = parseWebhook(loadFixture('subscription_paused'));
      if (!parsed.ok || !parsed.value.handled) throw new Error('not handled');
      expect(applyEvent(undefined, parsed.value.event).auto_resume_at).toBe(1767184000000);
    });
  });

  describe('grace period', () => {
    it('keeps the grace end of the latest BILLING_ISSUE, in any order', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0),
        ev('BILLING_ISSUE', T0 + 30 * DAY, { grace_period_expiration_at_ms: T0 + 46 * DAY }),
        ev('CANCELLATION', T0 + 30 * DAY, { cancel_reason: 'BILLING_ERROR' }),
      ]);
      expect(s).toMatchObject({ state: 'billing_issue', grace_ends_at: T0 + 46 * DAY, billing_failures: 1 });
    });
    it('reads the real-format fixtures: a grace end when RevenueCat gives one, null otherwise', () => {
      for (const [name, graceEnd] of [['billing_issue_grace', 1765974400000], ['billing_issue', null]] as const) {
        const parsed = parseWebhook(loadFixture(name));
        if (!parsed.ok || !parsed.value.handled) throw new Error('not handled');
        const s = applyEvent(undefined, parsed.value.event);
        expect(s.grace_ends_at, name).toBe(graceEnd);
        const top = assessSubscriber(s, parsed.value.event.event_timestamp_ms).recommendations[0];
        expect(top?.urgency, name).toBe(graceEnd === null ? 'immediate' : 'soon');
      }
    });
    it('records no grace end for a BILLING_ISSUE without one', () => {
      const s = fold(
        ev('BILLING_ISSUE', T0, { grace_period_expiration_at_ms: T0 + 16 * DAY }),
        ev('RENEWAL', T0 + DAY),
        ev('BILLING_ISSUE', T0 + 31 * DAY, { grace_period_expiration_at_ms: null }),
      );
      expect(s.grace_ends_at).toBeNull();
    });
  });

  describe('refunds', () => {
    it('makes a CANCELLATION with cancel_reason CUSTOMER_SUPPORT refunded, scored above a billing issue', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + 5 * DAY, { cancel_reason: 'CUSTOMER_SUPPORT' }));
      expect(s.state).toBe('refunded');
      expect(scoreSubscriber(s, T0 + 5 * DAY).breakdown.state).toBe(90);
    });
    it('makes an EXPIRATION with expiration_reason CUSTOMER_SUPPORT refunded too (the refund ended the subscription)', () => {
      expect(fold(ev('INITIAL_PURCHASE', T0), ev('EXPIRATION', T0 + DAY, { expiration_reason: 'CUSTOMER_SUPPORT' })).state).toBe('refunded');
    });
    it('undoes the refund with REFUND_REVERSED, whatever the delivery order', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0),
        ev('CANCELLATION', T0 + 5 * DAY, { cancel_reason: 'CUSTOMER_SUPPORT' }),
        ev('REFUND_REVERSED', T0 + 9 * DAY),
      ]);
      expect(s).toMatchObject({ state: 'active', cancel_reason: null });
    });
    it('gives back the state the refund hid: a cancelled subscription refunded and reversed is pending_cancel again', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0),
        ev('CANCELLATION', T0 + DAY, { cancel_reason: 'PRICE_INCREASE' }),
        ev('CANCELLATION', T0 + 5 * DAY, { cancel_reason: 'CUSTOMER_SUPPORT' }),
        ev('EXPIRATION', T0 + 5 * DAY, { expiration_reason: 'CUSTOMER_SUPPORT' }),
        ev('REFUND_REVERSED', T0 + 9 * DAY),
      ]);
      expect(s).toMatchObject({ state: 'pending_cancel', cancel_reason: 'PRICE_INCREASE' });
    });
    it('lets a reversal at the same millisecond as the refund win (it follows what it undoes)', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0 - DAY),
        ev('CANCELLATION', T0, { cancel_reason: 'CUSTOMER_SUPPORT' }),
        ev('EXPIRATION', T0, { expiration_reason: 'CUSTOMER_SUPPORT' }),
        ev('REFUND_REVERSED', T0),
      ]);
      expect(s.state).toBe('active');
    });
    it('refunds again after a reversal, and a later purchase starts over', () => {
      const refundAgain = ev('CANCELLATION', T0 + 3 * DAY, { cancel_reason: 'CUSTOMER_SUPPORT' });
      const history = [ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY, { cancel_reason: 'CUSTOMER_SUPPORT' }), ev('REFUND_REVERSED', T0 + 2 * DAY)];
      expect(everyOrder([...history, refundAgain]).state).toBe('refunded');
      expect(everyOrder([...history, refundAgain, ev('INITIAL_PURCHASE', T0 + 40 * DAY)]).state).toBe('active');
    });
    it('keeps a refunded subscriber refunded when a billing problem comes after it (a failure never lowers the score)', () => {
      const s = everyOrder([ev('CANCELLATION', T0, { cancel_reason: 'CUSTOMER_SUPPORT' }), ev('BILLING_ISSUE', T0 + DAY)]);
      expect(s).toMatchObject({ state: 'refunded', billing_failures: 1 });
    });
    it('leaves the subscription alone when a one-time purchase is refunded (expiration_at_ms null: not a subscription)', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0, { expiration_at_ms: T0 + 30 * DAY }),
        ev('NON_RENEWING_PURCHASE', T0 + DAY, { product_id: 'credits_500', expiration_at_ms: null }),
        ev('CANCELLATION', T0 + 2 * DAY, { product_id: 'credits_500', cancel_reason: 'CUSTOMER_SUPPORT', expiration_at_ms: null }),
      ]);
      expect(s).toMatchObject({ state: 'active', product_id: 'pro_monthly', period_ends_at: T0 + 30 * DAY });
    });
    it('keeps a price-increase cancellation pending_cancel with its reason', () => {
      const s = fold(ev('INITIAL_PURCHASE', T0), ev('CANCELLATION', T0 + DAY, { cancel_reason: 'PRICE_INCREASE' }));
      expect(s).toMatchObject({ state: 'pending_cancel', cancel_reason: 'PRICE_INCREASE' });
      expect(scoreSubscriber(s, T0 + DAY).breakdown.cancel_reason).toBe(10);
    });
  });

  describe('extensions and temporary grants', () => {
    it('moves the period end on SUBSCRIPTION_EXTENDED without changing the state', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0, { expiration_at_ms: T0 + 30 * DAY }),
        ev('CANCELLATION', T0 + DAY, { expiration_at_ms: T0 + 30 * DAY }),
        ev('SUBSCRIPTION_EXTENDED', T0 + 2 * DAY, { expiration_at_ms: T0 + 40 * DAY }),
      ]);
      expect(s).toMatchObject({ state: 'pending_cancel', period_ends_at: T0 + 40 * DAY });
    });
    it('records temporary access on TEMPORARY_ENTITLEMENT_GRANT and counts no purchase', () => {
      const s = fold(ev('TEMPORARY_ENTITLEMENT_GRANT', T0, { expiration_at_ms: T0 + DAY / 2, product_id: 'pro_monthly' }));
      expect(s).toMatchObject({
        state_key: null,
        product_id: null,
        period_ends_at: null,
        renewals: 0,
        last_activity_at: null,
        temporary_access_until: T0 + DAY / 2,
      });
      expect(s.revenue ?? null).toBeNull();
    });
    it('lets the INITIAL_PURCHASE that follows decide the state', () => {
      const s = everyOrder([ev('TEMPORARY_ENTITLEMENT_GRANT', T0, { expiration_at_ms: T0 + DAY / 2 }), ev('INITIAL_PURCHASE', T0 + 1000)]);
      expect(s).toMatchObject({ state: 'active', product_id: 'pro_monthly' });
    });
  });

  describe('aliases', () => {
    it('keeps the original app user id and the union of aliases, sorted, in any order', () => {
      const s = everyOrder([
        ev('INITIAL_PURCHASE', T0, { original_app_user_id: '$RCAnonymousID:1', aliases: ['$RCAnonymousID:1'] }),
        ev('RENEWAL', T0 + 30 * DAY, { original_app_user_id: '$RCAnonymousID:1', aliases: ['user_1', '$RCAnonymousID:1'] }),
      ]);
      expect(s).toMatchObject({ original_app_user_id: '$RCAnonymousID:1', aliases: ['$RCAnonymousID:1', 'user_1'] });
    });
    it(`keeps at most ${MAX_ALIASES} aliases: the smallest in code-point order`, () => {
      const many = Array.from({ length: 30 }, (_, i) => `alias_${String(i).padStart(2, '0')}`);
      const s = fold(ev('RENEWAL', T0, { aliases: many.slice(15) }), ev('RENEWAL', T0 + 1, { aliases: many.slice(0, 15) }));
      expect(s.aliases).toEqual(many.slice(0, MAX_ALIASES));
    });
  });
});
