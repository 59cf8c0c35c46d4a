// Schema version 8 (durable deliveries: signed webhooks, offers): a file written by version 7 with
// dispatch rows upgrades in place; the old rows stay readable (new fields null, in no delivery),
// and new deliveries are grouped and found unfinished from the new indexes.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { databaseAtVersion, DAY, T0, tempDbPath } from './helpers.js';

describe('SQLite schema version 8', () => {
  it('a version 7 file upgrades in place: its dispatch rows kept and readable, new deliveries grouped and found unfinished', async () => {
    const path = tempDbPath();
    const v7 = databaseAtVersion(path, 7);
    const insert = v7.prepare(
      `INSERT INTO dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, triggered_by) VALUES (?, ?, 'winback', 'immediate', 90, ?, ?, 1, ?, 'batch')`,
    );
    insert.run(T0, 'u1', 'email', 'retrying', 'SMTP 451');
    insert.run(T0 + DAY, 'u1', 'email', 'sent', null);
    insert.run(T0 + 2 * DAY, 'u2', 'chat', 'failed', 'HTTP 500');
    v7.close();

    const store = await openSqliteStore({ path });
    try {
      const old = await store.dispatchLog.list({ limit: 10 });
      expect(old.items).toEqual([
        { id: 3, at: T0 + 2 * DAY, customer_id: 'u2', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'chat', outcome: 'failed', attempt: 1, error: 'HTTP 500', trigger: 'batch', delivery_id: null, target: null, detail: null, actor: null },
        { id: 2, at: T0 + DAY, customer_id: 'u1', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'email', outcome: 'sent', attempt: 1, error: null, trigger: 'batch', delivery_id: null, target: null, detail: null, actor: null },
        { id: 1, at: T0, customer_id: 'u1', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'email', outcome: 'retrying', attempt: 1, error: 'SMTP 451', trigger: 'batch', delivery_id: null, target: null, detail: null, actor: null },
      ]);
      // An old `retrying` row belongs to no delivery: a restart does not resend it.
      expect(await store.dispatchLog.unfinished(10)).toEqual([]);
      const pending = await store.dispatchLog.append({
        at: T0 + 3 * DAY, customer_id: 'u1', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, trigger: 'webhook', target: 'default', detail: '{"type":"recommendation.dispatched"}',
      });
      expect(pending).toMatchObject({ id: 4, delivery_id: 4, target: 'default' });
      expect(await store.dispatchLog.unfinished(10)).toEqual([pending]);
      expect(await store.dispatchLog.delivery(4)).toEqual([pending]);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(8);
    const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT * FROM dispatches WHERE delivery_id = ? ORDER BY id', 4)).toMatch(/USING INDEX dispatches_by_delivery/);
    expect(plan('SELECT * FROM dispatches WHERE delivery_id = ? ORDER BY id', 4)).not.toMatch(/TEMP B-TREE/);
    const open = plan(
      `SELECT * FROM dispatches AS d WHERE d.outcome IN ('pending', 'retrying') AND d.delivery_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM dispatches AS n WHERE n.delivery_id = d.delivery_id AND n.id > d.id) ORDER BY d.delivery_id LIMIT 10`,
    );
    expect(open).toMatch(/USING INDEX dispatches_open/);
    expect(open).toMatch(/dispatches_by_delivery/);
    db.close();
  });
});
