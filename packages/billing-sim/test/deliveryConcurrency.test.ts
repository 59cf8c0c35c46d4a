// Delivery like the billing service's: several deliveries in flight at once (no ordering guarantee),
// each with its timeout and the retry schedule, and the integration filters (environment, event
// types) honoured.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBillingSimulator, createManualScheduler, fetchTransport, httpTransport, webhookConfigSchema, type BillingSimulator, type Transport, type TransportRequest } from '../src/index.js';

let sim: BillingSimulator | undefined;
let server: Server | undefined;
afterEach(async () => {
  sim?.close();
  sim = undefined;
  if (server !== undefined) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
  }
});

/** A transport that holds every request until released, and counts how many are open at once. */
function heldTransport() {
  const open: { req: TransportRequest; release: (status: number) => void }[] = [];
  let max = 0;
  const transport: Transport = (req) =>
    new Promise((resolve) => {
      open.push({ req, release: (status) => resolve({ status }) });
      max = Math.max(max, open.length);
    });
  const releaseAll = async (status = 200) => {
    while (open.length > 0) {
      for (const o of open.splice(0)) o.release(status);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { transport, open, max: () => max, releaseAll };
}

const buyMany = (s: BillingSimulator, n: number, extra: { environment?: 'SANDBOX' | 'PRODUCTION' } = {}) => {
  for (let i = 0; i < n; i += 1) {
    const r = s.dispatch({ type: 'purchase', project_id: 'p', customer_id: `${extra.environment ?? 'u'}${i}`, product_id: 'monthly', trial: false, presented_offering_id: null, country_code: null, ...extra });
    if (!r.ok) throw new Error(r.error.message);
  }
};

const simWith = (transport: Transport, webhook: Record<string, unknown> = {}) =>
  (sim = createBillingSimulator({
    seed: 'concurrency',
    scheduler: createManualScheduler(0),
    transport,
    products: [{ id: 'monthly', type: 'subscription', period: 'P1M' }],
    webhook: { url: 'http://receiver.local/webhook', ...webhook },
  }));

const tick = () => new Promise((r) => setImmediate(r));

describe('concurrent delivery', () => {
  it('keeps 8 deliveries in flight by default, never more', async () => {
    const held = heldTransport();
    const s = simWith(held.transport);
    buyMany(s, 30);
    await tick();
    expect(held.open).toHaveLength(8);
    await held.releaseAll();
    await s.outbox.idle();
    expect(held.max()).toBe(8);
    expect(s.deliveries().every((d) => d.state === 'delivered')).toBe(true);
  });
  it('takes the concurrency from the configuration, at runtime too', async () => {
    const held = heldTransport();
    const s = simWith(held.transport, { concurrency: 3 });
    buyMany(s, 10);
    await tick();
    expect(held.open).toHaveLength(3);
    s.configureWebhook({ concurrency: 5 });
    held.open.shift()!.release(200);
    await tick();
    expect(held.open).toHaveLength(5);
    await held.releaseAll();
    await s.outbox.idle();
    expect(held.max()).toBe(5);
  });
  it('with concurrency 1 sends one at a time in emission order', async () => {
    const held = heldTransport();
    const s = simWith(held.transport, { concurrency: 1 });
    buyMany(s, 5);
    const sent: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await tick();
      expect(held.open).toHaveLength(1);
      const o = held.open.shift()!;
      sent.push(JSON.parse(o.req.body).event.id);
      o.release(200);
    }
    await s.outbox.idle();
    expect(sent).toEqual(s.events().map((e) => e.event.id));
  });
  it('a slow delivery does not hold the others back; its retries keep the schedule', async () => {
    const scheduler = createManualScheduler(0);
    let first = true;
    const transport: Transport = async () => {
      if (first) {
        first = false;
        return { status: 500 };
      }
      return { status: 200 };
    };
    const s = (sim = createBillingSimulator({
      seed: 'c', scheduler, transport, products: [{ id: 'monthly', type: 'subscription', period: 'P1M' }],
      webhook: { url: 'http://receiver.local/webhook', retry_schedule: 'real' },
    }));
    buyMany(s, 4);
    await s.outbox.idle();
    expect(s.deliveries().map((d) => d.state)).toEqual(['retrying', 'delivered', 'delivered', 'delivered']);
    expect(scheduler.nextDelay()).toBe(5 * 60_000);
    scheduler.advance(5 * 60_000);
    await s.outbox.idle();
    expect(s.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: [{ kind: 'initial', status: 500 }, { kind: 'retry', status: 200, at: 300_000 }] });
  });
  for (const [name, make] of [['http', httpTransport], ['fetch', fetchTransport]] as const) {
    it(`cuts an attempt at the timeout (${name} transport, a receiver that never answers) and retries it`, async () => {
      server = createServer(() => undefined);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
      const scheduler = createManualScheduler(0);
      const s = (sim = createBillingSimulator({
        seed: 't', scheduler, transport: make(), products: [{ id: 'monthly', type: 'subscription', period: 'P1M' }],
        webhook: { url, timeout_ms: 100, retry_schedule: 'real' },
      }));
      buyMany(s, 1);
      await s.outbox.idle();
      expect(s.deliveries()[0]).toMatchObject({ state: 'retrying', attempts: [{ status: null }] });
      expect(s.deliveries()[0]?.attempts[0]?.error).toMatch(/timeout|abort/i);
      expect(scheduler.nextDelay()).toBe(5 * 60_000);
    });
  }
  it('the http transport answers the status, sends the headers and body, and turns a refused connection into an error', async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(418).end('no');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
    const transport = httpTransport();
    expect(await transport({ url, headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: '{"é":1}', timeout_ms: 5000 })).toEqual({ status: 418 });
    expect(seen[0]).toMatchObject({ headers: { authorization: 'Bearer x', 'content-length': '8' }, body: '{"é":1}' });
    const refused = await transport({ url: 'http://127.0.0.1:1/webhook', headers: {}, body: '{}', timeout_ms: 5000 });
    expect('error' in refused && refused.error).toMatch(/ECONNREFUSED/);
    expect(await transport({ url: 'not a url', headers: {}, body: '{}', timeout_ms: 5000 })).toMatchObject({ error: expect.any(String) });
  });
});

