// Issue #8's restart test: the dispatch log and the alert cooldowns live in the store, so a restart
// (graceful, or a crash followed by the billing service's redelivery) never re-sends an alert inside
// its cooldown. Run on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatReceiver } from '@tenure/testkit';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { startSmtpReceiver } from '@tenure/testkit';
import { eventually } from '../helpers/testServer.js';
import { chatKey, countKeys, mailKey } from './alertKeys.js';
import { TEST_DATABASE_URL, testSchema, warnIfNoPostgres } from './postgresSchema.js';
import { postJson } from './sendAll.js';
import { killServes, startServe } from './serveProcess.js';

const HOUR = 3_600_000;
const CLOCK = new Date(T0 + DAY).toISOString(); // a fixed now, well inside the default 24 h cooldown

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killServes();
  while (cleanups.length > 0) await cleanups.pop()!();
});

warnIfNoPostgres('the PostgreSQL restart durability tests');

/** A billing issue after a purchase: an immediate billing_failure_alert (email and chat). */
const purchase = (customer: string) => fixture('initial_purchase', { app_user_id: customer, id: `${customer}-purchase` });
const billingIssue = (customer: string) =>
  fixture('billing_issue', { app_user_id: customer, id: `${customer}-billing`, event_timestamp_ms: T0 + HOUR, purchased_at_ms: T0 + HOUR });

async function receivers() {
  const smtp = await startSmtpReceiver();
  const chat = await startChatReceiver();
  cleanups.push(smtp.close, chat.close);
  const env = { SMTP_URL: smtp.url, ALERT_EMAIL_FROM: 'tenure@acme.test', ALERT_EMAIL_TO: 'ops@acme.test', SLACK_WEBHOOK_URL: chat.url };
  return { smtp, chat, env, keys: () => ({ chat: Object.fromEntries(countKeys(chat.posts.map(chatKey))), email: Object.fromEntries(countKeys(smtp.mails.map(mailKey))) }) };
}

async function webhook(url: string, body: unknown): Promise<string> {
  const outcome = await postJson(`${url}/webhook`, body);
  if (!('status' in outcome) || outcome.status !== 200) throw new Error(`webhook: ${JSON.stringify(outcome)}`);
  return (outcome.body as { result: string }).result;
}

async function getJson(url: string): Promise<any> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.json();
}

function restartTests(storeSpec: () => string) {
  it('a graceful restart keeps the dispatch log, and a second dispatch inside the cooldown sends nothing', async () => {
    const spec = storeSpec();
    const { smtp, chat, env, keys } = await receivers();
    const args = ['--store', spec, '--clock', CLOCK, '--alert-rate', '0', '--no-auto-dispatch'];
    const first = await startServe(args, env);
    for (const customer of ['dunning_1', 'dunning_2']) {
      expect(await webhook(first.url, purchase(customer))).toBe('applied');
      expect(await webhook(first.url, billingIssue(customer))).toBe('applied');
    }
    const sent = await postJson(`${first.url}/api/dispatch`, {});
    expect(sent).toMatchObject({ status: 200, body: { outcomes: { sent: 4, skipped_cooldown: 0 } } });
    const twice = { 'dunning_1|billing_failure_alert': 1, 'dunning_2|billing_failure_alert': 1 };
    expect(keys()).toEqual({ chat: twice, email: twice });
    const logBefore = (await getJson(`${first.url}/api/dispatches`)).items as { id: number; outcome: string; trigger: string }[];
    expect(logBefore.map((e) => `${e.outcome}/${e.trigger}`)).toEqual(['sent/batch', 'sent/batch', 'sent/batch', 'sent/batch']);
    expect(logBefore.every((e) => typeof e.id === 'number')).toBe(true);
    expect(await first.stop()).toBe(0);

    const second = await startServe(args, env);
    expect((await getJson(`${second.url}/api/dispatches`)).items).toEqual(logBefore);
    const again = await postJson(`${second.url}/api/dispatch`, {});
    expect(again).toMatchObject({ status: 200, body: { deliveries: 4, outcomes: { sent: 0, skipped_cooldown: 4 } } });
    const logAfter = (await getJson(`${second.url}/api/dispatches`)).items as { id: number; outcome: string }[];
    expect(logAfter.slice(0, 4).map((e) => e.outcome)).toEqual(['skipped_cooldown', 'skipped_cooldown', 'skipped_cooldown', 'skipped_cooldown']);
    expect(logAfter.slice(4)).toEqual(logBefore);
    expect(Math.min(...logAfter.slice(0, 4).map((e) => e.id))).toBeGreaterThan(Math.max(...logBefore.map((e) => e.id)));
    expect(await second.stop()).toBe(0);
    expect(keys()).toEqual({ chat: twice, email: twice });
    expect([smtp.mails.length, chat.posts.length]).toEqual([2, 2]);
  }, 30_000);

  it('SIGKILL after an alert went out: the redelivered webhook is a duplicate, a new event is inside the cooldown, no second alert', async () => {
    const spec = storeSpec();
    const { env, keys } = await receivers();
    const args = ['--store', spec, '--clock', CLOCK, '--alert-rate', '0'];
    const first = await startServe(args, env);
    expect(await webhook(first.url, purchase('k'))).toBe('applied');
    expect(await webhook(first.url, billingIssue('k'))).toBe('applied'); // auto-dispatch sends after answering
    const once = { 'k|billing_failure_alert': 1 };
    await eventually(() => expect(keys()).toEqual({ chat: once, email: once }), 10_000);
    await first.crash();

    const second = await startServe(args, env);
    // The billing service redelivers both events (as it does when unsure a delivery got through).
    expect(await webhook(second.url, billingIssue('k'))).toBe('duplicate');
    expect(await webhook(second.url, purchase('k'))).toBe('duplicate');
    // A genuinely new event for k (an earlier renewal arriving late) keeps it alert-worthy: it is
    // applied and auto-dispatched, and the cooldown claimed before the crash holds it back.
    const lateRenewal = fixture('renewal', { app_user_id: 'k', id: 'k-renewal', event_timestamp_ms: T0 + HOUR / 2, purchased_at_ms: T0 + HOUR / 2 });
    expect(await webhook(second.url, lateRenewal)).toBe('applied');
    const sub = await getJson(`${second.url}/api/subscribers/k`);
    expect(sub).toMatchObject({ state: 'billing_issue', renewals: 1, billing_failures: 1, event_count: 3 });
    expect((await getJson(`${second.url}/api/subscribers/k/recommend`)).recommendations[0]).toMatchObject({ action: 'billing_failure_alert', urgency: 'immediate' });
    // A control customer after the restart does get its alert: the channels work, only k is held back.
    expect(await webhook(second.url, purchase('ctl'))).toBe('applied');
    expect(await webhook(second.url, billingIssue('ctl'))).toBe('applied');
    expect(await second.stop()).toBe(0); // waits for pending alerts
    const both = { 'k|billing_failure_alert': 1, 'ctl|billing_failure_alert': 1 };
    expect(keys()).toEqual({ chat: both, email: both });
  }, 30_000);
}

describe('restart on SQLite keeps cooldowns and the dispatch log', () => {
  restartTests(() => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-restart-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'tenure.db')}`;
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)('restart on PostgreSQL keeps cooldowns and the dispatch log', () => {
  restartTests(() => {
    const schema = testSchema('restart');
    cleanups.push(schema.drop);
    return schema.spec;
  });
});
