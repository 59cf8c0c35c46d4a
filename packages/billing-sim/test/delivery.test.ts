import { parseWebhook } from '@tenure/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createBillingSimulator, createManualScheduler, REAL_RETRY_SCHEDULE_MS, type BillingSimulator, type ManualScheduler } from '../src/index.js';
import { startReceiver, type Receiver } from './helpers.js';

let receiver: Receiver | undefined;
let sim: BillingSimulator | undefined;
afterEach(async () => {
  sim?.close();
  await receiver?.close();
  receiver = undefined;
  sim = undefined;
});

/** A simulator with a manual scheduler, a monthly product and a CRD grant, posting to the receiver. */
function setup(scheduler: ManualScheduler, webhook: Parameters<typeof createBillingSimulator>[0] = {}) {
  sim = createBillingSimulator({
    seed: 'delivery',
    scheduler,
    products: [{ id: 'monthly', type: 'subscription', period: 'P1M' }],
    ...webhook,
  });
  return sim;
}
const purchase = (s: BillingSimulator, customer = 'u1') =>
  s.dispatch({ type: 'purchase', project_id: 'p', customer_id: customer, product_id: 'monthly', trial: false, presented_offering_id: null, country_code: null });

describe('webhook delivery', () => {
  it('POSTs the real body with the Authorization header verbatim', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url, authorization: 'Bearer s3cr3t value' } });
    await purchase(s);
    await s.outbox.idle();
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got?.headers['authorization']).toBe('Bearer s3cr3t value');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.body).toEqual(s.events()[0]);
    expect(parseWebhook(got?.body).ok).toBe(true);
    expect(s.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: [{ n: 1, kind: 'initial', status: 200 }] });
  });
  it('sends no Authorization header when none is configured', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url } });
    await purchase(s);
    await s.outbox.idle();
    expect(receiver.received[0]?.headers['authorization']).toBeUndefined();
  });
  it('retries anything but 200 on the real schedule: 5, 10, 20, 40, 80 minutes, then stops', async () => {
    receiver = await startReceiver(() => 201);
    const scheduler = createManualScheduler(0);
    const s = setup(scheduler, { webhook: { url: receiver.url } });
    await purchase(s);
    await s.outbox.idle();
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = scheduler.nextDelay();
      if (d === null) break;
      delays.push(d);
      scheduler.advance(d);
      await s.outbox.idle();
    }
    expect(delays).toEqual(REAL_RETRY_SCHEDULE_MS);
    expect(scheduler.nextDelay()).toBeNull();
    const record = s.deliveries()[0];
    expect(record?.state).toBe('failed');
    expect(record?.attempts.map((a) => [a.kind, a.status])).toEqual([['initial', 201], ...Array(5).fill(['retry', 201])]);
    expect(record?.attempts.map((a) => a.at)).toEqual([0, 300_000, 900_000, 2_100_000, 4_500_000, 9_300_000]);
    expect(receiver.received.every((r) => r.body.event.id === record?.event_id)).toBe(true);
  });
  it('stops retrying once the receiver answers 200', async () => {
    receiver = await startReceiver((n) => (n < 2 ? 500 : 200));
    const scheduler = createManualScheduler();
    const s = setup(scheduler, { webhook: { url: receiver.url, retry_schedule: 'fast' } });
    await purchase(s);
    await s.outbox.idle();
    scheduler.advance(50);
    await s.outbox.idle();
    scheduler.advance(100);
    await s.outbox.idle();
    expect(s.deliveries()[0]?.state).toBe('delivered');
    expect(s.deliveries()[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(scheduler.pending()).toBe(0);
  });
  it('logs a network error as a failed attempt', async () => {
    const scheduler = createManualScheduler();
    const s = setup(scheduler, { webhook: { url: 'http://127.0.0.1:1/webhook', retry_schedule: [] } });
    await purchase(s);
    await s.outbox.idle();
    expect(s.deliveries()[0]).toMatchObject({ state: 'failed', attempts: [{ status: null }] });
    expect(s.deliveries()[0]?.attempts[0]?.error).toBeTruthy();
  });
  it('counts a throwing transport as a failed attempt, logs its error and retries on the schedule', async () => {
    const scheduler = createManualScheduler(0);
    let calls = 0;
    const s = setup(scheduler, {
      webhook: { url: 'http://receiver.local/webhook', retry_schedule: [1000] },
      transport: async () => {
        calls += 1;
        if (calls === 1) throw new Error('socket exploded');
        return { status: 200 };
      },
    });
    await purchase(s);
    await s.outbox.idle();
    expect(s.deliveries()[0]).toMatchObject({ state: 'retrying', attempts: [{ kind: 'initial', status: null, error: 'socket exploded' }] });
    scheduler.advance(1000);
    await s.outbox.idle();
    expect(s.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: [{ status: null }, { kind: 'retry', status: 200 }] });
  });
  it('counts a transport that throws synchronously or rejects with a non-Error as failed, and keeps delivering later events', async () => {
    const scheduler = createManualScheduler(0);
    const s = setup(scheduler, {
      webhook: { url: 'http://receiver.local/webhook', retry_schedule: [] },
      transport: ((req: { body: string }) => {
        if (req.body.includes('"u1"')) throw 'plain string';
        return Promise.resolve({ status: 200 });
      }) as never,
    });
    await purchase(s, 'u1');
    await purchase(s, 'u2');
    await s.outbox.idle();
    expect(s.deliveries().map((d) => [d.state, d.attempts[0]?.error])).toEqual([['failed', 'plain string'], ['delivered', null]]);
  });
  it('counts a transport that answers something other than a result as failed, saying what it answered', async () => {
    const scheduler = createManualScheduler(0);
    const answers: unknown[] = [undefined, { ok: true }, 'fine', { status: 200 }];
    const s = setup(scheduler, {
      webhook: { url: 'http://receiver.local/webhook', retry_schedule: [] },
      transport: (() => Promise.resolve(answers.shift())) as never,
    });
    for (const id of ['u1', 'u2', 'u3', 'u4']) await purchase(s, id);
    await s.outbox.idle();
    expect(s.deliveries().map((d) => [d.state, d.attempts[0]?.error])).toEqual([
      ['failed', 'The transport returned undefined instead of { status } or { error }'],
      ['failed', 'The transport returned {"ok":true} instead of { status } or { error }'],
      ['failed', 'The transport returned "fine" instead of { status } or { error }'],
      ['delivered', null],
    ]);
  });
  it('redelivers one event by id with the same id and timestamp', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url } });
    await purchase(s);
    await s.outbox.idle();
    const id = s.events()[0]?.event.id ?? '';
    s.outbox.redeliver(id);
    await s.outbox.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([s.events()[0], s.events()[0]]);
    expect(s.outbox.get(id)?.attempts.map((a) => a.kind)).toEqual(['initial', 'redeliver']);
  });
  it('changes the target at runtime', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler());
    await purchase(s, 'before');
    s.configureWebhook({ url: receiver.url, authorization: 'k' });
    await purchase(s, 'after');
    await s.outbox.idle();
    expect(receiver.received.map((r) => r.body.event.app_user_id)).toEqual(['after']);
    expect(s.deliveries()[0]?.state).toBe('skipped');
  });
});

