import { assessSubscriber, planDispatch, applyEvent, type Delivery, type HandledEvent } from '@tenure/core';
import { pino } from 'pino';
import { DAY, T0 } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../clock/clock.js';
import { createMemoryChatNotifier, createMemoryEmailNotifier, NotifyError, type ChatNotifier, type Notifier } from '../notify/notifier.js';
import { createDispatcher, type DispatcherDeps } from './dispatcher.js';
import { createMemoryDispatchLog } from './dispatchLog.js';
import { createRateLimiter } from './rateLimiter.js';

/** The plan for one churned customer: winback, immediate → email + chat. */
function churnedPlan(customer = 'u1'): Delivery[] {
  const base = { app_user_id: customer, event_timestamp_ms: T0 } as const;
  let s = applyEvent(undefined, { ...base, type: 'INITIAL_PURCHASE', id: `${customer}-1` } as HandledEvent);
  s = applyEvent(s, { ...base, type: 'EXPIRATION', id: `${customer}-2`, event_timestamp_ms: T0 + 1 } as HandledEvent);
  return planDispatch([assessSubscriber(s, T0)]);
}

function setup(notifiers: Notifier[], options: { attempts?: number; extra?: Partial<DispatcherDeps> } = {}) {
  const sleeps: number[] = [];
  const clock = fixedClock(T0);
  const log = createMemoryDispatchLog();
  const dispatcher = createDispatcher({
    notifiers,
    log,
    clock,
    logger: pino({ level: 'silent' }),
    limiter: createRateLimiter({ perSecond: 0 }),
    retry: { attempts: options.attempts ?? 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
    cooldownMs: DAY,
    sleep: async (ms) => void sleeps.push(ms),
    serviceName: 'tenure',
    ...options.extra,
  });
  const entries = async () => (await log.list({ limit: 100 })).items.reverse();
  return { dispatcher, sleeps, clock, entries };
}

const failingChat = (errors: unknown[]): ChatNotifier & { calls: number } => {
  const notifier = {
    channel: 'chat' as const,
    calls: 0,
    async send() {
      const error = errors[notifier.calls++];
      if (error !== undefined) throw error;
    },
  };
  return notifier;
};

describe('createDispatcher', () => {
  it('sends an immediate alert by email and chat and records one "sent" attempt each', async () => {
    const email = createMemoryEmailNotifier();
    const chat = createMemoryChatNotifier();
    const { dispatcher, entries } = setup([email, chat]);
    const summary = await dispatcher.run(churnedPlan(), 'batch');
    expect(summary).toMatchObject({ subscribers: 1, deliveries: 2, outcomes: { sent: 2 }, channels: { email: { sent: 1 }, chat: { sent: 1 } } });
    expect(email.sent[0]!.message.subject).toContain('u1');
    expect(chat.sent[0]!.message.blocks.length).toBeGreaterThan(0);
    expect((await entries()).map((e) => [e.channel, e.outcome, e.attempt])).toEqual(expect.arrayContaining([['email', 'sent', 1], ['chat', 'sent', 1]]));
  });

  it('retries retryable failures with exponential backoff, recording every attempt', async () => {
    const chat = failingChat([new NotifyError('HTTP 503', { retryable: true }), new Error('ECONNRESET')]);
    const { dispatcher, sleeps, entries } = setup([createMemoryEmailNotifier(), chat]);
    const summary = await dispatcher.run(churnedPlan(), 'batch');
    expect(summary.channels.chat).toMatchObject({ sent: 1, retrying: 0, failed: 0 });
    expect(sleeps).toEqual([1000, 2000]);
    const chatEntries = (await entries()).filter((e) => e.channel === 'chat');
    expect(chatEntries.map((e) => [e.outcome, e.attempt, e.error])).toEqual([
      ['retrying', 1, 'HTTP 503'],
      ['retrying', 2, 'ECONNRESET'],
      ['sent', 3, null],
    ]);
  });

  it("waits at least a receiver's Retry-After before the next attempt (capped at 5 minutes)", async () => {
    const chat = failingChat([
      new NotifyError('HTTP 429', { retryable: true, retryAfterMs: 7000 }),
      new NotifyError('HTTP 429', { retryable: true, retryAfterMs: 3_600_000 }),
    ]);
    const { dispatcher, sleeps } = setup([chat]);
    const summary = await dispatcher.run(churnedPlan(), 'batch');
    expect(summary.channels.chat).toMatchObject({ sent: 1 });
    expect(sleeps).toEqual([7000, 300_000]);
  });

  it('gives up after the last attempt, and does not retry a non-retryable failure', async () => {
    const retryable = new NotifyError('HTTP 500', { retryable: true });
    const chat = failingChat([retryable, retryable, retryable]);
    const a = setup([chat]);
    expect((await a.dispatcher.run(churnedPlan(), 'batch')).channels.chat.failed).toBe(1);
    expect(chat.calls).toBe(3);

    const rejecting = failingChat([new NotifyError('HTTP 400', { retryable: false })]);
    const b = setup([rejecting]);
    expect((await b.dispatcher.run(churnedPlan(), 'batch')).channels.chat.failed).toBe(1);
    expect(rejecting.calls).toBe(1);
    expect(b.sleeps).toEqual([]);
  });

  it('releases the cooldown of a failed delivery, so a later pass tries again', async () => {
    const chat = failingChat([new NotifyError('HTTP 400', { retryable: false })]);
    const { dispatcher } = setup([chat]);
    await dispatcher.run(churnedPlan(), 'batch');
    expect((await dispatcher.run(churnedPlan(), 'batch')).channels.chat.sent).toBe(1);
  });

  it('keeps a person\'s cooldowns when it is named by another id later (an anonymous id identified)', async () => {
    const email = createMemoryEmailNotifier();
    const { dispatcher } = setup([email]);
    const anonymous = '$RCAnonymousID:0123456789abcdef0123456789abcdef';
    const events = (name: string, from: number) =>
      [
        { type: 'INITIAL_PURCHASE', id: `p-${from}`, app_user_id: name, original_app_user_id: anonymous, event_timestamp_ms: T0 + from },
        { type: 'EXPIRATION', id: `e-${from}`, app_user_id: name, original_app_user_id: anonymous, event_timestamp_ms: T0 + from + 1 },
      ] as HandledEvent[];
    const before = events(anonymous, 0).reduce(applyEvent, undefined as never);
    const after = events('user_9', 10).reduce(applyEvent, before);
    expect(after.customer_id).toBe('user_9');
    expect((await dispatcher.run(planDispatch([assessSubscriber(before, T0)]), 'batch')).channels.email.sent).toBe(1);
    expect((await dispatcher.run(planDispatch([assessSubscriber(after, T0 + 20)]), 'batch')).channels.email.skipped_cooldown).toBe(1);
    // Another person is not held back by it.
    expect((await dispatcher.run(churnedPlan('u2'), 'batch')).channels.email.sent).toBe(1);
  });

  it('skips the same subscriber, action and channel within the cooldown, and sends again after it', async () => {
    const email = createMemoryEmailNotifier();
    const { dispatcher, clock } = setup([email]);
    await dispatcher.run(churnedPlan(), 'batch');
    expect((await dispatcher.run(churnedPlan(), 'batch')).channels.email.skipped_cooldown).toBe(1);
    clock.set(T0 + DAY);
    expect((await dispatcher.run(churnedPlan(), 'batch')).channels.email.sent).toBe(1);
    expect(email.sent).toHaveLength(2);
  });

  it('takes the cooldown of each urgency and channel from cooldownsMs, the others from cooldownMs', async () => {
    const email = createMemoryEmailNotifier();
    const chat = createMemoryChatNotifier();
    const { dispatcher, clock } = setup([email, chat], { extra: { cooldownsMs: { immediate: { chat: 3_600_000 } } } });
    await dispatcher.run(churnedPlan(), 'batch'); // winback: immediate, email and chat
    clock.set(T0 + 3_600_000); // chat's hour is over, email's day is not
    const summary = await dispatcher.run(churnedPlan(), 'batch');
    expect(summary.channels.chat.sent).toBe(1);
    expect(summary.channels.email.skipped_cooldown).toBe(1);
    expect([email.sent.length, chat.sent.length]).toEqual([1, 2]);
  });

  it('says the churn probability in both messages when given a calibration, and nothing without one', async () => {
    const calibration = { horizon_ms: 30 * DAY, samples: 100, positives: 40, probabilities: Array.from({ length: 101 }, (_, s) => (s >= 90 ? 0.62 : 0.1)) };
    const email = createMemoryEmailNotifier();
    const chat = createMemoryChatNotifier();
    await setup([email, chat], { extra: { calibration } }).dispatcher.run(churnedPlan(), 'batch');
    expect(email.sent[0]!.message.text).toContain('Churn probability: about 62 % chance of churning within 30 days');
    expect(chat.sent[0]!.message.text).toContain('(score 100 · about 62 % chance of churning within 30 days)');
    const plain = createMemoryEmailNotifier();
    await setup([plain]).dispatcher.run(churnedPlan(), 'batch');
    expect(plain.sent[0]!.message.text).not.toContain('churning');
  });

  it('records cooldown skips of a batch pass but not of a repeated webhook trigger', async () => {
    const { dispatcher, entries } = setup([createMemoryEmailNotifier(), createMemoryChatNotifier()]);
    await dispatcher.run(churnedPlan(), 'webhook');
    expect((await dispatcher.run(churnedPlan(), 'webhook')).outcomes.skipped_cooldown).toBe(2);
    expect((await entries()).map((e) => e.outcome)).toEqual(['sent', 'sent']);
    await dispatcher.run(churnedPlan(), 'batch');
    expect((await entries()).map((e) => e.outcome)).toEqual(['sent', 'sent', 'skipped_cooldown', 'skipped_cooldown']);
  });

  it('says whether it can send at all', () => {
    expect(setup([]).dispatcher.canSend).toBe(false);
    expect(setup([createMemoryEmailNotifier()]).dispatcher.canSend).toBe(true);
  });

  it('records a channel without a notifier as skipped_no_notifier', async () => {
    const { dispatcher } = setup([createMemoryEmailNotifier()]);
    const summary = await dispatcher.run(churnedPlan(), 'batch');
    expect(summary.channels.chat.skipped_no_notifier).toBe(1);
    expect(summary.channels.email.sent).toBe(1);
  });

  it('never lets a hanging channel block the other one', async () => {
    let release!: () => void;
    const hanging: ChatNotifier = { channel: 'chat', send: () => new Promise<void>((resolve) => (release = resolve)) };
    const email = createMemoryEmailNotifier();
    const { dispatcher } = setup([email, hanging]);
    const run = dispatcher.run(churnedPlan(), 'batch');
    await new Promise((r) => setTimeout(r, 20));
    expect(email.sent).toHaveLength(1);
    release();
    expect((await run).outcomes.sent).toBe(2);
  });

  it('idle() waits for in-flight dispatches', async () => {
    let release!: () => void;
    const hanging: ChatNotifier = { channel: 'chat', send: () => new Promise<void>((resolve) => (release = resolve)) };
    const { dispatcher } = setup([hanging]);
    void dispatcher.run(churnedPlan(), 'webhook');
    let idle = false;
    const waiting = dispatcher.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(idle).toBe(true);
  });
});
