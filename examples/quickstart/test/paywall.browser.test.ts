// The web paywall of `npm start` (examples/web-paywall: RevenueCat's official web SDK, unchanged) in
// real headless Chromium against the local stack: a visitor buys on the paywall through the SDK's
// Test Store modal, the simulator sends the purchase's webhook, and the retention dashboard, showing
// the sandbox, lists the new subscriber without a reload. Writes docs/images/web-paywall.png (the
// paywall after the purchase beside the dashboard), shown on the README's first screen.
import { mkdirSync } from 'node:fs';
import { hasChromium, launchChromium, type Chromium, screenshotDir } from '@tenure/testkit/chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../src/startLocalStack.js';
import { composeSideBySide } from './sideBySide.js';

// These functions run in the page (Chromium), where the DOM globals exist; the test program has no DOM lib.
declare const document: any, window: any, localStorage: any;

const images = screenshotDir(new URL('../../../docs/images/', import.meta.url));
const VIEWPORT = { width: 900, height: 1000 };

describe.skipIf(!hasChromium)('buying on the web paywall shows on the dashboard', () => {
  let stack: LocalStack;
  let browser: Chromium;
  let paywall: Page;
  let dashboard: Page;

  beforeAll(async () => {
    mkdirSync(images, { recursive: true });
    // The SDK compares expiry dates with the browser's clock: the virtual clock starts at the wall clock's.
    stack = await startLocalStack({ retentionPort: 0, billingPort: 0, paywallPort: 0, now: Date.now(), seed: 'paywall', logLevel: 'silent', retention: { dispatch: { auto: false } } });
    browser = await launchChromium(VIEWPORT);
    [paywall, dashboard] = await Promise.all([browser.context.newPage(), browser.context.newPage()]);
    paywall.setDefaultTimeout(15_000);
    dashboard.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('lists the current offering\'s packages with the catalog\'s prices and the trial', async () => {
    await paywall.goto(`${stack.paywall!.url}/`);
    await paywall.waitForSelector('body[data-ready="true"]');
    expect(await paywall.textContent('#access')).toBe('You are on the free plan.');
    const plans = await paywall.$$eval('.plan', (cards: any[]) => cards.map((c) => [c.dataset.package, c.querySelector('.price').textContent, c.querySelector('.trial')?.textContent ?? null]));
    expect(plans).toEqual([
      ['$rc_monthly', '$9.99 / month', '7-day free trial'],
      ['$rc_annual', '$59.99 / year', null],
    ]);
  });

  it('buys the monthly plan through the Test Store modal: the entitlement shows, and the sandbox dashboard lists the subscriber without a reload', async () => {
    await dashboard.goto(`${stack.retention.url}/`);
    await dashboard.selectOption('#environment', 'sandbox');
    await dashboard.waitForSelector('#by-state li.muted');
    const marker = await dashboard.evaluate(() => (window.marker = Math.random()));

    await paywall.click('.plan[data-package="$rc_monthly"] button');
    await paywall.getByRole('button', { name: 'Test valid purchase' }).click();
    await paywall.waitForSelector('#access[data-state="active"]');
    expect(await paywall.textContent('#access')).toMatch(/^Pro is active until .*, renewing \(paywall_monthly\)\.$/);
    const user = await paywall.evaluate(() => localStorage.getItem('paywall.user'));
    expect(user).toMatch(/^\$RCAnonymousID:/);

    const held = (await (await fetch(`${stack.billing.url}/sim/customers/${encodeURIComponent(user)}`)).json()) as { subscriptions: unknown[] };
    expect(held.subscriptions[0]).toMatchObject({ product_id: 'paywall_monthly', period_type: 'TRIAL', status: 'trialing' });
    // The sandbox view polls every 10 s (the live feed carries production only).
    await dashboard.waitForSelector('#by-state li[data-key="trialing"]', { timeout: 25_000 });
    expect(await dashboard.textContent('#by-state li[data-key="trialing"] b')).toBe('1');
    expect(await dashboard.evaluate(() => window.marker)).toBe(marker);
    const stored = await (await fetch(`${stack.retention.url}/api/subscribers/${encodeURIComponent(user)}?environment=sandbox`, { headers: { accept: 'application/json' } })).json();
    expect(stored).toMatchObject({ state: 'trialing' });
  });

  it('composes the paywall and the dashboard side by side for the README', async () => {
    const shots = await Promise.all([paywall.screenshot(), dashboard.screenshot()]);
    await composeSideBySide(browser.context, VIEWPORT, [['Web paywall on RevenueCat\'s official SDK (npm start: :4100): bought from the Test Store', shots[0]], ['Retention dashboard, sandbox (npm start: :3000): the new subscriber', shots[1]]], `${images}web-paywall.png`);
  });
});
