// `tenure serve --store`: a store that cannot be opened stops the start with one line and exit code
// 1; a SQLite file keeps subscribers, the dispatch log and cooldowns across a restart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { startChatReceiver } from '@tenure/testkit';
import { captureCli } from './helpers/cliCapture.js';
import { fixture, T0 } from './helpers/fixtures.js';
import { eventually } from './helpers/testServer.js';

const dir = mkdtempSync(join(tmpdir(), 'tenure-cli-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tenure serve --store that cannot be opened', () => {
  const notAFile = join(dir, 'plain-file');
  writeFileSync(notAFile, 'a file, so nothing can be created under it');

  it.each([
    ['a malformed spec', ['--store', 'mysql://root:hunter2@db/x'], /^tenure serve: cannot open store mysql:\/\/root:\*\*\*@db\/x: unknown store kind: use memory, sqlite:PATH or postgres:/],
    ['a malformed PostgreSQL URL', ['--store', 'postgres://[::1/x'], /^tenure serve: cannot open store postgres:\/\/\[::1\/x: malformed PostgreSQL URL/],
    ['an unreachable PostgreSQL', ['--store', 'postgres://postgres:hunter2@127.0.0.1:1/x'], /^tenure serve: cannot open store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x: \S/],
    ['an unwritable SQLite path', ['--store', `sqlite:${join(notAFile, 'tenure.db')}`], new RegExp(`^tenure serve: cannot open store sqlite:${notAFile}/tenure\\.db: \\S`)],
  ])('%s: exits 1 with one line on stderr, no stack trace, no password, never listens', async (_name, args, line) => {
    const c = captureCli();
    const result = await runCli(['serve', '--port', '0', ...args], {}, c.io);
    expect(result.code).toBe(1);
    expect(result.running).toBeUndefined();
    const stderr = c.err.join('');
    expect(stderr).toMatch(line);
    expect(stderr.split('\n')).toHaveLength(2); // one line and its newline
    expect(stderr).not.toMatch(/hunter2|\n\s+at /);
    expect(c.logs.some((l) => typeof l['url'] === 'string')).toBe(false);
  }, 15_000);

  it('reads DATABASE_URL when --store is not given, and the flag wins over it', async () => {
    const c = captureCli();
    expect((await runCli(['serve', '--port', '0'], { DATABASE_URL: 'nonsense' }, c.io)).code).toBe(1);
    expect(c.err.join('')).toMatch(/^tenure serve: cannot open store nonsense: /);
    const { code, running } = await runCli(['serve', '--port', '0', '--store', 'memory'], { DATABASE_URL: 'nonsense' }, c.io);
    expect(code).toBe(0);
    await running!.close();
  });
});

describe('tenure serve on a SQLite file', () => {
  it('keeps subscribers, the dispatch log and cooldowns across a restart: no alert is sent twice', async () => {
    const chat = await startChatReceiver();
    const path = join(dir, 'restart', 'tenure.db'); // the directory does not exist yet
    const env = { SLACK_WEBHOOK_URL: chat.url, TENURE_CLOCK: '2026-01-02T00:00:00Z' };
    const serve = async () => {
      const c = captureCli();
      const { code, running } = await runCli(['serve', '--port', '0', '--store', `sqlite:${path}`], env, c.io);
      expect(code).toBe(0);
      const url = running!.url;
      const call = async (method: string, route: string, body?: unknown) => {
        const res = await fetch(url + route, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
        return { status: res.status, body: (await res.json()) as any };
      };
      return { c, running: running!, call };
    };
    try {
      const first = await serve();
      expect(first.c.logs.find((l) => typeof l['url'] === 'string')).toMatchObject({ store: `sqlite:${path}` });
      expect((await first.call('POST', '/webhook', fixture('initial_purchase', { app_user_id: 'x', id: 'x1' }))).body.result).toBe('applied');
      expect((await first.call('POST', '/webhook', fixture('billing_issue', { app_user_id: 'x', id: 'x2', event_timestamp_ms: T0 + 1 }))).body.result).toBe('applied');
      await eventually(() => expect(chat.posts).toHaveLength(1), 3000); // the immediate alert, auto-dispatched
      let before: { id: number; channel: string; outcome: string }[] = [];
      await eventually(async () => {
        before = (await first.call('GET', '/api/dispatches')).body.items;
        expect(before.find((r) => r.channel === 'chat')).toMatchObject({ outcome: 'sent' });
      }, 3000);
      await first.running.close();

      const second = await serve();
      try {
        expect((await second.call('GET', '/api/subscribers/x')).body).toMatchObject({ state: 'billing_issue', billing_failures: 1, event_count: 2 });
        expect((await second.call('GET', '/api/dispatches')).body.items).toEqual(before);
        // The billing service redelivers the event, then a second failure arrives: neither re-sends.
        expect((await second.call('POST', '/webhook', fixture('billing_issue', { app_user_id: 'x', id: 'x2', event_timestamp_ms: T0 + 1 }))).body.result).toBe('duplicate');
        expect((await second.call('POST', '/webhook', fixture('billing_issue', { app_user_id: 'x', id: 'x3', event_timestamp_ms: T0 + 2 }))).body.result).toBe('applied');
        const pass = await second.call('POST', '/api/dispatch', { state: 'billing_issue' });
        expect(pass.body.channels.chat).toMatchObject({ sent: 0, skipped_cooldown: 1 });
        const after = (await second.call('GET', '/api/dispatches')).body.items as { id: number }[];
        expect(Math.min(...after.slice(0, after.length - before.length).map((r) => r.id))).toBeGreaterThan(Math.max(...before.map((r) => r.id)));
        expect((await second.call('GET', '/api/at-risk')).body.items.map((i: { customer_id: string }) => i.customer_id)).toEqual(['x']);
        await new Promise((resolve) => setTimeout(resolve, 100)); // room for a wrong auto-dispatch to show
        expect(chat.posts).toHaveLength(1);
      } finally {
        await second.running.close();
      }
    } finally {
      await chat.close();
    }
  }, 20_000);
});
