// Schema version 4 on PostgreSQL: a version 3 schema upgrades in place; its records keep working
// (each its own person, found by the ids its events name), and the next event naming two merges them.
import { DEFAULT_CONFIG, foldByIdentity, foldEvents, type HandledEvent } from '@tenure/core';
import { DAY_MS, T0, buildEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const ANON = '$RCAnonymousID:ab';

describePostgres('PostgreSQL schema version 4', () => {
  it('a version 3 schema upgrades in place: each record its own person, found by its events\u2019 ids, merged by the next event naming two', { timeout: 30_000 }, async () => {
    const schema = db.schema('identities_upgrade');
    await schemaAtVersion(schema, 3);
    const anon: HandledEvent[] = [buildEvent('INITIAL_PURCHASE', 'e1', ANON, T0, { aliases: [ANON], price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS })];
    const user: HandledEvent[] = [buildEvent('NON_RENEWING_PURCHASE', 'e2', 'user_42', T0 + DAY_MS, { original_app_user_id: ANON, aliases: [ANON, 'user_42'], price: 1.99 })];
    for (const [customer, events] of [[ANON, anon], ['user_42', user]] as const) {
      for (const e of events) {
        await adminQuery(`INSERT INTO "${schema}".events (id, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5)`, [e.id, customer, e.type, e.event_timestamp_ms, JSON.stringify(e)]);
      }
      const { customer_key: _key, ...record } = foldEvents(events)!; // a record written before the key
      await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ($1, $2, 'active', 10, 'low', $3)`, [customer, JSON.stringify(record), T0]);
    }

    const store = await db.open(schema);
    expect(await store.count()).toBe(2);
    expect((await store.get(ANON))?.customer_id).toBe(ANON); // named by both: the smaller id owns it until a merge
    expect((await store.get('user_42'))?.customer_id).toBe('user_42');
    const renewal = buildEvent('RENEWAL', 'e3', 'user_42', T0 + 30 * DAY_MS, { original_app_user_id: ANON, aliases: [ANON, 'user_42'], price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS });
    const expected = foldByIdentity([...anon, ...user, renewal]).get('user_42');
    expect(await store.applyEvent(renewal, ctx)).toEqual({ status: 'applied', subscriber: expected });
    expect(await store.count()).toBe(1);
    expect(await store.get(ANON)).toEqual(expected);
    expect(await store.replay(ctx)).toBe(1);
    expect(await store.get(ANON)).toEqual(expected);
    expect(await adminQuery(`SELECT id, customer_id FROM "${schema}".identities ORDER BY id`)).toEqual([
      { id: ANON, customer_id: 'user_42' },
      { id: 'user_42', customer_id: 'user_42' },
    ]);
    expect(await adminQuery(`SELECT DISTINCT customer_id FROM "${schema}".events`)).toEqual([{ customer_id: 'user_42' }]);
  });
});
