// The SQLite import session with other writes between its batches: a session remembers ids, marks
// and the folds of the persons it met first only while nothing else wrote (another connection's
// commit moves `data_version`, this connection's other writers `total_changes()`), so a webhook
// that `tenure serve` stores meanwhile in the same file, or this process between the batches of
// `finish`, is followed.
import { DEFAULT_CONFIG } from '@tenure/core';
import { DAY_MS, T0, buildEvent, listAll } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { tempDbPath } from './helpers.js';

const ctx = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };
const before = buildEvent('INITIAL_PURCHASE', 'm0', 'zed', T0, { price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS });
const first = [buildEvent('NON_RENEWING_PURCHASE', 'm1', 'anon', T0 + DAY_MS, { price: 4.99 })];
// Names both ids: one person from then on.
const webhook = buildEvent('RENEWAL', 'm2', 'zed', T0 + 2 * DAY_MS, { aliases: ['anon', 'zed'], price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS });
const second = [buildEvent('NON_RENEWING_PURCHASE', 'm3', 'anon', T0 + 3 * DAY_MS, { price: 1.99 })];

describe('SQLite import session beside another connection', () => {
  it('follows a person another connection merged into another between two batches', async () => {
    const reference = await openSqliteStore({ path: tempDbPath() });
    const path = tempDbPath();
    const importer = await openSqliteStore({ path });
    const server = await openSqliteStore({ path });
    try {
      for (const event of [before, ...first, webhook, ...second]) await reference.applyEvent(event, ctx);
      await importer.applyEvent(before, ctx);
      const session = await importer.beginImport(ctx);
      await session.append(first);
      await server.applyEvent(webhook, ctx);
      await session.append(second);
      expect(await session.finish(ctx)).toBe(1);
      expect(await reference.count()).toBe(1);
      expect(await listAll(importer)).toEqual(await listAll(reference));
      for (const id of ['anon', 'zed']) expect(await importer.get(id)).toEqual(await reference.get(id));
      expect(await importer.eventsOf('anon', { limit: 10 })).toEqual(await reference.eventsOf('anon', { limit: 10 }));
    } finally {
      await Promise.all([reference.close(), importer.close(), server.close()]);
    }
  });
});

describe('SQLite import session: the folds it holds', () => {
  // More persons than one transaction of `finish` folds (500), so a webhook can come between two.
  const persons = Array.from({ length: 700 }, (_, i) => `p${String(i).padStart(4, '0')}`);
  const file = persons.flatMap((customer, i) => [
    buildEvent('INITIAL_PURCHASE', `f${i}a`, customer, T0, { price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS }),
    buildEvent('RENEWAL', `f${i}b`, customer, T0 + 30 * DAY_MS, { price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS }),
  ]);
  // For a person of the second transaction, after the first one.
  const late = buildEvent('CANCELLATION', 'late', 'p0650', T0 + 35 * DAY_MS, { cancel_reason: 'UNSUBSCRIBE', expiration_at_ms: T0 + 60 * DAY_MS });

  it('folds in a webhook this process stored between two transactions of finish', async () => {
    const reference = await openSqliteStore({ path: tempDbPath() });
    const importer = await openSqliteStore({ path: tempDbPath() });
    try {
      await reference.applyEvents([...file, late], ctx);
      const session = await importer.beginImport(ctx);
      await session.append(file);
      let sent: Promise<unknown> | undefined;
      await session.finish(ctx, (done) => {
        if (done === 500) sent = importer.applyEvent(late, ctx);
      });
      await sent;
      expect((await importer.get('p0650'))?.state).toBe('pending_cancel');
      expect(await listAll(importer)).toEqual(await listAll(reference));
    } finally {
      await Promise.all([reference.close(), importer.close()]);
    }
  });
});