describe('fault injection', () => {
  const many = async (s: BillingSimulator, n: number) => {
    for (let i = 0; i < n; i++) await purchase(s, `u${i}`);
    await s.outbox.idle();
  };
  it('duplicates deliveries at the duplicate rate', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url, faults: { duplicate_rate: 1 } } });
    await many(s, 3);
    const ids = receiver.received.map((r) => r.body.event.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    expect(s.deliveries().every((d) => d.faults.includes('duplicate'))).toBe(true);
  });
  it('drops deliveries at the drop rate (logged, never sent)', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url, faults: { drop_rate: 1 } } });
    await many(s, 3);
    expect(receiver.received).toHaveLength(0);
    expect(s.deliveries().map((d) => d.state)).toEqual(['dropped', 'dropped', 'dropped']);
  });
  it('delays deliveries by delay_ms at the delay rate', async () => {
    receiver = await startReceiver();
    const scheduler = createManualScheduler();
    const s = setup(scheduler, { webhook: { url: receiver.url, faults: { delay_rate: 1, delay_ms: 2000 } } });
    await many(s, 2);
    expect(receiver.received).toHaveLength(0);
    scheduler.advance(1999);
    await s.outbox.idle();
    expect(receiver.received).toHaveLength(0);
    scheduler.advance(1);
    await s.outbox.idle();
    expect(receiver.received).toHaveLength(2);
  });
  it('reorders deliveries within the window at the reorder rate', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url, concurrency: 1, faults: { reorder_rate: 1, reorder_window: 3 } } });
    // Emit several events in one synchronous burst so they wait in the queue together.
    for (let i = 0; i < 6; i++) purchase(s, `u${i}`);
    await s.outbox.idle();
    const sent = receiver.received.map((r) => r.body.event.id);
    const emitted = s.events().map((e) => e.event.id);
    expect([...sent].sort()).toEqual([...emitted].sort());
    expect(sent).not.toEqual(emitted);
    expect(s.deliveries().some((d) => d.faults.includes('reorder'))).toBe(true);
  });
  it('injects nothing with the default rates (one at a time: in emission order)', async () => {
    receiver = await startReceiver();
    const s = setup(createManualScheduler(), { webhook: { url: receiver.url, concurrency: 1 } });
    await many(s, 5);
    expect(receiver.received.map((r) => r.body.event.id)).toEqual(s.events().map((e) => e.event.id));
  });
});
