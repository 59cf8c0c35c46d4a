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
});
