import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import { DAY, T0 } from '@tenure/testkit';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { foldEvents } from './foldEvents.js';
import { MAX_SUBSCRIPTIONS, accessStandingOf } from './primarySubscription.js';

const monthly = { original_transaction_id: 'tx_monthly', product_id: 'monthly' };
const weekly = { original_transaction_id: 'tx_weekly', product_id: 'weekly' };

describe('primary subscription', () => {
  it('keeps a customer active on its monthly subscription when its weekly one expires later', () => {
    const s = foldEvents([
      ev('INITIAL_PURCHASE', T0, { ...monthly, expiration_at_ms: T0 + 30 * DAY }),
      ev('INITIAL_PURCHASE', T0 + DAY, { ...weekly, expiration_at_ms: T0 + 8 * DAY }),
      ev('EXPIRATION', T0 + 8 * DAY, { ...weekly, expiration_at_ms: T0 + 8 * DAY }),
    ])!;
    expect(s).toMatchObject({ state: 'active', product_id: 'monthly', period_ends_at: T0 + 30 * DAY, subscription_id: 'tx_monthly' });
    expect(s.subscriptions?.map((x) => [x.id, x.state])).toEqual([['tx_monthly', 'active'], ['tx_weekly', 'churned']]);
  });

  it('does not flip with timestamps: a renewal of one and a billing issue of the other give active in either order of time', () => {
    for (const [renewAt, issueAt] of [[T0 + 2 * DAY, T0 + 3 * DAY], [T0 + 3 * DAY, T0 + 2 * DAY]] as const) {
      const s = foldEvents([
        ev('INITIAL_PURCHASE', T0, { ...monthly }),
        ev('INITIAL_PURCHASE', T0, { ...weekly }),
        ev('RENEWAL', renewAt, { ...monthly }),
        ev('BILLING_ISSUE', issueAt, { ...weekly }),
      ])!;
      expect(s.state).toBe('active');
      expect(s.billing_failures).toBe(1);
      expect(s.renewals).toBe(1);
    }
  });

  it('puts a billing issue in its grace period above a paused subscription, and a paused one above a billing issue without grace', () => {
    const inGrace = foldEvents([ev('BILLING_ISSUE', T0, { ...weekly, grace_period_expiration_at_ms: T0 + 3 * DAY })])!;
    const noGrace = foldEvents([ev('BILLING_ISSUE', T0, { ...weekly })])!;
    expect(accessStandingOf(inGrace)).toBe('billing_issue_in_grace');
    expect(accessStandingOf(noGrace)).toBe('billing_issue');
    const paused = ev('EXPIRATION', T0 + DAY, { ...monthly, expiration_reason: 'SUBSCRIPTION_PAUSED' });
    expect(foldEvents([paused, ev('BILLING_ISSUE', T0, { ...weekly, grace_period_expiration_at_ms: T0 + 3 * DAY })])!.subscription_id).toBe('tx_weekly');
    expect(foldEvents([paused, ev('BILLING_ISSUE', T0, { ...weekly })])!.subscription_id).toBe('tx_monthly');
  });

  it('scores the churned customer as churned only once every subscription has ended', () => {
    const events = [
      ev('INITIAL_PURCHASE', T0, { ...monthly }),
      ev('INITIAL_PURCHASE', T0, { ...weekly }),
      ev('EXPIRATION', T0 + 7 * DAY, { ...weekly }),
    ];
    expect(scoreSubscriber(foldEvents(events)!, T0 + 8 * DAY).breakdown.state).toBe(10);
    const all = foldEvents([...events, ev('EXPIRATION', T0 + 30 * DAY, { ...monthly })])!;
    expect(all.state).toBe('churned');
    expect(scoreSubscriber(all, T0 + 31 * DAY).breakdown.state).toBe(100);
  });

  it(`tracks at most ${MAX_SUBSCRIPTIONS} subscriptions, dropping an ended one with the earliest period end`, () => {
    const events = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i += 1) {
      events.push(ev('EXPIRATION', T0 + i * DAY, { original_transaction_id: `tx_${i}`, expiration_at_ms: T0 + i * DAY }));
    }
    events.push(ev('INITIAL_PURCHASE', T0, { original_transaction_id: 'tx_new', expiration_at_ms: T0 + 30 * DAY }));
    const s = foldEvents(events)!;
    expect(s.subscriptions).toHaveLength(MAX_SUBSCRIPTIONS);
    expect(s.subscriptions?.map((x) => x.id)).not.toContain('tx_0');
    expect(s).toMatchObject({ state: 'active', subscription_id: 'tx_new', event_count: MAX_SUBSCRIPTIONS + 1 });
  });

  it('keeps a top-up out of the subscriptions: its transaction id is not a subscription', () => {
    const s = foldEvents([
      ev('INITIAL_PURCHASE', T0, { ...monthly }),
      ev('NON_RENEWING_PURCHASE', T0 + DAY, { original_transaction_id: 'tx_pack', product_id: 'pack' }),
    ])!;
    expect(s).toMatchObject({ subscriptions: null, subscription_id: 'tx_monthly', product_id: 'monthly', last_activity_at: T0 + DAY });
  });
});
