// The signed webhook channel survives a crash: a real `tenure serve` on a SQLite file posts an
// alert to a real receiver that holds the request open; SIGKILL; the restarted service sends that
// delivery again with the same webhook-id and body, which the receiver verifies with the
// `standardwebhooks` package (timestamp on the wall clock, though the service runs on a simulated
// clock); a delivery recorded `sent` before the crash is never sent again.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { eventually } from '../helpers/testServer.js';
import { postJson } from './sendAll.js';
import { killServes, startServe } from './serveProcess.js';

const SECRET = `whsec_${Buffer.from('the crash test secret, 32 bytes!').toString('base64')}`;
const HOUR = 3_600_000;
const CLOCK = new Date(T0 + DAY).toISOString(); // a simulated clock, far from the wall clock

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await killServes();
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers 200, or holds each request open (never answers) while `hold` is set. */
async function startReceiver() {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const state = { hold: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.hold) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/tenure`, received, state };
}

const customerOf = (r: Received) => (JSON.parse(r.body) as { data: { customer_id: string } }).data.customer_id;

const billingIssue = async (url: string, customer: string) => {
  expect(await postJson(`${url}/webhook`, fixture('initial_purchase', { app_user_id: customer, id: `${customer}-p` }))).toMatchObject({ status: 200 });
  expect(await postJson(`${url}/webhook`, fixture('billing_issue', { app_user_id: customer, id: `${customer}-b`, event_timestamp_ms: T0 + HOUR }))).toMatchObject({ status: 200 });
};

type Row = { id: number; customer_id: string; channel: string; outcome: string; attempt: number; delivery_id: number | null; target: string | null; detail: string | null };
const dispatches = async (url: string): Promise<Row[]> => ((await (await fetch(`${url}/api/dispatches?limit=500`)).json()) as { items: Row[] }).items.reverse();

describe('tenure serve: a webhook delivery cut short by SIGKILL', () => {
  it('is sent after the restart with the same webhook-id and body, verified by standardwebhooks; one already sent is never sent again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-hook-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const receiver = await startReceiver();
    const args = ['--store', `sqlite:${join(dir, 'tenure.db')}`, '--clock', CLOCK];
    const env = { ALERT_WEBHOOK_URL: receiver.url, ALERT_WEBHOOK_SECRET: SECRET };

    const first = await startServe(args, env);
    // Delivered and recorded before the crash.
    await billingIssue(first.url, 'sent_before');
    await eventually(async () => expect((await dispatches(first.url)).some((r) => r.customer_id === 'sent_before' && r.channel === 'webhook' && r.outcome === 'sent')).toBe(true), 10_000);
    // Held open by the receiver at the moment of the crash.
    receiver.state.hold = true;
    await billingIssue(first.url, 'in_flight');
    await eventually(() => expect(receiver.received.map(customerOf)).toContain('in_flight'), 10_000);
    const beforeCrash = await dispatches(first.url);
    const open = beforeCrash.filter((r) => r.customer_id === 'in_flight' && r.channel === 'webhook');
    expect(open.map((r) => [r.outcome, r.target])).toEqual([['pending', 'default']]);
    expect(open[0]!.detail).toBe(receiver.received.find((r) => customerOf(r) === 'in_flight')!.body);
    first.crash(); // SIGKILL
    await first.exited;
    receiver.state.hold = false;

    const second = await startServe([...args, '--no-auto-dispatch'], env);
    await eventually(() => expect(receiver.received.filter((r) => customerOf(r) === 'in_flight')).toHaveLength(2), 15_000);
    const [held, resent] = receiver.received.filter((r) => customerOf(r) === 'in_flight');
    expect(resent!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    expect(resent!.body).toBe(held!.body);
    const event = new Webhook(SECRET).verify(resent!.body, resent!.headers as Record<string, string>) as { type: string; data: { customer_id: string; recommendation: { urgency: string } } };
    expect(event).toMatchObject({ type: 'recommendation.dispatched', data: { customer_id: 'in_flight', recommendation: { urgency: 'immediate' } } });
    expect(Math.abs(Number(resent!.headers['webhook-timestamp']) * 1000 - Date.now())).toBeLessThan(60_000); // wall clock, not CLOCK
    await eventually(async () => {
      const rows = (await dispatches(second.url)).filter((r) => r.delivery_id === open[0]!.id);
      expect(rows.map((r) => [r.outcome, r.attempt])).toEqual([['pending', 0], ['sent', 1]]);
    }, 10_000);
    // Give the restart time to send anything else it (wrongly) thought unfinished.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => customerOf(r) === 'sent_before')).toHaveLength(1);
    expect(receiver.received).toHaveLength(3);
    expect(second.logs.some((l) => l['msg'] === 'unfinished deliveries taken up at start' && l['deliveries'] === 1)).toBe(true);
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
