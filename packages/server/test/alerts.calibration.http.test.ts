// With a calibration, alerts say the churn probability of the score, through a real SMTP server
// and a real HTTP chat receiver; without one, they do not.
import { startChatReceiver, startSmtpReceiver } from '@tenure/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackNotifier, createSmtpNotifier, type RetentionOptions } from '../src/index.js';
import { DAY, fixture, T0 } from './helpers/fixtures.js';
import { eventually, startTestServer } from './helpers/testServer.js';
import { stepCalibration } from './helpers/calibration.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const calibration = stepCalibration(0.05, 3000, 420);

/** A service with real channels; a purchase, then a billing issue (score 90, an immediate alert). */
async function billingIssueAlert(options: RetentionOptions) {
  const smtp = await startSmtpReceiver();
  const chat = await startChatReceiver([]);
  const app = await startTestServer({ notifiers: [createSmtpNotifier({ smtpUrl: smtp.url, from: 'tenure@acme.test', to: 'ops@acme.test' }), createSlackNotifier({ webhookUrl: chat.url })], ...options });
  cleanups.push(smtp.close, chat.close, app.close);
  for (const body of [fixture('initial_purchase', { app_user_id: 'u42', id: 'u42-1' }), fixture('billing_issue', { app_user_id: 'u42', id: 'u42-2', event_timestamp_ms: T0 + DAY })]) {
    expect((await app.webhook(body)).body).toEqual({ ok: true, result: 'applied' });
  }
  await eventually(() => expect(smtp.mails).toHaveLength(1));
  await eventually(() => expect(chat.posts).toHaveLength(1));
  return { mail: smtp.mails[0]!, message: chat.posts[0]!.body as { text: string; blocks: { type: string; text?: { text: string }; fields?: { text: string }[] }[] } };
}

describe('alerts with a calibration', () => {
  it('say "score 90 · about 64 % chance of churning within 30 days" in the email (text and HTML) and the Slack blocks', async () => {
    const { mail, message } = await billingIssueAlert({ calibration });
    expect(mail.decoded).toContain('Churn probability: about 64 % chance of churning within 30 days');
    expect(mail.decoded).toContain('with a score of <strong>90</strong>/100: about 64 % chance of churning within 30 days.</p>');
    expect(message.text).toContain('(score 90 · about 64 % chance of churning within 30 days) for u42');
    const section = message.blocks.find((b) => b.type === 'section')!;
    expect(section.text!.text).toBe('Subscriber *u42* is at *critical* risk with a score of *90*/100 · about 64 % chance of churning within 30 days.');
    expect(section.fields![0]!.text).toBe('*Risk score*\n:red_circle: 90 (critical) · about 64 % chance of churning within 30 days');
  });

  it('without a calibration say no probability', async () => {
    const { mail, message } = await billingIssueAlert({});
    expect(mail.decoded).not.toMatch(/[Cc]hurn probability|chance of churning/);
    expect(JSON.stringify(message)).not.toContain('chance of churning');
  });
});
