/**
 * Framework-free handlers of the dashboard's routes: the summary tiles, one subscriber's dispatch
 * history, and dispatching one subscriber now.
 */
import { assessSubscriber, nextAssessmentChange, planDispatch, RISK_BANDS, SUBSCRIBER_STATES, type SubscriberStore } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import type { WebhookCounts } from '../dashboard/webhookTally.js';
import { DISPATCH_OUTCOMES, type DispatchLog, type DispatchRecord } from '../dispatch/dispatchLog.js';
import { apiError, type HandlerResult } from '../http/apiError.js';
import { storeContext } from '../store/storeContext.js';
import { plannedDeliveries } from './plannedDeliveries.js';
import type { Environment } from './schemas.js';

type Deps = Pick<RetentionRuntime, 'store' | 'sandboxStore' | 'clock' | 'config' | 'dispatchLog'>;

/** Page size when reading one customer's dispatch history. */
const PAGE = 500;
const DAY_MS = 86_400_000;

/** Every dispatch record of one customer, newest first, page by page on the log's index by customer. */
async function historyOf(log: DispatchLog, customerId: string): Promise<DispatchRecord[]> {
  const items: DispatchRecord[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await log.list({ limit: PAGE, customer_id: customerId, before });
    items.push(...page.items);
    if (page.next_cursor === null) return items;
    before = page.next_cursor;
  }
}

/** Subscribers matching one filter (any score): the store's at-risk total, read from its per-(state, score) sums. */
async function countWhere(store: SubscriberStore, deps: Deps, filter: { state?: (typeof SUBSCRIBER_STATES)[number]; band?: (typeof RISK_BANDS)[number] }) {
  const page = await store.atRisk({ ...filter, min_score: 0, limit: 1 }, storeContext(deps));
  return page.total.subscribers;
}

/**
 * Given the runtime and the webhook counts of the last hour, returns 200 with the dashboard's tiles:
 * subscribers in all, per state and per band; the at-risk total (`bands.high` and above) with its
 * monthly value; alerts of the service clock's UTC day per channel (outcome `sent`; `logged` for
 * the log channel), counted by the dispatch log's `tally` on its index by time (`complete` is always
 * true, kept for compatibility); and the webhook counts.
 *
 * @example
 * await getDashboardSummary(runtime, tally.lastHour()); // { status: 200, body: { by_state: { active: 3, ... }, ... } }
 */
export async function getDashboardSummary(deps: Deps, webhooks: WebhookCounts, environment?: Environment): Promise<HandlerResult> {
  const store = environment === 'sandbox' ? deps.sandboxStore : deps.store;
  const now = deps.clock.now();
  const byState = Object.fromEntries(await Promise.all(SUBSCRIBER_STATES.map(async (state) => [state, await countWhere(store, deps, { state })])));
  const byBand = Object.fromEntries(await Promise.all(RISK_BANDS.map(async (band) => [band, await countWhere(store, deps, { band })])));
  const atRisk = await store.atRisk({ limit: 1 }, storeContext(deps));
  const dayStart = now - (now % DAY_MS);
  const alerts = { email: 0, chat: 0, log: 0, webhook: 0 };
  // Sandbox subscribers never alert: their day is empty by definition.
  if (environment !== 'sandbox') {
    for (const { channel, outcome, count } of await deps.dispatchLog.tally(dayStart)) if (channel !== 'offer' && channel !== 'offer_revoke' && (outcome === 'sent' || outcome === 'logged')) alerts[channel] += count;
  }
  return {
    status: 200,
    body: {
      now,
      environment: environment ?? 'production',
      subscribers: await store.count(),
      by_state: byState,
      by_band: byBand,
      at_risk: { min_score: deps.config.bands.high, ...atRisk.total },
      alerts_today: { day_start: dayStart, ...alerts, complete: true },
      webhooks_last_hour: webhooks,
    },
  };
}

/**
 * Given the runtime and a customer id (and an environment, default production), returns 200 with
 * what the dashboard shows of one subscriber beside its view: the service clock's `now`,
 * `next_change_at` (when its assessment next changes without a new event, `nextAssessmentChange`;
 * null when never) and all its dispatch attempts, newest first, read from the log's index by
 * customer (`complete` is always true, kept for compatibility; none in the sandbox, which never
 * alerts); 404 for an unknown customer.
 *
 * @example
 * await getSubscriberDashboard(runtime, 'user_1'); // { status: 200, body: { next_change_at, dispatches: { items, complete } } }
 */
export async function getSubscriberDashboard(deps: Deps, customerId: string, environment?: Environment): Promise<HandlerResult> {
  const sandbox = environment === 'sandbox';
  const subscriber = await (sandbox ? deps.sandboxStore : deps.store).get(customerId);
  if (subscriber === undefined) return apiError('not_found', `Unknown customer "${customerId}"`, 'customer_id');
  const now = deps.clock.now();
  const items = sandbox ? [] : await historyOf(deps.dispatchLog, customerId);
  return {
    status: 200,
    body: { customer_id: customerId, now, next_change_at: nextAssessmentChange(subscriber, now, deps.config), dispatches: { items, complete: true } },
  };
}

/**
 * Given the runtime and a customer id, dispatches that subscriber's top recommendation now (its
 * channels by urgency, with the cooldown, rate limit and retries of every dispatch; trigger
 * `batch`) and returns 200 with the summary and the plan (the shape of `POST /api/dispatch`), or 404
 * for an unknown customer. With `dryRun`, returns the plan without sending (every count 0).
 *
 * @example
 * await dispatchSubscriber(runtime, 'user_1'); // { status: 200, body: { outcomes: { sent: 2, ... }, planned: [...] } }
 */
export async function dispatchSubscriber(deps: Deps & Pick<RetentionRuntime, 'dispatcher' | 'routing'>, customerId: string, dryRun = false): Promise<HandlerResult> {
  const subscriber = await deps.store.get(customerId);
  if (subscriber === undefined) return apiError('not_found', `Unknown customer "${customerId}"`, 'customer_id');
  const deliveries = planDispatch([assessSubscriber(subscriber, deps.clock.now(), deps.config)], deps.routing);
  const planned = plannedDeliveries(deliveries);
  if (dryRun) {
    const none = () => Object.fromEntries(DISPATCH_OUTCOMES.map((o) => [o, 0]));
    const body = { dry_run: true, subscribers: 1, deliveries: deliveries.length, outcomes: none(), channels: { email: none(), chat: none(), log: none(), webhook: none() }, planned };
    return { status: 200, body };
  }
  const summary = await deps.dispatcher.run(deliveries, 'batch');
  return { status: 200, body: { dry_run: false, ...summary, planned } };
}
