/**
 * Real headless Chromium for the browser tests of both services' pages (the retention dashboard,
 * the simulator's control page): Debian's `chromium` package driven by playwright-core (`.ci/run`
 * installs it when missing). Without it the tests are skipped with a visible notice. A subpath of
 * the testkit (`@tenure/testkit/chromium`), so tests that drive no browser never load playwright.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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

export type { Browser };
