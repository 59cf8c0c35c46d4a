/**
 * The official web SDK's purchase, which needs a browser: its UMD build, unchanged, in a page on
 * another origin (so every call crosses CORS) in Debian's Chromium, configured with the project's
 * Test Store key and `proxyURL` pointed at a real `tenure-billing-sim` process. The SDK shows its
 * own Test Store modal; "Test valid purchase" posts the receipt, "Test failed purchase" and "Cancel"
 * end in the SDK's own errors and buy nothing.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { hasChromium, launchChromium, type Chromium } from '@tenure/testkit/chromium';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkWorld, type SdkWorld } from './sdkWorld.js';

// Runs in the page, where the SDK's UMD build defines window.Purchases.
declare const window: any;

const umd = readFileSync(createRequire(import.meta.url).resolve('@revenuecat/purchases-js').replace(/Purchases\.es\.js$/, 'Purchases.umd.js'), 'utf8');
const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>SDK purchase</title><script src="/purchases.umd.js"></script></head><body><main id="app"></main></body></html>';

/** A static server on another port (another origin): the page and the SDK's browser build. */
async function servePage(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/purchases.umd.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(umd);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Starts a purchase of the current offering's monthly package in the page; resolves with its outcome once a modal button is clicked. */
async function purchaseClicking(page: Page, world: SdkWorld, user: string, button: RegExp) {
  const outcome = page.evaluate(
    async ({ apiKey, proxyURL, user }) => {
      const purchases = window.Purchases.Purchases.configure({ apiKey, appUserId: user, httpConfig: { proxyURL }, flags: { collectAnalyticsEvents: false } });
      const offerings = await purchases.getOfferings();
      try {
        const result = await purchases.purchase({ rcPackage: offerings.current.monthly });
        return { ok: true, active: Object.keys(result.customerInfo.entitlements.active), transaction: result.storeTransaction.storeTransactionId };
      } catch (e: any) {
        return { ok: false, code: e.errorCode, name: e.name };
      }
    },
    { apiKey: world.publicKey, proxyURL: world.sim.url, user },
  );
  await page.getByRole('button', { name: button }).click({ timeout: 15_000 });
  return outcome;
}

describe.skipIf(!hasChromium)('the official web SDK buys through the Test Store modal (Chromium)', () => {
  let world: SdkWorld;
  let browser: Chromium;
  let site: { url: string; server: Server };
  beforeAll(async () => {
    [world, browser, site] = await Promise.all([startSdkWorld(), launchChromium(), servePage()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  const customerOf = async (id: string) => world.call('GET', `/sim/customers/${encodeURIComponent(id)}`);

  it('"Test valid purchase" buys the package: a sandbox Test Store subscription, its entitlement in the answer, its webhook sent', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url);
    const result = await purchaseClicking(page, world, 'web-buyer', /Test valid purchase/);
    expect(result).toMatchObject({ ok: true, active: ['pro'] });
    const held = (await customerOf('web-buyer')).body.subscriptions[0];
    expect(held).toMatchObject({ product_id: 'monthly', period_type: 'TRIAL' });
    // The SDK names the purchase by the fetch token it posted (the simulator keeps its own store transaction ids).
    expect((result as { transaction: string }).transaction).toMatch(/^test_\d+_[0-9a-f-]{36}$/);
    await expect
      .poll(() => world.receiver.received.map((r) => r.body.event).find((e) => e.app_user_id === 'web-buyer'))
      .toMatchObject({ type: 'INITIAL_PURCHASE', store: 'TEST_STORE', environment: 'SANDBOX', presented_offering_id: 'default', product_id: 'monthly' });
    await page.close();
  });

  it.each([
    [/Test failed purchase/, 42],
    [/^Cancel$/, 1],
  ])('%s ends in the SDK\'s error %i and buys nothing', async (button, code) => {
    const page = await browser.context.newPage();
    await page.goto(site.url);
    const user = `web-${code}`;
    expect(await purchaseClicking(page, world, user, button)).toMatchObject({ ok: false, code });
    expect((await customerOf(user)).status).toBe(404);
    await page.close();
  });
});
