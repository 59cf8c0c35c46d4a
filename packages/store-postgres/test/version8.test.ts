// Schema version 8 on PostgreSQL (durable deliveries: signed webhooks, offers): a version 7 schema
// with dispatch rows upgrades in place; the old rows stay readable (new fields null, in no
// delivery), and new deliveries are grouped and found unfinished.
import { T0, DAY_MS } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/internal/migrations.js';
import { adminQuery, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

describePostgres('PostgreSQL schema version 8', () => {
  it('a version 7 schema upgrades in place: its dispatch rows kept and readable, new deliveries grouped and found unfinished', { timeout: 30_000 }, async () => {
    const schema = db.schema('delivery_upgrade');
    await schemaAtVersion(schema, 7);
    const rows: [number, string, string, string, string | null][] = [
      [T0, 'u1', 'email', 'retrying', 'SMTP 451'],
      [T0 + DAY_MS, 'u1', 'email', 'sent', null],
      [T0 + 2 * DAY_MS, 'u2', 'chat', 'failed', 'HTTP 500'],
    ];
    for (const row of rows) {
      await adminQuery(
        `INSERT INTO "${schema}".dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger) VALUES ($1, $2, 'winback', 'immediate', 90, $3, $4, 1, $5, 'batch')`,
        row,
      );
    }

    const store = await db.open(schema);
    const old = await store.dispatchLog.list({ limit: 10 });
    expect(old.items).toEqual(
      rows
        .map(([at, customer_id, channel, outcome, error], i) => ({
          id: i + 1, at, customer_id, action: 'winback', urgency: 'immediate', risk_score: 90, channel, outcome, attempt: 1, error, trigger: 'batch', delivery_id: null, target: null, detail: null, actor: null,
        }))
        .reverse(),
    );
    // An old `retrying` row belongs to no delivery: a restart does not resend it.
    expect(await store.dispatchLog.unfinished(10)).toEqual([]);
    const pending = await store.dispatchLog.append({
      at: T0 + 3 * DAY_MS, customer_id: 'u1', action: 'winback', urgency: 'immediate', risk_score: 90, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, trigger: 'webhook', target: 'default', detail: '{"type":"recommendation.dispatched"}',
    });
    expect(pending).toMatchObject({ id: 4, delivery_id: 4, target: 'default', actor: null });
    expect(await store.dispatchLog.unfinished(10)).toEqual([pending]);
    expect(await store.dispatchLog.delivery(4)).toEqual([pending]);
    const versions = await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(versions.at(-1)?.version).toBeGreaterThanOrEqual(8);
  });
});
