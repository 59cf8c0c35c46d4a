/**
 * Real headless Chromium for the browser tests of both services' pages (the retention dashboard,
 * the simulator's control page): Debian's `chromium` package driven by playwright-core (`.ci/run`
 * installs it when missing). Without it the tests are skipped with a visible notice. A subpath of
 * the testkit (`@tenure/testkit/chromium`), so tests that drive no browser never load playwright.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Where Debian's package puts Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Whether it is there; `describe.skipIf(!hasChromium)` the browser suites. */
export const hasChromium = existsSync(CHROMIUM_PATH);

if (!hasChromium) {
  console.warn(`\n  ⚠ ${CHROMIUM_PATH} is missing: the browser tests are SKIPPED (apt-get install -y chromium)\n`);
}

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh profile directory (removed on close) and opens a context
 * of that viewport.
 *
 * @example
 * const browser = await launchChromium();
 * const page = await browser.context.newPage();
 * await browser.close();
 */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'tenure-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Runs in the page (Chromium), where the DOM globals exist; the testkit has no DOM lib.
declare const document: any, sessionStorage: any;

/**
 * Given a page just opened on a service whose API key is set, goes through the key dialog both
 * pages share (`@tenure/http-edge/page`): it is open and cannot be dismissed with Escape; a wrong
 * key shows "refused" in the dialog and an error line on the page (never a blank page); the right
 * key closes it and is kept in sessionStorage under `storageItem`.
 *
 * @example
 * await page.goto(`${url}/`);
 * await enterApiKey(page, { wrong: 'nope', right: 'k', storageItem: 'tenure.apiKey' });
 */
export async function enterApiKey(page: Page, keys: { wrong: string; right: string; storageItem: string }): Promise<void> {
  await page.waitForSelector('#key-dialog[open]');
  expect(await page.isVisible('#key-error')).toBe(false);
  await page.keyboard.press('Escape'); // no way around the key
  expect(await page.isVisible('#key-dialog')).toBe(true);
  await page.fill('#key-input', keys.wrong);
  await page.press('#key-input', 'Enter');
  await page.waitForSelector('#key-dialog[open] #key-error:not([hidden])');
  expect(await page.textContent('#key-error')).toMatch(/refused/);
  expect(await page.textContent('#error')).toMatch(/API key/);
  await page.fill('#key-input', keys.right);
  await page.press('#key-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#key-dialog')?.open === false);
  expect(await page.evaluate((item) => sessionStorage.getItem(item), keys.storageItem)).toBe(keys.right);
}

export type { Browser };

/**
 * Given the docs' image folder (a file URL), returns where a browser test writes its screenshots:
 * that folder when `UPDATE_SCREENSHOTS=1` (re-rendering the docs' images on purpose), else a fresh
 * temporary folder, so a test run never changes tracked files. Ends with a slash.
 *
 * @example
 * const images = screenshotDir(new URL('../../../../docs/images/', import.meta.url));
 */
export function screenshotDir(docsImages: URL): string {
  if (process.env['UPDATE_SCREENSHOTS'] === '1') return fileURLToPath(docsImages);
  return `${mkdtempSync(join(tmpdir(), 'tenure-screenshots-'))}/`;
}

