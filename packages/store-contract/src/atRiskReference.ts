/**
 * Comparing a store's at-risk page with the core's full-scan reference, `selectAtRisk`: same
 * customers in the same order (score or revenue), same scores, bands, states, monthly values, top
 * recommendations, subscribers, `next` and total; and every row exact at the query's instant.
 */
import {
  monthlyValueCents,
  selectAtRisk,
  type AtRiskEntry,
  type AtRiskPage,
  type AtRiskQuery,
  type Assessment,
  type Recommendation,
  type StoreContext,
  type Subscriber,
  type SubscriberStore,
} from '@tenure/core';
import { expect } from 'vitest';

/** What both sides must agree on for one item. */
export interface AtRiskItemView {
  customer_id: string;
  state: Subscriber['state'];
  score: number;
  band: string;
  monthly_value_usd: number;
  top: Recommendation | null;
  subscriber: Subscriber;
}

/** Given a store's entry, returns the fields compared with the reference. */
export const viewOfEntry = (entry: AtRiskEntry): AtRiskItemView => ({
  customer_id: entry.customer_id,
  state: entry.state,
  score: entry.score,
  band: entry.band,
  monthly_value_usd: entry.monthly_value_usd,
  top: entry.top,
  subscriber: entry.subscriber,
});

/** Given the reference's assessment, returns the fields a store's entry must have. */
export const viewOfAssessment = (a: Assessment): AtRiskItemView => ({
  customer_id: a.subscriber.customer_id,
  state: a.subscriber.state,
  score: a.risk.score,
  band: a.risk.band,
  monthly_value_usd: monthlyValueCents(a.subscriber) / 100,
  top: a.recommendations[0] ?? null,
  subscriber: a.subscriber,
});

/**
 * Given a store's page, the subscribers it should hold, the context and the query, asserts that
 * the page equals `selectAtRisk` over those subscribers and that every row is valid at `ctx.now`
 * (assessed at or before it, not due).
 *
 * @example
 * expectAtRiskPage(await store.atRisk(query, ctx), subscribers, ctx, query);
 */
export function expectAtRiskPage(
  actual: AtRiskPage<AtRiskEntry>,
  subscribers: Iterable<Subscriber>,
  ctx: StoreContext,
  query: AtRiskQuery,
): void {
  const expected = selectAtRisk(subscribers, ctx.now, ctx.config, query);
  expect({ items: actual.items.map(viewOfEntry), next: actual.next, total: actual.total }).toEqual({
    items: expected.items.map(viewOfAssessment),
    next: expected.next,
    total: expected.total,
  });
  for (const entry of actual.items) {
    expect(entry.assessed_at).toBeLessThanOrEqual(ctx.now);
    if (entry.rescore_at !== null) expect(entry.rescore_at).toBeGreaterThan(ctx.now);
  }
}

/**
 * Given a store, reference subscribers, a context and a query, reads every page by following
 * `next` (at most `maxPages`), checking each against the reference; resolves with every item seen.
 *
 * @example
 * const all = await expectAtRiskPages(store, subscribers, ctx, { limit: 10, min_score: 0 });
 */
export async function expectAtRiskPages(
  store: SubscriberStore,
  subscribers: readonly Subscriber[],
  ctx: StoreContext,
  query: AtRiskQuery,
  maxPages = 1000,
): Promise<AtRiskEntry[]> {
  const seen: AtRiskEntry[] = [];
  let page: AtRiskQuery = query;
  for (let i = 0; i < maxPages; i++) {
    const actual = await store.atRisk(page, ctx);
    expectAtRiskPage(actual, subscribers, ctx, page);
    seen.push(...actual.items);
    if (actual.next === null) break;
    page = { ...page, after: actual.next } as AtRiskQuery;
  }
  return seen;
}
