// Schema version 2 (revenue at risk) on PostgreSQL: a version 1 schema upgrades in place, the
// totals come from insert-only deltas kept by statement triggers, and compacting them changes no total.
import pg from 'pg';
import { DEFAULT_CONFIG } from '@tenure/core';
import { DAY_MS, T0, buildEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { compactDeltas } from '../src/internal/readAtRisk.js';
import { tablesOf } from '../src/internal/tables.js';
import { adminQuery, databaseUrl, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

describePostgres('revenue at risk (schema version 2)', () => {
  it('upgrades a version 1 schema in place; replay fills in revenue; new events and compaction keep totals exact', { timeout: 30_000 }, async () => {
    const schema = db.schema('revenue_upgrade');
    await schemaAtVersion(schema, 1);
    const purchase = buildEvent('INITIAL_PURCHASE', 'e1', 'old', T0, { price: 9.99, purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY_MS });
    const expiry = buildEvent('EXPIRATION', 'e2', 'old', T0 + 1);
    for (const e of [purchase, expiry]) {
      await adminQuery(`INSERT INTO "${schema}".events (id, customer_id, type, event_timestamp_ms, body) VALUES ($1, 'old', $2, $3, $4)`, [
        e.id,
        e.type,
        e.event_timestamp_ms,
        JSON.stringify(e),
      ]);
    }
    const record = { customer_id: 'old', state: 'churned', state_key: null, product_id: 'pro_monthly', product_key: null, period_ends_at: null, period_key: null, billing_failures: 0, renewals: 0, trial_started_at: null, trial_ends_at: null, trial_key: null, trial_converted_at: null, conversion_key: null, last_activity_at: T0, first_event_at: T0, last_event_at: T0 + 1, event_count: 2 };
    await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ('old', $1, 'churned', 100, 'critical', $2)`, [
      JSON.stringify(record),
      T0 + 1,
    ]);

    const store = await db.open(schema);
    const ctx = { now: T0 + 2, config: DEFAULT_CONFIG };
    expect((await store.atRisk({ limit: 10 }, ctx)).total).toEqual({ subscribers: 1, monthly_value_usd: 0 });
    await store.replay(ctx);
    expect((await store.atRisk({ sort: 'revenue', limit: 10 }, ctx)).total).toEqual({ subscribers: 1, monthly_value_usd: 9.99 });
    await store.applyEvents(
      [
        buildEvent('INITIAL_PURCHASE', 'e3', 'new', T0 + 2, { price: 120, purchased_at_ms: T0, expiration_at_ms: T0 + 365 * DAY_MS }),
        buildEvent('CANCELLATION', 'e4', 'new', T0 + 2, { cancel_reason: 'UNSUBSCRIBE' }),
      ],
      ctx,
    );
    const after = await store.atRisk({ sort: 'revenue', limit: 10 }, ctx);
    expect(after.items.map((i) => [i.customer_id, i.monthly_value_usd])).toEqual([
      ['new', 10],
      ['old', 9.99],
    ]);
    expect(after.total).toEqual({ subscribers: 2, monthly_value_usd: 19.99 });

    const deltas = async () => Number((await adminQuery<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".at_risk_deltas`))[0]!.n);
    expect(await deltas()).toBeGreaterThan(2);
    const pool = new pg.Pool({ connectionString: databaseUrl(), max: 1 });
    try {
      await compactDeltas(pool, tablesOf(schema));
    } finally {
      await pool.end();
    }
    expect(await deltas()).toBe(2); // one per non-empty (state, score) cell: churned 100, pending_cancel 60
    expect((await store.atRisk({ sort: 'revenue', limit: 10 }, ctx)).total).toEqual(after.total);
  });
});
