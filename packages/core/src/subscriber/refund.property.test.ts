import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY } from '@tenure/testkit';
import type { HandledEvent } from '../events/webhookSchema.js';
import { distinctEventsArb } from '../testing/index.js';
import { foldEvents } from './foldEvents.js';

const isRefund = (e: HandledEvent) =>
  (e.type === 'CANCELLATION' && e.cancel_reason === 'CUSTOMER_SUPPORT') ||
  (e.type === 'EXPIRATION' && e.expiration_reason === 'CUSTOMER_SUPPORT') ||
  e.type === 'REFUND_REVERSED';

/** A history without refunds or reversals, and a refund with its later reversal placed anywhere in time. */
const historyWithRefundArb = fc.tuple(
  distinctEventsArb.map((events) => events.filter((e) => !isRefund(e))).filter((events) => events.length > 0),
  fc.integer({ min: -10, max: 50 }),
  fc.integer({ min: 0, max: 20 }),
  fc.constantFrom('CANCELLATION', 'EXPIRATION'),
  fc.boolean(),
);

const refundOf = (kind: 'CANCELLATION' | 'EXPIRATION', at: number): HandledEvent =>
  kind === 'CANCELLATION'
    ? { type: 'CANCELLATION', id: 'refund', app_user_id: 'user_1', event_timestamp_ms: at, cancel_reason: 'CUSTOMER_SUPPORT' }
    : { type: 'EXPIRATION', id: 'refund', app_user_id: 'user_1', event_timestamp_ms: at, expiration_reason: 'CUSTOMER_SUPPORT' };

describe('refunds and their reversals', () => {
  it('a refund and a later reversal leave the state as without both, wherever they fall and in any delivery order', () => {
    fc.assert(
      fc.property(historyWithRefundArb, ([events, quarter, gap, kind, first]) => {
        const at = events[0]!.event_timestamp_ms + quarter * (DAY / 4);
        const refund = refundOf(kind, at);
        // At the same millisecond too: the reversal ranks after the refund it undoes.
        const reversal: HandledEvent = { type: 'REFUND_REVERSED', id: 'reversal', app_user_id: 'user_1', event_timestamp_ms: at + gap * (DAY / 4) };
        const withBoth = first ? [reversal, ...events, refund] : [refund, ...events, reversal];
        expect(foldEvents(withBoth)!.state).toBe(foldEvents(events)!.state);
      }),
      { numRuns: 300 },
    );
  });

  it('a refund after every other event makes the subscriber refunded until reversed', () => {
    fc.assert(
      fc.property(historyWithRefundArb, ([events, , , kind]) => {
        const last = Math.max(...events.map((e) => e.event_timestamp_ms));
        expect(foldEvents([refundOf(kind, last + 1), ...events])!.state).toBe('refunded');
      }),
    );
  });

  it('a reversal whose period already ended makes the subscription churned; one whose period goes on gives back the state, in any delivery order', () => {
    fc.assert(
      fc.property(historyWithRefundArb, fc.integer({ min: 0, max: 60 }), fc.boolean(), ([events, , gap, kind, first], daysAfter, ended) => {
        const last = Math.max(...events.map((e) => e.event_timestamp_ms));
        const refund = refundOf(kind, last + 1);
        const reversedAt = last + 1 + gap * (DAY / 4);
        // The billing service's REFUND_REVERSED carries the refunded period's end (revenuecat.md §1.3).
        const periodEnd = ended ? reversedAt - daysAfter * DAY : reversedAt + 1 + daysAfter * DAY;
        const reversal: HandledEvent = {
          type: 'REFUND_REVERSED', id: 'reversal', app_user_id: 'user_1', event_timestamp_ms: reversedAt,
          original_transaction_id: events.find((e) => e.original_transaction_id != null)?.original_transaction_id ?? null,
          expiration_at_ms: periodEnd,
        };
        const folded = foldEvents(first ? [reversal, ...events, refund] : [refund, ...events, reversal])!;
        if (ended) expect(folded.state).toBe('churned');
        else expect(folded.state).not.toBe('refunded');
      }),
      { numRuns: 300 },
    );
  });
});
