// The webhook channel through the dispatcher, against a real receiver on 127.0.0.1 verifying every
// request with the `standardwebhooks` package: durable deliveries (pending with the body first),
// one webhook-id per delivery across retries, resends and restarts, refusals final with their answer.
import { applyEvent, assessSubscriber, planDispatch, type Delivery, type HandledEvent } from '@tenure/core';
import { DAY, T0 } from '@tenure/testkit';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWebhookReceiver, type ReceiverAnswer, type ReceivedRequest } from '../../test/helpers/webhookReceiver.js';
import { fixedClock } from '../clock/clock.js';
import { createAlertWebhookNotifier } from '../notify/alertWebhookNotifier.js';
import { createMemoryEmailNotifier } from '../notify/notifier.js';
import { createDispatcher, type DispatcherDeps } from './dispatcher.js';
import { createMemoryDispatchLog, type DispatchLog } from './dispatchLog.js';
import { createRateLimiter } from './rateLimiter.js';

const SECRET = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;

type Received = ReceivedRequest;

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

/** A real receiver answering the given statuses in turn (then 200). */
async function startReceiver(answers: ReceiverAnswer[] = []) {
  const receiver = await startWebhookReceiver(answers);
  closers.push(receiver.close);
  return receiver;
}

const verify = (r: Received) => new Webhook(SECRET).verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };

/** The plan for one churned customer (winback, immediate) with the given endpoints. */
function churnedPlan(customer: string, webhooks: { name: string; urgencies: ('immediate' | 'soon' | 'monitor')[] }[], originalId?: string): Delivery[] {
  const base = { app_user_id: customer, event_timestamp_ms: T0, ...(originalId === undefined ? {} : { original_app_user_id: originalId }) } as const;
  let s = applyEvent(undefined, { ...base, type: 'INITIAL_PURCHASE', id: `${customer}-1` } as HandledEvent);
  s = applyEvent(s, { ...base, type: 'EXPIRATION', id: `${customer}-2`, event_timestamp_ms: T0 + 1 } as HandledEvent);
  return planDispatch([assessSubscriber(s, T0)], { webhooks });
}

function setup(hooks: DispatcherDeps['webhooks'], log: DispatchLog = createMemoryDispatchLog(), extra: Partial<DispatcherDeps> = {}) {
  const sleeps: number[] = [];
  const outcomes: string[] = [];
  const dispatcher = createDispatcher({
    notifiers: [],
    webhooks: hooks,
    log,
    clock: fixedClock(T0),
    logger: pino({ level: 'silent' }),
    limiter: createRateLimiter({ perSecond: 0 }),
    retry: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 30_000 },
    cooldownMs: DAY,
    sleep: async (ms) => void sleeps.push(ms),
    serviceName: 'tenure',
    onOutcome: (channel, outcome) => void outcomes.push(`${channel}:${outcome}`),
    ...extra,
  });
  const entries = async () => (await log.list({ limit: 100 })).items.reverse();
  return { dispatcher, sleeps, entries, outcomes, log };
}

