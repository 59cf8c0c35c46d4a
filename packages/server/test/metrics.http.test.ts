import { parsePrometheusText, sampleValue, startChatReceiver, type PromFamily } from '@tenure/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackNotifier } from '../src/index.js';
import { fixture } from './helpers/fixtures.js';
import { eventually, startTestServer, type Mode, type TestServer } from './helpers/testServer.js';

const WEBHOOKS = 'tenure_webhooks_received_total';
const REQUESTS = 'tenure_http_request_duration_seconds';

/** An initial purchase of its own (event id and transaction), so it is not a repeat of another. */
const purchase = (customer: string) => fixture('initial_purchase', { app_user_id: customer, id: `ip_${customer}`, transaction_id: `tx_${customer}` });

describe.each<Mode>(['listener', 'express'])('GET /metrics (%s)', (mode) => {
  let app: TestServer;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await app.close();
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });
  const start = async (options = {}) => (app = await startTestServer(options, mode));
  const scrape = async (headers: Record<string, string> = {}): Promise<Map<string, PromFamily>> => {
    const res = await fetch(`${app.url}/metrics`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  };

  it('counts webhooks by type and outcome: 4 applied (one a transfer), 2 duplicates, 1 invalid, 1 unknown type', async () => {
    await start();
    for (const id of ['user_1', 'user_2']) await app.webhook(purchase(id));
    await app.webhook(fixture('renewal', { app_user_id: 'user_1' }));
    await app.webhook(fixture('renewal', { app_user_id: 'user_1' }));
    await app.webhook(purchase('user_1'));
    const invalid = fixture('cancellation');
    delete invalid.event['app_user_id'];
    expect((await app.webhook(invalid)).status).toBe(400);
    await app.webhook(fixture('transfer'));
    await app.webhook({ event: { type: 'SOMETHING_NEW_12345' } });

    const m = await scrape();
    expect(m.get(WEBHOOKS)?.type).toBe('counter');
    expect(sampleValue(m, WEBHOOKS, { type: 'INITIAL_PURCHASE', outcome: 'applied' })).toBe(2);
    expect(sampleValue(m, WEBHOOKS, { type: 'RENEWAL', outcome: 'applied' })).toBe(1);
    expect(sampleValue(m, WEBHOOKS, { type: 'RENEWAL', outcome: 'duplicate' })).toBe(1);
    expect(sampleValue(m, WEBHOOKS, { type: 'INITIAL_PURCHASE', outcome: 'duplicate' })).toBe(1);
    expect(sampleValue(m, WEBHOOKS, { type: 'CANCELLATION', outcome: 'rejected_invalid' })).toBe(1);
    expect(sampleValue(m, WEBHOOKS, { type: 'TRANSFER', outcome: 'applied' })).toBe(1);
    // An undocumented type is one label, never its own series.
    expect(sampleValue(m, WEBHOOKS, { type: 'other', outcome: 'unhandled' })).toBe(1);
    expect(m.get(WEBHOOKS)!.samples.every((s) => s.labels['type'] !== 'SOMETHING_NEW_12345')).toBe(true);
    expect(m.get(WEBHOOKS)!.samples.reduce((n, s) => n + s.value, 0)).toBe(8);
    // Every webhook is one observation of the request histogram: 7 answered 200, 1 answered 400.
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/webhook', status_class: '2xx' })).toBe(7);
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/webhook', status_class: '4xx' })).toBe(1);
    expect(sampleValue(m, `${REQUESTS}_bucket`, { route: '/webhook', status_class: '2xx', le: '+Inf' })).toBe(7);
    // Store calls: stored events, the transfer and duplicates reach the store (4 applied + 2 duplicates).
    expect(sampleValue(m, 'tenure_store_operation_duration_seconds_count', { operation: 'apply' })).toBe(6);
  });

  it('counts rejected webhooks: wrong auth, not JSON, not UTF-8', async () => {
    await start({ webhookAuthKey: 'secret' });
    expect((await app.webhook(fixture('renewal'), { authorization: 'wrong' })).status).toBe(401);
    expect((await app.webhook('{"event": ', { authorization: 'secret' })).status).toBe(400);
    const res = await fetch(`${app.url}/webhook`, { method: 'POST', headers: { authorization: 'secret' }, body: new Uint8Array([0x7b, 0xff, 0x7d]) });
    expect(res.status).toBe(400);
    const m = await scrape();
    expect(sampleValue(m, WEBHOOKS, { type: 'other', outcome: 'rejected_auth' })).toBe(1);
    expect(sampleValue(m, WEBHOOKS, { type: 'other', outcome: 'rejected_invalid' })).toBe(2);
  });

  it('times API routes by pattern, never by raw URL, and puts unknown paths under one label', async () => {
    await start();
    await app.webhook(fixture('initial_purchase', { app_user_id: 'user_1' }));
    for (const id of ['user_1', 'user_2', 'user_3']) await app.request('GET', `/api/subscribers/${id}`);
    await app.request('GET', '/api/subscribers/user_1/recommend');
    await app.request('GET', '/api/at-risk?min_score=0');
    await app.request('GET', '/no/such/route/1');
    await app.request('GET', '/no/such/route/2');
    await app.request('GET', '/api/subscribers/__proto__/constructor');
    const m = await scrape();
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/api/subscribers/:customer_id', status_class: '2xx' })).toBe(1);
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/api/subscribers/:customer_id', status_class: '4xx' })).toBe(2);
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/api/subscribers/:customer_id/recommend', status_class: '2xx' })).toBe(1);
    expect(sampleValue(m, `${REQUESTS}_count`, { route: '/api/at-risk', status_class: '2xx' })).toBe(1);
    expect(sampleValue(m, `${REQUESTS}_count`, { route: 'other', status_class: '4xx' })).toBe(3);
    const routes = new Set(m.get(REQUESTS)!.samples.map((s) => s.labels['route']));
    expect([...routes].every((r) => r === 'other' || r === '/webhook' || r!.startsWith('/api/') || r === '/metrics')).toBe(true);
    expect(sampleValue(m, 'tenure_store_operation_duration_seconds_count', { operation: 'at_risk' })).toBe(1);
  });

  it('reports subscribers by state and by band from the store, with their monthly value', async () => {
    await start();
    await app.webhook(purchase('a'));
    await app.webhook(purchase('b'));
    await app.webhook(fixture('billing_issue', { app_user_id: 'b' }));
    const m = await scrape();
    const states = m.get('tenure_subscribers')!.samples;
    expect(states.reduce((n, s) => n + s.value, 0)).toBe(2);
    expect(sampleValue(m, 'tenure_subscribers', { state: 'billing_issue' })).toBe(1);
    const bands = m.get('tenure_subscribers_by_band')!.samples;
    expect(bands.map((s) => s.labels['band']).sort()).toEqual(['critical', 'high', 'low', 'medium']);
    expect(bands.reduce((n, s) => n + s.value, 0)).toBe(2);
    // The same totals the at-risk list gives.
    const atRisk = await app.request('GET', '/api/at-risk?min_score=0&band=critical');
    expect(sampleValue(m, 'tenure_subscribers_by_band', { band: 'critical' })).toBe(atRisk.body.total.subscribers);
    expect(sampleValue(m, 'tenure_monthly_value_usd_by_band', { band: 'critical' })).toBe(atRisk.body.total.monthly_value_usd);
  });

  it('counts a dispatch to a local chat receiver by channel and outcome', async () => {
    const chat = await startChatReceiver();
    cleanups.push(chat.close);
    await start({ notifiers: [createSlackNotifier({ webhookUrl: chat.url })] });
    await app.webhook(purchase('user_9'));
    await app.webhook(fixture('billing_issue', { app_user_id: 'user_9' }));
    await eventually(() => expect(chat.posts.length).toBe(1));
    await eventually(async () => expect(sampleValue(await scrape(), 'tenure_dispatches_total', { channel: 'chat', outcome: 'sent' })).toBe(1));
  });

  it('needs the API key when TENURE_API_KEY is set: 401 without it, 200 with it', async () => {
    await start({ apiKey: 'k3y' });
    const bare = await fetch(`${app.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer');
    expect(await bare.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const m = await scrape({ authorization: 'Bearer k3y' });
    expect(m.has('process_cpu_user_seconds_total')).toBe(true);
  });

  it('is open with metricsPublic even when an API key is set (the API stays closed)', async () => {
    await start({ apiKey: 'k3y', metricsPublic: true });
    await scrape();
    expect((await app.request('GET', '/api/at-risk')).status).toBe(401);
  });
});

describe('metrics registries', () => {
  it('keeps two apps in one process apart (a registry per app)', async () => {
    const one = await startTestServer();
    const two = await startTestServer();
    try {
      await one.webhook(fixture('renewal', { app_user_id: 'x' }));
      const read = async (app: TestServer) => parsePrometheusText(await (await fetch(`${app.url}/metrics`)).text());
      expect(sampleValue(await read(one), WEBHOOKS, { type: 'RENEWAL', outcome: 'applied' })).toBe(1);
      expect(sampleValue(await read(two), WEBHOOKS, { type: 'RENEWAL', outcome: 'applied' })).toBe(0);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
