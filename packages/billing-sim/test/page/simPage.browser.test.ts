// The control page in a real headless Chromium against a real `startBillingSim` delivering to a
// real local webhook receiver. Screenshots go to docs/images/ (the simulator's docs embed them).
import { mkdirSync } from 'node:fs';
import { enterApiKey, hasChromium, launchChromium, type Chromium, screenshotDir } from '@tenure/testkit/chromium';
import { startWebhookReceiver, type WebhookReceiver } from '@tenure/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingSim, type RunningBillingSim, type StartOptions } from '../../src/index.js';

// These functions run in the page (Chromium), where the DOM globals exist; the test program has no DOM lib.
declare const document: any;

// The docs' images are re-rendered only with UPDATE_SCREENSHOTS=1 (else a temporary folder).
const images = screenshotDir(new URL('../../../../docs/images/', import.meta.url));

const PRODUCTS: NonNullable<StartOptions['products']> = [
  { id: 'pro_monthly', type: 'subscription', period: 'P1M', trial_period: 'P7D', price: 9.99, display_name: 'Pro monthly' },
  { id: 'gems_100', type: 'consumable', price: 4.99, display_name: '100 gems' },
];

/** The simulator at 2026-01-01 with two products and a GEMS currency, its webhooks to `receiver` (fast retries). */
async function startSim(receiver: WebhookReceiver, options: StartOptions = {}): Promise<RunningBillingSim> {
  const running = await startBillingSim({ port: 0, seed: 'page', log: () => {}, products: PRODUCTS, webhook: { url: receiver.url, retry_schedule: 'fast' }, ...options });
  const headers = { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) };
  const grants = [{ product_ids: ['pro_monthly'], amount: 50 }, { product_ids: ['gems_100'], amount: 100 }];
  const res = await fetch(`${running.url}/v2/projects/proj_sim/virtual_currencies`, { method: 'POST', headers, body: JSON.stringify({ code: 'GEMS', name: 'Gems', product_grants: grants }) });
  expect(res.status).toBe(201);
  return running;
}

/** The row of a customer's subscription, once its status is `status`. */
const rowOf = (page: Page, customer: string, status: string) => page.waitForSelector(`#customer-rows tr[data-customer="${customer}"][data-status="${status}"]`, { timeout: 10_000 });

async function purchase(page: Page, customer: string, button: '#buy' | '#buy-trial' | '#topup') {
  await page.fill('#p-customer', customer);
  await page.click(button);
}

