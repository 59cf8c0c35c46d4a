// Two stores on one schema, each with its own pool: two replicas of `tenure serve` behind a load
// balancer. Whatever reaches them, in whatever order and however often, the database ends with the
// in-order fold of the distinct events, each applied exactly once.
import fc from 'fast-check';
import { DEFAULT_CONFIG, foldByIdentity, foldEventsByCustomer, materializeAtRisk, transactionOccurrenceOf, type HandledEvent, type StoreContext, type Subscriber } from '@tenure/core';
import { DAY_MS, T0, buildEvent, byCustomerId, collect, eventOf, eventSpecArb, expectAtRiskPages, transferEvent } from '@tenure/store-contract';
import { afterEach, expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.js';
import { adminQuery, describePostgres, dropSchema, freshSchema, openTestStore } from './testDatabase.js';

const ctx: StoreContext = { now: T0 + 40 * DAY_MS, config: DEFAULT_CONFIG };

const opened: PostgresStore[] = [];
afterEach(async () => {
  const schemas = new Set(opened.map((s) => s.schema));
  await Promise.all(opened.splice(0).map((s) => s.close()));
  for (const schema of schemas) await dropSchema(schema);
});

/** Two replicas on one fresh schema, opened at the same moment. */
async function openReplicas(): Promise<[PostgresStore, PostgresStore]> {
  const schema = freshSchema('replicas');
  const pair = await Promise.all([openTestStore(schema), openTestStore(schema)]);
  opened.push(...pair);
  return pair;
}

/** A delivery plan: the events in some order, some of them twice, cut into chunks sent as concurrent calls or as one batch. */
const deliveryArb = (count: number) =>
  fc.record({
    order: fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count }),
    repeats: fc.array(fc.nat(count - 1), { maxLength: count }),
    chunks: fc.array(fc.record({ size: fc.integer({ min: 1, max: 12 }), batch: fc.boolean() }), { minLength: 1, maxLength: 20 }),
  });

/** Delivers `events` to `store` as planned; resolves with the status of every delivery, by event id. */
async function deliver(store: PostgresStore, events: HandledEvent[], plan: { order: number[]; repeats: number[]; chunks: { size: number; batch: boolean }[] }) {
  const sequence = [...plan.order, ...plan.repeats].map((i) => events[i]!);
  const statuses: [string, string][] = [];
  for (let at = 0, c = 0; at < sequence.length; c += 1) {
    const chunk = plan.chunks[c % plan.chunks.length]!;
    const part = sequence.slice(at, at + chunk.size);
    at += chunk.size;
    const results = chunk.batch
      ? await store.applyEvents(part, ctx)
      : (await Promise.all(part.map((e) => store.applyEvent(e, ctx)))).map((o) => o.status);
    part.forEach((e, i) => statuses.push([e.id, results[i]!]));
  }
  return statuses;
}

