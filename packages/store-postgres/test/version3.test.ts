// Schema version 3 on PostgreSQL: checkpoints durable across closing and reopening the store and
// shared by replicas; a version 2 schema upgrades in place with its data kept (the first delivery
// of each transaction owns its occurrence, replay counts it once, transfers work).
import { DEFAULT_CONFIG } from '@tenure/core';
import { DAY_MS, T0, buildEvent, transferEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/internal/migrations.js';
import { adminQuery, describePostgres, openTestStore, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

describePostgres('PostgreSQL checkpoints', () => {
  it('survive closing and reopening, and a second replica reads them', { timeout: 30_000 }, async () => {
    const schema = db.schema('checkpoints');
    const first = await openTestStore(schema);
    await first.checkpoints.set('backfill:proj1', '{"starting_after":"cus_42"}');
    await first.checkpoints.set('gone', 'x');
    await first.checkpoints.delete('gone');
    const replica = await db.open(schema);
    expect(await replica.checkpoints.get('backfill:proj1')).toBe('{"starting_after":"cus_42"}');
    await first.close();
    const reopened = await db.open(schema);
    expect(await reopened.checkpoints.get('backfill:proj1')).toBe('{"starting_after":"cus_42"}');
    expect(await reopened.checkpoints.get('gone')).toBeUndefined();
  });

  it('a version 2 schema upgrades in place to the current version, its data kept, one transaction counted once', { timeout: 30_000 }, async () => {
    const schema = db.schema('checkpoints_upgrade');
    await schemaAtVersion(schema, 2);
    // Version 2 deduplicated by id only: the import's and the webhook's copy of one renewal are both stored.
    const events = [
      buildEvent('INITIAL_PURCHASE', 'export:al1:INITIAL_PURCHASE', 'u1', T0, { transaction_id: 'al1' }),
      buildEvent('RENEWAL', 'export:al2:RENEWAL', 'u1', T0 + 30 * DAY_MS, { transaction_id: 'al2' }),
      buildEvent('RENEWAL', 'rc-al2', 'u1', T0 + 30 * DAY_MS, { transaction_id: 'al2' }),
    ];
    for (const e of events) {
      await adminQuery(`INSERT INTO "${schema}".events (id, customer_id, type, event_timestamp_ms, body) VALUES ($1, 'u1', $2, $3, $4)`, [e.id, e.type, e.event_timestamp_ms, JSON.stringify(e)]);
    }
    const record = { customer_id: 'u1', state: 'active', state_key: null, product_id: 'pro_monthly', product_key: null, period_ends_at: null, period_key: null, billing_failures: 0, renewals: 0, trial_started_at: null, trial_ends_at: null, trial_key: null, trial_converted_at: null, conversion_key: null, last_activity_at: T0, first_event_at: T0, last_event_at: T0, event_count: 1 };
    await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ('u1', $1, 'active', 10, 'low', $2)`, [JSON.stringify(record), T0]);

    const store = await db.open(schema);
    expect((await store.get('u1'))?.customer_id).toBe('u1');
    expect(await store.eventCount()).toBe(3);
    const ctx = { now: T0 + 90 * DAY_MS, config: DEFAULT_CONFIG };
    await store.replay(ctx);
    expect((await store.get('u1'))?.renewals).toBe(1); // replay's fold drops the second copy
    expect((await store.applyEvent(buildEvent('RENEWAL', 'rc-al2-again', 'u1', T0 + 30 * DAY_MS, { transaction_id: 'al2' }), ctx)).status).toBe('duplicate');
    expect((await store.applyEvent(buildEvent('RENEWAL', 'rc-al3', 'u1', T0 + 60 * DAY_MS, { transaction_id: 'al3' }), ctx)).status).toBe('applied');
    expect(await adminQuery(`SELECT id, occurrence FROM "${schema}".events ORDER BY seq`)).toEqual([
      { id: 'export:al1:INITIAL_PURCHASE', occurrence: 'INITIAL_PURCHASE:APP_STORE:al1' },
      { id: 'export:al2:RENEWAL', occurrence: 'RENEWAL:APP_STORE:al2' },
      { id: 'rc-al2', occurrence: null },
      { id: 'rc-al3', occurrence: 'RENEWAL:APP_STORE:al3' },
    ]);
    await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ('u2', $1, 'active', 10, 'low', $2)`, [JSON.stringify({ ...record, customer_id: 'u2' }), T0]);
    await store.applyEvent(buildEvent('INITIAL_PURCHASE', 'u2-buy', 'u2', T0), ctx);
    expect(await store.applyTransfer(transferEvent('tr_1', ['u2'], ['u1']), ctx)).toMatchObject({ status: 'applied', receiver: 'u1', moved: 1 });
    await store.checkpoints.set('backfill:p', 'cus_1');
    expect(await store.checkpoints.get('backfill:p')).toBe('cus_1');
    const versions = await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });
});