describe.skipIf(!hasChromium)("the simulator's control page in Chromium", () => {
  let browser: Chromium;
  let receiver: WebhookReceiver;
  let sim: RunningBillingSim;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(images, { recursive: true });
    // The first delivery fails once, so the log shows a retry.
    receiver = await startWebhookReceiver((n) => (n === 0 ? 500 : 200));
    sim = await startSim(receiver);
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.goto(`${sim.url}/`);
    await page.waitForSelector('#clock-now[data-now]');
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await receiver?.close();
  });

  it('shows the virtual clock, the catalog and an empty world', async () => {
    expect(await page.textContent('#clock-now')).toBe('2026-01-01 00:00 UTC');
    expect(await page.$$eval('#p-product option', (os) => os.map((o) => o.value))).toEqual(['pro_monthly']);
    expect(await page.$$eval('#t-product option', (os) => os.map((o) => o.value))).toEqual(['gems_100']);
    expect(await page.textContent('#customer-rows')).toMatch(/No customers yet/);
  });

  it('puts a purchase made by clicking in the customer list and in the delivery log, retried once', async () => {
    await purchase(page, 'alice', '#buy-trial');
    await rowOf(page, 'alice', 'trialing');
    expect(await page.textContent('#status')).toMatch(/INITIAL_PURCHASE/);
    const row = await page.waitForSelector('#delivery-rows tr[data-type="INITIAL_PURCHASE"][data-state="delivered"]', { timeout: 10_000 });
    expect(await row.textContent()).toMatch(/alice.*2 \(1 retry\)HTTP 200/);
    expect(receiver.received.map((r) => r.body.event.type)).toContain('INITIAL_PURCHASE');
    await purchase(page, 'bob', '#buy');
    await rowOf(page, 'bob', 'active');
    expect(await page.textContent('#customer-rows tr[data-customer="bob"] [data-balances]')).toBe('50 GEMS');
  });

  it('tops up a customer: the balance grows by the pack', async () => {
    await purchase(page, 'bob', '#topup');
    await page.waitForFunction(() => document.querySelector('#customer-rows tr[data-customer="bob"] [data-balances]')?.textContent === '150 GEMS');
    await page.waitForSelector('#delivery-rows tr[data-type="NON_RENEWING_PURCHASE"]');
  });

  it('renews a subscription when the clock is advanced a month by clicking', async () => {
    await page.click('button[data-advance="P1M"]');
    await page.waitForFunction(() => document.querySelector('#clock-now')?.textContent === '2026-02-01 00:00 UTC');
    const bob = await page.waitForSelector('#customer-rows tr[data-customer="bob"][data-renewal="2"]');
    expect(await bob.getAttribute('data-status')).toBe('active');
    await page.waitForSelector('#delivery-rows tr[data-type="RENEWAL"][data-state="delivered"]', { timeout: 10_000 });
  });

  it('runs the lifecycle buttons: billing issue, recover, cancel, refund', async () => {
    const click = (customer: string, action: string) => page.click(`#customer-rows tr[data-customer="${customer}"] button[data-action="${action}"]`);
    await click('bob', 'billing_issue');
    await rowOf(page, 'bob', 'grace');
    await click('bob', 'recover');
    await rowOf(page, 'bob', 'active');
    await click('bob', 'cancel');
    await page.waitForFunction(() => document.querySelector('#customer-rows tr[data-customer="bob"] .state')?.textContent === 'active, cancelled');
    await click('alice', 'refund');
    await rowOf(page, 'alice', 'expired');
    const types = await page.$$eval('#delivery-rows tr[data-type]', (trs) => trs.map((tr) => tr.getAttribute('data-type')));
    expect(types).toEqual(expect.arrayContaining(['BILLING_ISSUE', 'RENEWAL', 'CANCELLATION', 'EXPIRATION']));
    await page.screenshot({ path: `${images}billing-sim.png`, fullPage: true });
  });

  it('shows a refused action as an error on the page', async () => {
    await page.click('#customer-rows tr[data-customer="bob"] button[data-action="refund"]');
    await rowOf(page, 'bob', 'expired');
    await purchase(page, '', '#buy'); // the browser asks for the customer; nothing is sent
    expect(await page.evaluate(() => document.querySelector('#p-customer').validity.valueMissing)).toBe(true);
    await page.fill('#p-customer', 'bob');
    await page.click('#add-product summary');
    await page.fill('#n-id', 'broken');
    await page.fill('#n-period', 'monthly');
    await page.click('#product-form button[type=submit]');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toMatch(/period/);
    // The error stays through the reloads that follow (every 3 s) until the next action.
    await page.waitForTimeout(3500);
    expect(await page.isVisible('#error')).toBe(true);
  });

  it('switches delivery faults through POST /sim/webhook', async () => {
    await page.fill('#f-drop', '1');
    await page.click('#faults-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'Fault switches applied.');
    const config = (await (await fetch(`${sim.url}/sim/webhook`)).json()) as { faults: { drop_rate: number } };
    expect(config.faults.drop_rate).toBe(1);
    await purchase(page, 'carol', '#buy');
    await page.waitForSelector('#delivery-rows tr[data-type="INITIAL_PURCHASE"][data-state="dropped"]');
    await page.click('#faults-off');
    await page.waitForFunction(() => document.querySelector('#f-drop')?.value === '0');
  });

  it('is usable with the keyboard alone', async () => {
    await page.goto(`${sim.url}/`);
    await page.waitForSelector('#clock-now[data-now]');
    const reached: string[] = [];
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement;
        return el.id || el.getAttribute('data-advance') || el.getAttribute('href') || el.tagName;
      }));
    }
    expect(reached).toEqual(expect.arrayContaining(['#customers', 'PT1H', 'P1D', 'P7D', 'P1M', 'p-customer', 'p-product', 'buy', 'buy-trial', 't-product', 'topup']));
    await page.focus('button[data-advance="P1D"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#clock-now')?.textContent === '2026-02-02 00:00 UTC');
  });

  it('is usable on a phone', async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${sim.url}/`);
    await phone.waitForSelector('#customer-rows tr');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: `${images}billing-sim-phone.png`, fullPage: true });
    await phone.close();
  });
});

describe.skipIf(!hasChromium)('the control page with BILLING_SIM_API_KEY set', () => {
  let browser: Chromium;
  let receiver: WebhookReceiver;
  let sim: RunningBillingSim;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sim = await startSim(receiver, { apiKey: 'right-key' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.stop();
    await receiver?.close();
  });

  it('asks for the key, shows an error for a wrong one, and loads with the right one', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${sim.url}/`);
    await enterApiKey(page, { wrong: 'wrong-key', right: 'right-key', storageItem: 'tenure-billing-sim.apiKey' });
    await page.waitForSelector('#clock-now[data-now]');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    // Its buttons send the key too: a purchase by clicking goes through.
    await purchase(page, 'dora', '#buy');
    await rowOf(page, 'dora', 'active');
    await page.reload();
    await page.waitForSelector('#customer-rows tr[data-customer="dora"]');
    expect(await page.isVisible('#key-dialog')).toBe(false);
  });
});
