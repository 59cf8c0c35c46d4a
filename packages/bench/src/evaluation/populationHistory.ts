/**
 * A generated population as the history the backtest and tune benches read: the billing
 * simulator's population (`generatePopulation`), each webhook body parsed by the core's
 * `parseWebhook` as `tenure backtest` reads an NDJSON line, and its app activity as activity
 * records. Records come customer by customer, each customer's in time order, an event before an
 * activity report of the same instant: the order of `tenure-billing-sim population --records`.
 */
import { generatePopulation } from '@tenure/billing-sim';
import { parseWebhook, type StoredRecord } from '@tenure/core';

export interface PopulationHistoryOptions {
  customers: number;
  months: number;
  seed: string;
  /** Keep one activity report in this many (1: all of them), to fit a large population in memory. */
  activityEvery?: number;
}

/** What the history holds. */
export interface PopulationHistory {
  records: StoredRecord[];
  customers: number;
  events: number;
  activity: number;
  /** Activity reports the population had before thinning. */
  activityGenerated: number;
  /** Customers churned at the window's end, by the population's truth. */
  churned: number;
}

/** Given the options, returns the population's history as stored records (see the module header). */
export function populationHistory(options: PopulationHistoryOptions): PopulationHistory {
  const every = options.activityEvery ?? 1;
  const records: StoredRecord[] = [];
  let events = 0;
  let activity = 0;
  let activityGenerated = 0;
  let churned = 0;
  for (const c of generatePopulation(options)) {
    if (c.truth.churned) churned += 1;
    let a = 0;
    const activityBefore = (at: number) => {
      for (; a < c.activity.length && c.activity[a]! < at; a += 1) {
        activityGenerated += 1;
        if (activityGenerated % every !== 0) continue;
        records.push({ kind: 'activity', customer_id: c.customer_id, at: c.activity[a]! });
        activity += 1;
      }
    };
    for (const body of c.events) {
      const parsed = parseWebhook(body);
      if (!parsed.ok || !parsed.value.handled) throw new Error(`population body not a handled event: ${JSON.stringify(body).slice(0, 200)}`);
      activityBefore(parsed.value.event.event_timestamp_ms);
      records.push({ kind: 'event', event: parsed.value.event });
      events += 1;
    }
    activityBefore(Infinity);
  }
  return { records, customers: options.customers, events, activity, activityGenerated, churned };
}
