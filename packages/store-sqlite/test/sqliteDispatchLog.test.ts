// The dispatch log and cooldowns kept in the SQLite file.
import type { DispatchEntry, DispatchRecord } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { T0, tempDbPath } from './helpers.js';

const entry = (i: number): DispatchEntry => ({
  at: T0 + i,
  customer_id: `u${i}`,
  action: 'payment_update',
  urgency: 'immediate',
  risk_score: 82,
  channel: i % 2 === 0 ? 'email' : 'chat',
  outcome: i % 3 === 0 ? 'failed' : 'sent',
  attempt: 1,
  error: i % 3 === 0 ? 'SMTP 451' : null,
  trigger: 'batch',
});

let store: SqliteStore;
afterEach(async () => store.close());

describe('SQLite dispatch log', () => {
  it('appends with increasing ids and pages newest first through next_cursor', async () => {
    store = await openSqliteStore({ path: tempDbPath() });
    const appended: DispatchRecord[] = [];
    for (let i = 0; i < 7; i++) appended.push(await store.dispatchLog.append(entry(i)));
    expect(appended.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(appended[3]).toEqual({ id: 4, ...entry(3), delivery_id: 4, target: null, detail: null, actor: null });
    const pages: DispatchRecord[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = await store.dispatchLog.list(before === undefined ? { limit: 3 } : { limit: 3, before });
      pages.push(page.items);
      if (page.next_cursor === null) break;
      before = page.next_cursor;
    }
    expect(pages.map((p) => p.map((r) => r.id))).toEqual([[7, 6, 5], [4, 3, 2], [1]]);
    expect(pages.flat()).toEqual([...appended].reverse());
  });

  it('claims a cooldown once until it expires, and a released mark can be claimed again', async () => {
    store = await openSqliteStore({ path: tempDbPath() });
    const log = store.dispatchLog;
    expect(await log.claimCooldown('u1|winback|email', T0, 1000)).toBe(true);
    expect(await log.claimCooldown('u1|winback|email', T0 + 999, 1000)).toBe(false);
    expect(await log.claimCooldown('u1|winback|chat', T0 + 999, 1000)).toBe(true);
    expect(await log.claimCooldown('u1|winback|email', T0 + 1000, 1000)).toBe(true); // expired at T0 + 1000
    expect(await log.claimCooldown('u1|winback|email', T0 + 1999, 1000)).toBe(false);
    await log.releaseCooldown('u1|winback|email');
    expect(await log.claimCooldown('u1|winback|email', T0 + 1999, 1000)).toBe(true);
  });

  it('pruning expired marks never drops a live one', async () => {
    store = await openSqliteStore({ path: tempDbPath() });
    const log = store.dispatchLog;
    expect(await log.claimCooldown('live', T0, 10_000)).toBe(true);
    for (let i = 0; i < 2100; i++) await log.claimCooldown(`k${i}`, T0 + i, 1);
    expect(await log.claimCooldown('live', T0 + 2100, 10_000)).toBe(false);
    expect(await log.claimCooldown('k5', T0 + 2100, 1)).toBe(true);
  });
});