describe('integration filters', () => {
  it('delivers only the environment asked for; the others are logged as filtered', async () => {
    const got: string[] = [];
    const s = simWith(async (req) => {
      got.push(JSON.parse(req.body).event.environment ?? JSON.parse(req.body).event.purchase_environment);
      return { status: 200 };
    }, { environment: 'production' });
    buyMany(s, 2, { environment: 'PRODUCTION' });
    buyMany(s, 2, { environment: 'SANDBOX' });
    await s.outbox.idle();
    expect(got).toEqual(['PRODUCTION', 'PRODUCTION']);
    expect(s.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered', 'filtered', 'filtered']);
  });
  it('delivers only the event types asked for (lower case, as API v2 lists them)', async () => {
    const got: string[] = [];
    const s = simWith(async (req) => {
      got.push(JSON.parse(req.body).event.type);
      return { status: 200 };
    }, { event_types: ['renewal'] });
    buyMany(s, 2);
    s.advanceBy('P1M');
    await s.outbox.idle();
    expect(got).toEqual(['RENEWAL', 'RENEWAL']);
  });
  it('refuses an upper-case event type or an unknown environment, naming the field (the schema of POST /sim/webhook)', () => {
    expect(webhookConfigSchema.safeParse({ event_types: ['RENEWAL'] }).error?.issues[0]?.path).toEqual(['event_types', 0]);
    expect(webhookConfigSchema.safeParse({ environment: 'staging' }).error?.issues[0]?.path).toEqual(['environment']);
    expect(webhookConfigSchema.safeParse({ concurrency: 0 }).error?.issues[0]?.path).toEqual(['concurrency']);
  });
});

describe('webhook integrations (API v2) in delivery', () => {
  it("sends a project's events to its integrations, with their Authorization value and filters, and not to other projects' integrations", async () => {
    const got: { url: string; auth: string | undefined; type: string; user: unknown }[] = [];
    const s = (sim = createBillingSimulator({
      seed: 'integrations',
      scheduler: createManualScheduler(0),
      transport: async (req) => {
        const event = JSON.parse(req.body).event;
        got.push({ url: req.url, auth: req.headers['authorization'], type: event.type, user: event.app_user_id });
        return { status: 200 };
      },
      products: [{ id: 'monthly', type: 'subscription', period: 'P1M' }],
    }));
    const hook = (project: string, input: Record<string, unknown>) => {
      const r = s.dispatch({ type: 'create_integration', project_id: project, input: input as never });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.id;
    };
    const all = hook('p', { name: 'all', url: 'http://all.local/hook', authorization_header: 'Bearer all' });
    hook('p', { name: 'renewals', url: 'http://renewals.local/hook', event_types: ['renewal'] });
    hook('p', { name: 'prod', url: 'http://prod.local/hook', environment: 'production' });
    hook('other', { name: 'elsewhere', url: 'http://other.local/hook' });
    const r = s.dispatch({ type: 'purchase', project_id: 'p', customer_id: 'u1', product_id: 'monthly', trial: false, presented_offering_id: null, country_code: null, environment: 'SANDBOX' });
    expect(r.ok).toBe(true);
    s.advanceBy('P1M');
    await s.outbox.idle();
    expect(got.filter((g) => g.url === 'http://all.local/hook').map((g) => [g.type, g.auth])).toEqual([['INITIAL_PURCHASE', 'Bearer all'], ['RENEWAL', 'Bearer all']]);
    expect(got.filter((g) => g.url === 'http://renewals.local/hook').map((g) => g.type)).toEqual(['RENEWAL']);
    expect(got.filter((g) => g.url === 'http://prod.local/hook' || g.url === 'http://other.local/hook')).toEqual([]);
    const records = s.deliveries().filter((d) => d.event_type === 'INITIAL_PURCHASE');
    expect(records.map((d) => [d.target_id === all ? 'all' : 'other', d.state])).toEqual([['all', 'delivered'], ['other', 'filtered'], ['other', 'filtered']]);
  });
});
