// Schema version 5 on PostgreSQL (the dashboard's timeline, dispatch history and trends): a version
// 3 schema upgrades in place with its data kept, and the new reads plan on the new indexes.
import pg from 'pg';
import { dailySnapshotOf, utcDayOf } from '@tenure/core';
import { DAY_MS, T0, buildEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/internal/migrations.js';
import { adminQuery, databaseUrl, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

describePostgres('PostgreSQL schema version 5', () => {
  it('a version 3 schema upgrades in place: events and dispatches kept, read by customer and time on the new indexes', { timeout: 30_000 }, async () => {
    const schema = db.schema('dashboard_upgrade');
    await schemaAtVersion(schema, 3);
    const events = [
      buildEvent('INITIAL_PURCHASE', 'e1', 'u1', T0, { transaction_id: 't1' }),
      buildEvent('RENEWAL', 'e2', 'u1', T0 + 30 * DAY_MS, { transaction_id: 't2' }),
      buildEvent('CANCELLATION', 'e3', 'u1', T0 + 40 * DAY_MS),
      buildEvent('INITIAL_PURCHASE', 'e4', 'u2', T0 + DAY_MS, { transaction_id: 't4' }),
    ];
    for (const e of events) {
      await adminQuery(`INSERT INTO "${schema}".events (id, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5)`, [e.id, e.app_user_id, e.type, e.event_timestamp_ms, JSON.stringify(e)]);
    }
    for (let i = 0; i < 6; i++) {
      await adminQuery(
        `INSERT INTO "${schema}".dispatches (at, customer_id, action, urgency, risk_score, channel, outcome, attempt, error, trigger) VALUES ($1, $2, 'winback', 'immediate', 90, $3, 'sent', 1, NULL, 'batch')`,
        [T0 + i * DAY_MS, i % 2 === 0 ? 'u1' : 'u2', i % 3 === 0 ? 'email' : 'chat'],
      );
    }

    const store = await db.open(schema);
    expect(await store.eventCount()).toBe(4);
    const page = await store.eventsOf('u1', { limit: 2 });
    expect(page.items.map((e) => e.id)).toEqual(['e3', 'e2']);
    expect((await store.eventsOf('u1', { limit: 2, before: page.next! })).items).toEqual([events[0]]);
    expect((await store.dispatchLog.list({ limit: 10, customer_id: 'u1' })).items.map((r) => r.at)).toEqual([T0 + 4 * DAY_MS, T0 + 2 * DAY_MS, T0]);
    expect(await store.dispatchLog.tally(T0 + 3 * DAY_MS)).toEqual(expect.arrayContaining([{ channel: 'email', outcome: 'sent', count: 1 }, { channel: 'chat', outcome: 'sent', count: 2 }]));
    const snapshot = dailySnapshotOf(utcDayOf(T0), T0, 'sweep', {}, { min_score: 60, subscribers: 0, monthly_value_usd: 0 });
    await store.snapshots.put(snapshot);
    expect(await store.snapshots.range(utcDayOf(T0), utcDayOf(T0))).toEqual([snapshot]);
    const versions = await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));

    // With sequential scans off (a small table would otherwise be scanned), the reads use the new indexes.
    const plan = async (sql: string, params: unknown[]) => {
      const c = new pg.Client({ connectionString: databaseUrl() });
      await c.connect();
      try {
        await c.query('SET enable_seqscan = off');
        const { rows } = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await c.end();
      }
    };
    expect(await plan(`SELECT body FROM "${schema}".events WHERE customer_id = $1 AND (event_timestamp_ms, id) < ($2, $3) ORDER BY event_timestamp_ms DESC, id DESC LIMIT 5`, ['u1', T0, 'x'])).toMatch(/events_timeline/);
    expect(await plan(`SELECT * FROM "${schema}".dispatches WHERE id < $1 AND customer_id = $2 ORDER BY id DESC LIMIT 5`, [99, 'u1'])).toMatch(/dispatches_by_customer/);
    expect(await plan(`SELECT channel, outcome, count(*) FROM "${schema}".dispatches WHERE at >= $1 GROUP BY channel, outcome`, [T0])).toMatch(/dispatches_by_at/);
  });
});
