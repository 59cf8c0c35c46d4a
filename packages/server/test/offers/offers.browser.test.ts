// End to end in Chromium: the billing simulator on 127.0.0.1 as RevenueCat, its webhooks going to a
// real `tenure serve` process (also on 127.0.0.1, `--clock event`: the simulator's virtual time)
// configured with the simulator's URL, its key and project and a configuration file with an offer. A
// customer churns in the simulator; on the dashboard one click on the offer, a confirmation naming
// the customer, the entitlement and the duration, and the grant reaches the simulator (read back
// through its API), its promotional webhook comes back, and the dashboard shows the access; then
// the grant's Revoke button, a confirmation, the simulator's revoke and its CANCELLATION end it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBillingSim, type RunningBillingSim } from '@tenure/billing-sim';
import { hasChromium, launchChromium, type Chromium } from '@tenure/testkit/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../durability/serveProcess.js';
import { DAY, T0 } from '../helpers/fixtures.js';
import { eventually } from '../helpers/testServer.js';

declare const document: any;

const KEY = 'sk_e2e';
let sim: RunningBillingSim;
let service: ServeProcess;
const dir = mkdtempSync(join(tmpdir(), 'tenure-offer-e2e-'));
let browser: Chromium;
let pro: string;
let project: string;

const simCall = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sim.url}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as any };
};
const subscriber = async (id: string) => (await (await fetch(`${service.url}/api/subscribers/${id}`)).json()) as any;

