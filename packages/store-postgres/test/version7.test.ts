// Schema version 7 on PostgreSQL (a transfer moves its subscriptions' later events too): a version
// 6 schema upgrades in place with its data kept, and a transfer applied after the upgrade routes a
// late event of the moved subscription to the receiver.
import { DEFAULT_CONFIG, foldEvents, reKeyToReceiver, type HandledEvent } from '@tenure/core';
import { DAY_MS, T0, buildEvent, transferEvent } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/internal/migrations.js';
import { adminQuery, describePostgres, schemaAtVersion, storeCustomersIn, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

describePostgres('PostgreSQL schema version 7', () => {
  it('a version 6 schema upgrades in place: its data kept, and a later transfer routes the moved subscription\u2019s late events', { timeout: 30_000 }, async () => {
    const schema = db.schema('moved_upgrade');
    await schemaAtVersion(schema, 6);
    const sender: HandledEvent[] = [buildEvent('INITIAL_PURCHASE', 'e1', 'u1', T0, { original_transaction_id: 'otx_1', transaction_id: 't1', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS })];
    const receiver: HandledEvent[] = [buildEvent('INITIAL_PURCHASE', 'e2', 'u2', T0 + DAY_MS, { original_transaction_id: 'otx_2', transaction_id: 't2', price: 4.99, expiration_at_ms: T0 + 31 * DAY_MS })];
    await storeCustomersIn(schema, [['u1', sender], ['u2', receiver]], (e) => `${e.type}:${String(e['transaction_id'])}`);

    const store = await db.open(schema);
    expect(await store.count()).toBe(2);
    expect(await store.eventCount()).toBe(2);
    expect(await store.get('u1')).toEqual(foldEvents(sender));
    expect(await store.applyTransfer(transferEvent('tr1', ['u1'], ['u2']), ctx)).toMatchObject({ status: 'applied', moved: 1 });
    const late = buildEvent('RENEWAL', 'e3', 'u1', T0 + 30 * DAY_MS, { original_transaction_id: 'otx_1', transaction_id: 't3', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS });
    const expected = foldEvents([...receiver, ...[...sender, late].map((e) => reKeyToReceiver(e, 'u2'))]);
    expect(await store.applyEvent(late, ctx)).toEqual({ status: 'applied', subscriber: expected });
    expect(await store.get('u1')).toBeUndefined();
    expect(await store.count()).toBe(1);
    expect(await adminQuery(`SELECT original_transaction_id, receiver FROM "${schema}".moved_subscriptions`)).toEqual([{ original_transaction_id: 'otx_1', receiver: 'u2' }]);
    const versions = await adminQuery<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    expect(versions.map((v) => v.version).slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The upgrade of a schema holding events marks it for one scan of persons stored apart; a replay does it and clears the mark.
    const mark = (name: string) => adminQuery(`SELECT value FROM "${name}".meta WHERE key = 'relink_pending'`);
    expect(await mark(schema)).toEqual([{ value: '1' }]);
    await store.replay(ctx);
    expect(await mark(schema)).toEqual([]);
    // A new schema has nothing stored apart: no mark.
    const fresh = db.schema('moved_fresh');
    await (await db.open(fresh)).applyEvent(late, ctx);
    expect(await mark(fresh)).toEqual([]);
  });
});