describePostgres('two replicas on one database', () => {
  it('apply the same events concurrently, duplicated and reordered, exactly once each: the result is the in-order fold', { timeout: 120_000 }, async () => {
    const historyArb = fc
      .uniqueArray(eventSpecArb, { minLength: 1, maxLength: 50, selector: (s) => s.id })
      .map((specs) => specs.map((s) => eventOf(s, T0 + 20 * DAY_MS)))
      // Distinct transactions too: a second event of one occurrence is a duplicate whatever its id.
      .map((events) => events.filter((e, i) => transactionOccurrenceOf(e) === undefined || events.findIndex((o) => transactionOccurrenceOf(o) === transactionOccurrenceOf(e)) === i));
    const runArb = historyArb.chain((events) => fc.tuple(fc.constant(events), deliveryArb(events.length), deliveryArb(events.length)));
    await fc.assert(
      fc.asyncProperty(runArb, async ([events, planA, planB]) => {
        const [a, b] = await openReplicas();
        const [fromA, fromB] = await Promise.all([deliver(a, events, planA), deliver(b, events, planB)]);

        const applied = new Map<string, number>();
        for (const [id, status] of [...fromA, ...fromB]) if (status === 'applied') applied.set(id, (applied.get(id) ?? 0) + 1);
        expect(events.map((e) => applied.get(e.id) ?? 0)).toEqual(events.map(() => 1));

        const expected = byCustomerId(foldByIdentity(events).values()); // events may name several ids of one person
        expect(await collect(a.list())).toEqual(expected);
        expect(await collect(b.list())).toEqual(expected);
        expect(await a.eventCount()).toBe(events.length);
        await expectAtRiskPages(b, expected, ctx, { limit: 7, min_score: 0 });
        // Totals and the revenue order, from the deltas both replicas' triggers appended.
        await expectAtRiskPages(a, expected, ctx, { sort: 'revenue', limit: 7, min_score: 0 });
        await Promise.all(opened.splice(0).map((s) => s.close()));
        await dropSchema(a.schema);
      }),
      { numRuns: 12 },
    );
  });

  it('never lose an update of one customer when both receive its events at once', { timeout: 60_000 }, async () => {
    const [a, b] = await openReplicas();
    // Two customers, one existing and one created by the race itself; distinct renewals split
    // between the replicas, sent in waves of concurrent calls and small batches.
    await a.applyEvent(eventOf({ type: 'INITIAL_PURCHASE', id: 'p_hot', customer: 'hot', offset: 0, fields: {} }, T0), ctx);
    const renewals = (customer: string) =>
      Array.from({ length: 120 }, (_, i) => eventOf({ type: 'RENEWAL', id: `r_${customer}_${i}`, customer, offset: i * 1000, fields: {} }, T0));
    const all = [...renewals('hot'), ...renewals('new')];
    const send = async (store: PostgresStore, events: HandledEvent[]) => {
      for (let i = 0; i < events.length; i += 12) {
        const wave = events.slice(i, i + 12);
        if ((i / 12) % 3 === 2) await store.applyEvents(wave, ctx);
        else await Promise.all(wave.map((e) => store.applyEvent(e, ctx)));
      }
    };
    await Promise.all([send(a, all.filter((_, i) => i % 2 === 0)), send(b, all.filter((_, i) => i % 2 === 1))]);
    expect((await a.get('hot'))?.renewals).toBe(120);
    expect((await b.get('new'))?.renewals).toBe(120);
    expect(await b.eventCount()).toBe(241);
  });

  it('refresh due rows on both replicas while events arrive, never writing a row that is stale for its record', { timeout: 60_000 }, async () => {
    const [a, b] = await openReplicas();
    const customers = Array.from({ length: 300 }, (_, i) => `c${i}`);
    const spec = (type: 'INITIAL_PURCHASE' | 'RENEWAL' | 'BILLING_ISSUE', id: string, customer: string, offset: number) =>
      eventOf({ type, id, customer, offset, fields: {} }, T0);
    await a.applyEvents(customers.map((c) => spec('INITIAL_PURCHASE', `p_${c}`, c, 0)), { now: T0, config: DEFAULT_CONFIG });
    const late = customers.flatMap((c, i) => (i % 3 === 0 ? [spec(i % 2 === 0 ? 'RENEWAL' : 'BILLING_ISSUE', `l_${c}`, c, DAY_MS)] : []));
    // Forty days on, every row is due; both replicas sweep and read while A applies new events.
    const sweeps = async (store: PostgresStore) => {
      for (let i = 0; i < 20; i++) await store.refreshDue(ctx, 40);
    };
    await Promise.all([sweeps(a), sweeps(b), b.atRisk({ limit: 20, min_score: 0 }, ctx), ...late.map((e) => a.applyEvent(e, ctx))]);

    const rows = await adminQuery<{ record: Subscriber; score: number; band: string; state: string; top_action: string | null; assessed_at: string; rescore_at: string | null }>(
      `SELECT record, score, band, state, top_action, assessed_at, rescore_at FROM "${a.schema}".subscribers`,
    );
    expect(rows).toHaveLength(customers.length);
    for (const row of rows) {
      const { row: fresh } = materializeAtRisk(row.record, Number(row.assessed_at), DEFAULT_CONFIG);
      expect({ score: row.score, band: row.band, state: row.state, top: row.top_action, rescore_at: row.rescore_at === null ? null : Number(row.rescore_at) }).toEqual({
        score: fresh.score,
        band: fresh.band,
        state: fresh.state,
        top: fresh.top?.action ?? null,
        rescore_at: fresh.rescore_at,
      });
    }
    const expected = [...foldEventsByCustomer([...customers.map((c) => spec('INITIAL_PURCHASE', `p_${c}`, c, 0)), ...late]).values()];
    await expectAtRiskPages(a, expected, ctx, { limit: 50, min_score: 0 });
    await expectAtRiskPages(b, expected, ctx, { limit: 50, min_score: 0 });
  });

  it('grant exactly one of many concurrent claims of one cooldown key across their pools', { timeout: 30_000 }, async () => {
    const [a, b] = await openReplicas();
    for (const key of ['u1|winback|email', '\u{1F600}|payment_update|chat', 'z<&>|winback|chat']) {
      const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).dispatchLog.claimCooldown(key, T0, DAY_MS)));
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
    // Expired: exactly one replica renews it.
    const renewals = await Promise.all([a, b, a, b].map((s) => s.dispatchLog.claimCooldown('u1|winback|email', T0 + DAY_MS, DAY_MS)));
    expect(renewals.filter(Boolean)).toHaveLength(1);
  });
});

