// Schema version 9 on PostgreSQL (occurrences keyed by store too): a version 7 schema with the old
// keys (`<type>:<transaction_id>`) upgrades in place; a redelivery of a stored purchase under a new
// id is still a duplicate, and an event of another store with the same transaction id is accepted.
import { DEFAULT_CONFIG, foldEvents, type HandledEvent } from '@tenure/core';
import { DAY_MS, T0, buildEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, describePostgres, schemaAtVersion, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

describePostgres('PostgreSQL schema version 9', () => {
  it('a version 7 schema upgrades its occurrence keys: redeliveries stay duplicates, another store\u2019s transaction is new', { timeout: 30_000 }, async () => {
    const schema = db.schema('occurrence_upgrade');
    await schemaAtVersion(schema, 7);
    const alice: HandledEvent[] = [
      buildEvent('INITIAL_PURCHASE', 'e1', 'alice', T0, { store: 'APP_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
      buildEvent('RENEWAL', 'e2', 'alice', T0 + 30 * DAY_MS, { store: 'APP_STORE', transaction_id: 't2', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
    ];
    const bob: HandledEvent[] = [
      buildEvent('NON_RENEWING_PURCHASE', 'e3', 'bob', T0, { store: null, transaction_id: 't9', price: 4.99 }),
      buildEvent('INITIAL_PURCHASE', 'e4', 'bob', T0 + DAY_MS, { store: 'ODD:STORE', transaction_id: 't4', price: 1.99, expiration_at_ms: T0 + 31 * DAY_MS }),
      // A Play Store renewal sharing alice's App Store transaction id, stored before version 3 and
      // left without a key then (a copy of 'RENEWAL:t2'): a transaction of its own now.
      buildEvent('RENEWAL', 'e5', 'bob', T0 + 31 * DAY_MS, { store: 'PLAY_STORE', transaction_id: 't2', price: 1.99, expiration_at_ms: T0 + 61 * DAY_MS }),
    ];
    const oldKeys: Record<string, string | null> = { e1: 'INITIAL_PURCHASE:t1', e2: 'RENEWAL:t2', e3: 'NON_RENEWING_PURCHASE:t9', e4: 'INITIAL_PURCHASE:t4', e5: null };
    for (const [customer, events] of [['alice', alice], ['bob', bob]] as const) {
      for (const e of events) {
        await adminQuery(`INSERT INTO "${schema}".events (id, occurrence, customer_id, type, event_timestamp_ms, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
          e.id, oldKeys[e.id], customer, e.type, e.event_timestamp_ms, JSON.stringify(e),
        ]);
      }
      await adminQuery(`INSERT INTO "${schema}".subscribers (customer_id, record, state, score, band, assessed_at) VALUES ($1, $2, 'active', 10, 'low', $3)`, [customer, JSON.stringify(foldEvents(events)), T0]);
      await adminQuery(`INSERT INTO "${schema}".identities (id, customer_id) VALUES ($1, $1)`, [customer]);
    }

    const store = await db.open(schema);
    expect(await adminQuery(`SELECT id, occurrence FROM "${schema}".events ORDER BY seq`)).toEqual([
      { id: 'e1', occurrence: 'INITIAL_PURCHASE:APP_STORE:t1' },
      { id: 'e2', occurrence: 'RENEWAL:APP_STORE:t2' },
      { id: 'e3', occurrence: 'NON_RENEWING_PURCHASE::t9' },
      { id: 'e4', occurrence: 'INITIAL_PURCHASE:ODD%3ASTORE:t4' },
      { id: 'e5', occurrence: 'RENEWAL:PLAY_STORE:t2' },
    ]);
    expect((await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).map((v) => v.version)).toContain(9);
    expect(await store.get('alice')).toEqual(foldEvents(alice));

    const before = await store.get('alice');
    // The webhook's copy of a stored purchase, under a new event id: one transaction, quietly.
    expect(await store.applyEvent({ ...alice[0]!, id: 'rc-t1' }, ctx)).toEqual({ status: 'duplicate', subscriber: before });
    expect(await store.applyEvent({ ...bob[0]!, id: 'rc-t9' }, ctx)).toEqual({ status: 'duplicate', subscriber: await store.get('bob') });
    // Another customer's delivery of alice's App Store renewal: a duplicate that names its holder.
    expect(await store.applyEvent({ ...alice[1]!, id: 'rc-t2', app_user_id: 'carol', original_app_user_id: 'carol' }, ctx)).toEqual({
      status: 'duplicate',
      subscriber: undefined,
      heldBy: { key: 'RENEWAL:APP_STORE:t2', customer: 'alice' },
    });
    // The same transaction id in another store is another transaction.
    const play = buildEvent('INITIAL_PURCHASE', 'rc-play-t1', 'alice', T0 + 2 * DAY_MS, { store: 'PLAY_STORE', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 32 * DAY_MS });
    expect(await store.applyEvent(play, ctx)).toMatchObject({ status: 'applied' });
    expect(await store.eventCount()).toBe(6);
    expect(await store.get('alice')).toEqual(foldEvents([...alice, play]));
  });
});
