/**
 * The contract of the store's dispatch log: append-only records paged newest first, deliveries
 * (their records, the unfinished ones a restart sends), and atomic cooldown marks.
 */
import type { DispatchEntry, DispatchRecord } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { DAY_MS, T0 } from './storeFixtures.js';

const entry = (i: number): DispatchEntry => ({
  at: T0 + i,
  customer_id: i % 2 === 0 ? `user_${i}` : `\u{1F600}_émile_${i}`,
  action: i % 3 === 0 ? 'winback' : 'payment_update',
  urgency: 'immediate',
  risk_score: 80 + (i % 20),
  channel: i % 2 === 0 ? 'email' : 'chat',
  outcome: i % 4 === 0 ? 'failed' : 'sent',
  attempt: 1 + (i % 3),
  error: i % 4 === 0 ? `timeout «${i}»` : null,
  trigger: i % 2 === 0 ? 'batch' : 'webhook',
});

/** Registers the dispatch log tests. */
export function describeDispatchLogContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('dispatchLog', () => {
    it('appends records with increasing ids and returns them as stored', { timeout }, () =>
      withStore(factory, async (store) => {
        const appended: DispatchRecord[] = [];
        for (let i = 0; i < 5; i++) appended.push(await store.dispatchLog.append(entry(i)));
        appended.forEach((record, i) => expect(record).toEqual({ id: record.id, ...entry(i), delivery_id: record.id, target: null, detail: null, actor: null }));
        for (let i = 1; i < appended.length; i++) expect(appended[i]!.id).toBeGreaterThan(appended[i - 1]!.id);
        expect((await store.dispatchLog.list({ limit: 10 })).items).toEqual([...appended].reverse());
      }),
    );

    it('pages newest first with `before`, ending with a null cursor', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.dispatchLog.list({ limit: 3 })).toEqual({ items: [], next_cursor: null });
        const ids: number[] = [];
        for (let i = 0; i < 7; i++) ids.push((await store.dispatchLog.append(entry(i))).id);
        const newestFirst = [...ids].reverse();
        const seen: number[] = [];
        let before: number | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await store.dispatchLog.list(before === undefined ? { limit: 3 } : { limit: 3, before });
          seen.push(...page.items.map((r) => r.id));
          if (page.next_cursor === null) break;
          expect(page.next_cursor).toBe(page.items.at(-1)?.id);
          before = page.next_cursor;
        }
        expect(seen).toEqual(newestFirst);
        expect((await store.dispatchLog.list({ limit: 7 })).next_cursor).toBeNull();
        expect((await store.dispatchLog.list({ limit: 2, before: ids[3]! })).items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      }),
    );

    it("lists one customer's records newest first with `before`, and only those at or after `since`", { timeout }, () =>
      withStore(factory, async (store) => {
        const appended: DispatchRecord[] = [];
        for (let i = 0; i < 12; i++) appended.push(await store.dispatchLog.append(entry(i)));
        const customer = entry(4).customer_id; // user_4: the even entries are each their own customer, so add more of it
        for (let i = 0; i < 5; i++) appended.push(await store.dispatchLog.append({ ...entry(20 + i), customer_id: customer }));
        const mine = appended.filter((r) => r.customer_id === customer).reverse();
        const seen: DispatchRecord[] = [];
        let before: number | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await store.dispatchLog.list({ limit: 2, customer_id: customer, before });
          seen.push(...page.items);
          if (page.next_cursor === null) break;
          before = page.next_cursor;
        }
        expect(seen).toEqual(mine);
        expect((await store.dispatchLog.list({ limit: 10, customer_id: 'nobody' })).items).toEqual([]);
        const since = T0 + 6;
        expect((await store.dispatchLog.list({ limit: 100, since })).items).toEqual(appended.filter((r) => r.at >= since).reverse());
        expect((await store.dispatchLog.list({ limit: 100, since: T0 + 21, customer_id: customer })).items).toEqual(mine.filter((r) => r.at >= T0 + 21));
      }),
    );

    it('tallies the records at or after an instant per channel and outcome', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.dispatchLog.tally(T0)).toEqual([]);
        const appended: DispatchRecord[] = [];
        for (let i = 0; i < 16; i++) appended.push(await store.dispatchLog.append(entry(i)));
        const since = T0 + 5;
        const expected = new Map<string, number>();
        for (const r of appended) if (r.at >= since) expected.set(`${r.channel}|${r.outcome}`, (expected.get(`${r.channel}|${r.outcome}`) ?? 0) + 1);
        const tally = await store.dispatchLog.tally(since);
        expect(new Map(tally.map((t) => [`${t.channel}|${t.outcome}`, t.count]))).toEqual(expected);
        expect(tally).toHaveLength(expected.size);
      }),
    );

    it('keeps the delivery, target, detail and actor of each record; an omitted delivery_id starts a delivery', { timeout }, () =>
      withStore(factory, async (store) => {
        const log = store.dispatchLog;
        const body = JSON.stringify({ type: 'recommendation.dispatched', data: { customer_id: '\u{1F600}_émile', note: 'a "quoted" line\nand\ttab' } });
        const first = await log.append({ ...entry(0), channel: 'webhook', outcome: 'pending', attempt: 0, error: null, target: 'crm', detail: body });
        expect(first).toEqual({ ...entry(0), id: first.id, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, delivery_id: first.id, target: 'crm', detail: body, actor: null });
        const other = await log.append({ ...entry(1), channel: 'offer', outcome: 'sent', attempt: 1, error: null, trigger: 'manual', target: 'pro', detail: '{"duration":"P7D"}', actor: 'ops@example.com' });
        const retry = await log.append({ ...entry(2), channel: 'webhook', outcome: 'retrying', attempt: 1, error: 'HTTP 503', delivery_id: first.id, target: 'crm', detail: body });
        const manual = await log.append({ ...entry(3), channel: 'webhook', outcome: 'sent', attempt: 2, error: null, trigger: 'manual', actor: 'dashboard', delivery_id: first.id, target: 'crm', detail: body });
        const auto = await log.append({ ...entry(4), channel: 'offer', trigger: 'auto', delivery_id: null });
        expect(other.delivery_id).toBe(other.id);
        expect(retry).toMatchObject({ delivery_id: first.id, target: 'crm', detail: body, actor: null });
        expect(auto).toMatchObject({ delivery_id: null, target: null, detail: null, actor: null, trigger: 'auto', channel: 'offer' });
        expect((await log.list({ limit: 10 })).items).toEqual([auto, manual, retry, other, first]);
        expect(await log.delivery(first.id)).toEqual([first, retry, manual]);
        expect(await log.delivery(other.id)).toEqual([other]);
        expect(await log.delivery(auto.id)).toEqual([]);
        expect(await log.delivery(987_654_321)).toEqual([]);
        const tally = new Map((await log.tally(T0)).map((t) => [`${t.channel}|${t.outcome}`, t.count]));
        expect(tally).toEqual(new Map([['webhook|pending', 1], ['webhook|retrying', 1], ['webhook|sent', 1], ['offer|sent', 1], [`offer|${entry(4).outcome}`, 1]]));
      }),
    );

    it('lists as unfinished the newest record of each delivery left pending or retrying, oldest delivery first', { timeout }, () =>
      withStore(factory, async (store) => {
        const log = store.dispatchLog;
        expect(await log.unfinished(10)).toEqual([]);
        const at = (n: number, outcome: DispatchRecord['outcome'], delivery_id?: number | null): DispatchEntry => ({
          ...entry(n),
          channel: 'webhook',
          outcome,
          attempt: outcome === 'pending' ? 0 : n,
          error: outcome === 'sent' || outcome === 'pending' ? null : `HTTP 50${n % 10}`,
          target: `endpoint_${n % 3}`,
          ...(delivery_id === undefined ? {} : { delivery_id }),
        });
        const a = await log.append(at(0, 'pending')); // then sent: finished
        const b = await log.append(at(1, 'pending')); // left pending
        const c = await log.append(at(2, 'pending')); // then retrying: unfinished at its retry
        const d = await log.append(at(3, 'pending')); // retrying, then failed: finished
        await log.append(at(4, 'sent', a.id));
        const cRetry = await log.append(at(5, 'retrying', c.id));
        await log.append(at(6, 'retrying', d.id));
        const e = await log.append(at(7, 'retrying')); // an email-style first attempt that failed and will be retried
        await log.append(at(8, 'failed', d.id));
        await log.append(at(9, 'pending', null)); // no delivery: never unfinished
        const f = await log.append(at(10, 'sent')); // finished at once
        expect(await log.unfinished(10)).toEqual([b, cRetry, e]);
        expect(await log.unfinished(2)).toEqual([b, cRetry]);
        expect(await log.unfinished(0)).toEqual([]);
        await log.append(at(11, 'sent', b.id));
        await log.append(at(12, 'pending', f.id)); // a resend of a finished delivery reopens it
        const reopened = (await log.delivery(f.id)).at(-1)!;
        expect(await log.unfinished(10)).toEqual([cRetry, e, reopened]);
      }),
    );

    it('claims a cooldown once until it expires, and again after a release', { timeout }, () =>
      withStore(factory, async (store) => {
        const log = store.dispatchLog;
        expect(await log.claimCooldown('u1|winback|email', T0, DAY_MS)).toBe(true);
        expect(await log.claimCooldown('u1|winback|email', T0, DAY_MS)).toBe(false);
        expect(await log.claimCooldown('u1|winback|email', T0 + DAY_MS - 1, DAY_MS)).toBe(false);
        expect(await log.claimCooldown('u1|winback|chat', T0, DAY_MS)).toBe(true);
        expect(await log.claimCooldown('u1|winback|email', T0 + DAY_MS, DAY_MS)).toBe(true);
        await log.releaseCooldown('u1|winback|email');
        expect(await log.claimCooldown('u1|winback|email', T0 + DAY_MS, DAY_MS)).toBe(true);
        await log.releaseCooldown('never-claimed');
      }),
    );

    it('grants exactly one of many concurrent claims of one key', { timeout }, () =>
      withStore(factory, async (store) => {
        const claims = await Promise.all(Array.from({ length: 20 }, () => store.dispatchLog.claimCooldown('\u{1F600}|winback|chat', T0, DAY_MS)));
        expect(claims.filter(Boolean)).toHaveLength(1);
      }),
    );
  });
}