describe.skipIf(!hasChromium)('a one-click offer from the dashboard through the simulator', () => {
  beforeAll(async () => {
    sim = await startBillingSim({ port: 0, seed: 'offer-e2e', now: T0, environment: 'PRODUCTION', apiKey: KEY, log: () => undefined, rateLimits: false, products: [{ id: 'monthly', type: 'subscription', period: 'P1M', price: 9.99 }] });
    project = sim.sim.settings.default_project_id;
    pro = (await simCall('POST', `/v2/projects/${project}/entitlements`, { lookup_key: 'pro', display_name: 'Pro' })).body.id;
    const config = join(dir, 'tenure.config.json');
    writeFileSync(config, JSON.stringify({ offers: { winback: { entitlement: pro, duration: 'P7D' } } }));
    service = await startServe(
      ['--store', 'memory', '--clock', 'event', '--config', config, '--revenuecat-project', project],
      { REVENUECAT_API_KEY: KEY, REVENUECAT_API_BASE_URL: `${sim.url}/v2` },
      45_000,
    );
    sim.sim.configureWebhook({ url: `${service.url}/webhook`, retry_schedule: 'fast' });
    browser = await launchChromium();
  }, 60_000); // a tsx process and Chromium start slowly on a loaded machine
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('grants on click after a confirmation, and the customer then has access until the grant ends', async () => {
    // A customer buys, cancels and churns in the simulator; its webhooks reach the service.
    const bought = sim.sim.dispatch({ type: 'purchase', project_id: project, customer_id: 'ann', product_id: 'monthly', trial: false, presented_offering_id: null, country_code: 'US' });
    if (!bought.ok || bought.value.kind !== 'subscription') throw new Error(JSON.stringify(bought));
    sim.sim.dispatch({ type: 'cancel', subscription_id: bought.value.subscription_id, reason: 'UNSUBSCRIBE' });
    // Just past the period's end: the service's now (the latest event, the expiration) and the simulator's agree within a minute.
    const end = (await simCall('GET', `/v2/projects/${project}/subscriptions/${bought.value.subscription_id}`)).body.current_period_ends_at as number;
    sim.sim.advanceBy(end + 60_000 - sim.sim.now());
    await eventually(async () => expect(await subscriber('ann')).toMatchObject({ state: 'churned', promotional_access_until: null }), 10_000);
    expect((await subscriber('ann')).offers).toMatchObject([{ action: 'winback', recommended: true }]);

    const page = await browser.context.newPage();
    await page.goto(`${service.url}/#subscriber/ann`);
    const button = '#recommendations li[data-action="winback"] button.offer';
    await page.waitForSelector(button);
    expect(await page.textContent(button)).toBe(`Offer ${pro} for P7D`);
    await page.click(button);
    // The confirmation names the customer, the entitlement and the duration; nothing is granted before it.
    const question = await page.textContent('#recommendations .offer-confirmation:not([hidden]) p');
    expect(question).toBe(`Grant entitlement ${pro} for P7D to customer ann?`);
    expect((await simCall('GET', `/v2/projects/${project}/customers/ann/active_entitlements`)).body.items).toEqual([]);
    const serviceNow = end; // --clock event: the expiration's time
    await page.click('#recommendations .offer-confirmation button.offer-confirm');
    await page.waitForFunction(() => /RevenueCat answered 201/.test(document.querySelector('#dispatch-status')?.textContent ?? ''), undefined, { timeout: 10_000 });

    // The simulator holds the grant (read back through its API) until the service's now + 7 days.
    const active = (await simCall('GET', `/v2/projects/${project}/customers/ann/active_entitlements`)).body.items;
    expect(active).toEqual([{ object: 'customer.active_entitlement', entitlement_id: pro, expires_at: serviceNow + 7 * DAY }]);
    // Its promotional webhook arrives: the subscriber has access until the grant ends.
    await eventually(async () => expect((await subscriber('ann')).promotional_access_until).toBe(serviceNow + 7 * DAY), 10_000);
    expect(sim.sim.events().at(-1)).toMatchObject({ event: { type: 'NON_RENEWING_PURCHASE', store: 'PROMOTIONAL', app_user_id: 'ann' } });

    // The dashboard shows it: the access in the record, the grant in the dispatch history.
    await page.reload();
    await page.waitForSelector('#facts');
    const facts = await page.$eval('#facts', (dl: any) => Object.fromEntries([...dl.querySelectorAll('dt')].map((dt: any) => [dt.textContent, dt.nextElementSibling.textContent])));
    expect(facts['Promotional access until']).not.toBe('–');
    expect(facts['State']).not.toBe('churned');
    const rows = await page.$$eval('#dispatches tr[data-outcome]', (trs: any[]) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)));
    expect(rows.some((cells: string[]) => cells.includes(`offer: ${pro}, by dashboard`) && cells.includes('sent') && cells.includes('manual'))).toBe(true);

    // Revoke from the grant's row: a confirmation naming the entitlement and the customer, then
    // RevenueCat's revoke in the simulator, its CANCELLATION webhook back, the access ended.
    const revoke = '#dispatches tr[data-channel="offer"] button.revoke';
    await page.click(revoke);
    expect(await page.textContent('#dispatches .offer-confirmation:not([hidden]) p')).toBe(`Revoke entitlement ${pro} granted to customer ann?`);
    expect((await simCall('GET', `/v2/projects/${project}/customers/ann/active_entitlements`)).body.items).toHaveLength(1);
    await page.click('#dispatches .offer-confirmation button.revoke-confirm');
    await page.waitForFunction(() => /Revoked .* RevenueCat answered 200/.test(document.querySelector('#dispatch-status')?.textContent ?? ''), undefined, { timeout: 10_000 });
    expect((await simCall('GET', `/v2/projects/${project}/customers/ann/active_entitlements`)).body.items).toEqual([]);
    expect(sim.sim.events().at(-1)).toMatchObject({ event: { type: 'CANCELLATION', store: 'PROMOTIONAL', app_user_id: 'ann' } });
    await eventually(async () => expect((await subscriber('ann')).promotional_access_until).toBeLessThan(serviceNow + 7 * DAY), 10_000);
    await eventually(async () => expect((await subscriber('ann')).state).toBe('churned'), 10_000);
    await page.reload();
    await page.waitForSelector('#dispatches tr[data-channel="offer_revoke"]');
    const after = await page.$$eval('#dispatches tr[data-outcome]', (trs: any[]) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent)));
    expect(after.some((cells: string[]) => cells.includes(`revoked: ${pro}, by dashboard`) && cells.includes('sent') && cells.includes('manual'))).toBe(true);
    expect(await page.$$(revoke)).toHaveLength(0); // revoked once: no button left
    await page.close();
  });
});
