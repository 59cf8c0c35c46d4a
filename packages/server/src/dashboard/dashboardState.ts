/**
 * What the dashboard keeps per running service: the rolling webhook counts of the last hour and the
 * live feed. Attached once to a runtime (the Express app and the node:http fast path share it).
 */
import type { ServerResponse } from 'node:http';
import type { Subscriber } from '@tenure/core';
import type { RetentionRuntime } from '../app/retentionOptions.js';
import { createLiveFeed, type LiveFeed, type LiveFeedOptions } from './liveFeed.js';
import { createWebhookTally, type WebhookTally } from './webhookTally.js';

/** The dashboard's per-process state. */
export interface DashboardState {
  readonly tally: WebhookTally;
  readonly feed: LiveFeed;
  /** Counts the answer of one webhook request when it has been sent (once per response, however often called). */
  observeWebhook(res: ServerResponse): void;
  /** Ends the live streams (call before a graceful shutdown waits for connections). */
  close(): void;
}

const states = new WeakMap<RetentionRuntime, DashboardState>();

/**
 * Given a runtime, returns its dashboard state, creating it on first call. While a live stream is
 * open, newly applied production events are published to it (after the webhook's response, beside
 * auto-dispatch, which still runs first). Not pure: it swaps `runtime.afterApplied` while streams
 * are open.
 *
 * @example
 * const dashboard = dashboardStateOf(listener.runtime);
 * dashboard.tally.lastHour(); // { received, rejected }
 */
export function dashboardStateOf(rt: RetentionRuntime, feedOptions: LiveFeedOptions = {}): DashboardState {
  const known = states.get(rt);
  if (known !== undefined) return known;
  const tally = createWebhookTally();
  const observed = new WeakSet<ServerResponse>();
  // Only while a stream is open: otherwise the webhook path schedules nothing it did not before.
  const dispatch = rt.afterApplied;
  const publish = (subscriber: Subscriber) => {
    dispatch?.(subscriber);
    feed.publish(subscriber.customer_id);
  };
  const feed = createLiveFeed({ ...feedOptions, onActive: (active) => void (rt.afterApplied = active ? publish : dispatch) });
  const state: DashboardState = {
    tally,
    feed,
    observeWebhook(res) {
      if (observed.has(res)) return;
      observed.add(res);
      res.once('finish', () => tally.record(res.statusCode));
    },
    close: () => feed.close(),
  };
  states.set(rt, state);
  return state;
}
