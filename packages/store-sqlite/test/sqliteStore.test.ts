// Example tests of the SQLite store's port semantics (the model test covers arbitrary sequences).
import { DEFAULT_CONFIG, foldEvents, resolveConfig, selectAtRisk, type StoredRecord, type Subscriber } from '@tenure/core';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { DAY, T0, event, tempDbPath } from './helpers.js';

const ctx = { now: T0, config: DEFAULT_CONFIG };
const purchase = (id: string, customer: string, at = T0) => event('INITIAL_PURCHASE', id, customer, at, { period_type: 'NORMAL' });
const billingIssue = (id: string, customer: string, at = T0) => event('BILLING_ISSUE', id, customer, at);

const open: SqliteStore[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});
const openStore = async (path = tempDbPath()) => {
  const store = await openSqliteStore({ path });
  open.push(store);
  return store;
};
const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

describe('openSqliteStore', () => {
  it('names itself after its path', async () => {
    const path = tempDbPath();
    expect((await openStore(path)).kind).toBe(`sqlite:${path}`);
  });

  it('applies an event once: a redelivery of the same id is a duplicate and changes nothing', async () => {
    const store = await openStore();
    const first = await store.applyEvent(purchase('e1', 'u1'), ctx);
    expect(first.status).toBe('applied');
    const again = await store.applyEvent({ ...billingIssue('e1', 'u1') }, ctx);
    expect(again).toEqual({ status: 'duplicate', subscriber: first.subscriber });
    expect(await store.eventCount()).toBe(1);
    expect(await store.get('u1')).toEqual(first.subscriber);
  });

  it('commits concurrent deliveries together, each answered as if applied alone in arrival order', async () => {
    const store = await openStore();
    const events = Array.from({ length: 300 }, (_, i) => billingIssue(`e${i % 250}`, `u${i % 7}`, T0 + i));
    const outcomes = await Promise.all(events.map((e) => store.applyEvent(e, ctx)));
    const seen = new Set<string>();
    const applied: typeof events = [];
    outcomes.forEach((outcome, i) => {
      const e = events[i]!;
      const fresh = !seen.has(e.id);
      seen.add(e.id);
      if (fresh) applied.push(e);
      expect(outcome.status).toBe(fresh ? 'applied' : 'duplicate');
      expect(outcome.subscriber).toEqual(foldEvents(applied.filter((a) => a.app_user_id === e.app_user_id)));
    });
    expect(await store.eventCount()).toBe(250);
  });

  it('stores a burst committed together exactly as the same deliveries one at a time, each row assessed at its latest delivery', async () => {
    // One customer's events arriving in one turn are read and written once (openSqliteStore.ts,
    // applyDeliveries); the rows must not tell: every column, the at-risk row's `now` included.
    const deliveries = Array.from({ length: 40 }, (_, i) => {
      const customer = `u${i % 3}`;
      const e = i < 3 ? purchase(`e${i}`, customer, T0 + i) : i % 5 === 0 ? billingIssue(`e${i}`, customer, T0 + i * DAY) : event('RENEWAL', `e${i}`, customer, T0 + i * DAY);
      return { event: e, ctx: { now: T0 + (i % 7) * 3 * DAY + i, config: DEFAULT_CONFIG } };
    });
    const together = await openStore();
    const outcomes = await Promise.all(deliveries.map(({ event: e, ctx: c }) => together.applyEvent(e, c)));
    const alone = await openStore();
    for (const [i, { event: e, ctx: c }] of deliveries.entries()) expect(await alone.applyEvent(e, c)).toEqual(outcomes[i]);
    await Promise.all([together.close(), alone.close()]);
    const rows = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare('SELECT * FROM subscribers ORDER BY customer_id').all();
      } finally {
        db.close();
      }
    };
    const stored = rows(together.path);
    expect(stored).toHaveLength(3);
    expect(stored).toEqual(rows(alone.path));
  });

  it('fails only the delivery that cannot be stored, not the others committed with it', async () => {
    const store = await openStore();
    const bad = { ...billingIssue('bad', 'u1'), extra: 1n } as unknown as ReturnType<typeof billingIssue>; // JSON cannot hold a BigInt
    const results = await Promise.allSettled([store.applyEvent(billingIssue('e1', 'u1'), ctx), store.applyEvent(bad, ctx), store.applyEvent(billingIssue('e2', 'u2'), ctx)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.eventCount()).toBe(2);
  });

  it('commits deliveries accepted before close, and refuses those after', async () => {
    const path = tempDbPath();
    const store = await openSqliteStore({ path });
    const pending = store.applyEvent(billingIssue('e1', 'u1'), ctx);
    await store.close();
    expect((await pending).status).toBe('applied');
    await expect(store.applyEvent(billingIssue('e2', 'u1'), ctx)).rejects.toThrow(`The SQLite store at ${path} is closed`);
    const reopened = await openStore(path);
    expect(await reopened.eventCount()).toBe(1);
  });

  it('applyEvents returns one status per event, catching repeats inside the batch and against the log', async () => {
    const store = await openStore();
    await store.applyEvent(purchase('e1', 'u1'), ctx);
    const batch = [purchase('e1', 'u1'), billingIssue('e2', 'u1', T0 + 1), billingIssue('e2', 'u1', T0 + 1), purchase('e3', 'u2')];
    expect(await store.applyEvents(batch, ctx)).toEqual(['duplicate', 'applied', 'duplicate', 'applied']);
    expect(await store.get('u1')).toEqual(foldEvents([purchase('e1', 'u1'), billingIssue('e2', 'u1', T0 + 1)]));
    expect(await store.eventCount()).toBe(3);
    expect(await store.applyEvents([], ctx)).toEqual([]);
  });

  it('recordActivity creates nobody, and keeps the latest reported time for replay and export', async () => {
    const store = await openStore();
    expect(await store.recordActivity('ghost', T0, ctx)).toBeUndefined();
    expect(await store.count()).toBe(0);
    await store.applyEvent(billingIssue('e1', 'u1'), ctx);
    await store.recordActivity('u1', T0 + 5 * DAY, ctx);
    const older = await store.recordActivity('u1', T0 + 2 * DAY, ctx);
    expect(older?.last_activity_at).toBe(T0 + 5 * DAY);
    const records = await collect(store.records());
    expect(records).toEqual<StoredRecord[]>([
      { kind: 'event', event: billingIssue('e1', 'u1') },
      { kind: 'activity', customer_id: 'u1', at: T0 + 5 * DAY },
    ]);
    expect(await store.replay(ctx)).toBe(1);
    expect((await store.get('u1'))?.last_activity_at).toBe(T0 + 5 * DAY);
  });

  it('lists subscribers and pages at-risk in code point order, not UTF-16 order', async () => {
    const store = await openStore();
    const ids = ['\u{1F600}', '\uFFFD', 'a', '\uE000'];
    await store.applyEvents(ids.map((id, i) => billingIssue(`e${i}`, id)), ctx);
    const listed = (await collect(store.list())).map((s) => s.customer_id);
    expect(listed).toEqual(['a', '\uE000', '\uFFFD', '\u{1F600}']);
    const page1 = await store.atRisk({ limit: 2 }, ctx);
    const page2 = await store.atRisk({ limit: 2, after: page1.next ?? undefined }, ctx);
    expect([...page1.items, ...page2.items].map((e) => e.customer_id)).toEqual(listed);
    expect(page2.next).toBeNull();
  });

  it('re-materializes rows that came due before answering at-risk, and refreshDue sweeps at most its limit', async () => {
    const store = await openStore();
    // Active customers without activity: inactivity points start after the 7-day grace.
    await store.applyEvents([purchase('e1', 'u1'), purchase('e2', 'u2'), purchase('e3', 'u3')], ctx);
    const later = { now: T0 + 40 * DAY, config: DEFAULT_CONFIG };
    expect(await store.refreshDue(later, 2)).toBe(2);
    const subscribers = await collect(store.list());
    const page = await store.atRisk({ limit: 10, min_score: 0 }, later);
    expect(page.items.map((e) => [e.customer_id, e.score])).toEqual(
      selectAtRisk(subscribers, later.now, DEFAULT_CONFIG, { limit: 10, min_score: 0 }).items.map((a) => [a.subscriber.customer_id, a.risk.score]),
    );
    expect(page.items.map((e) => e.score)).toEqual([25, 25, 25]);
    // The read assessed the last due row in memory and writes it back right after answering.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.refreshDue(later, 10)).toBe(0);
  });

  it('answers exactly while many rows are due, writing them back first beyond a few hundred', async () => {
    const store = await openStore();
    await store.applyEvents(Array.from({ length: 450 }, (_, i) => purchase(`e${i}`, `u${String(i).padStart(3, '0')}`, T0 + (i % 9) * DAY)), ctx);
    const subscribers = await collect(store.list());
    for (const days of [12, 20, 40]) {
      const later = { now: T0 + days * DAY, config: DEFAULT_CONFIG };
      const query = { limit: 25, min_score: 0 };
      const page = await store.atRisk(query, later);
      const want = selectAtRisk(subscribers, later.now, DEFAULT_CONFIG, query);
      expect(page.items.map((e) => [e.customer_id, e.score, e.band])).toEqual(want.items.map((a) => [a.subscriber.customer_id, a.risk.score, a.risk.band]));
      expect(page.next).toEqual(want.next);
    }
  });

  it('re-materializes every row under a new configuration, and remembers which one it used across reopening', async () => {
    const path = tempDbPath();
    const store = await openStore(path);
    await store.applyEvents([purchase('e1', 'u1'), billingIssue('e2', 'u2')], ctx);
    const other = { now: T0, config: resolveConfig({ risk: { state_base: { ...DEFAULT_CONFIG.risk.state_base, active: 70 } } }) };
    const page = await store.atRisk({ limit: 10 }, other);
    expect(page.items.map((e) => [e.customer_id, e.score])).toEqual([['u2', 90], ['u1', 70]]);
    await store.close();
    const reopened = await openStore(path);
    // Same config as the rows: nothing to redo, the stored rows answer.
    expect((await reopened.atRisk({ limit: 10 }, other)).items.map((e) => e.score)).toEqual([90, 70]);
    expect((await reopened.atRisk({ limit: 10 }, ctx)).items.map((e) => [e.customer_id, e.score])).toEqual([['u2', 90]]);
  });

  it('replays from the stored events while writes keep arriving, losing none of them', async () => {
    const store = await openStore();
    const customers = Array.from({ length: 1500 }, (_, i) => `c${String(i).padStart(4, '0')}`);
    await store.applyEvents(customers.map((c, i) => purchase(`p${i}`, c)), ctx);
    const progress: [number, number][] = [];
    const replaying = store.replay(ctx, (done, total) => progress.push([done, total]));
    // Renewals for customers on both sides of the replay's cursor, while it runs.
    const live = customers.filter((_, i) => i % 7 === 0).map((c, i) => store.applyEvent(event('RENEWAL', `r${i}`, c, T0 + DAY), ctx));
    const [rebuilt, outcomes] = await Promise.all([replaying, Promise.all(live)]);
    expect(rebuilt).toBe(1500);
    expect(outcomes.every((o) => o.status === 'applied')).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[progress.length - 1]).toEqual([1500, 1500]);
    for (const [i, c] of customers.entries()) {
      expect((await store.get(c))?.renewals, c).toBe(i % 7 === 0 ? 1 : 0);
    }
  });

  it('replay rebuilds a projection from the event log', async () => {
    const store = await openStore();
    await store.applyEvents([purchase('e1', 'u1'), billingIssue('e2', 'u1', T0 + DAY), billingIssue('e3', 'u1', T0 + 2 * DAY)], ctx);
    const expected = (await store.get('u1')) as Subscriber;
    expect(await store.replay(ctx)).toBe(1);
    expect(await store.get('u1')).toEqual(expected);
    expect(expected.billing_failures).toBe(2);
  });

  it('streams records and list while writes happen between items', async () => {
    const store = await openStore();
    await store.applyEvents(Array.from({ length: 2500 }, (_, i) => purchase(`e${i}`, `u${i}`)), ctx);
    let seen = 0;
    for await (const record of store.records()) {
      if (seen++ === 10) await store.applyEvent(purchase('late', 'zz_late'), ctx); // a write mid-stream must not fail
      expect(record.kind).toBe('event');
    }
    expect(seen).toBe(2501); // the late event is after the cursor, so it is streamed too
    let listed = 0;
    for await (const _ of store.list()) if (listed++ === 0) await store.recordActivity('u1', T0 + DAY, ctx);
    expect(listed).toBe(2501);
  });
});
