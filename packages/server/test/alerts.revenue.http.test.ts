// Alerts carry the revenue at risk ("$9.99/mo") and the store, through a real SMTP server and a real
// HTTP chat receiver; a subscriber with no known price gets no figure.
import { startChatReceiver, startSmtpReceiver } from '@tenure/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackNotifier, createSmtpNotifier } from '../src/index.js';
import { DAY, fixture, T0 } from './helpers/fixtures.js';
import { eventually, startTestServer } from './helpers/testServer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function withReceivers() {
  const smtp = await startSmtpReceiver();
  const chat = await startChatReceiver([]);
  const app = await startTestServer({
    notifiers: [createSmtpNotifier({ smtpUrl: smtp.url, from: 'tenure@acme.test', to: 'ops@acme.test' }), createSlackNotifier({ webhookUrl: chat.url })],
  });
  cleanups.push(smtp.close, chat.close, app.close);
  return { smtp, chat, app };
}

/** A purchase of `period` days at `price` on `store`, then a billing issue a day later (an immediate alert). */
async function failingPayment(app: Awaited<ReturnType<typeof withReceivers>>['app'], customer: string, price: number, periodDays: number, store: string) {
  const base = { app_user_id: customer, price, price_in_purchased_currency: price, store, purchased_at_ms: T0, expiration_at_ms: T0 + periodDays * DAY };
  for (const body of [
    fixture('initial_purchase', { ...base, id: `${customer}-start`, event_timestamp_ms: T0 }),
    fixture('billing_issue', { ...base, id: `${customer}-issue`, event_timestamp_ms: T0 + DAY }),
  ]) {
    expect((await app.webhook(body)).body).toEqual({ ok: true, result: 'applied' });
  }
}

/** Every mrkdwn field of a posted Block Kit message's top-level sections. */
const fieldsOf = (message: { blocks: { type: string; fields?: { text: string }[] }[] }) =>
  message.blocks.flatMap((b) => (b.type === 'section' ? (b.fields ?? []) : [])).map((f) => f.text);

describe('alerts show the revenue at risk', () => {
  it('a monthly App Store subscriber: $9.99/mo and App Store, in the email and the chat message', async () => {
    const { smtp, chat, app } = await withReceivers();
    await failingPayment(app, 'monthly', 9.99, 30, 'APP_STORE');
    await eventually(() => expect(smtp.mails).toHaveLength(1));
    await eventually(() => expect(chat.posts).toHaveLength(1));
    const mail = smtp.mails[0]!;
    expect(mail.subject).toContain('monthly, $9.99/mo');
    expect(mail.decoded).toContain('Revenue at risk: $9.99/mo');
    expect(mail.decoded).toContain('Store: App Store');
    const message = chat.posts[0]!.body;
    expect(fieldsOf(message)).toEqual(expect.arrayContaining(['*Revenue at risk*\n$9.99/mo', '*Store*\nApp Store']));
    expect(message.text).toContain('monthly ($9.99/mo, App Store)');
  });

  it('a yearly Play subscriber counts its price per month, to the cent', async () => {
    const { smtp, chat, app } = await withReceivers();
    await failingPayment(app, 'yearly', 99.99, 365, 'PLAY_STORE');
    await eventually(() => expect(chat.posts).toHaveLength(1));
    await eventually(() => expect(smtp.mails).toHaveLength(1));
    expect(fieldsOf(chat.posts[0]!.body)).toEqual(expect.arrayContaining(['*Revenue at risk*\n$8.33/mo', '*Store*\nGoogle Play']));
    expect(smtp.mails[0]!.decoded).toContain('Revenue at risk: $8.33/mo');
    // The same figure as the subscriber view and the at-risk list.
    expect((await app.request('GET', '/api/subscribers/yearly')).body.monthly_value_usd).toBe(8.33);
  });

  it('a trial that expired without a charge shows no figure (unknown, not $0.00)', async () => {
    const { smtp, chat, app } = await withReceivers();
    const base = { app_user_id: 'trial', purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY };
    await app.webhook(fixture('initial_purchase_trial', { ...base, id: 'trial-start', event_timestamp_ms: T0 }));
    await app.webhook(fixture('expiration', { ...base, id: 'trial-end', event_timestamp_ms: T0 + 14 * DAY, price: 0, price_in_purchased_currency: 0 }));
    await eventually(() => expect(chat.posts).toHaveLength(1));
    await eventually(() => expect(smtp.mails).toHaveLength(1));
    expect(JSON.stringify(chat.posts[0]!.body)).not.toContain('/mo');
    expect(JSON.stringify(chat.posts[0]!.body)).not.toContain('Revenue at risk');
    expect(smtp.mails[0]!.decoded).not.toContain('Revenue at risk');
  });

  it('a dry run lists each planned alert with its monthly value and store', async () => {
    const app = await startTestServer({ dispatch: { auto: false } });
    cleanups.push(app.close);
    await failingPayment(app, 'monthly', 9.99, 30, 'APP_STORE');
    const res = await app.request('POST', '/api/dispatch', { dry_run: true });
    expect(res.body.planned).toEqual([
      { customer_id: 'monthly', action: 'billing_failure_alert', urgency: 'immediate', channel: 'email', target: null, monthly_value_usd: 9.99, store: 'APP_STORE' },
      { customer_id: 'monthly', action: 'billing_failure_alert', urgency: 'immediate', channel: 'chat', target: null, monthly_value_usd: 9.99, store: 'APP_STORE' },
    ]);
  });
});
