/**
 * The contract of the at-risk query, by example: filters, order, keyset paging, the default
 * minimum score, rows that move with time alone, the background sweep and a configuration change.
 * The model-based test (modelContract.ts) covers the same ground with arbitrary histories.
 */
import {
  DEFAULT_CONFIG,
  RISK_BANDS,
  SUBSCRIBER_STATES,
  compareIds,
  foldEventsByCustomer,
  resolveConfig,
  scoreSubscriber,
  type AtRiskQuery,
  type HandledEvent,
  type StoreContext,
  type Subscriber,
  type SubscriberStore,
} from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { expectAtRiskPage, expectAtRiskPages } from './atRiskReference.js';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, HOUR_MS, T0, eventFactory } from './storeFixtures.js';

const at = (now: number, config = DEFAULT_CONFIG): StoreContext => ({ now, config });

/** Applies `events` one by one at `ctx` and resolves with the subscribers they fold to. */
async function seed(store: SubscriberStore, events: HandledEvent[], ctx: StoreContext): Promise<Subscriber[]> {
  for (const event of events) await store.applyEvent(event, ctx);
  return [...foldEventsByCustomer(events).values()];
}

/** Registers the at-risk example tests. */
export function describeAtRiskContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const ev = eventFactory('evt_atrisk');
  const timeout = options.timeoutMs;

  /** One customer per state, a few with billing failures, scores on the band thresholds (80, 60, 40); all seen at T0. */
  const mixedHistory = (): HandledEvent[] => [
    ev('INITIAL_PURCHASE', 'alice', T0),
    ev('INITIAL_PURCHASE', 'Bob', T0, { period_type: 'TRIAL', purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY_MS }),
    ev('INITIAL_PURCHASE', 'émile', T0),
    ev('CANCELLATION', 'émile', T0 + HOUR_MS, { cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 30 * DAY_MS }),
    ev('INITIAL_PURCHASE', '日本', T0),
    ev('EXPIRATION', '日本', T0 + HOUR_MS),
    ev('INITIAL_PURCHASE', '\uFFFD', T0),
    ev('BILLING_ISSUE', '\uFFFD', T0 + HOUR_MS),
    ev('INITIAL_PURCHASE', '\u{1F600}', T0),
    ev('BILLING_ISSUE', '\u{1F600}', T0 + HOUR_MS),
    ev('BILLING_ISSUE', '\u{1F600}', T0 + 2 * HOUR_MS),
    ev('INITIAL_PURCHASE', 'a\uE000', T0),
    ev('CANCELLATION', 'a\uE000', T0 + HOUR_MS, { cancel_reason: 'UNSUBSCRIBE' }),
    ev('INITIAL_PURCHASE', 'a\u{10000}', T0),
    ev('CANCELLATION', 'a\u{10000}', T0 + HOUR_MS, { cancel_reason: 'UNSUBSCRIBE' }),
    // Exactly on the critical threshold (80): a billing-error cancellation records no failure.
    ev('INITIAL_PURCHASE', 'zz', T0),
    ev('CANCELLATION', 'zz', T0 + HOUR_MS, { cancel_reason: 'BILLING_ERROR' }),
  ];

  describe('atRisk', () => {
    it('answers every filter, order and page exactly like selectAtRisk', { timeout }, () =>
      withStore(factory, async (store) => {
        const ctx = at(T0 + DAY_MS);
        const subscribers = await seed(store, mixedHistory(), at(T0 + 2 * HOUR_MS));
        const queries: AtRiskQuery[] = [{ limit: 50 }, { limit: 50, min_score: 0 }, { limit: 2 }, { limit: 1, min_score: 0 }];
        for (const state of SUBSCRIBER_STATES) queries.push({ limit: 2, min_score: 0, state });
        for (const band of RISK_BANDS) queries.push({ limit: 3, min_score: 0, band });
        queries.push({ limit: 5, min_score: 61 }, { limit: 5, min_score: 100 }, { limit: 5, min_score: 101 }, { limit: 5, state: 'pending_cancel', band: 'high' });
        for (const query of queries) await expectAtRiskPages(store, subscribers, ctx, query);
      }),
    );

    it('orders by score descending, then customer id in code point order, and pages by keyset', { timeout }, () =>
      withStore(factory, async (store) => {
        // Every customer pending cancellation at the same instant: one score, so ids decide the order.
        const events = CUSTOMER_IDS.flatMap((id) => [ev('INITIAL_PURCHASE', id, T0), ev('CANCELLATION', id, T0, { cancel_reason: 'UNSUBSCRIBE' })]);
        const subscribers = await seed(store, events, at(T0));
        const seen = await expectAtRiskPages(store, subscribers, at(T0 + HOUR_MS), { limit: 3 });
        expect(seen.map((e) => e.customer_id)).toEqual([...CUSTOMER_IDS].sort(compareIds));
        expect(new Set(seen.map((e) => e.score)).size).toBe(1);
      }),
    );

    it('sorts by monthly value (revenue at risk) with its own keyset, and totals every matching row on every page', { timeout }, () =>
      withStore(factory, async (store) => {
        const monthly = { purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY_MS };
        const yearly = { purchased_at_ms: T0, expiration_at_ms: T0 + 365 * DAY_MS };
        const events = [
          ...mixedHistory().map((e) => ({ ...e, price: 9.99, ...monthly })),
          ev('INITIAL_PURCHASE', 'whale', T0, { price: 119.99, ...yearly }),
          ev('CANCELLATION', 'whale', T0 + HOUR_MS, { cancel_reason: 'UNSUBSCRIBE', price: 0 }),
          ev('INITIAL_PURCHASE', 'trial', T0, { period_type: 'TRIAL', price: 0 }),
          ev('CANCELLATION', 'trial', T0 + HOUR_MS, { cancel_reason: 'UNSUBSCRIBE' }),
          ev('INITIAL_PURCHASE', 'refund', T0, { price: 4.99, ...monthly }),
          ev('CANCELLATION', 'refund', T0 + HOUR_MS, { cancel_reason: 'CUSTOMER_SUPPORT', price: -4.99 }),
        ];
        const subscribers = await seed(store, events, at(T0 + 2 * HOUR_MS));
        const ctx = at(T0 + DAY_MS);
        const queries: AtRiskQuery[] = [
          { sort: 'revenue', limit: 50 },
          { sort: 'revenue', limit: 2 },
          { sort: 'revenue', limit: 1, min_score: 0 },
          { sort: 'revenue', limit: 2, state: 'pending_cancel' },
          { sort: 'revenue', limit: 2, band: 'critical' },
          { sort: 'revenue', limit: 3, after: { monthly_value_usd: 9.99, customer_id: 'a' } },
          { sort: 'revenue', limit: 3, after: { monthly_value_usd: 1000, customer_id: '' } },
        ];
        for (const query of queries) await expectAtRiskPages(store, subscribers, ctx, query);
        const first = await store.atRisk({ sort: 'revenue', limit: 1 }, ctx);
        expect(first.items.map((e) => [e.customer_id, e.monthly_value_usd])).toEqual([['whale', 10]]);
        expect(first.next).toEqual({ monthly_value_usd: 10, customer_id: 'whale' });
        // The total belongs to the filters: the same in either order and on any page.
        expect(first.total).toEqual((await store.atRisk({ limit: 50 }, ctx)).total);
        expect(first.total.subscribers).toBeGreaterThan(1);
      }),
    );

    it('continues strictly after any position, also one that matches no row', { timeout }, () =>
      withStore(factory, async (store) => {
        const subscribers = await seed(store, mixedHistory(), at(T0 + 2 * HOUR_MS));
        const ctx = at(T0 + DAY_MS);
        for (const after of [
          { score: 90, customer_id: '\uFFFD' },
          { score: 90, customer_id: 'a' },
          { score: 75, customer_id: 'zzz' },
          { score: 60, customer_id: 'a\uE000' },
          { score: 200, customer_id: '' },
          { score: 0, customer_id: '\u{10FFFF}' },
        ]) {
          expectAtRiskPage(await store.atRisk({ limit: 10, min_score: 0, after }, ctx), subscribers, ctx, { limit: 10, min_score: 0, after });
        }
      }),
    );

    it('defaults the minimum score to the configured bands.high', { timeout }, () =>
      withStore(factory, async (store) => {
        const trial = ev('INITIAL_PURCHASE', 'alice', T0, { period_type: 'TRIAL', purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY_MS });
        const subscribers = await seed(store, [trial], at(T0));
        const lenient = resolveConfig({ bands: { high: 40 } });
        expect((await store.atRisk({ limit: 10 }, at(T0 + HOUR_MS))).items).toEqual([]);
        const page = await store.atRisk({ limit: 10 }, at(T0 + HOUR_MS, lenient));
        expect(page.items.map((e) => [e.customer_id, e.score, e.band])).toEqual([['alice', 40, 'high']]);
        expectAtRiskPage(page, subscribers, at(T0 + HOUR_MS, lenient), { limit: 10 });
      }),
    );

    it('moves scores with time alone: inactivity days', { timeout }, () =>
      withStore(factory, async (store) => {
        const subscribers = await seed(store, [ev('INITIAL_PURCHASE', 'alice', T0)], at(T0));
        const scores: number[] = [];
        for (const days of [0, 8, 9, 11, 13, 14, 20, 36, 37, 60]) {
          const ctx = at(T0 + days * DAY_MS);
          const page = await store.atRisk({ limit: 1, min_score: 0 }, ctx);
          expectAtRiskPage(page, subscribers, ctx, { limit: 1, min_score: 0 });
          scores.push(page.items[0]!.score);
        }
        expect(scores).toEqual([10, 10, 11, 12, 13, 13, 16, 24, 25, 25]);
        expect(scores.at(-1)).toBe(scoreSubscriber(subscribers[0]!, T0 + 60 * DAY_MS).score);
      }),
    );

    it('moves the top recommendation with time alone: trial day L-2, engagement check-in', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = [
          ev('INITIAL_PURCHASE', 'trial', T0, { period_type: 'TRIAL', purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY_MS }),
          ev('INITIAL_PURCHASE', 'quiet', T0),
        ];
        const subscribers = await seed(store, events, at(T0));
        const actions = new Map<string, string[]>();
        for (const t of [T0 + HOUR_MS, T0 + 7 * DAY_MS, T0 + 11 * DAY_MS - 1, T0 + 11 * DAY_MS, T0 + 12 * DAY_MS, T0 + 14 * DAY_MS]) {
          const page = await store.atRisk({ limit: 10, min_score: 0 }, at(t));
          expectAtRiskPage(page, subscribers, at(t), { limit: 10, min_score: 0 });
          for (const entry of page.items) actions.set(entry.customer_id, [...(actions.get(entry.customer_id) ?? []), entry.top?.action ?? 'none']);
        }
        expect(actions.get('trial')).toEqual(['trial_feature_highlight', 'trial_feature_highlight', 'trial_feature_highlight', 'trial_nudge', 'trial_nudge', 'trial_nudge']);
        expect(actions.get('quiet')?.at(-1)).toBe('engagement_checkin');
      }),
    );

    it('re-materializes every row when the configuration changes, and back', { timeout }, () =>
      withStore(factory, async (store) => {
        const history = mixedHistory();
        const subscribers = await seed(store, history, at(T0 + 2 * HOUR_MS));
        const strict = resolveConfig({ bands: { high: 50, critical: 95 }, risk: { state_base: { active: 55, churned: 70 } } });
        for (const config of [strict, DEFAULT_CONFIG, strict]) {
          for (const query of [{ limit: 50 }, { limit: 50, min_score: 0 }, { limit: 50, band: 'critical' as const }]) {
            await expectAtRiskPages(store, subscribers, at(T0 + DAY_MS, config), query);
          }
        }
        // A write under the other configuration, then a read under it.
        const late = ev('RENEWAL', 'alice', T0 + 3 * HOUR_MS);
        await store.applyEvent(late, at(T0 + DAY_MS, DEFAULT_CONFIG));
        const current = [...foldEventsByCustomer([...history, late]).values()];
        await expectAtRiskPages(store, current, at(T0 + DAY_MS, DEFAULT_CONFIG), { limit: 4, min_score: 0 });
      }),
    );
  });

  describe('refreshDue', () => {
    it('re-materializes at most `limit` due rows and counts them', { timeout }, () =>
      withStore(factory, async (store) => {
        const events = ['a', 'b', 'c'].map((id) => ev('INITIAL_PURCHASE', id, T0));
        const subscribers = await seed(store, events, at(T0));
        expect(await store.refreshDue(at(T0), 10)).toBe(0);
        const later = at(T0 + 40 * DAY_MS);
        expect(await store.refreshDue(later, 1)).toBe(1);
        expect(await store.refreshDue(later, 10)).toBe(2);
        expect(await store.refreshDue(later, 10)).toBe(0);
        await expectAtRiskPages(store, subscribers, later, { limit: 10, min_score: 0 });
      }),
    );
  });
}