describe('the webhook channel in the dispatcher', () => {
  it('records pending with the exact body, then sends it signed; a 503 and a 429 are retried under one webhook-id, honouring Retry-After', async () => {
    const receiver = await startReceiver([{ status: 503 }, { status: 429, headers: { 'retry-after': '7' } }]);
    const hook = createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET });
    const { dispatcher, entries, sleeps, outcomes } = setup([hook]);
    expect(dispatcher.canSend).toBe(true); // the webhook alone is a channel: auto-dispatch runs
    const summary = await dispatcher.run(churnedPlan('u1', [{ name: 'crm', urgencies: ['immediate'] }]), 'webhook');
    expect(summary.channels.webhook.sent).toBe(1);
    expect(outcomes.sort()).toEqual(['chat:skipped_no_notifier', 'email:skipped_no_notifier', 'webhook:sent']);
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const log = (await entries()).filter((e) => e.channel === 'webhook');
    expect(log.map((e) => [e.outcome, e.attempt, e.target])).toEqual([['pending', 0, 'crm'], ['retrying', 1, 'crm'], ['retrying', 2, 'crm'], ['sent', 3, 'crm']]);
    expect(new Set(log.map((e) => e.delivery_id))).toEqual(new Set([log[0]!.id]));
    for (const r of receiver.received) {
      expect(r.body).toBe(log[0]!.detail); // byte for byte the stored body
      const event = verify(r);
      expect(event.type).toBe('recommendation.dispatched');
      expect(event.data['customer_id']).toBe('u1');
      expect([...ids][0]).toBe(`msg_tenure_${String(event.data['dispatch_id'])}`);
    }
    expect(sleeps).toEqual([1000, 7000]);
  });

  it('takes a 4xx other than 408/429 as final: not retried, recorded failed with the answer, the cooldown released', async () => {
    const receiver = await startReceiver([{ status: 410, body: 'endpoint retired' }]);
    const hook = createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET });
    const { dispatcher, entries } = setup([hook]);
    const plan = churnedPlan('u2', [{ name: 'crm', urgencies: ['immediate'] }]);
    expect((await dispatcher.run(plan, 'batch')).outcomes.failed).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const failed = (await entries()).at(-1)!;
    expect(failed).toMatchObject({ outcome: 'failed', attempt: 1, target: 'crm' });
    expect(JSON.parse(failed.detail!)).toEqual({ status: 410, body: 'endpoint retired' });
    // Released: the next pass sends again (a new delivery, a new webhook-id).
    expect((await dispatcher.run(plan, 'batch')).outcomes.sent).toBe(1);
    expect(receiver.received[1]!.headers['webhook-id']).not.toBe(receiver.received[0]!.headers['webhook-id']);
  });

  it('routes by urgency and endpoint, cools each endpoint down on its own, and skips an endpoint no longer configured', async () => {
    const a = await startReceiver();
    const b = await startReceiver();
    const { dispatcher, entries } = setup([createAlertWebhookNotifier({ name: 'a', url: a.url, secret: SECRET }), createAlertWebhookNotifier({ name: 'b', url: b.url, secret: SECRET })]);
    const plan = churnedPlan('u3', [{ name: 'a', urgencies: ['immediate'] }, { name: 'b', urgencies: ['soon'] }, { name: 'gone', urgencies: ['immediate'] }]);
    expect(plan.map((d) => [d.channel, d.target])).toEqual([['email', undefined], ['chat', undefined], ['webhook', 'a'], ['webhook', 'gone']]);
    const first = await dispatcher.run(plan, 'batch');
    expect(first.channels.webhook).toMatchObject({ sent: 1, skipped_no_notifier: 1 });
    expect([a.received.length, b.received.length]).toEqual([1, 0]);
    const second = await dispatcher.run(plan, 'batch');
    expect(second.channels.webhook).toMatchObject({ skipped_cooldown: 1, skipped_no_notifier: 1 });
    expect(a.received).toHaveLength(1);
    expect((await entries()).filter((e) => e.target === 'gone').map((e) => e.error)).toEqual(['no webhook endpoint "gone" configured', 'no webhook endpoint "gone" configured']);
  });

  it('resends a finished delivery with the same body and webhook-id (trigger manual, actor recorded), and refuses what it cannot resend', async () => {
    const receiver = await startReceiver([{ status: 400, body: 'bad' }]);
    const hook = createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET });
    const email = createMemoryEmailNotifier();
    const { dispatcher, entries } = setup([hook], createMemoryDispatchLog(), { notifiers: [email] });
    await dispatcher.run(churnedPlan('u4', [{ name: 'crm', urgencies: ['immediate'] }]), 'batch');
    const records = await entries();
    const failed = records.find((e) => e.channel === 'webhook' && e.outcome === 'failed')!;
    const started = await dispatcher.resend(failed.id, 'ops@example.com');
    expect(started).toMatchObject({ status: 'started', record: { outcome: 'pending', trigger: 'manual', actor: 'ops@example.com', delivery_id: failed.delivery_id, target: 'crm' } });
    expect(await dispatcher.resend(failed.id, 'x')).toMatchObject({ status: 'in_flight' });
    await dispatcher.idle();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    verify(receiver.received[1]!);
    expect((await entries()).at(-1)).toMatchObject({ outcome: 'sent', attempt: 2, trigger: 'manual', actor: 'ops@example.com', delivery_id: failed.delivery_id });
    const emailRecord = records.find((e) => e.channel === 'email')!;
    expect(await dispatcher.resend(emailRecord.id, 'x')).toMatchObject({ status: 'not_webhook' });
    expect(await dispatcher.resend(999_999, 'x')).toMatchObject({ status: 'not_found' });
  });

  it('at start sends every unfinished webhook delivery once, with its stored body and webhook-id, and closes unfinished ones of other channels', async () => {
    const receiver = await startReceiver();
    const log = createMemoryDispatchLog();
    const body = JSON.stringify({ type: 'recommendation.dispatched', timestamp: '2030-01-01T00:00:00.000Z', data: { dispatch_id: 'd-1', customer_id: 'u5' } });
    const base = { at: T0, customer_id: 'u5', action: 'winback', urgency: 'immediate', risk_score: 90, error: null, trigger: 'webhook' } as const;
    const pending = await log.append({ ...base, channel: 'webhook', outcome: 'pending', attempt: 0, target: 'crm', detail: body });
    const retrying = await log.append({ ...base, channel: 'webhook', outcome: 'pending', attempt: 0, target: 'crm', detail: body.replace('d-1', 'd-2') });
    await log.append({ ...base, channel: 'webhook', outcome: 'retrying', attempt: 1, error: 'HTTP 503', target: 'crm', delivery_id: retrying.id });
    const sent = await log.append({ ...base, channel: 'webhook', outcome: 'pending', attempt: 0, target: 'crm', detail: body.replace('d-1', 'd-3') });
    await log.append({ ...base, channel: 'webhook', outcome: 'sent', attempt: 1, target: 'crm', delivery_id: sent.id });
    const email = await log.append({ ...base, channel: 'email', outcome: 'retrying', attempt: 1, error: 'SMTP 451' });
    const { dispatcher, outcomes } = setup([createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET })], log);
    expect(await dispatcher.resume()).toBe(3);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(['msg_tenure_d-1', 'msg_tenure_d-2']);
    expect(receiver.received.find((r) => r.headers['webhook-id'] === 'msg_tenure_d-1')!.body).toBe(body);
    receiver.received.forEach(verify);
    expect((await log.delivery(pending.id)).map((r) => [r.outcome, r.attempt])).toEqual([['pending', 0], ['sent', 1]]);
    expect((await log.delivery(retrying.id)).map((r) => [r.outcome, r.attempt])).toEqual([['pending', 0], ['retrying', 1], ['sent', 2]]);
    expect((await log.delivery(email.id)).map((r) => [r.outcome, r.error])).toEqual([['retrying', 'SMTP 451'], ['failed', 'interrupted by a restart; the next dispatch sends it']]);
    expect(outcomes.sort()).toEqual(['email:failed', 'webhook:sent', 'webhook:sent']);
    expect(await log.unfinished(10)).toEqual([]);
    expect(await dispatcher.resume()).toBe(0); // nothing twice
    expect(receiver.received).toHaveLength(2);
  });

  it('a delivery taken up at start that finally fails gives its cooldown back (claimed under the person id), so the next dispatch sends; one that succeeds keeps it', async () => {
    for (const finalAnswer of [{ status: 410, body: 'gone' }, { status: 200 }]) {
      const log = createMemoryDispatchLog();
      // The first service: its receiver holds the request open, and a shutdown leaves the delivery pending.
      const slow = await startReceiver([{ status: 200, delayMs: 5_000 }]);
      const first = setup([createAlertWebhookNotifier({ name: 'crm', url: slow.url, secret: SECRET })], log);
      const plan = churnedPlan('u6', [{ name: 'crm', urgencies: ['immediate'] }], 'anon-u6');
      expect(plan.find((d) => d.channel === 'webhook')!.alert.person_id).toBe('anon-u6');
      const running = first.dispatcher.run(plan, 'batch');
      await vi.waitFor(() => expect(slow.received).toHaveLength(1));
      await first.dispatcher.drain(AbortSignal.abort());
      expect((await running).channels.webhook.pending).toBe(1);
      expect((await log.unfinished(10)).map((r) => r.outcome)).toEqual(['pending']);
      // The restart: the receiver now answers finally.
      const receiver = await startReceiver([finalAnswer]);
      const second = setup([createAlertWebhookNotifier({ name: 'crm', url: receiver.url, secret: SECRET })], log);
      expect(await second.dispatcher.resume()).toBe(1);
      const next = await second.dispatcher.run(plan, 'batch');
      if (finalAnswer.status === 410) {
        expect(next.channels.webhook).toMatchObject({ sent: 1, skipped_cooldown: 0 });
        expect(receiver.received).toHaveLength(2);
      } else {
        expect(next.channels.webhook).toMatchObject({ sent: 0, skipped_cooldown: 1 });
        expect(receiver.received).toHaveLength(1);
      }
    }
  });
});
