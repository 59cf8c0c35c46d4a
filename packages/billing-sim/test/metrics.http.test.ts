import { parsePrometheusText, sampleValue, type PromFamily } from '@tenure/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerOptions } from '../src/index.js';
import { startApp, startReceiver, type Receiver, type TestApp } from './helpers.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const DELIVERIES = 'tenure_sim_webhook_deliveries_total';

/** Polls `check` every 5 ms until it passes (at most 2 s). */
async function eventually(check: () => void): Promise<void> {
  const until = Date.now() + 2000;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

describe.each(['node', 'express'] as const)('GET /metrics of the simulator (%s)', (binding) => {
  let app: TestApp;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await app.close();
    await receiver?.close();
    receiver = undefined;
  });
  const start = async (handler: HandlerOptions = {}) => (app = await startApp({ now: T0 }, handler, binding));
  const scrape = async (headers: Record<string, string> = {}): Promise<Map<string, PromFamily>> => {
    const res = await fetch(`${app.url}/metrics`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await res.text());
  };
  /** A product, a webhook target at a local receiver answering `statusFor`, and `n` purchases. */
  const purchase = async (n: number, statusFor: (i: number, body: any) => number = () => 200, webhook: Record<string, unknown> = {}) => {
    receiver = await startReceiver(statusFor);
    expect((await app.call('POST', '/sim/webhook', { url: receiver.url, retry_schedule: [1, 1], ...webhook })).status).toBe(200);
    await app.call('POST', '/sim/products', { id: 'pack', type: 'consumable' });
    for (let i = 0; i < n; i++) expect((await app.call('POST', '/sim/purchases', { customer_id: `u${i}`, product_id: 'pack' })).status).toBeLessThan(300);
  };

  it('shows the virtual clock in epoch seconds, and moves with it', async () => {
    await start();
    expect(sampleValue(await scrape(), 'tenure_sim_clock_seconds')).toBe(T0 / 1000);
    await app.call('POST', '/sim/clock/advance', { by: 'P1D' });
    expect(sampleValue(await scrape(), 'tenure_sim_clock_seconds')).toBe(T0 / 1000 + 86_400);
  });

  it('counts deliveries to a local webhook receiver and times each attempt (zero before the first)', async () => {
    await start();
    const before = await scrape();
    expect(sampleValue(before, 'tenure_sim_webhook_delivery_duration_seconds_count')).toBe(0);
    expect(sampleValue(before, 'tenure_sim_webhook_delivery_duration_seconds_bucket', { le: '+Inf' })).toBe(0);
    expect(before.get(DELIVERIES)?.samples ?? []).toHaveLength(0); // outcomes appear once counted
    await purchase(3);
    await eventually(() => expect(receiver!.received).toHaveLength(3));
    await app.sim.outbox.idle();
    const m = await scrape();
    expect(sampleValue(m, DELIVERIES, { outcome: 'delivered' })).toBe(3);
    expect(sampleValue(m, 'tenure_sim_webhook_delivery_duration_seconds_count')).toBe(3);
    expect(sampleValue(m, 'tenure_sim_webhook_delivery_duration_seconds_bucket', { le: '+Inf' })).toBe(3);
  });

  it('counts a failed attempt that is retried, and a delivery that fails for good', async () => {
    await start();
    // u0: 500 then 200 (retried, delivered); u1: 500 three times (retried twice, then failed).
    const seen = new Map<string, number>();
    await purchase(2, (_n, body: { event: { app_user_id: string } }) => {
      const customer = body.event.app_user_id;
      seen.set(customer, (seen.get(customer) ?? 0) + 1);
      return customer === 'u0' && seen.get(customer) === 2 ? 200 : 500;
    });
    await eventually(() => expect(app.sim.deliveries().map((d) => d.state)).toEqual(['delivered', 'failed']));
    const m = await scrape();
    expect(sampleValue(m, DELIVERIES, { outcome: 'delivered' })).toBe(1);
    expect(sampleValue(m, DELIVERIES, { outcome: 'retried' })).toBe(3);
    expect(sampleValue(m, DELIVERIES, { outcome: 'failed' })).toBe(1);
    expect(sampleValue(m, 'tenure_sim_webhook_delivery_duration_seconds_count')).toBe(5);
  });

  it('counts events the drop fault discards', async () => {
    await start();
    await purchase(2, () => 200, { faults: { drop_rate: 1 } });
    const m = await scrape();
    expect(sampleValue(m, DELIVERIES, { outcome: 'dropped' })).toBe(2);
    expect(receiver!.received).toHaveLength(0);
  });

  it('counts API requests by route pattern and status, unknown paths as other, 429s by domain', async () => {
    await start({ rateLimits: { limits: { project_configuration: 1 } } });
    const products = '/v2/projects/proj1/products';
    expect((await app.call('GET', products)).status).toBe(200);
    expect((await app.call('GET', products)).status).toBe(429);
    await app.call('GET', '/v2/projects/proj1/customers/nobody_1');
    await app.call('GET', '/v2/projects/proj1/customers/nobody_2');
    await app.call('GET', '/no/such/path/1');
    await app.call('GET', '/no/such/path/2');
    const m = await scrape();
    const requests = 'tenure_sim_http_requests_total';
    expect(sampleValue(m, requests, { method: 'GET', route: '/v2/projects/:project_id/products', status: '200' })).toBe(1);
    expect(sampleValue(m, requests, { method: 'GET', route: '/v2/projects/:project_id/products', status: '429' })).toBe(1);
    expect(sampleValue(m, requests, { method: 'GET', route: '/v2/projects/:project_id/customers/:customer_id', status: '404' })).toBe(2);
    expect(sampleValue(m, requests, { method: 'other', route: 'other', status: '404' })).toBe(2);
    expect(m.get(requests)!.samples.every((s) => !s.labels['route']!.includes('nobody') && !s.labels['route']!.includes('/no/'))).toBe(true);
    expect(sampleValue(m, 'tenure_sim_rate_limited_total', { domain: 'project_configuration' })).toBe(1);
  });

  it('needs the API key when one is set: 401 without it, 200 with it', async () => {
    await start({ apiKey: 'k3y' });
    const bare = await fetch(`${app.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ object: 'error', type: 'authentication_error' });
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await scrape({ authorization: 'Bearer k3y' })).has('process_cpu_user_seconds_total')).toBe(true);
  });

  it('is open with metricsPublic even when a key is set (the API stays closed)', async () => {
    await start({ apiKey: 'k3y', metricsPublic: true });
    await scrape();
    expect((await app.call('GET', '/sim/clock')).status).toBe(401);
  });
});
