import { afterEach, describe, expect, it } from 'vitest';
import { createSlackNotifier, createSmtpNotifier } from '../src/index.js';
import { startChatReceiver } from '@tenure/testkit';
import { DAY, fixture, T0 } from './helpers/fixtures.js';
import { seed } from './helpers/seed.js';
import { startSmtpReceiver } from '@tenure/testkit';
import { eventually, startTestServer } from './helpers/testServer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function withReceivers(chatStatuses: number[], options: Record<string, unknown> = {}) {
  const smtp = await startSmtpReceiver();
  const chat = await startChatReceiver(chatStatuses);
  const app = await startTestServer({
    notifiers: [createSmtpNotifier({ smtpUrl: smtp.url, from: 'tenure@acme.test', to: 'ops@acme.test' }), createSlackNotifier({ webhookUrl: chat.url })],
    ...options,
  });
  cleanups.push(smtp.close, chat.close, app.close);
  return { smtp, chat, app };
}

describe('alerts on real channels', () => {
  it('a failing chat channel blocks neither the webhook nor the email; every attempt is logged', async () => {
    const { smtp, chat, app } = await withReceivers([500, 502, 503]);
    await app.webhook(fixture('initial_purchase', { app_user_id: 'p', id: 'p1' }));
    const res = await app.webhook(fixture('billing_issue', { app_user_id: 'p', id: 'p2', event_timestamp_ms: T0 + DAY }));
    expect(res.status).toBe(200);
    await eventually(() => expect(smtp.mails).toHaveLength(1));
    await eventually(() => expect(chat.posts).toHaveLength(3));
    type Entry = { channel: string; outcome: string; attempt: number; trigger: string };
    let log: Entry[] = [];
    const deadline = Date.now() + 1000;
    do {
      log = ((await app.request('GET', '/api/dispatches')).body.items as Entry[]).reverse();
    } while (log.filter((l) => l.channel === 'chat').length < 3 && Date.now() < deadline);
    expect(log.filter((l: { channel: string }) => l.channel === 'chat').map((l: { outcome: string; attempt: number }) => `${l.outcome}#${l.attempt}`)).toEqual([
      'retrying#1',
      'retrying#2',
      'failed#3',
    ]);
    expect(log.find((l: { channel: string }) => l.channel === 'email')).toMatchObject({ outcome: 'sent', attempt: 1, trigger: 'webhook' });
  });

  it('a retried chat post succeeds and is logged as retrying then sent', async () => {
    const { chat, app } = await withReceivers([500], { dispatch: { auto: false } });
    await seed(app, 'c', 'churned');
    const summary = (await app.request('POST', '/api/dispatch', {})).body;
    expect(summary.channels.chat).toMatchObject({ sent: 1, failed: 0 });
    expect(chat.posts).toHaveLength(2);
    expect(chat.posts[1]!.body.text).toContain('c');
  });

  it('spaces a batch at the default 1 message/s per channel (time injected)', async () => {
    const waits: number[] = [];
    const app = await startTestServer({ dispatch: { auto: false, sleep: async (ms) => void waits.push(ms) } });
    cleanups.push(app.close);
    await seed(app, 'c1', 'churned');
    await seed(app, 'c2', 'churned');
    await seed(app, 'c3', 'churned');
    const summary = (await app.request('POST', '/api/dispatch', {})).body;
    expect(summary.outcomes.sent).toBe(6);
    // Per channel: the first message at once, the next two 1 s and 2 s later.
    expect(waits).toHaveLength(4);
    const sorted = [...waits].sort((a, b) => a - b);
    expect(sorted[0]).toBeGreaterThan(900);
    expect(sorted[1]).toBeGreaterThan(900);
    expect(sorted[2]).toBeGreaterThan(1900);
    expect(sorted[3]).toBeLessThanOrEqual(2000);
  });

  it('does not auto-dispatch when turned off, nor for a soon recommendation', async () => {
    const off = await withReceivers([], { dispatch: { auto: false } });
    await seed(off.app, 'b', 'billing');
    const on = await withReceivers([]);
    await seed(on.app, 'p', 'pending'); // engagement_checkin: soon
    await new Promise((r) => setTimeout(r, 100));
    expect(off.smtp.mails).toHaveLength(0);
    expect(on.smtp.mails).toHaveLength(0);
  });
});
