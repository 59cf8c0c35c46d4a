import { describe, expect, it } from 'vitest';
import { ev } from '../../test/events.js';
import type { StoredRecord } from '../store/subscriberStore.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { DEFAULT_LAPSE_MS } from './churnOutcome.js';
import { walkCutoffs } from './walkCutoffs.js';

const DAY = 86_400_000;
const T0 = 1_767_225_600_000; // 2026-01-01
const event = (e: ReturnType<typeof ev>): StoredRecord => ({ kind: 'event', event: e });

/** Four customers around a cutoff at day 45 with a 30-day horizon. */
function history(): StoredRecord[] {
  const of = (app_user_id: string) => ({ app_user_id });
  return [
    // Renews every month: stays.
    ev('INITIAL_PURCHASE', T0, { ...of('stays'), expiration_at_ms: T0 + 30 * DAY }),
    ev('RENEWAL', T0 + 30 * DAY, { ...of('stays'), expiration_at_ms: T0 + 60 * DAY }),
    ev('RENEWAL', T0 + 60 * DAY, { ...of('stays'), expiration_at_ms: T0 + 90 * DAY }),
    ev('RENEWAL', T0 + 90 * DAY, { ...of('stays'), expiration_at_ms: T0 + 120 * DAY }),
    // Opts out at day 40, expires at day 60: churns.
    ev('INITIAL_PURCHASE', T0, { ...of('expires'), expiration_at_ms: T0 + 30 * DAY }),
    ev('RENEWAL', T0 + 30 * DAY, { ...of('expires'), expiration_at_ms: T0 + 60 * DAY }),
    ev('CANCELLATION', T0 + 40 * DAY, { ...of('expires'), cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 60 * DAY }),
    ev('EXPIRATION', T0 + 60 * DAY, { ...of('expires'), expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 60 * DAY }),
    // Refunded at day 50: churns.
    ev('INITIAL_PURCHASE', T0, { ...of('refunded'), expiration_at_ms: T0 + 30 * DAY }),
    ev('RENEWAL', T0 + 30 * DAY, { ...of('refunded'), expiration_at_ms: T0 + 60 * DAY }),
    ev('CANCELLATION', T0 + 50 * DAY, { ...of('refunded'), cancel_reason: 'CUSTOMER_SUPPORT', expiration_at_ms: T0 + 60 * DAY }),
    // Bought at day 20 for a month, then nothing: lapses after day 50 + 3.
    ev('INITIAL_PURCHASE', T0 + 20 * DAY, { ...of('lapses'), expiration_at_ms: T0 + 50 * DAY }),
    // Expired before the cutoff: not live.
    ev('INITIAL_PURCHASE', T0, { ...of('gone'), expiration_at_ms: T0 + 30 * DAY }),
    ev('EXPIRATION', T0 + 30 * DAY, { ...of('gone'), expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 30 * DAY }),
    // Only a top-up: no subscription, not live.
    ev('NON_RENEWING_PURCHASE', T0 + 10 * DAY, of('topup')),
  ].map(event);
}

function labels(records: StoredRecord[], cutoffs: number[], horizon = 30 * DAY) {
  const seen: { index: number; customer: string; churned: boolean; at: number; subscriber: Subscriber }[] = [];
  const summary = walkCutoffs(records, cutoffs, horizon, DEFAULT_LAPSE_MS, {
    assess: (index, subscriber, at) => ({ index, subscriber, at }),
    label: (index, value, churned) => seen.push({ index, customer: value.subscriber.customer_id, churned, at: value.at, subscriber: value.subscriber }),
  });
  return { seen, summary };
}

describe('walkCutoffs', () => {
  it('labels an expiration, a refund and a lapse within the horizon as churn, and a renewal as not', () => {
    const { seen } = labels(history(), [T0 + 45 * DAY]);
    const byCustomer = Object.fromEntries(seen.map((s) => [s.customer, s.churned]));
    expect(byCustomer).toEqual({ stays: false, expires: true, refunded: true, lapses: true });
  });

  it('assesses only live subscribers: not one already expired, nor a top-up-only customer', () => {
    const { seen } = labels(history(), [T0 + 45 * DAY]);
    expect(seen.map((s) => s.customer).sort()).toEqual(['expires', 'lapses', 'refunded', 'stays']);
  });

  it('assesses from the records strictly before the cutoff', () => {
    const cutoff = T0 + 30 * DAY; // the renewals at day 30 are not seen yet
    const { seen } = labels(history(), [cutoff]);
    for (const s of seen) expect(s.subscriber.last_event_at).toBeLessThan(cutoff);
    expect(seen.find((s) => s.customer === 'stays')?.subscriber.renewals).toBe(0);
  });

  it('counts churn that comes later than the horizon as not churned', () => {
    // The opt-out's expiration at day 60 is after 45 + 10.
    const { seen } = labels(history(), [T0 + 45 * DAY], 10 * DAY);
    expect(seen.find((s) => s.customer === 'expires')?.churned).toBe(false);
    expect(seen.find((s) => s.customer === 'refunded')?.churned).toBe(true);
  });

  it('drops repeated deliveries and applies reported activity in time order', () => {
    const records = history();
    const activity: StoredRecord = { kind: 'activity', customer_id: 'stays', at: T0 + 44 * DAY };
    const late: StoredRecord = { kind: 'activity', customer_id: 'stays', at: T0 + 46 * DAY };
    const { seen, summary } = labels([...records, ...records.slice(0, 3), late, activity], [T0 + 45 * DAY]);
    expect(summary.duplicates).toBe(3);
    expect(summary.activity).toBe(2);
    expect(seen.find((s) => s.customer === 'stays')?.subscriber.last_activity_at).toBe(T0 + 44 * DAY);
  });

  it('reads an end from the state after all the events of an instant, in any delivery order', () => {
    // Two expirations at one instant (found by the order property): the paused one wins by the
    // fold's key, so the subscriber is paused, whichever was delivered first; the unsubscribe one
    // applied alone would read churned for a moment that never was.
    const at = T0 + 50 * DAY;
    const purchase = ev('INITIAL_PURCHASE', T0, { app_user_id: 'p', expiration_at_ms: at });
    const unsubscribed = ev('EXPIRATION', at, { app_user_id: 'p', id: 'evt_100006', expiration_reason: 'UNSUBSCRIBE', expiration_at_ms: at });
    const paused = ev('EXPIRATION', at, { app_user_id: 'p', id: 'evt_21793', expiration_reason: 'SUBSCRIPTION_PAUSED', expiration_at_ms: at, auto_resume_at_ms: at + 30 * DAY });
    for (const order of [[purchase, unsubscribed, paused], [purchase, paused, unsubscribed]]) {
      const { seen } = labels(order.map(event), [T0 + 45 * DAY]);
      expect(seen.map((s) => s.churned)).toEqual([false]);
    }
  });
});
