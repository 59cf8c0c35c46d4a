// The import session on PostgreSQL with a batch as large as the export import hands it (10,000
// events by default): one event per customer, so more advisory locks than PostgreSQL's lock table
// holds for one transaction (about 64 per connection, shared); the session stores it in several.
import { DEFAULT_CONFIG, foldByIdentity } from '@tenure/core';
import { DAY_MS, T0, buildEvent, byCustomerId, listAll } from '@tenure/store-contract';
import { expect, it } from 'vitest';
import { adminQuery, describePostgres, testSchemas } from './testDatabase.js';

const db = testSchemas();

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

describePostgres('PostgreSQL import session', () => {
  it('appends a batch of 10,000 customers (past one transaction\u2019s share of the lock table) and folds each once', { timeout: 120_000 }, async () => {
    const schema = db.schema('import_session');
    const store = await db.open(schema);
    const events = Array.from({ length: 10_000 }, (_, i) =>
      buildEvent('INITIAL_PURCHASE', `big_${i}`, `user_${i}`, T0 + i, { original_app_user_id: `$RCAnonymousID:${i}`, price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
    );
    const session = await store.beginImport(ctx);
    const statuses = await session.append(events);
    expect(statuses.filter((s) => s === 'applied')).toHaveLength(events.length);
    const pending = async () => (await adminQuery<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".import_pending`))[0]!.n;
    expect(await pending()).toBe(events.length);
    expect(await session.finish(ctx)).toBe(events.length);
    expect(await listAll(store)).toEqual(byCustomerId(foldByIdentity(events).values()));
    expect(await store.get('$RCAnonymousID:9999')).toEqual(foldByIdentity(events).get('user_9999'));
    expect(await pending()).toBe(0);
  });
});
