// The simulator forgets: idempotency keys after 24 hours of virtual time, reads create no project,
// and POST /sim/reset clears the world.
import { afterEach, describe, expect, it } from 'vitest';
import { createManualScheduler, IDEMPOTENCY_TTL_MS, pmapValues as pmapValuesOf } from '../src/index.js';
import { P, hybridSetup, startApp, startReceiver, type Receiver, type TestApp } from './helpers.js';

let app: TestApp | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await app?.close();
  await receiver?.close();
  app = undefined;
  receiver = undefined;
});

const deposit = (a: TestApp, key: string, amount = 5) =>
  a.call('POST', `${P}/customers/u1/virtual_currencies/transactions`, { adjustments: { CRD: amount } }, { 'idempotency-key': key });
const crd = async (a: TestApp) =>
  (await a.call('GET', `${P}/customers/u1/virtual_currencies?include_empty_balances=true`)).body.items[0]?.balance;

describe('idempotency keys', () => {
  it('replays a key within 24 hours of virtual time and forgets it after', async () => {
    app = await startApp({ now: Date.UTC(2026, 0, 1) });
    await hybridSetup(app);
    expect((await deposit(app, 'k1')).status).toBe(200);
    await app.call('POST', '/sim/clock/advance', { by: 'PT23H59M' });
    const replay = await deposit(app, 'k1');
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await crd(app)).toBe(5);
    await app.call('POST', '/sim/clock/advance', { by: 'PT1M' });
    const again = await deposit(app, 'k1', 7);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBeNull();
    expect(await crd(app)).toBe(12);
  });
  it('drops forgotten keys from the world when the clock moves', async () => {
    app = await startApp({ now: Date.UTC(2026, 0, 1) });
    await hybridSetup(app);
    for (let i = 0; i < 20; i++) await deposit(app, `key-${i}`);
    const keysOf = () => {
      let size = 0;
      const project = app!.sim.world().projects;
      // Read through the public world: the project's idempotency map.
      for (const p of pmapValuesOf(project)) size += p.idempotency.size;
      return size;
    };
    expect(keysOf()).toBe(20);
    await app.call('POST', '/sim/clock/advance', { by: IDEMPOTENCY_TTL_MS });
    expect(keysOf()).toBe(0);
  });
});

describe('projects', () => {
  it('reads of unknown projects create nothing', async () => {
    app = await startApp();
    const before = app.sim.world();
    await app.call('GET', '/v2/projects/nobody/virtual_currencies');
    await app.call('GET', '/v2/projects/nobody/customers/u1/virtual_currencies');
    await app.call('GET', '/v2/projects/nobody/virtual_currencies/CRD');
    await app.call('GET', '/sim/customers?project_id=nobody');
    expect(app.sim.world()).toBe(before);
    // Only the project the test app configures (proj1); the unknown one was not created.
    expect(pmapValuesOf(app.sim.world().projects).map((p) => p.id)).toEqual(['proj1']);
  });
});

describe('POST /sim/reset', () => {
  it('clears customers, currencies, ledgers, subscriptions, added products, events, deliveries and keys; the clock goes back to its start', async () => {
    receiver = await startReceiver(() => 500);
    const scheduler = createManualScheduler();
    app = await startApp({ now: Date.UTC(2026, 0, 1), scheduler, products: [{ id: 'kept', type: 'consumable' }], webhook: { url: receiver.url } });
    await hybridSetup(app);
    const bought = await app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly' });
    await deposit(app, 'k1');
    await app.call('POST', '/sim/clock/advance', { by: 'P40D' });
    await app.sim.outbox.idle();
    expect(scheduler.pending()).toBeGreaterThan(0); // retries waiting
    const res = await app.call('POST', '/sim/reset', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'sim.reset', now: Date.UTC(2026, 0, 1), pending_jobs: [] });
    expect(scheduler.pending()).toBe(0);
    expect((await app.call('GET', `${P}/virtual_currencies`)).body.items).toEqual([]);
    expect((await app.call('GET', `${P}/customers/u1`)).status).toBe(404);
    expect((await app.call('GET', `/sim/subscriptions/${bought.body.subscription_id}`)).status).toBe(404);
    expect((await app.call('GET', '/sim/customers?project_id=proj1')).body.items).toEqual([]);
    expect((await app.call('GET', '/sim/products')).body.items.map((p: { id: string }) => p.id)).toEqual(['kept']);
    expect((await app.call('GET', '/sim/events')).body.items).toEqual([]);
    expect((await app.call('GET', '/sim/webhooks/deliveries')).body.items).toEqual([]);
    expect(pmapValuesOf(app.sim.world().projects).map((p) => p.id)).toEqual(['proj1']); // the configured project is back, empty
    expect((await app.call('GET', '/sim/webhook')).body.url).toBe(receiver.url);
  });
  it('moves the clock to a given instant and refuses one past 2100', async () => {
    app = await startApp({ now: Date.UTC(2026, 0, 1) });
    expect((await app.call('POST', '/sim/reset', { now: '2030-06-01T00:00:00Z' })).body.now).toBe(Date.UTC(2030, 5, 1));
    expect((await app.call('POST', '/sim/reset', { now: Date.UTC(2024, 0, 1) })).body.now).toBe(Date.UTC(2024, 0, 1));
    const late = await app.call('POST', '/sim/reset', { now: '2100-01-02T00:00:00Z' });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ type: 'parameter_error', param: 'now' });
    expect((await app.call('POST', '/sim/reset', { when: 1 })).status).toBe(400);
    expect(app.sim.now()).toBe(Date.UTC(2024, 0, 1));
  });
  it('gives the same ids after a reset as after the start', async () => {
    app = await startApp({ now: Date.UTC(2026, 0, 1) });
    const run = async () => {
      await hybridSetup(app!);
      await app!.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id: 'u1', product_id: 'monthly' });
      await app!.call('POST', '/sim/clock/advance', { by: 'P1M' });
      return app!.sim.events();
    };
    const first = await run();
    await app.call('POST', '/sim/reset');
    expect(await run()).toEqual(first);
  });
  it('is in the OpenAPI document', async () => {
    app = await startApp();
    const doc = (await app.call('GET', '/openapi.json')).body;
    expect(doc.paths['/sim/reset'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('now');
  });
});

describe('the virtual clock', () => {
  it('stops at 2100-01-01', async () => {
    app = await startApp({ now: Date.UTC(2099, 11, 1) });
    expect((await app.call('POST', '/sim/clock/advance', { by: 'P1M' })).status).toBe(200);
    const past = await app.call('POST', '/sim/clock/advance', { by: 'PT1S' });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ type: 'parameter_error', param: 'to' });
  });
});