describePostgres('transfers on two replicas', () => {
  it('one transfer delivered to both replicas at once applies once; events of the receiver arriving meanwhile are all kept', { timeout: 30_000 }, async () => {
    const [a, b] = await openReplicas();
    const sender = Array.from({ length: 5 }, (_, i) => buildEvent('RENEWAL', `s${i}`, 'anon', T0 + i * DAY_MS, { transaction_id: `s${i}` }));
    await a.applyEvents(sender, ctx);
    const receiver = Array.from({ length: 5 }, (_, i) => buildEvent('RENEWAL', `r${i}`, 'known', T0 + i * DAY_MS, { transaction_id: `r${i}` }));
    const transfer = transferEvent('tr_race', ['anon'], ['known']);
    const [first, second] = await Promise.all([
      a.applyTransfer(transfer, ctx),
      b.applyTransfer(transfer, ctx),
      ...receiver.map((e, i) => (i % 2 === 0 ? a : b).applyEvent(e, ctx)),
    ]);
    expect([first!.status, second!.status].sort()).toEqual(['applied', 'duplicate']);
    expect(await b.get('anon')).toBeUndefined();
    const stored = (await collect(a.records())).flatMap((r) => (r.kind === 'event' ? [r.event] : []));
    expect(stored.map((e) => e.app_user_id)).toEqual(stored.map(() => 'known'));
    expect(await a.get('known')).toEqual(foldEventsByCustomer(stored).get('known'));
    expect((await b.get('known'))?.renewals).toBe(10);
  });
});

describePostgres('one transaction on two replicas', () => {
  it('a late event of a subscription being transferred at the other replica lands on the receiver, whichever commits first', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = await openReplicas();
      const sender = [buildEvent('INITIAL_PURCHASE', 'lt_e1', 'old', T0, { original_transaction_id: 'otx_1', price: 9.99, expiration_at_ms: T0 + 30 * DAY_MS })];
      await a.applyEvents(sender, ctx);
      const late = buildEvent('RENEWAL', 'lt_e2', 'old', T0 + 30 * DAY_MS, { original_transaction_id: 'otx_1', price: 9.99, expiration_at_ms: T0 + 60 * DAY_MS });
      // The late event goes first or second by a hair; either way it ends on the receiver.
      const [, outcome] = await Promise.all([a.applyTransfer(transferEvent('lt_tr', ['old'], ['new']), ctx), b.applyEvent(late, ctx)]);
      expect(outcome.status).toBe('applied');
      expect(await b.get('old')).toBeUndefined();
      expect((await a.get('new'))?.renewals).toBe(1);
      expect(await a.count()).toBe(1);
    }
  });

  it('the import copy and the webhook copy of one renewal, at both replicas at once, count once', { timeout: 30_000 }, async () => {
    const [a, b] = await openReplicas();
    await a.applyEvent(buildEvent('INITIAL_PURCHASE', 'buy', 'alice', T0, { transaction_id: 't1' }), ctx);
    const copies = Array.from({ length: 8 }, (_, i) => buildEvent('RENEWAL', i % 2 === 0 ? `export:t2:RENEWAL:${i}` : `rc-${i}`, 'alice', T0 + 30 * DAY_MS, { transaction_id: 't2' }));
    const outcomes = await Promise.all(copies.map((e, i) => (i % 2 === 0 ? a.applyEvent(e, ctx) : b.applyEvents([e], ctx).then(([status]) => ({ status })))));
    expect(outcomes.filter((o) => o.status === 'applied')).toHaveLength(1);
    expect((await b.get('alice'))?.renewals).toBe(1);
    expect(await a.eventCount()).toBe(2);
  });
});
