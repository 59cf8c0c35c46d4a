/** End-to-end scenarios in RevenueCat's payload format, with real SMTP and chat receivers. */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackNotifier, createSmtpNotifier } from '../src/index.js';
import { startChatReceiver } from '@tenure/testkit';
import { DAY, fixture, T0, type WebhookBody } from './helpers/fixtures.js';
import { startSmtpReceiver } from '@tenure/testkit';
import { eventually, startTestServer, type TestServer } from './helpers/testServer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});
async function start(options = {}): Promise<TestServer> {
  const app = await startTestServer(options);
  cleanups.push(() => app.close());
  return app;
}
const send = async (app: TestServer, body: WebhookBody) => expect((await app.webhook(body)).status).toBe(200);
const actions = (body: { recommendations: { action: string }[] }) => body.recommendations.map((r) => r.action);

describe('scenario: trial start → day 12', () => {
  it('recommends trial_nudge (soon) on day 12 of a 14-day trial, a feature highlight before', async () => {
    const app = await start();
    await send(app, fixture('initial_purchase_trial', { app_user_id: 'trial_user', id: 'e-trial' }));
    expect((await app.request('GET', '/api/subscribers/trial_user')).body.state).toBe('trialing');

    app.clock.set(T0 + 5 * DAY); // day 6
    expect(actions((await app.request('GET', '/api/subscribers/trial_user/recommend')).body)).toEqual(['trial_feature_highlight']);

    app.clock.set(T0 + 11 * DAY); // day 12
    const res = await app.request('GET', '/api/subscribers/trial_user/recommend');
    expect(res.body.recommendations[0]).toMatchObject({ action: 'trial_nudge', urgency: 'soon', priority: 1 });
  });
});

