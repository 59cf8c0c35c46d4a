import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../internal/random.js';
import { NO_FAULTS, type WebhookConfig } from './deliveryConfig.js';
import { createOutbox, type DeliveryRecord } from './createOutbox.js';
import { createManualScheduler } from './scheduler.js';
import type { WebhookBody } from '../machine/webhookEvents.js';

const body = (i: number): WebhookBody =>
  ({ api_version: '1.0', event: { type: 'RENEWAL', id: `E${i}`, event_timestamp_ms: i, environment: 'SANDBOX' } }) as unknown as WebhookBody;

function outbox(status: (i: number) => number, faults: Partial<WebhookConfig['faults']> = {}) {
  const config: WebhookConfig = {
    url: 'http://receiver.local/webhook',
    authorization: null,
    retry_schedule_ms: [1],
    timeout_ms: 1000,
    concurrency: 2,
    environment: null,
    event_types: null,
    faults: { ...NO_FAULTS, ...faults },
  };
  let calls = 0;
  return createOutbox({
    config: () => config,
    scheduler: createManualScheduler(0),
    transport: async () => ({ status: status(calls++) }),
    random: seededRandom('outbox'),
  });
}

const plain = (records: DeliveryRecord[]) => records.map((r) => ({ ...r, attempts: r.attempts.map((a) => ({ ...a, duration_ms: 0 })) }));

describe('createOutbox', () => {
  it('logs and delivers the same records through queue as through enqueue (records of queue made when needed)', async () => {
    const eager = outbox((i) => (i % 3 === 0 ? 500 : 200));
    const lazy = outbox((i) => (i % 3 === 0 ? 500 : 200));
    for (let i = 0; i < 20; i++) {
      eager.enqueue(body(i));
      lazy.queue(body(i));
    }
    expect(plain(lazy.log())).toEqual(plain(eager.log()));
    expect(lazy.get('E7')).toEqual(eager.get('E7'));
    await Promise.all([eager.idle(), lazy.idle()]);
    expect(plain(lazy.log())).toEqual(plain(eager.log()));
    expect(lazy.log().filter((r) => r.state === 'retrying')).toHaveLength(7);
    expect(lazy.get('E3')).toBe(lazy.log()[3]);
  });
  it('draws the same faults through queue as through enqueue', async () => {
    const faults = { drop_rate: 0.2, delay_rate: 0.2, delay_ms: 5, duplicate_rate: 0.2, reorder_rate: 0.3, reorder_window: 3 };
    const eager = outbox(() => 200, faults);
    const lazy = outbox(() => 200, faults);
    for (let i = 0; i < 30; i++) {
      eager.enqueue(body(i));
      lazy.queue(body(i));
    }
    await Promise.all([eager.idle(), lazy.idle()]);
    expect(plain(lazy.log())).toEqual(plain(eager.log()));
  });
  it('keeps a record it made the same object across log, get and redeliver', async () => {
    const lazy = outbox(() => 200);
    lazy.queue(body(1));
    const first = lazy.get('E1');
    expect(first).toMatchObject({ event_id: 'E1', state: 'pending', attempts: [] });
    await lazy.idle();
    expect(lazy.log()[0]).toBe(first);
    expect(lazy.redeliver('E1')).toBe(first);
    await lazy.idle();
    expect(first?.attempts.map((a) => a.kind)).toEqual(['initial', 'redeliver']);
  });
  it('a first attempt answered 200 before its record is made logs the same record as one made before it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(200, 500), { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 30 }), fc.boolean(), async (statuses, readAt, readMidway) => {
        const status = (i: number) => statuses[i % statuses.length]!;
        const eager = outbox(status);
        const lazy = outbox(status);
        for (let i = 0; i < statuses.length; i++) {
          eager.enqueue(body(i));
          lazy.queue(body(i));
        }
        // Some records made while their attempt is in flight, the rest only after it.
        if (readMidway) expect(plain(lazy.log().slice(0, readAt))).toEqual(plain(eager.log().slice(0, readAt)));
        else lazy.get(`E${readAt}`);
        await Promise.all([eager.idle(), lazy.idle()]);
        expect(plain(lazy.log())).toEqual(plain(eager.log()));
        expect(lazy.log().filter((r) => r.state === 'delivered').map((r) => r.attempts)).toEqual(eager.log().filter((r) => r.state === 'delivered').map((r) => r.attempts));
      }),
      { numRuns: 200 },
    );
  });
});
