// Model-based test: arbitrary deliveries, activity reports, clock moves, config changes, replays and
// reopenings against a plain model (the accepted event log + reported activity, folded by the core);
// every at-risk page must equal selectAtRisk over the model's subscribers at the same instant.
import fc from 'fast-check';
import {
  DEFAULT_CONFIG,
  RISK_BANDS,
  SUBSCRIBER_STATES,
  compareIds,
  foldEventsByCustomer,
  recordActivity,
  resolveConfig,
  selectAtRisk,
  type AtRiskQuery,
  type HandledEvent,
  type Subscriber,
  type TenureConfig,
} from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { DAY, T0, customerArb, eventArb, tempDbPath } from './helpers.js';

/** Moves scores (active 55 instead of 10, a shorter grace) and bands, so stale rows would show. */
const OTHER_CONFIG = resolveConfig({
  bands: { critical: 75, high: 50 },
  risk: { inactivity_grace_days: 3, state_base: { ...DEFAULT_CONFIG.risk.state_base, active: 55 } },
});

interface Model {
  log: HandledEvent[];
  ids: Set<string>;
  activity: Map<string, number>;
  now: number;
  config: TenureConfig;
}

const subscribersOf = (m: Model): Subscriber[] => {
  const folded = foldEventsByCustomer(m.log);
  for (const [id, at] of m.activity) folded.set(id, recordActivity(folded.get(id)!, at));
  return [...folded.values()];
};

type Command =
  | { kind: 'apply'; event: HandledEvent }
  | { kind: 'applyMany'; events: HandledEvent[] }
  | { kind: 'activity'; customer: string; at: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'atRisk'; query: Omit<AtRiskQuery, 'after'>; pages: number }
  | { kind: 'refreshDue'; limit: number }
  | { kind: 'config'; other: boolean }
  | { kind: 'replay' }
  | { kind: 'reopen' };

const queryArb = fc.record(
  {
    limit: fc.integer({ min: 1, max: 12 }),
    min_score: fc.option(fc.constantFrom(0, 0, 15, 30, 50, 60, 75, 80, 95), { nil: undefined }),
    state: fc.option(fc.constantFrom(...SUBSCRIBER_STATES), { nil: undefined }),
    band: fc.option(fc.constantFrom(...RISK_BANDS), { nil: undefined }),
  },
  { requiredKeys: ['limit'] },
);

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: eventArb.map((event) => ({ kind: 'apply' as const, event })) },
  { weight: 2, arbitrary: fc.array(eventArb, { maxLength: 8 }).map((events) => ({ kind: 'applyMany' as const, events })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ customer: customerArb, days: fc.integer({ min: -5, max: 60 }) })
      .map(({ customer, days }) => ({ kind: 'activity' as const, customer, at: T0 + days * DAY })),
  },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 12 * DAY }).map((ms) => ({ kind: 'advance' as const, ms })) },
  { weight: 4, arbitrary: fc.record({ query: queryArb, pages: fc.integer({ min: 1, max: 4 }) }).map((c) => ({ kind: 'atRisk' as const, ...c })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((limit) => ({ kind: 'refreshDue' as const, limit })) },
  { weight: 1, arbitrary: fc.boolean().map((other) => ({ kind: 'config' as const, other })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'replay' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reopen' as const }) },
);

async function run(store: SqliteStore, m: Model, c: Command, reopen: () => Promise<SqliteStore>): Promise<SqliteStore> {
  const ctx = { now: m.now, config: m.config };
  switch (c.kind) {
    case 'apply': {
      const fresh = !m.ids.has(c.event.id);
      const outcome = await store.applyEvent(c.event, ctx);
      expect(outcome.status).toBe(fresh ? 'applied' : 'duplicate');
      if (fresh) {
        m.ids.add(c.event.id);
        m.log.push(c.event);
      }
      break;
    }
    case 'applyMany': {
      const expected = c.events.map((e) => {
        if (m.ids.has(e.id)) return 'duplicate';
        m.ids.add(e.id);
        m.log.push(e);
        return 'applied';
      });
      expect(await store.applyEvents(c.events, ctx)).toEqual(expected);
      break;
    }
    case 'activity': {
      const known = m.log.some((e) => e.app_user_id === c.customer);
      const result = await store.recordActivity(c.customer, c.at, ctx);
      expect(result === undefined).toBe(!known);
      if (known) m.activity.set(c.customer, Math.max(m.activity.get(c.customer) ?? c.at, c.at));
      break;
    }
    case 'advance':
      m.now += c.ms;
      break;
    case 'atRisk': {
      const all = subscribersOf(m);
      let after: AtRiskQuery['after'];
      for (let page = 0; page < c.pages; page++) {
        const query = { ...c.query, after } as AtRiskQuery;
        const got = await store.atRisk(query, ctx);
        const want = selectAtRisk(all, m.now, m.config, query);
        expect(got.next).toEqual(want.next);
        expect(
          got.items.map(({ customer_id, state, score, band, top, subscriber }) => ({ customer_id, state, score, band, top, subscriber })),
        ).toEqual(
          want.items.map((a) => ({
            customer_id: a.subscriber.customer_id,
            state: a.subscriber.state,
            score: a.risk.score,
            band: a.risk.band,
            top: a.recommendations[0] ?? null,
            subscriber: a.subscriber,
          })),
        );
        for (const item of got.items) expect(item.rescore_at === null || item.rescore_at > m.now).toBe(true);
        if (got.next === null) break;
        after = got.next;
      }
      break;
    }
    case 'refreshDue':
      expect(await store.refreshDue(ctx, c.limit)).toBeLessThanOrEqual(c.limit);
      break;
    case 'config':
      m.config = c.other ? OTHER_CONFIG : DEFAULT_CONFIG;
      break;
    case 'replay':
      expect(await store.replay(ctx)).toBe(new Set(m.log.map((e) => e.app_user_id)).size);
      break;
    case 'reopen':
      await store.close();
      return reopen();
  }
  return store;
}

describe('SQLite store against the model', () => {
  it('answers every at-risk page as selectAtRisk over the folded log, and keeps every subscriber and record', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 1, maxLength: 50, size: 'max' }), async (commands) => {
        const path = tempDbPath();
        const reopen = () => openSqliteStore({ path });
        let store = await reopen();
        const m: Model = { log: [], ids: new Set(), activity: new Map(), now: T0, config: DEFAULT_CONFIG };
        try {
          for (const c of commands) store = await run(store, m, c, reopen);
          const subscribers = subscribersOf(m);
          const listed: Subscriber[] = [];
          for await (const s of store.list()) listed.push(s);
          const byId = new Map(subscribers.map((s) => [s.customer_id, s]));
          expect(listed).toEqual(listed.map((s) => byId.get(s.customer_id)));
          expect(listed.length).toBe(subscribers.length);
          const ids = listed.map((s) => s.customer_id);
          expect(ids).toEqual([...ids].sort(compareIds)); // code point order
          expect(await store.count()).toBe(subscribers.length);
          expect(await store.eventCount()).toBe(m.log.length);
          for (const s of subscribers) expect(await store.get(s.customer_id)).toEqual(s);
          const records = [];
          for await (const r of store.records()) records.push(r);
          expect(records).toEqual([
            ...m.log.map((event) => ({ kind: 'event', event })),
            ...listed.filter((s) => m.activity.has(s.customer_id)).map((s) => ({ kind: 'activity', customer_id: s.customer_id, at: m.activity.get(s.customer_id) })),
          ]);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
