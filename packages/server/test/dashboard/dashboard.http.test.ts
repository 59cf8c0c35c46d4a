import { readFileSync } from 'node:fs';
import express from 'express';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDashboardModule, GENERATED_PATH } from '../../dashboard/buildDashboard.js';
import { closeRetentionApp, createRetentionApp } from '../../src/index.js';
import { fixture, T0 } from '../helpers/fixtures.js';
import { eventually } from '../helpers/testServer.js';
import { externalReferences, pageAssetPaths } from '@tenure/testkit';
import { churnEvents, seedPopulation, startDashboardServer, type DashboardServer } from './dashboardServer.js';

let server: DashboardServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the dashboard page', () => {
  it('is served at / as HTML that must be revalidated, with a same-origin CSP and an ETag', async () => {
    server = await startDashboardServer();
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('serves its script and stylesheet by content hash as immutable, with their content types', async () => {
    server = await startDashboardServer();
    const html = await (await fetch(`${server.url}/`)).text();
    const paths = pageAssetPaths(html);
    expect(paths).toEqual([expect.stringMatching(/^dashboard\/app\.[0-9a-f]{12}\.css$/), expect.stringMatching(/^dashboard\/app\.[0-9a-f]{12}\.js$/)]);
    const types = [];
    for (const path of paths) {
      const res = await fetch(`${server.url}/${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toMatch(/^"/);
      types.push(res.headers.get('content-type'));
    }
    expect(types).toEqual(['text/css; charset=utf-8', 'text/javascript; charset=utf-8']);
    expect((await fetch(`${server.url}/dashboard/app.000000000000.js`)).status).toBe(404);
  });

  it('names no external URL in its HTML, script or stylesheet (works offline, no CDN)', async () => {
    server = await startDashboardServer();
    const html = await (await fetch(`${server.url}/`)).text();
    const texts = [html, ...(await Promise.all(pageAssetPaths(html).map(async (p) => (await fetch(`${server!.url}/${p}`)).text())))];
    for (const text of texts) expect(externalReferences(text)).toEqual([]);
  });

  it('is built from packages/server/dashboard: the committed module is what the build produces', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await buildDashboardModule());
  });

  it('redirects a mounted app\'s prefix to its trailing slash, so the relative asset URLs resolve under it', async () => {
    const retention = createRetentionApp({ logger: pino({ level: 'silent' }) });
    const host = express().use('/retention', retention);
    const http = createServer(host);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const bare = await fetch(`${url}/retention`, { redirect: 'manual' });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/retention/');
      const page = await fetch(`${url}/retention/`);
      const [css] = pageAssetPaths(await page.text());
      expect((await fetch(`${url}/retention/${css}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await closeRetentionApp(retention);
    }
  });
});

describe('GET /api/dashboard/summary', () => {
  it('counts subscribers per state and band, the revenue at risk, today\'s alerts and the last hour\'s webhooks', async () => {
    server = await startDashboardServer({ dispatch: { auto: false } });
    await seedPopulation(server); // 9 webhooks, all applied
    expect(await server.webhook('{not json')).toBe(400);
    expect(await server.webhook(fixture('test'))).toBe(200); // ignored, still received
    // A compressed body goes through the Express route, not the fast path: counted once all the same.
    const gzipped = await fetch(`${server.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(fixture('test'))) });
    expect(gzipped.status).toBe(200);
    const dispatched = await fetch(`${server.url}/api/subscribers/churned-1/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(dispatched.status).toBe(200);
    const res = await fetch(`${server.url}/api/dashboard/summary`);
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.subscribers).toBe(6);
    expect(body.by_state).toMatchObject({ churned: 1, billing_issue: 1, pending_cancel: 1, trialing: 1, active: 2 });
    expect(body.by_band).toEqual({ critical: 2, high: 1, medium: 1, low: 2 });
    expect(body.at_risk).toEqual({ min_score: 60, subscribers: 3, monthly_value_usd: 29.97 });
    expect(body.alerts_today).toEqual({ day_start: T0 - (T0 % 86_400_000), email: 1, chat: 1, log: 0, webhook: 0, complete: true });
    expect(body.webhooks_last_hour).toEqual({ received: 12, rejected: 1 });
  });

  it('refuses an unknown parameter with 400 naming it', async () => {
    server = await startDashboardServer();
    const res = await fetch(`${server.url}/api/dashboard/summary?band=high`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.field).toBe('band');
  });

  it('needs the bearer key when TENURE_API_KEY is set, like every /api route', async () => {
    server = await startDashboardServer({ apiKey: 'k' });
    expect((await fetch(`${server.url}/api/dashboard/summary`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/dashboard/summary`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(200); // the page itself is open: it asks for the key
  });
});

describe('one subscriber on the dashboard', () => {
  it('shows when its score next changes and its dispatch history; dispatch now sends its top alert', async () => {
    server = await startDashboardServer({ dispatch: { auto: false } });
    await server.seed('trial-1', 'trial');
    const before: any = await (await fetch(`${server.url}/api/dashboard/subscribers/trial-1`)).json();
    expect(before.dispatches).toEqual({ items: [], complete: true });
    expect(before.next_change_at).toBeGreaterThan(T0);
    const plan: any = await (await fetch(`${server.url}/api/subscribers/trial-1/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"dry_run":true}' })).json();
    expect(plan).toMatchObject({ dry_run: true, subscribers: 1, deliveries: 1, outcomes: { sent: 0 }, planned: [{ customer_id: 'trial-1', channel: 'email' }] });
    expect((await (await fetch(`${server.url}/api/dashboard/subscribers/trial-1`)).json() as any).dispatches.items).toEqual([]); // nothing sent or logged
    const sent = await fetch(`${server.url}/api/subscribers/trial-1/dispatch`, { method: 'POST' });
    expect(sent.status).toBe(200);
    const after: any = await (await fetch(`${server.url}/api/dashboard/subscribers/trial-1`)).json();
    expect(after.dispatches.items.map((r: { customer_id: string; trigger: string }) => [r.customer_id, r.trigger])).not.toHaveLength(0);
    expect(after.dispatches.items.every((r: { customer_id: string }) => r.customer_id === 'trial-1')).toBe(true);
    expect((await fetch(`${server.url}/api/dashboard/subscribers/nobody`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/dashboard/subscribers/trial-1?environment=sandbox`)).status).toBe(404); // production only has it
    expect(((await (await fetch(`${server.url}/api/dashboard/subscribers/trial-1?band=high`)).json()) as any).error.field).toBe('band');
    expect((await fetch(`${server.url}/api/subscribers/nobody/dispatch`, { method: 'POST' })).status).toBe(404);
  });
});

/** A reader of server-sent events: `next(until)` reads until `until` returns true for an event. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return async (until: (type: string, data: string) => boolean): Promise<void> => {
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    buffer += value;
    let at;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const type = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined && until(type, data)) return;
    }
  }
  };
}

describe('GET /api/dashboard/live', () => {
  it('streams a change naming the customer of each newly applied webhook', async () => {
    server = await startDashboardServer();
    const res = await fetch(`${server.url}/api/dashboard/live`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const next = eventReader(res.body!);
    await next((type) => type === 'hello');
    for (const body of churnEvents('live-1')) expect(await server.webhook(body)).toBe(200);
    let ids: string[] = [];
    await next((type, data) => type === 'change' && (ids = JSON.parse(data).customer_ids).length > 0);
    expect(ids).toEqual(['live-1']);
  });

  it('adds nothing to the webhook path while no stream is open', async () => {
    server = await startDashboardServer({ notifiers: [] }); // no channel: no auto-dispatch either
    const runtime = server.running.listener.runtime;
    await fetch(`${server.url}/api/dashboard/summary`); // the dashboard state exists
    expect(runtime.afterApplied).toBeUndefined();
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/dashboard/live`, { signal: controller.signal });
    await eventReader(res.body!)((type) => type === 'hello');
    expect(runtime.afterApplied).toBeTypeOf('function');
    controller.abort();
    await eventually(() => expect(runtime.afterApplied).toBeUndefined());
  });

  it('answers 503 past its client limit, and a shutdown ends every stream instead of waiting for it', async () => {
    const lines: { msg?: string; connectionsCut?: boolean }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    server = await startDashboardServer({ shutdownTimeoutMs: 20_000, logger });
    const streams = [];
    for (let i = 0; i < 32; i++) {
      const res = await fetch(`${server.url}/api/dashboard/live`);
      expect(res.status).toBe(200);
      streams.push(res);
    }
    const over = await fetch(`${server.url}/api/dashboard/live`);
    expect(over.status).toBe(503);
    expect(((await over.json()) as any).error.code).toBe('unavailable');
    const ended = streams.map((res) => res.text());
    await server.close();
    server = undefined;
    await Promise.all(ended); // every stream was ended by the server
    // Ended, not cut at the 20 s bound: the open streams did not hold the shutdown up.
    expect(lines.find((line) => line.msg === 'stopped')).toMatchObject({ connectionsCut: false });
  });
});