describe('scenario: billing issue', () => {
  it('recommends billing_failure_alert + payment_update (immediate) and auto-dispatches by email and chat, received for real', async () => {
    const smtp = await startSmtpReceiver();
    const chat = await startChatReceiver();
    cleanups.push(smtp.close, chat.close);
    const app = await start({
      serviceName: 'acme-retention',
      notifiers: [
        createSmtpNotifier({ smtpUrl: smtp.url, from: 'tenure@acme.test', to: 'ops@acme.test' }),
        createSlackNotifier({ webhookUrl: chat.url }),
      ],
    });
    await send(app, fixture('initial_purchase', { app_user_id: 'payer', id: 'e-buy' }));
    await send(app, fixture('billing_issue', { app_user_id: 'payer', id: 'e-bill', event_timestamp_ms: T0 + DAY }));

    const rec = (await app.request('GET', '/api/subscribers/payer/recommend')).body;
    expect(rec.recommendations.map((r: { action: string; urgency: string }) => `${r.action}:${r.urgency}`)).toEqual([
      'billing_failure_alert:immediate',
      'payment_update:immediate',
    ]);

    await eventually(() => {
      expect(smtp.mails).toHaveLength(1);
      expect(chat.posts).toHaveLength(1);
    });
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe('tenure@acme.test');
    expect(mail.to).toEqual(['ops@acme.test']);
    expect(mail.subject).toContain('payer');
    expect(mail.subject).toContain('acme-retention');
    expect(mail.decoded).toContain('billing_failure_alert');

    const post = chat.posts[0]!;
    expect(post.contentType).toContain('application/json');
    expect(post.body.text).toContain('payer');
    expect(post.body.blocks.length).toBeGreaterThan(0);
    expect(post.body.attachments[0].color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(JSON.stringify(post.body.blocks)).toContain('payer');

    const log = (await app.request('GET', '/api/dispatches')).body.items;
    expect(log.map((l: { channel: string; outcome: string; trigger: string }) => `${l.channel}:${l.outcome}:${l.trigger}`).sort()).toEqual([
      'chat:sent:webhook',
      'email:sent:webhook',
    ]);

    // A second billing issue raises the score but the same alert is in its 24 h cooldown.
    await send(app, fixture('billing_issue', { app_user_id: 'payer', id: 'e-bill-2', event_timestamp_ms: T0 + 2 * DAY }));
    await new Promise((r) => setTimeout(r, 50)); // let a (wrong) auto-dispatch happen
    expect(smtp.mails).toHaveLength(1);
  });
});

describe('scenario: cancellation and expiration', () => {
  it('cancellation → pending_cancel, not churned, no winback', async () => {
    const app = await start();
    await send(app, fixture('initial_purchase', { app_user_id: 'leaver', id: 'e1' }));
    await send(app, fixture('cancellation', { app_user_id: 'leaver', id: 'e2', event_timestamp_ms: T0 + DAY }));
    const sub = (await app.request('GET', '/api/subscribers/leaver')).body;
    expect(sub.state).toBe('pending_cancel');
    expect(actions((await app.request('GET', '/api/subscribers/leaver/recommend')).body)).not.toContain('winback');
  });

  it('expiration → churned → winback', async () => {
    const app = await start();
    await send(app, fixture('initial_purchase', { app_user_id: 'gone', id: 'e1' }));
    await send(app, fixture('cancellation', { app_user_id: 'gone', id: 'e2', event_timestamp_ms: T0 + DAY }));
    await send(app, fixture('expiration', { app_user_id: 'gone', id: 'e3', event_timestamp_ms: T0 + 30 * DAY }));
    app.clock.set(T0 + 30 * DAY);
    expect((await app.request('GET', '/api/subscribers/gone')).body.state).toBe('churned');
    const rec = (await app.request('GET', '/api/subscribers/gone/recommend')).body;
    expect(rec.recommendations[0]).toMatchObject({ action: 'winback', urgency: 'immediate', priority: 1 });
    expect(rec.risk_score).toBe(100);
  });
});

describe('scenario: duplicates and reordered deliveries', () => {
  const history: WebhookBody[] = [
    fixture('initial_purchase_trial', { id: 'h1', app_user_id: 'h', event_timestamp_ms: T0 }),
    fixture('renewal', { id: 'h2', app_user_id: 'h', event_timestamp_ms: T0 + 14 * DAY, is_trial_conversion: true }),
    fixture('product_change', { id: 'h3', app_user_id: 'h', event_timestamp_ms: T0 + 20 * DAY }),
    fixture('billing_issue', { id: 'h4', app_user_id: 'h', event_timestamp_ms: T0 + 44 * DAY }),
    fixture('cancellation', { id: 'h5', app_user_id: 'h', event_timestamp_ms: T0 + 44 * DAY, cancel_reason: 'BILLING_ERROR' }),
    fixture('renewal', { id: 'h6', app_user_id: 'h', event_timestamp_ms: T0 + 46 * DAY }),
    fixture('cancellation', { id: 'h7', app_user_id: 'h', event_timestamp_ms: T0 + 50 * DAY }),
    fixture('non_renewing_purchase', { id: 'h8', app_user_id: 'h', event_timestamp_ms: T0 + 51 * DAY }),
  ];

  it('gives the same subscriber as one ordered delivery of each event', async () => {
    const reference = await start({ dispatch: { auto: false } });
    for (const body of history) await send(reference, body);
    const expected = (await reference.request('GET', '/api/subscribers/h')).body;
    expect(expected.state).toBe('pending_cancel');

    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(history, { minLength: history.length }),
        fc.array(fc.nat({ max: history.length - 1 }), { maxLength: 6 }),
        async (order, repeats) => {
          const app = await startTestServer({ dispatch: { auto: false } });
          try {
            const deliveries = [...order];
            for (const i of repeats) deliveries.splice(i % (deliveries.length + 1), 0, history[i]!); // retries land anywhere
            for (const body of deliveries) await send(app, body);
            expect((await app.request('GET', '/api/subscribers/h')).body).toEqual(expected);
          } finally {
            await app.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
