// A full alert queue and a slow Slack: SIGTERM must end `tenure serve` with exit code 0 inside the
// shutdown bound, leave every unsent alert in the dispatch log as failed with the shutdown error
// (and a warn line naming customer, action and channel), and release its cooldown, so a batch
// dispatch after a restart on the same SQLite file sends it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatKey } from '../durability/alertKeys.js';
import { postJson } from '../durability/sendAll.js';
import { killServes, startServe } from '../durability/serveProcess.js';
import type { ChatPost } from '@tenure/testkit';
import { DAY, fixture, T0 } from '../helpers/fixtures.js';
import { eventually } from '../helpers/testServer.js';

const HOUR = 3_600_000;
const CLOCK = new Date(T0 + DAY).toISOString();
const BOUND_MS = 2000;
const CUSTOMERS = Array.from({ length: 8 }, (_, i) => `late_${i}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await killServes();
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A Slack stand-in: records each post, then answers `status` after `delayMs`. */
async function startSlack(delayMs: number, status: number) {
  const posts: ChatPost[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'rate_limited'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T/B/X`, posts };
}

const webhook = async (url: string, body: unknown) => {
  const outcome = await postJson(`${url}/webhook`, body);
  expect(outcome).toMatchObject({ status: 200 });
};

describe('tenure serve shutdown with a full alert queue and a slow Slack', () => {
  it('exits 0 within the bound, records and logs each unsent alert, and a dispatch after restart sends them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-shutdown-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = `sqlite:${join(dir, 'tenure.db')}`;
    const slow = await startSlack(1500, 429); // slow, then "retry later": every alert stays unsent
    const args = ['--store', store, '--clock', CLOCK, '--shutdown-timeout-ms', String(BOUND_MS)];

    const first = await startServe(args, { SLACK_WEBHOOK_URL: slow.url });
    for (const customer of CUSTOMERS) {
      await webhook(first.url, fixture('initial_purchase', { app_user_id: customer, id: `${customer}-p` }));
      await webhook(first.url, fixture('billing_issue', { app_user_id: customer, id: `${customer}-b`, event_timestamp_ms: T0 + HOUR }));
    }
    await eventually(() => expect(slow.posts.length).toBeGreaterThan(0), 5000); // the queue is draining at 1/s

    const started = performance.now();
    const code = await first.stop();
    const took = performance.now() - started;
    expect(code).toBe(0);
    expect(took).toBeLessThan(BOUND_MS + 1500); // the bound, plus process teardown

    const dropped = first.logs.filter((l) => l['level'] === 40 && String(l['msg']).startsWith('alert dropped at shutdown'));
    expect(dropped.map((l) => l['customer_id']).sort()).toEqual([...CUSTOMERS].sort());
    for (const line of dropped) expect(line).toMatchObject({ action: 'billing_failure_alert', channel: 'chat' });

    // Restart on the same file with a Slack that answers: the log holds the failures, a batch dispatch sends them.
    const fast = await startSlack(0, 200);
    const second = await startServe([...args, '--no-auto-dispatch'], { SLACK_WEBHOOK_URL: fast.url });
    const log = (await (await fetch(`${second.url}/api/dispatches?limit=500`)).json()) as { items: Record<string, unknown>[] };
    const shutdownFailures = log.items.filter((r) => r['error'] === 'not sent before shutdown');
    expect(shutdownFailures.map((r) => r['customer_id']).sort()).toEqual([...CUSTOMERS].sort());
    for (const r of shutdownFailures) expect(r).toMatchObject({ outcome: 'failed', channel: 'chat', action: 'billing_failure_alert' });

    const dispatch = await fetch(`${second.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 500 }) });
    expect(dispatch.status).toBeLessThan(300);
    await eventually(() => expect(new Set(fast.posts.map(chatKey))).toEqual(new Set(CUSTOMERS.map((c) => `${c}|billing_failure_alert`))), 15_000);
    expect(await second.stop()).toBe(0);
  }, 60_000);
});
