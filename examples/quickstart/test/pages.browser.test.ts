// Both pages of `npm start` in one real headless Chromium against the local stack (the simulator
// delivering real HTTP webhooks to the retention service): acting on the simulator's control page
// moves the retention dashboard, without a reload. Writes docs/images/side-by-side.png, the README's
// first screenshot: the two pages' screenshots composed side by side in a small page of their own
// (neither page can be framed: both send `frame-ancestors 'none'`).
import { mkdirSync } from 'node:fs';
import { hasChromium, launchChromium, type Chromium, screenshotDir } from '@tenure/testkit/chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../src/startLocalStack.js';
import { composeSideBySide } from './sideBySide.js';

// These functions run in the page (Chromium), where the DOM globals exist; the test program has no DOM lib.
declare const document: any, window: any, location: any;

// The docs' images are re-rendered only with UPDATE_SCREENSHOTS=1 (else a temporary folder).
const images = screenshotDir(new URL('../../../docs/images/', import.meta.url));
const VIEWPORT = { width: 900, height: 1100 };

/** The dashboard's fact `label` of the open subscriber (`Renewals` → "1"). */
const fact = (page: Page, label: string) =>
  page.evaluate((l) => [...document.querySelectorAll('#facts dt')].find((dt: any) => dt.textContent === l)?.nextElementSibling?.textContent ?? null, label);

describe.skipIf(!hasChromium)('the control page and the dashboard of npm start, side by side', () => {
  let stack: LocalStack;
  let browser: Chromium;
  let sim: Page;
  let dashboard: Page;

  beforeAll(async () => {
    mkdirSync(images, { recursive: true });
    stack = await startLocalStack({ retentionPort: 0, billingPort: 0, seed: 'pages', logLevel: 'silent', retention: { dispatch: { auto: false } } });
    browser = await launchChromium(VIEWPORT);
    sim = await browser.context.newPage();
    dashboard = await browser.context.newPage();
    // Under vitest's 30 s, so a step that never happens fails with its own line, not the test's timeout.
    sim.setDefaultTimeout(10_000);
    dashboard.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const click = (customer: string, action: string) => sim.click(`#customer-rows tr[data-customer="${customer}"] button[data-action="${action}"]`);
  const row = (customer: string, status: string) => sim.waitForSelector(`#customer-rows tr[data-customer="${customer}"][data-status="${status}"]`, { timeout: 10_000 });

  it('adds a product and makes purchases by clicking; the dashboard lists the customers the webhooks brought', async () => {
    await sim.goto(`${stack.billing.url}/`);
    await sim.waitForSelector('#clock-now[data-now]');
    await sim.click('#add-product summary');
    await sim.fill('#n-id', 'pro_monthly');
    await sim.fill('#n-trial', 'P14D');
    await sim.click('#product-form button[type=submit]');
    await sim.waitForSelector('#p-product option[value="pro_monthly"]', { state: 'attached' });
    for (const customer of ['alice', 'bob', 'carol', 'dave']) {
      await sim.fill('#p-customer', customer);
      await sim.click(customer === 'dave' ? '#buy-trial' : '#buy');
      await row(customer, customer === 'dave' ? 'trialing' : 'active');
    }
    await click('bob', 'cancel');
    await sim.waitForFunction(() => document.querySelector('#customer-rows tr[data-customer="bob"] .state')?.textContent === 'active, cancelled');
    await click('carol', 'billing_issue');
    await row('carol', 'grace');
    await sim.waitForFunction(() => document.querySelectorAll('#delivery-rows tr[data-state="delivered"]').length === document.querySelectorAll('#delivery-rows tr[data-state]').length);

    await dashboard.goto(`${stack.retention.url}/`);
    await dashboard.waitForSelector('#live-status[data-mode=live]', { timeout: 10_000 });
    await dashboard.waitForSelector('#at-risk-rows tr[data-customer="carol"]');
    await dashboard.waitForSelector('#at-risk-rows tr[data-customer="bob"]');
  });

  it('renews a subscription when the clock is advanced a month on the control page, and the dashboard shows the renewal without a reload', async () => {
    await dashboard.evaluate(() => (location.hash = '#subscriber/alice'));
    await dashboard.waitForSelector('#facts');
    expect(await fact(dashboard, 'Renewals')).toBe('0');
    const marker = await dashboard.evaluate(() => (window.marker = Math.random()));

    await sim.click('button[data-advance="P1M"]');
    await sim.waitForSelector('#customer-rows tr[data-customer="alice"][data-renewal="2"][data-status="active"]');
    await sim.waitForSelector('#delivery-rows tr[data-type="RENEWAL"][data-state="delivered"]', { timeout: 10_000 });

    await dashboard.waitForFunction(() => [...document.querySelectorAll('#facts dt')].find((dt: any) => dt.textContent === 'Renewals')?.nextElementSibling?.textContent === '1', undefined, { timeout: 15_000 });
    expect(await dashboard.evaluate(() => window.marker)).toBe(marker); // the same document: moved by the live feed
    expect(await fact(dashboard, 'State')).toBe('active');
  });

  it('composes both pages side by side for the README', async () => {
    await dashboard.evaluate(() => (location.hash = ''));
    await dashboard.waitForSelector('#at-risk:not([hidden]) #at-risk-rows tr[data-customer]');
    await sim.click('#add-product summary'); // folded again: the customers come into the first screen
    await sim.evaluate(() => window.scrollTo(0, 0));
    const simShot = await sim.screenshot();
    const dashboardShot = await dashboard.screenshot();
    await composeSideBySide(browser.context, VIEWPORT, [['Billing simulator (npm start: :4000): act here', simShot], ['Retention dashboard (npm start: :3000): watch it move', dashboardShot]], `${images}side-by-side.png`);
  });
});
