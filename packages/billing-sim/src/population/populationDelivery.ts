/**
 * Delivery of a generated population's webhooks over HTTP through the simulator's own outbox (its
 * concurrency, retries on the fast schedule, node:http keep-alive transport), in batches: the
 * generator waits while a batch is in flight, so memory holds one batch and its delivery log, never
 * the population.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRandom } from '@tenure/core';
import { createOutbox, type Outbox } from '../delivery/createOutbox.js';
import { FAST_RETRY_SCHEDULE_MS, NO_FAULTS, type WebhookConfig } from '../delivery/deliveryConfig.js';
import { realScheduler } from '../delivery/scheduler.js';
import { httpTransport, type Transport } from '../delivery/transport.js';
import type { WebhookBody } from '../machine/webhookEvents.js';

/** Events queued before the generator waits for them to be answered. */
const BATCH = 2_000;

export interface PopulationDeliveryOptions {
  url: string;
  authorization: string | null;
  concurrency: number;
  /** Default: the simulator's node:http keep-alive transport. */
  transport?: Transport;
}

/** What the delivery came to: events answered 200, and events that failed every attempt. */
export interface DeliveryTally {
  delivered: number;
  failed: number;
}

export interface PopulationDelivery {
  /** Queues an event; returns a promise to await when a batch is full (the batch is then answered). */
  send(body: WebhookBody): Promise<void> | undefined;
  /** Waits for every queued event to be delivered or to fail its last retry. */
  finish(): Promise<DeliveryTally>;
}

const SETTLED = new Set(['delivered', 'failed', 'skipped', 'filtered', 'dropped']);

/**
 * Given the URL, its Authorization value and the concurrency, returns a delivery over the simulator's
 * outbox, retrying on the fast schedule (50 ms … 800 ms).
 *
 * @example
 * const delivery = createPopulationDelivery({ url: 'http://127.0.0.1:3000/webhook', authorization: null, concurrency: 8 });
 */
export function createPopulationDelivery(options: PopulationDeliveryOptions): PopulationDelivery {
  const config: WebhookConfig = {
    url: options.url,
    authorization: options.authorization,
    retry_schedule_ms: FAST_RETRY_SCHEDULE_MS,
    timeout_ms: 60_000,
    concurrency: options.concurrency,
    environment: null,
    event_types: null,
    faults: NO_FAULTS,
  };
  const random = seededRandom(0);
  const outbox: Outbox = createOutbox({ config: () => config, scheduler: realScheduler(), transport: options.transport ?? httpTransport(), random });
  const tally: DeliveryTally = { delivered: 0, failed: 0 };
  outbox.observe((outcome) => {
    if (outcome === 'delivered') tally.delivered += 1;
    else if (outcome === 'failed') tally.failed += 1;
  });
  let queued = 0;
  let settling: Promise<void> | null = null;
  /** Waits until every logged delivery has settled (retries included), then forgets the log. */
  const settle = async () => {
    for (;;) {
      await outbox.idle();
      if (outbox.log().every((record) => SETTLED.has(record.state))) break;
      // A retry waits on an unref'd timer of the outbox: this (ref'd) wait keeps the process alive meanwhile.
      await sleep(FAST_RETRY_SCHEDULE_MS[0]!);
    }
    outbox.reset(random);
    queued = 0;
  };
  return {
    send(body) {
      outbox.queue(body);
      queued += 1;
      // One wait at a time; events queued meanwhile are part of it (idle() waits for them too).
      if (queued >= BATCH && settling === null) settling = settle().finally(() => (settling = null));
      return settling ?? undefined;
    },
    async finish() {
      await settling;
      await settle();
      return tally;
    },
  };
}
