/**
 * Framework-free handlers of the dashboard's history routes: the trends of the last days and one
 * subscriber's timeline of received events.
 */
import type { TimelineCursor } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { readTrends } from '../dashboard/dailySnapshots.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { storeContext } from '../store/storeContext.js';
import type { Environment } from './schemas.js';
import { encodeTimelineCursor } from './timelineCursor.js';

type Deps = Pick<RetentionRuntime, 'store' | 'sandboxStore' | 'clock' | 'config'>;

/** Page size of a timeline when `limit` is not given. */
export const DEFAULT_TIMELINE_PAGE = 50;

/**
 * Given the runtime, a number of days and an environment, returns 200 with the last `days` UTC days
 * ending today (service clock), oldest first: each day's record (`sweep`, or `events` when folded
 * from the stored events for a day the sweep did not record), today's figures live, `none` where
 * neither exists. See `readTrends`.
 *
 * @example
 * await getDashboardTrends(runtime, 30); // { status: 200, body: { days: [{ day: '2026-10-28', source: 'events', by_band, at_risk }, ...] } }
 */
export async function getDashboardTrends(deps: Deps, days = 30, environment?: Environment): Promise<HandlerResult> {
  const store = environment === 'sandbox' ? deps.sandboxStore : deps.store;
  const ctx = storeContext(deps);
  const trends = await readTrends(store, days, ctx);
  return { status: 200, body: { now: ctx.now, environment: environment ?? 'production', ...trends } };
}

/**
 * Given the runtime, a customer id and a page (`limit`, `before`) in an environment, returns 200 with
 * a page of that customer's stored events, newest first (the store's `eventsOf`), and the cursor of
 * the next page (null at the end); 404 for an unknown customer.
 *
 * @example
 * await getSubscriberEvents(runtime, 'user_1', { limit: 20 }); // { status: 200, body: { items: [...], next_cursor: '...' } }
 */
export async function getSubscriberEvents(
  deps: Deps,
  customerId: string,
  page: { limit?: number | undefined; before?: TimelineCursor | undefined },
  environment?: Environment,
): Promise<HandlerResult> {
  const store = environment === 'sandbox' ? deps.sandboxStore : deps.store;
  if ((await store.get(customerId)) === undefined) return apiError('not_found', `Unknown customer "${customerId}"`, 'customer_id');
  const { items, next } = await store.eventsOf(customerId, { limit: page.limit ?? DEFAULT_TIMELINE_PAGE, before: page.before });
  return { status: 200, body: { customer_id: customerId, items, next_cursor: next === null ? null : encodeTimelineCursor(next) } };
}
