/**
 * Bulk loading of the synthetic subscriber base with `applyEvents` (one transaction per batch, as
 * `tenure import` does), and the same work without a store (fold + materialize in JS) as the floor
 * the load and replay rates are compared with.
 */
import { performance } from 'node:perf_hooks';
import { foldEventsByCustomer, materializeAtRisk, type SubscriberStore, type TenureConfig } from '@tenure/core';
import { syntheticEventBatches } from './syntheticSubscribers.js';

export interface LoadResult {
  events: number;
  subscribers: number;
  /** Seconds spent inside `applyEvents` (generating the events is not counted). */
  seconds: number;
}

/** Given a store, loads customers `[0, customers)` at `now` in batches; throws unless every event is applied once. */
export async function loadStore(
  store: SubscriberStore,
  customers: number,
  now: number,
  config: TenureConfig,
  batchSize = 10_000,
  onProgress?: (done: number) => void,
): Promise<LoadResult> {
  let events = 0;
  let seconds = 0;
  let applied = 0;
  let lastReport = performance.now();
  for (const batch of syntheticEventBatches(0, customers, now, batchSize)) {
    const start = performance.now();
    const statuses = await store.applyEvents(batch, { now, config });
    const end = performance.now();
    seconds += (end - start) / 1000;
    events += batch.length;
    for (const s of statuses) if (s === 'applied') applied++;
    if (onProgress !== undefined && end - lastReport > 5000) {
      onProgress(events);
      lastReport = end;
    }
  }
  if (applied !== events) throw new Error(`load: ${applied} of ${events} events applied (expected all: the synthetic ids are distinct)`);
  const subscribers = await store.count();
  if (subscribers !== customers) throw new Error(`load: the store holds ${subscribers} subscribers, expected ${customers}`);
  return { events, subscribers, seconds };
}

/** Given the same customers, times folding each batch's events and materializing each subscriber's row in plain JS. */
export function measureFoldBaseline(customers: number, now: number, config: TenureConfig, batchSize = 10_000): LoadResult {
  let events = 0;
  let subscribers = 0;
  let seconds = 0;
  let sink = 0;
  for (const batch of syntheticEventBatches(0, customers, now, batchSize)) {
    const start = performance.now();
    const folded = foldEventsByCustomer(batch);
    for (const subscriber of folded.values()) sink += materializeAtRisk(subscriber, now, config).row.score;
    seconds += (performance.now() - start) / 1000;
    events += batch.length;
    subscribers += folded.size;
  }
  if (sink < 0) console.log(sink); // keeps the work observable
  return { events, subscribers, seconds };
}
