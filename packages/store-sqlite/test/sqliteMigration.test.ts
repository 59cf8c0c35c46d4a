// A file written by the previous schema (version 1) upgrades in place when opened: its rows get a
// monthly value (0 until replayed) and the totals table is filled from them, then kept by triggers.
import Database from 'better-sqlite3';
import { DEFAULT_CONFIG } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, event, T0, tempDbPath } from './helpers.js';

describe('schema version 2 (revenue at risk)', () => {
  it('upgrades a version 1 file in place: totals count its rows, replay fills in revenue, new events move the totals', async () => {
    const path = tempDbPath();
    const v1 = databaseAtVersion(path, 1);
    // One churned subscriber as version 1 stored it (its record has no revenue; the event has a price).
    const purchase = event('INITIAL_PURCHASE', 'e1', 'old', T0, { price: 9.99, purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY });
    const expiry = event('EXPIRATION', 'e2', 'old', T0 + 1);
    v1.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)').run('e1', 'old', purchase.type, T0, JSON.stringify(purchase));
    v1.prepare('INSERT INTO events (id, customer_id, type, event_timestamp_ms, body) VALUES (?, ?, ?, ?, ?)').run('e2', 'old', expiry.type, T0 + 1, JSON.stringify(expiry));
    const record = { customer_id: 'old', state: 'churned', state_key: null, product_id: 'pro_monthly', product_key: null, period_ends_at: null, period_key: null, billing_failures: 0, renewals: 0, trial_started_at: null, trial_ends_at: null, trial_key: null, trial_converted_at: null, conversion_key: null, last_activity_at: T0, first_event_at: T0, last_event_at: T0 + 1, event_count: 2 };
    v1.prepare(
      `INSERT INTO subscribers (customer_id, record, state, score, band, assessed_at, rescore_at) VALUES ('old', ?, 'churned', 100, 'critical', ?, NULL)`,
    ).run(JSON.stringify(record), T0 + 1);
    v1.close();

    const store = await openSqliteStore({ path });
    try {
      const ctx = { now: T0 + 2, config: DEFAULT_CONFIG };
      const before = await store.atRisk({ limit: 10 }, ctx);
      expect(before.total).toEqual({ subscribers: 1, monthly_value_usd: 0 });
      expect(before.items.map((i) => i.monthly_value_usd)).toEqual([0]);
      await store.replay(ctx);
      expect((await store.atRisk({ sort: 'revenue', limit: 10 }, ctx)).total).toEqual({ subscribers: 1, monthly_value_usd: 9.99 });
      await store.applyEvent(event('INITIAL_PURCHASE', 'e3', 'new', T0 + 2, { price: 120, purchased_at_ms: T0, expiration_at_ms: T0 + 365 * DAY }), ctx);
      await store.applyEvent(event('CANCELLATION', 'e4', 'new', T0 + 2, { cancel_reason: 'UNSUBSCRIBE' }), ctx);
      const after = await store.atRisk({ sort: 'revenue', limit: 10 }, ctx);
      expect(after.items.map((i) => [i.customer_id, i.monthly_value_usd])).toEqual([
        ['new', 10],
        ['old', 9.99],
      ]);
      expect(after.total).toEqual({ subscribers: 2, monthly_value_usd: 19.99 });
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });
});
