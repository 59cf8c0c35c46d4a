import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { P, hybridSetup, startApp, type TestApp } from './helpers.js';

let app: TestApp;
beforeEach(async () => {
  app = await startApp({ now: Date.UTC(2026, 0, 1) });
  await hybridSetup(app);
});
afterEach(async () => {
  await app.close();
});

const buy = (product_id: string, trial = false, customer_id = 'u1') =>
  app.call('POST', '/sim/purchases', { project_id: 'proj1', customer_id, product_id, trial });
const crd = async (customer = 'u1') => {
  const res = await app.call('GET', `${P}/customers/${customer}/virtual_currencies?include_empty_balances=true`);
  return res.body.items.find((b: { currency_code: string }) => b.currency_code === 'CRD')?.balance;
};
const advance = (by: string) => app.call('POST', '/sim/clock/advance', { by });
const spend = (n: number) => app.call('POST', `${P}/customers/u1/virtual_currencies/transactions`, { adjustments: { CRD: -n } });

describe('grants through the HTTP surface', () => {
  it('grants nothing on a trial start when trial_amount is 0', async () => {
    expect((await buy('monthly', true)).status).toBe(201);
    expect(await crd()).toBe(0);
  });
  it('grants trial_amount on a trial start when it is above 0', async () => {
    await buy('annual', true);
    expect(await crd()).toBe(20);
  });
  it('grants amount on a purchase without trial', async () => {
    await buy('annual');
    expect(await crd()).toBe(1500);
  });
  it('grants amount at the trial conversion (RENEWAL with is_trial_conversion)', async () => {
    await buy('monthly', true);
    await advance('P7D');
    expect(await crd()).toBe(100);
    const renewal = app.sim.events().find((e) => e.event.type === 'RENEWAL');
    expect(renewal?.event).toMatchObject({ is_trial_conversion: true, period_type: 'NORMAL', renewal_number: 2 });
  });
  it('grants again on each renewal', async () => {
    await buy('annual');
    await advance('P1Y');
    expect(await crd()).toBe(3000);
  });
  it('expires cycle-end credits when the cycle ends, then grants the next cycle', async () => {
    await buy('monthly');
    await spend(30);
    expect(await crd()).toBe(70);
    await advance('P1M');
    expect(await crd()).toBe(100);
    const vc = app.sim.events().filter((e) => e.event.type === 'VIRTUAL_CURRENCY_TRANSACTION').map((e) => ((e.event as { adjustments?: { amount: number }[] }).adjustments ?? [])[0]?.amount);
    expect(vc).toEqual([100, -70, 100]);
  });
  it('spends expiring credits before top-up credits', async () => {
    await buy('monthly');
    await buy('pack_500');
    expect(await crd()).toBe(600);
    await spend(150);
    await advance('P1M');
    // 150 came from the 100 expiring credits first, then 50 of the top-up: 450 top-up + 100 new cycle.
    expect(await crd()).toBe(550);
  });
  it('never expires top-up credits', async () => {
    await buy('pack_500');
    await advance('P1Y');
    expect(await crd()).toBe(500);
  });
  it('changes nothing when a transaction overdraws any currency', async () => {
    await app.call('POST', `${P}/virtual_currencies`, { code: 'GEM', name: 'Gems' });
    await buy('pack_500');
    const before = (await app.call('GET', `${P}/customers/u1`)).body;
    const res = await app.call('POST', `${P}/customers/u1/virtual_currencies/transactions`, { adjustments: { CRD: -10, GEM: -1 } });
    expect(res.status).toBe(422);
    expect((await app.call('GET', `${P}/customers/u1`)).body).toEqual(before);
  });
  it('supports the hybrid pattern: monthly grants less than annual, top-ups for more', async () => {
    await buy('monthly', false, 'm');
    await buy('annual', false, 'a');
    expect(await crd('m')).toBeLessThan(await crd('a'));
    await buy('pack_500', false, 'm');
    expect(await crd('m')).toBe(600);
    await advance('P1M');
    expect(await crd('m')).toBe(600);
    expect(await crd('a')).toBe(1500);
  });
});
