/** Framework-free handlers of the subscriber routes: look up → call the core → answer. */
import { assessSubscriber, type AtRiskPosition, type RevenuePosition } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { storeContext } from '../store/storeContext.js';
import { atRiskItem, recommendView, subscriberView } from './views.js';
import { offersView } from './offerHandlers.js';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor } from './atRiskCursor.js';
import type { AtRiskQuery, Environment } from './schemas.js';

type Deps = Pick<RetentionRuntime, 'store' | 'sandboxStore' | 'clock' | 'config' | 'calibration'> & Partial<Pick<RetentionRuntime, 'offers'>>;

/** The deps with `store` set to the environment's store. */
const inEnvironment = (deps: Deps, environment: Environment | undefined): Deps =>
  environment === 'sandbox' ? { ...deps, store: deps.sandboxStore } : deps;

const unknownCustomer = (id: string) => apiError('not_found', `Unknown customer "${id}"`, 'customer_id');

/**
 * Given a customer id (and an environment, default production), returns 200 with the subscriber's
 * record, score and breakdown (and, with offers configured, each offer: `offersView`), or 404.
 *
 * @example
 * await getSubscriber(runtime, 'user_1'); // { status: 200, body: { customer_id: 'user_1', state: 'active', ... } }
 */
export async function getSubscriber(deps: Deps, customerId: string, environment?: Environment): Promise<HandlerResult> {
  const subscriber = await inEnvironment(deps, environment).store.get(customerId);
  if (subscriber === undefined) return unknownCustomer(customerId);
  const assessment = assessSubscriber(subscriber, deps.clock.now(), deps.config);
  const view = subscriberView(assessment, environment, deps.calibration);
  // Offers are granted to production customers only: a sandbox view shows none.
  return { status: 200, body: deps.offers === undefined || environment === 'sandbox' ? view : { ...view, offers: offersView(assessment, deps.offers.offers) } };
}

/**
 * Given a customer id (and an environment, default production), returns 200 with its risk and
 * recommendations (priority order), or 404.
 *
 * @example
 * await getRecommendations(runtime, 'user_1'); // body.recommendations[0].priority === 1
 */
export async function getRecommendations(deps: Deps, customerId: string, environment?: Environment): Promise<HandlerResult> {
  const subscriber = await inEnvironment(deps, environment).store.get(customerId);
  if (subscriber === undefined) return unknownCustomer(customerId);
  return { status: 200, body: recommendView(assessSubscriber(subscriber, deps.clock.now(), deps.config), deps.calibration) };
}

/**
 * Given a customer id and an optional activity time (default now), records the activity and returns
 * 200 with the new `last_activity_at`, or 404 for an unknown customer (nothing is created).
 *
 * @example
 * await recordSubscriberActivity(runtime, 'user_1', undefined);
 */
export async function recordSubscriberActivity(
  deps: Deps,
  customerId: string,
  at: number | undefined,
  environment?: Environment,
): Promise<HandlerResult> {
  const ctx = storeContext(deps);
  const when = at ?? ctx.now;
  const subscriber = await inEnvironment(deps, environment).store.recordActivity(customerId, when, ctx);
  if (subscriber === undefined) return unknownCustomer(customerId);
  if (environment !== 'sandbox') deps.clock.observe?.(when);
  return { status: 200, body: { ok: true, customer_id: customerId, last_activity_at: subscriber.last_activity_at } };
}

/**
 * Given the validated query, returns one page of at-risk subscribers with their top recommendation
 * and monthly value, in score order (default) or revenue order, and the total over every page,
 * read from the store's at-risk index (exact at the clock's `now`; the default minimum score is the
 * configured `bands.high`), of production unless `environment=sandbox`. An unreadable cursor, or one
 * of the other order, is a 400 naming `cursor`.
 *
 * @example
 * await listAtRisk(runtime, { min_score: 80, sort: 'revenue' }); // { items: [...], next_cursor: null, total: { subscribers, monthly_value_usd } }
 */
export async function listAtRisk(deps: Deps, query: AtRiskQuery): Promise<HandlerResult> {
  const sort = query.sort ?? 'score';
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, sort);
  if (query.cursor !== undefined && after === undefined) return apiError('invalid_request', `Unknown cursor for sort=${sort}`, 'cursor');
  const filters = { min_score: query.min_score, state: query.state, band: query.band, limit: query.limit ?? DEFAULT_PAGE_SIZE };
  const { store } = inEnvironment(deps, query.environment);
  const page =
    sort === 'revenue'
      ? await store.atRisk({ ...filters, sort, after: after as RevenuePosition | undefined }, storeContext(deps))
      : await store.atRisk({ ...filters, after: after as AtRiskPosition | undefined }, storeContext(deps));
  return {
    status: 200,
    body: {
      items: page.items.map((row) => atRiskItem(row, deps.calibration)),
      next_cursor: page.next === null ? null : encodeCursor(page.next),
      total: { ...page.total },
    },
  };
}
