/** Framework-free handlers of the dispatch routes. */
import { assessSubscriber, planDispatch } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { DISPATCH_OUTCOMES, type DispatchLog, type DispatchOutcome } from '../dispatch/dispatchLog.js';
import type { HandlerResult } from '../http/apiError.js';
import { storeContext } from '../store/storeContext.js';
import { DEFAULT_PAGE_SIZE } from './atRiskCursor.js';
import { plannedDeliveries } from './plannedDeliveries.js';
import type { DispatchBody } from './schemas.js';

type Deps = Pick<RetentionRuntime, 'store' | 'clock' | 'config' | 'dispatcher' | 'routing' | 'offers'>;

const zero = (): Record<DispatchOutcome, number> =>
  Object.fromEntries(DISPATCH_OUTCOMES.map((o) => [o, 0])) as Record<DispatchOutcome, number>;

/**
 * Given the filters, runs one dispatch pass over the first `limit` at-risk subscribers (at-risk
 * order, read from the store's index): the core plans one top recommendation per subscriber and
 * its channels; the dispatcher sends with cooldown, rate limit and retries. Resolves when every delivery has a final outcome,
 * with counts per outcome and per channel. With `dry_run`, returns the plan without sending.
 *
 * @example
 * await runDispatch(runtime, { min_score: 80 }); // { status: 200, body: { outcomes: { sent: 2, ... }, ... } }
 */
export async function runDispatch(deps: Deps, body: DispatchBody): Promise<HandlerResult> {
  const ctx = storeContext(deps);
  const { items } = await deps.store.atRisk({ min_score: body.min_score, state: body.state, band: body.band, limit: body.limit ?? DEFAULT_PAGE_SIZE }, ctx);
  // The index picks who; the full assessment (breakdown, every recommendation) is what alerts show.
  const deliveries = planDispatch(items.map((entry) => assessSubscriber(entry.subscriber, ctx.now, ctx.config)), deps.routing);
  const planned = plannedDeliveries(deliveries);
  if (body.dry_run === true) {
    const subscribers = new Set(planned.map((p) => p.customer_id)).size;
    const empty = { email: zero(), chat: zero(), log: zero(), webhook: zero() };
    return { status: 200, body: { dry_run: true, subscribers, deliveries: deliveries.length, outcomes: zero(), channels: empty, planned } };
  }
  // Automatic offers of the recommended actions go out beside the alerts (`offers.<action>.auto`).
  const [summary] = await Promise.all([deps.dispatcher.run(deliveries, 'batch'), deps.offers?.hasAuto === true ? deps.offers.grantAuto(deliveries.map((d) => d.alert)) : []]);
  return { status: 200, body: { dry_run: false, ...summary, planned } };
}

/**
 * Given a page request, returns the dispatch log newest first; `next_cursor` continues it.
 *
 * @example
 * await listDispatches(log, { limit: 20 }); // { items: [{ customer_id, action, channel, outcome, ... }], next_cursor }
 */
export async function listDispatches(log: DispatchLog, query: { limit?: number | undefined; cursor?: string | undefined }): Promise<HandlerResult> {
  const page = await log.list({ limit: query.limit ?? DEFAULT_PAGE_SIZE, ...(query.cursor === undefined ? {} : { before: Number(query.cursor) }) });
  return { status: 200, body: { items: page.items, next_cursor: page.next_cursor === null ? null : String(page.next_cursor) } };
}
