import { describe, expect, it } from 'vitest';
import { DAY } from '@tenure/testkit';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import { resolveConfig } from '../config/defaultConfig.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { recommend } from './recommend.js';

const recs = (subscriber: Subscriber, score: number, now = NOW, config = resolveConfig()) =>
  recommend(subscriber, makeRisk(score, 'high'), now, config).map(({ action, urgency }) => ({ action, urgency }));

/** A billing issue whose BILLING_ISSUE (at NOW - 1 day) gave a grace period ending at `graceEnd`. */
const inGrace = (graceEnd: number | null) =>
  makeSubscriber({
    state: 'billing_issue',
    billing_failures: 1,
    grace_ends_at: graceEnd,
    grace_key: { at: NOW - DAY, rank: 4, id: 'evt_issue' },
    base_state_key: { at: NOW - 30 * DAY, rank: 1, id: 'evt_purchase' },
  });

describe('recommend: paused, refunded, price increase, grace period', () => {
  it('recommends pause_winback (soon) for a paused subscriber', () => {
    expect(recs(makeSubscriber({ state: 'paused', auto_resume_at: NOW + 20 * DAY }), 55)).toEqual([{ action: 'pause_winback', urgency: 'soon' }]);
  });

  it('recommends refund_followup (immediate) for a refunded subscriber', () => {
    expect(recs(makeSubscriber({ state: 'refunded' }), 90)).toEqual([{ action: 'refund_followup', urgency: 'immediate' }]);
  });

  it('recommends price_increase_save instead of the usual retention offer for a price-increase cancellation', () => {
    const s = makeSubscriber({ state: 'pending_cancel', cancel_reason: 'PRICE_INCREASE', renewals: 5, period_ends_at: NOW + 3 * DAY });
    expect(recs(s, 70)).toEqual([
      { action: 'price_increase_save', urgency: 'soon' },
      { action: 'renewal_reminder', urgency: 'soon' },
    ]);
  });

  it('recommends grace_payment_reminder (soon) while the grace end is more than grace_urgent_days away', () => {
    expect(recs(inGrace(NOW + 3 * DAY + 1), 90)).toEqual([{ action: 'grace_payment_reminder', urgency: 'soon' }]);
  });

  it('rises to the immediate actions within grace_urgent_days of the grace end, and after it', () => {
    const immediate = [
      { action: 'billing_failure_alert', urgency: 'immediate' },
      { action: 'payment_update', urgency: 'immediate' },
    ];
    expect(recs(inGrace(NOW + 3 * DAY), 90)).toEqual(immediate);
    expect(recs(inGrace(NOW - DAY), 90)).toEqual(immediate);
    expect(recs(inGrace(NOW + 10 * DAY), 90, NOW, resolveConfig({ recommend: { grace_urgent_days: 10 } }))).toEqual(immediate);
  });

  it('ignores the grace period of an issue older than the latest other lifecycle event, and a missing one', () => {
    const stale = { ...inGrace(NOW + 20 * DAY), base_state_key: { at: NOW - DAY / 2, rank: 6, id: 'evt_renewal' } };
    expect(recs(stale, 90)[0]?.action).toBe('billing_failure_alert');
    expect(recs(inGrace(null), 90)[0]?.action).toBe('billing_failure_alert');
  });
});
