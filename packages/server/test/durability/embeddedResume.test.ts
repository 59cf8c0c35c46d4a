// An app that embeds the service (Express, the node:http listener or the fetch handler) on a SQLite
// file takes up, when it calls its binding's resume, the webhook deliveries a shutdown left pending:
// a first app posts one alert that a real receiver answers (recorded `sent`) and one the receiver
// holds open until the app shuts down (left `pending`); a second app on the same file, through each
// binding, sends the pending one once, with its stored body and webhook-id, and never the sent one.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeRetentionApp,
  createAlertWebhookNotifier,
  createRetentionApp,
  createRetentionFetchHandler,
  createRetentionRequestListener,
  fixedClock,
  openStore,
  resumeRetentionDeliveries,
  type RetentionOptions,
} from '../../src/index.js';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { eventually } from '../helpers/testServer.js';
import { startWebhookReceiver } from '../helpers/webhookReceiver.js';

const SECRET = `whsec_${Buffer.from('the embedded resume secret, 32 b').toString('base64')}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** One embedding: how it receives a webhook, resumes, and closes. */
interface Embedded {
  webhook(body: unknown): Promise<number>;
  resume(): Promise<number>;
  close(signal?: AbortSignal): Promise<void>;
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const post = async (url: string, body: unknown) => (await fetch(`${url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;

type Binding = 'express' | 'listener' | 'fetch';

async function embed(binding: Binding, options: RetentionOptions): Promise<Embedded> {
  switch (binding) {
    case 'express': {
      const app = createRetentionApp(options);
      const url = await listen(createServer(app));
      return { webhook: (body) => post(url, body), resume: () => resumeRetentionDeliveries(app), close: (signal) => closeRetentionApp(app, signal) };
    }
    case 'listener': {
      const listener = createRetentionRequestListener(options);
      const url = await listen(createServer(listener));
      return { webhook: (body) => post(url, body), resume: () => listener.resumeDeliveries(), close: (signal) => listener.close(signal) };
    }
    case 'fetch': {
      const handler = createRetentionFetchHandler({ ...options, basePath: '/tenure' });
      const webhook = async (body: unknown) =>
        (await handler(new Request('http://app.test/tenure/webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))).status;
      return { webhook, resume: () => handler.resumeDeliveries(), close: (signal) => handler.close(signal) };
    }
  }
}

/** Sends the two events that make `customer` churned: its top recommendation is an immediate winback. */
async function churn(app: Embedded, customer: string) {
  const base = { app_user_id: customer, event_timestamp_ms: T0, purchased_at_ms: T0, expiration_at_ms: T0 + 30 * DAY };
  expect(await app.webhook(fixture('initial_purchase', { ...base, id: `${customer}-start` }))).toBe(200);
  expect(await app.webhook(fixture('expiration', { ...base, id: `${customer}-expire`, event_timestamp_ms: T0 + 1 }))).toBe(200);
}

describe.each<Binding>(['express', 'listener', 'fetch'])('an app embedding the %s binding on a SQLite file', (binding) => {
  it('sends a delivery left pending once when it resumes, never one recorded sent; a second call sends nothing more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-resume-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'tenure.db');
    const options = async (url: string): Promise<RetentionOptions> => ({
      store: await openStore({ kind: 'sqlite', path }),
      clock: fixedClock(T0 + 1),
      logger: pino({ level: 'silent' }),
      alertWebhooks: [createAlertWebhookNotifier({ name: 'crm', url, secret: SECRET })],
      dispatch: { ratePerSecond: 0 },
    });

    // The first app: ann's alert is answered, bob's is held open until the app shuts down.
    const before = await startWebhookReceiver([{ status: 200 }, { status: 200, delayMs: 30_000 }]);
    cleanups.push(before.close);
    const first = await embed('express', await options(before.url));
    await churn(first, 'ann');
    await eventually(() => expect(before.received).toHaveLength(1), 5_000);
    await churn(first, 'bob');
    await eventually(() => expect(before.received).toHaveLength(2), 5_000);
    await first.close(AbortSignal.abort()); // a shutdown at once: bob's delivery stays pending in the file
    const [annSent, bobHeld] = before.received.map((r) => r.headers['webhook-id']);

    // The second app, on the same file through the binding under test.
    const after = await startWebhookReceiver();
    cleanups.push(after.close);
    const second = await embed(binding, await options(after.url));
    cleanups.push(() => second.close());
    expect(after.received).toEqual([]); // nothing is sent before the app resumes
    const resumed = second.resume();
    expect(second.resume()).toBe(resumed); // one resume per app, whoever calls
    expect(await resumed).toBe(1);
    expect(after.received).toHaveLength(1);
    const [sent] = after.received;
    expect(sent!.headers['webhook-id']).toBe(bobHeld);
    expect(sent!.body).toBe(before.received[1]!.body); // the stored bytes
    expect(new Webhook(SECRET).verify(sent!.body, sent!.headers as Record<string, string>)).toMatchObject({ data: { customer_id: 'bob' } });
    expect(after.received.map((r) => r.headers['webhook-id'])).not.toContain(annSent);
    expect(await second.resume()).toBe(1);
    expect(after.received).toHaveLength(1);
  });
});
