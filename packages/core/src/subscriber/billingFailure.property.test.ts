import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctEventsArb } from '../testing/index.js';
import { ev } from '../../test/events.js';
import { DAY, T0 } from '@tenure/testkit';
import type { HandledEvent } from '../events/webhookSchema.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { foldEvents } from './foldEvents.js';

/** The billing problems: a failed charge, and the cancellation the billing service sends with it. */
const billingProblem = (kind: 'issue' | 'cancel', at: number, id: string): HandledEvent =>
  kind === 'issue'
    ? { type: 'BILLING_ISSUE', id, app_user_id: 'user_1', event_timestamp_ms: at }
    : { type: 'CANCELLATION', id, app_user_id: 'user_1', event_timestamp_ms: at, cancel_reason: 'BILLING_ERROR' };

const score = (events: HandledEvent[], now: number) => {
  const subscriber = foldEvents(events);
  return subscriber === undefined ? 0 : scoreSubscriber(subscriber, now).score;
};

describe('a billing failure never lowers the score', () => {
  it('in every order of events: with a billing problem inserted at any position, the score is at least the score without it', () => {
    fc.assert(
      fc.property(
        distinctEventsArb,
        fc.constantFrom('issue', 'cancel'),
        fc.constantFrom(-1, 0, 1),
        fc.integer({ min: 0, max: 20 * DAY }),
        fc.boolean(),
        (events, kind, offset, later, reversed) => {
          const now = T0 + later;
          const without = score(events, now);
          // Before, at (a tie broken by precedence) and after the time of every event.
          for (const [i, event] of events.entries()) {
            const inserted = billingProblem(kind, event.event_timestamp_ms + offset, `billing_${i}`);
            const withIt = reversed ? [inserted, ...events] : [...events.slice(0, i), inserted, ...events.slice(i)];
            expect(score(withIt, now)).toBeGreaterThanOrEqual(without);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps an expired subscriber churned when a billing issue comes after the expiration, whatever the delivery order', () => {
    const purchase = ev('INITIAL_PURCHASE', T0);
    const expiration = ev('EXPIRATION', T0 + 30 * DAY);
    const issue = ev('BILLING_ISSUE', T0 + 31 * DAY);
    for (const order of [[purchase, expiration, issue], [issue, expiration, purchase], [expiration, issue, purchase]]) {
      const subscriber = foldEvents(order)!;
      expect(subscriber).toMatchObject({ state: 'churned', billing_failures: 1 });
      expect(scoreSubscriber(subscriber, T0 + 31 * DAY).score).toBe(100);
    }
  });

  it('still lets a renewal after the billing issue reactivate, and a renewal between expiration and issue lead to billing_issue', () => {
    const expiration = ev('EXPIRATION', T0);
    const renewal = ev('RENEWAL', T0 + DAY);
    const issue = ev('BILLING_ISSUE', T0 + 2 * DAY);
    const recovery = ev('RENEWAL', T0 + 3 * DAY);
    expect(foldEvents([issue, expiration, renewal])?.state).toBe('billing_issue');
    expect(foldEvents([recovery, issue, renewal, expiration])?.state).toBe('active');
  });
});
