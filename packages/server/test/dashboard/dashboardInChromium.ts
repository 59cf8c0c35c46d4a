/** The dashboard's browser tests' fixture: a real dashboard server and a headless Chromium per describe block. */
import { launchChromium, type Chromium } from '@tenure/testkit/chromium';
import { afterAll, beforeAll } from 'vitest';
import type { StartOptions } from '../../src/index.js';
import { seedPopulation, startDashboardServer, type DashboardServer } from './dashboardServer.js';

/** The server and the browser of a describe block; set before its first test. */
export interface DashboardInChromium {
  server: DashboardServer;
  browser: Chromium;
}

/**
 * Registers, in the calling describe block, a `beforeAll` that starts the dashboard server with
 * `options`, seeds it (`seed`, by default the shared population) and launches Chromium, and an
 * `afterAll` that closes both. A block's own `afterAll` registered after this call runs before it
 * (vitest runs after-hooks in reverse order), so what it opened on the server closes first.
 *
 * @example
 * const dashboard = dashboardInChromium({ apiKey: 'right-key' });
 * it('...', async () => { const page = await dashboard.browser.context.newPage(); await page.goto(`${dashboard.server.url}/`); });
 */
export function dashboardInChromium(options: StartOptions = {}, seed: (server: DashboardServer) => Promise<void> = seedPopulation): DashboardInChromium {
  const fixture = {} as DashboardInChromium;
  beforeAll(async () => {
    fixture.server = await startDashboardServer(options);
    await seed(fixture.server);
    fixture.browser = await launchChromium();
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}
