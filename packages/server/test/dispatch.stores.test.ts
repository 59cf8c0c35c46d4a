// The dispatcher on each store's own dispatch log (memory, a SQLite file, PostgreSQL): alerts are
// sent and recorded, a repeat inside the cooldown is skipped, a failed send releases its mark, and
// customer ids that look like key separators never share a cooldown.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEvent, assessSubscriber, planDispatch, type Delivery, type HandledEvent, type SubscriberStore } from '@tenure/core';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../src/dispatch/dispatcher.js';
import { createRateLimiter } from '../src/dispatch/rateLimiter.js';
import { createMemoryEmailNotifier, fixedClock, NotifyError, openStore, type ChatNotifier, type StoreSpec } from '../src/index.js';
import { DAY, T0 } from './helpers/fixtures.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] || undefined;
if (TEST_DATABASE_URL === undefined) console.warn('[dispatch.stores] TEST_DATABASE_URL is not set: SKIPPING the PostgreSQL dispatch log (CI sets it)');

/** One churned customer's plan: winback, immediate → email + chat. */
function churnedPlan(customer: string): Delivery[] {
  const base = { app_user_id: customer, event_timestamp_ms: T0 } as const;
  let s = applyEvent(undefined, { ...base, type: 'INITIAL_PURCHASE', id: `${customer}-1` } as HandledEvent);
  s = applyEvent(s, { ...base, type: 'EXPIRATION', id: `${customer}-2`, event_timestamp_ms: T0 + 1 } as HandledEvent);
  return planDispatch([assessSubscriber(s, T0)]);
}

const dir = mkdtempSync(join(tmpdir(), 'tenure-dispatch-stores-'));
const schema = `tenure_dispatch_${randomBytes(5).toString('hex')}`;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (TEST_DATABASE_URL === undefined) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const stores: [string, () => StoreSpec, boolean][] = [
  ['memory', () => ({ kind: 'memory' }), true],
  ['sqlite', () => ({ kind: 'sqlite', path: join(dir, 'tenure.db') }), true],
  ['postgres', () => ({ kind: 'postgres', url: TEST_DATABASE_URL ?? '', schema }), TEST_DATABASE_URL !== undefined],
];

describe.each(stores)('the dispatcher on the %s store’s dispatch log', (_name, spec, enabled) => {
  it.runIf(enabled)('sends once, skips inside the cooldown, retries after a failure, and keeps look-alike ids apart', async () => {
    const store: SubscriberStore = await openStore(spec());
    try {
      const email = createMemoryEmailNotifier();
      const chatSends: string[] = [];
      let failChat = true;
      const chat: ChatNotifier = {
        channel: 'chat',
        async send(alert) {
          if (failChat) throw new NotifyError('Slack answered 400', { retryable: false });
          chatSends.push(alert.customer_id);
        },
      };
      const clock = fixedClock(T0);
      const dispatcher = createDispatcher({
        notifiers: [email, chat],
        log: store.dispatchLog,
        clock,
        logger: pino({ level: 'silent' }),
        limiter: createRateLimiter({ perSecond: 0 }),
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
        cooldownMs: DAY,
        sleep: async () => {},
        serviceName: 'tenure',
      });
      // Ids that would collide if keys were joined naively: "a|winback" + "email" vs "a" + "winback|email".
      const ids = ['a', 'a|winback', 'winback|a', 'ünï 😀'];
      const plan = ids.flatMap(churnedPlan);

      const first = await dispatcher.run(plan, 'batch');
      expect(first.channels.email).toMatchObject({ sent: 4, failed: 0 });
      expect(first.channels.chat).toMatchObject({ sent: 0, failed: 4 });

      failChat = false;
      const second = await dispatcher.run(plan, 'batch');
      expect(second.channels.email).toMatchObject({ sent: 0, skipped_cooldown: 4 });
      expect(second.channels.chat).toMatchObject({ sent: 4, skipped_cooldown: 0 }); // the failures released their marks
      expect(email.sent.map((m) => m.alert.customer_id).sort()).toEqual([...ids].sort());
      expect(chatSends.sort()).toEqual([...ids].sort());

      clock.set(T0 + DAY); // the cooldown is over
      const third = await dispatcher.run(churnedPlan('a'), 'batch');
      expect(third.outcomes).toMatchObject({ sent: 2, skipped_cooldown: 0 });

      const log = (await store.dispatchLog.list({ limit: 100 })).items;
      expect(log).toHaveLength(8 + 8 + 2);
      expect(log.map((r) => r.id)).toEqual([...log.map((r) => r.id)].sort((x, y) => y - x));
      expect(log.filter((r) => r.outcome === 'failed').map((r) => r.error)).toEqual(Array(4).fill('Slack answered 400'));
    } finally {
      await store.close();
    }
  }, 20_000);
});
