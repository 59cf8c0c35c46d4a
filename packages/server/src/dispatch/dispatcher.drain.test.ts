import { applyEvent, assessSubscriber, planDispatch, type Delivery, type HandledEvent } from '@tenure/core';
import { DAY, T0 } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { createMemoryEmailNotifier, type ChatNotifier } from '../notify/notifier.js';
import { createDispatcher, SHUTDOWN_ERROR } from './dispatcher.js';
import { createMemoryDispatchLog } from './dispatchLog.js';
import { createRateLimiter } from './rateLimiter.js';

/** The plan for one churned customer: winback, immediate → email + chat. */
function churnedPlan(customer: string): Delivery[] {
  const base = { app_user_id: customer, event_timestamp_ms: T0 } as const;
  let s = applyEvent(undefined, { ...base, type: 'INITIAL_PURCHASE', id: `${customer}-1` } as HandledEvent);
  s = applyEvent(s, { ...base, type: 'EXPIRATION', id: `${customer}-2`, event_timestamp_ms: T0 + 1 } as HandledEvent);
  return planDispatch([assessSubscriber(s, T0)]);
}

/** A logger that keeps its warn lines. */
function warnLogger() {
  const warns: Record<string, unknown>[] = [];
  const logger = {
    warn: (fields: Record<string, unknown>) => void warns.push(fields),
    info: () => {},
    error: () => {},
    debug: () => {},
    child: () => logger,
    isLevelEnabled: () => false,
  } as unknown as Logger;
  return { logger, warns };
}

describe('dispatcher.drain', () => {
  it('resolves once every delivery is done when nothing is stuck', async () => {
    const log = createMemoryDispatchLog();
    const email = createMemoryEmailNotifier();
    const { logger } = warnLogger();
    const dispatcher = createDispatcher({
      notifiers: [email], log, clock: fixedClock(T0), logger, limiter: createRateLimiter({ perSecond: 0 }),
      retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 }, cooldownMs: DAY, sleep: async () => {}, serviceName: 'tenure',
    });
    const run = dispatcher.run(churnedPlan('u1'), 'batch');
    await dispatcher.drain(AbortSignal.timeout(5000));
    expect((await run).outcomes.sent).toBe(1);
  });

  it('at the bound, records each unsent alert as failed with the shutdown error, releases its cooldown and warns', async () => {
    const log = createMemoryDispatchLog();
    const { logger, warns } = warnLogger();
    const stuckChat: ChatNotifier = { channel: 'chat', send: () => new Promise(() => {}) }; // Slack never answers
    const email = createMemoryEmailNotifier();
    const dispatcher = createDispatcher({
      notifiers: [stuckChat, email], log, clock: fixedClock(T0), logger,
      // One message per second per channel: the second customer's alert waits for its slot.
      limiter: createRateLimiter({ perSecond: 1 }),
      retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 }, cooldownMs: DAY, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), serviceName: 'tenure',
    });
    const run = dispatcher.run([...churnedPlan('a'), ...churnedPlan('b')], 'webhook');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await dispatcher.drain(controller.signal);
    expect(performance.now() - started).toBeLessThan(1000); // not the rate limit's second, not Slack's never
    const summary = await run;
    expect(summary.channels.chat.failed).toBe(2); // a: in flight to Slack; b: waiting for its slot
    const records = (await log.list({ limit: 100 })).items.filter((r) => r.error === SHUTDOWN_ERROR);
    // a's email went out at once; b's email waited for the email channel's slot too.
    expect(records.map((r) => [r.customer_id, r.channel, r.outcome]).sort()).toEqual([
      ['a', 'chat', 'failed'],
      ['b', 'chat', 'failed'],
      ['b', 'email', 'failed'],
    ]);
    expect(email.sent.map((m) => m.alert.customer_id)).toEqual(['a']);
    expect(warns.map((w) => `${String(w['customer_id'])}|${String(w['action'])}|${String(w['channel'])}`).sort()).toEqual(['a|winback|chat', 'b|winback|chat', 'b|winback|email']);
    // The cooldowns are released: the next pass may claim them again.
    for (const c of ['a', 'b']) expect(await log.claimCooldown(`chat|winback|${c}`, T0, DAY)).toBe(true);
    // A delivery asked for after the stop is dropped the same way, at once.
    const late = await dispatcher.run(churnedPlan('c').filter((d) => d.channel === 'chat'), 'webhook');
    expect(late.outcomes.failed).toBe(1);
  });
});
