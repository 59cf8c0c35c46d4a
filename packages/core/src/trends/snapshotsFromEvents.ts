/**
 * The trends of days before the sweep recorded any: each day's figures computed from the stored
 * events, as the store would have materialized them at the day's last millisecond. Costs one pass
 * over every event plus one assessment per (customer, day), so the service runs it only on small
 * stores and stores the result once.
 */
import type { TenureConfig } from '../config/defaultConfig.js';
import { DAY_MS } from '../config/defaultConfig.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { monthlyValueCents } from '../revenue/monthlyValueUsd.js';
import { RISK_BANDS, type RiskBand } from '../risk/risk.js';
import { applyEvent } from '../subscriber/applyEvent.js';
import { distinctOccurrences } from '../subscriber/distinctOccurrences.js';
import type { Subscriber } from '../subscriber/subscriber.js';
import { dailySnapshotOf, type DailySnapshot } from './dailySnapshot.js';
import { dayStartOf, type UtcDay } from './utcDay.js';

interface Cell {
  subscribers: number;
  cents: number;
}

/**
 * Given the stored events grouped by customer (each group one customer's events, any order), UTC
 * days and the configuration, returns one snapshot per day (in the order given) with `source:
 * 'events'`: every customer folded from its events with `event_timestamp_ms` up to the day's last
 * millisecond and assessed at that instant. App-reported activity is not in the event log (only
 * each customer's latest is kept), so it does not count here: a past day may show an inactivity
 * score the live row did not have. Pure.
 *
 * @example
 * snapshotsFromEvents([aliceEvents, bobEvents], ['2026-11-01', '2026-11-02'], DEFAULT_CONFIG); // [DailySnapshot, DailySnapshot]
 */
export function snapshotsFromEvents(customers: Iterable<readonly HandledEvent[]>, days: readonly UtcDay[], config: TenureConfig): DailySnapshot[] {
  const ends = days.map((day) => dayStartOf(day) + DAY_MS - 1);
  const order = ends.map((end, i) => ({ end, i })).sort((a, b) => a.end - b.end);
  const cells = days.map(() => ({ band: new Map<RiskBand, Cell>(RISK_BANDS.map((b) => [b, { subscribers: 0, cents: 0 }])), atRisk: { subscribers: 0, cents: 0 } }));
  for (const events of customers) {
    // The reducer is order-independent (rules.md §2), so folding the time-ordered prefix up to a
    // day's end equals folding those events in any order: one walk serves every day.
    const sorted = distinctOccurrences(events).sort((a, b) => a.event_timestamp_ms - b.event_timestamp_ms);
    let subscriber: Subscriber | undefined;
    let next = 0;
    for (const { end, i } of order) {
      for (; next < sorted.length && sorted[next]!.event_timestamp_ms <= end; next++) subscriber = applyEvent(subscriber, sorted[next]!);
      if (subscriber === undefined) continue;
      const { score, band } = scoreSubscriber(subscriber, end, config); // the score alone: recommendations are not charted
      const cents = monthlyValueCents(subscriber);
      const day = cells[i]!;
      const cell = day.band.get(band)!;
      cell.subscribers += 1;
      cell.cents += cents;
      if (score >= config.bands.high) {
        day.atRisk.subscribers += 1;
        day.atRisk.cents += cents;
      }
    }
  }
  return days.map((day, i) => {
    const { band, atRisk } = cells[i]!;
    const byBand = Object.fromEntries([...band].map(([b, c]) => [b, { subscribers: c.subscribers, monthly_value_usd: c.cents / 100 }]));
    return dailySnapshotOf(day, ends[i]!, 'events', byBand, { min_score: config.bands.high, subscribers: atRisk.subscribers, monthly_value_usd: atRisk.cents / 100 });
  });
}
