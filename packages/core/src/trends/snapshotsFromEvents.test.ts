import { describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_CONFIG } from '../config/defaultConfig.js';
import type { HandledEvent } from '../events/webhookSchema.js';
import { parseWebhook } from '../events/parseWebhook.js';
import { materializeAtRisk } from '../atRisk/materializeAtRisk.js';
import { foldEvents } from '../subscriber/foldEvents.js';
import { mergeSnapshots } from './dailySnapshot.js';
import { snapshotsFromEvents } from './snapshotsFromEvents.js';
import { utcDayOf } from './utcDay.js';

const T0 = Date.UTC(2026, 10, 1);
const ev = (type: string, id: string, customer: string, at: number, fields: Record<string, unknown> = {}): HandledEvent => {
  const parsed = parseWebhook({
    api_version: '1.0',
    event: { type, id, app_id: 'app', app_user_id: customer, original_app_user_id: customer, event_timestamp_ms: at, environment: 'PRODUCTION', store: 'APP_STORE', product_id: 'pro_monthly', price: 9.99, currency: 'USD', ...fields },
  });
  if (!parsed.ok || !parsed.value.handled) throw new Error('not handled');
  return parsed.value.event;
};

describe('snapshotsFromEvents', () => {
  const alice = [ev('INITIAL_PURCHASE', 'a1', 'alice', T0, { expiration_at_ms: T0 + 30 * DAY_MS }), ev('BILLING_ISSUE', 'a2', 'alice', T0 + 2 * DAY_MS + 5)];
  const bob = [ev('INITIAL_PURCHASE', 'b1', 'bob', T0 + DAY_MS, { expiration_at_ms: T0 + 31 * DAY_MS })];
  const days = [utcDayOf(T0 - DAY_MS), utcDayOf(T0), utcDayOf(T0 + DAY_MS), utcDayOf(T0 + 2 * DAY_MS)];
  const snapshots = snapshotsFromEvents([alice, bob], days, DEFAULT_CONFIG);

  it('counts no one before the first event, and each customer from the day of its first event', () => {
    expect(snapshots.map((s) => Object.values(s.by_band).reduce((n, b) => n + b.subscribers, 0))).toEqual([0, 1, 2, 2]);
    expect(snapshots.every((s) => s.source === 'events')).toBe(true);
  });

  it("equals each customer's fold of the events up to the day's last millisecond, assessed then", () => {
    for (const snapshot of snapshots) {
      const expected = { subscribers: 0, cents: 0 };
      for (const events of [alice, bob]) {
        const folded = foldEvents(events.filter((e) => e.event_timestamp_ms <= snapshot.at));
        if (folded === undefined) continue;
        const { row } = materializeAtRisk(folded, snapshot.at, DEFAULT_CONFIG);
        if (row.score >= DEFAULT_CONFIG.bands.high) {
          expected.subscribers += 1;
          expected.cents += Math.round(row.monthly_value_usd * 100);
        }
      }
      expect(snapshot.at_risk).toEqual({ min_score: DEFAULT_CONFIG.bands.high, subscribers: expected.subscribers, monthly_value_usd: expected.cents / 100 });
    }
    expect(snapshots[3]!.at_risk.subscribers).toBe(1); // alice's billing issue
  });

  it('is the merge of its parts: customers folded in batches add up to all of them folded at once', () => {
    const parts = [snapshotsFromEvents([alice], days, DEFAULT_CONFIG), snapshotsFromEvents([bob], days, DEFAULT_CONFIG)];
    expect(parts[0]!.map((s, i) => mergeSnapshots(s, parts[1]![i]!))).toEqual(snapshots);
  });
});
