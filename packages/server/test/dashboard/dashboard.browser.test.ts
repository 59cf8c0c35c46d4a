// The dashboard in a real headless Chromium against a real `startRetentionServer` fed with real
// webhook fixtures. Screenshots go to docs/images/ (the README embeds them).
import { mkdirSync } from 'node:fs';
import { DAY_MS, RISK_BANDS, RISK_COLOR_HEX, lastDays, riskColor } from '@tenure/core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterApiKey, hasChromium, screenshotDir } from '@tenure/testkit/chromium';
import { dashboardInChromium } from './dashboardInChromium.js';
import { churnEvents, seedPopulation, type Profile } from './dashboardServer.js';
import { T0 } from '../helpers/fixtures.js';

// These functions run in the page (Chromium), where the DOM globals exist; the test program has no DOM lib.
declare const document: any, window: any, MutationObserver: any;
declare function getComputedStyle(element: unknown): { backgroundColor: string };

// The docs' images are re-rendered only with UPDATE_SCREENSHOTS=1 (else a temporary folder).
const images = screenshotDir(new URL('../../../../docs/images/', import.meta.url));

/** `#RRGGBB` as the `rgb(r, g, b)` a computed style reports. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

interface Row {
  id: string;
  score: number;
  band: string;
  color: string;
  fill: string;
}

const rows = (page: Page): Promise<Row[]> =>
  page.$$eval('#at-risk-rows tr[data-customer]', (trs) =>
    trs.map((tr) => {
      const score = tr.querySelector('.score') as any;
      return {
        id: tr.getAttribute('data-customer')!,
        score: Number(tr.getAttribute('data-score')),
        band: tr.getAttribute('data-band')!,
        color: score.dataset['color']!,
        fill: getComputedStyle(score.querySelector('.bar > span')!).backgroundColor,
      };
    }),
  );

async function filter(page: Page, values: { band?: string; min?: string; sort?: string }) {
  if (values.band !== undefined) await page.selectOption('#f-band', values.band);
  if (values.min !== undefined) await page.fill('#f-min', values.min);
  if (values.sort !== undefined) await page.selectOption('#f-sort', values.sort);
  await page.click('#filters button[type=submit]');
}

describe.skipIf(!hasChromium)('the retention dashboard in Chromium', () => {
  const dashboard = dashboardInChromium();
  let page: Page;

  beforeAll(async () => {
    mkdirSync(images, { recursive: true });
    page = await dashboard.browser.context.newPage();
  });

  it('lists the at-risk rows in score order, each bar in its band\'s colour', async () => {
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    await page.waitForSelector('#live-status[data-mode=live]', { timeout: 10_000 });
    await filter(page, { min: '0' });
    await page.waitForFunction(() => document.querySelectorAll('#at-risk-rows tr[data-customer]').length === 6, undefined, { timeout: 10_000 });
    const list = await rows(page);
    expect(list.map((r) => r.score)).toEqual([...list.map((r) => r.score)].sort((a, b) => b - a));
    expect(new Set(list.map((r) => r.color))).toEqual(new Set(['red', 'orange', 'yellow', 'green']));
    for (const row of list) {
      expect(row.color).toBe(riskColor(row.score));
      expect(row.fill).toBe(rgb(RISK_COLOR_HEX[riskColor(row.score)]));
    }
    await page.screenshot({ path: `${images}dashboard.png`, fullPage: true });
  });

  it('filters by band', async () => {
    await filter(page, { band: 'critical', min: '0' });
    await page.waitForFunction(() => [...document.querySelectorAll('#at-risk-rows tr[data-customer]')].every((tr: any) => tr.getAttribute('data-band') === 'critical'));
    const list = await rows(page);
    expect(list.map((r) => r.id)).toEqual(['churned-1', 'billing-1']);
    expect(await page.textContent('#list-total')).toMatch(/^2 subscribers match/);
    await filter(page, { band: '', min: '' });
  });

  it('shows a subscriber\'s score breakdown as one bar per signal, the bars summing to the score', async () => {
    await page.click('#at-risk-rows a[href="#subscriber/billing-1"]');
    await page.waitForSelector('#breakdown .signal');
    const { points, score } = await page.$eval('#subscriber-body', (body) => ({
      points: [...body.querySelectorAll('#breakdown .signal')].map((s) => Number(s.getAttribute('data-points'))),
      score: Number(body.querySelector('.score')!.getAttribute('data-score')),
    }));
    expect(points).toHaveLength(6);
    expect(points.reduce((a, b) => a + b, 0)).toBe(score);
    expect(score).toBe(90);
    expect(await page.$$eval('#recommendations li', (lis) => lis.length)).toBeGreaterThan(0);
    expect(await page.textContent('#next-change')).toMatch(/Score next changes/);
    // The timeline: every stored event of this customer, newest first.
    await page.waitForSelector('#timeline li[data-event-id]');
    expect(await page.$$eval('#timeline li[data-event-id]', (lis) => lis.map((li) => li.getAttribute('data-type')))).toEqual(['BILLING_ISSUE', 'INITIAL_PURCHASE']);
    expect(await page.isHidden('#timeline-more')).toBe(true);
    // Dispatch now: the history gains this pass's attempts (auto-dispatch sent the alert already, so the cooldown holds them).
    const attempts = () => page.$$eval('#dispatches tr[data-outcome]', (trs) => trs.map((tr) => tr.getAttribute('data-outcome')));
    const before = await attempts();
    expect(before).toContain('sent');
    await page.click('#dispatch-now');
    await page.waitForFunction((n) => document.querySelectorAll('#dispatches tr[data-outcome]').length > n, before.length);
    expect(await page.textContent('#dispatch-status')).toMatch(/^Done: 2 deliveries \(2 skipped cooldown\)/);
    expect((await attempts()).filter((o) => o === 'skipped_cooldown')).toHaveLength(2);
    await page.screenshot({ path: `${images}dashboard-subscriber.png`, fullPage: true });
    await page.click('#back');
    await page.waitForSelector('#at-risk:not([hidden])');
  });

  it('shows a new webhook without a reload (server-sent events)', async () => {
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    const marker = await page.evaluate(() => ((window as unknown as { marker: number }).marker = Math.random()));
    for (const body of churnEvents('arrived-live')) expect(await dashboard.server.webhook(body)).toBe(200);
    await page.waitForSelector('#at-risk-rows tr[data-customer="arrived-live"]', { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(marker); // same document
  });

  it('is usable with the keyboard alone: every control and row link is reachable, Enter opens a subscriber', async () => {
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    const reached: string[] = [];
    for (let i = 0; i < 30 && !reached.includes('#subscriber/churned-1'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement;
        return el.id || el.getAttribute('href') || el.getAttribute('type') || el.tagName;
      }));
    }
    expect(reached).toEqual(expect.arrayContaining(['#at-risk', 'f-band', 'f-state', 'f-min', 'f-sort', 'submit', '#subscriber/churned-1']));
    await page.keyboard.press('Enter');
    await page.waitForSelector('#breakdown .signal');
    await page.waitForFunction(() => document.activeElement?.id === 'subscriber');
    await page.keyboard.press('Tab'); // the back link comes first in the view
    expect(await page.evaluate(() => document.activeElement.id)).toBe('back');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#at-risk:not([hidden]) #at-risk-rows tr[data-customer]');
  });

  it('shows the sandbox apart when asked, and production again after', async () => {
    for (const body of churnEvents('sandbox-1')) expect(await dashboard.server.webhook({ ...(body as object), event: { ...(body as { event: object }).event, environment: 'SANDBOX' } })).toBe(200);
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    expect(await page.$('#at-risk-rows tr[data-customer="sandbox-1"]')).toBeNull();
    await page.selectOption('#environment', 'sandbox');
    await page.waitForFunction(() => [...document.querySelectorAll('#at-risk-rows tr[data-customer]')].map((tr: any) => tr.getAttribute('data-customer')).join() === 'sandbox-1');
    // The tiles load beside the list, not with it: wait for them too.
    await page.waitForFunction(() => /^1 of 1 subscribers/.test(document.querySelector('#revenue-at-risk-note')?.textContent ?? ''));
    await page.click('#at-risk-rows a[href="#subscriber/sandbox-1"]');
    await page.waitForSelector('#breakdown .signal');
    expect(await page.textContent('#dispatches')).toMatch(/never alerted/);
    expect(await page.$('#dispatch-now')).toBeNull();
    await page.selectOption('#environment', 'production');
    await page.waitForSelector('#at-risk:not([hidden]) #at-risk-rows tr[data-customer="churned-1"]');
  });

  it('is usable on a phone', async () => {
    const phone = await dashboard.browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${dashboard.server.url}/`);
    await phone.waitForSelector('#at-risk-rows tr[data-customer]');
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: `${images}dashboard-phone.png`, fullPage: true });
    await phone.close();
  });
});

describe.skipIf(!hasChromium)('the at-risk list\'s pages', () => {
  // 30 churned customers (all score 100) at 30 prices: revenue order differs from the id order.
  const dashboard = dashboardInChromium({ notifiers: [] }, async (server) => {
    for (let i = 0; i < 30; i++) {
      for (const body of churnEvents(`p${String(i).padStart(2, '0')}`)) expect(await server.webhook({ ...(body as object), event: { ...(body as { event: object }).event, price: 1 + ((i * 7) % 30) } })).toBe(200);
    }
  });

  it('sorts by revenue at risk and pages with the API\'s cursors, without repeats or gaps', async () => {
    const page = await dashboard.browser.context.newPage();
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    await filter(page, { sort: 'revenue' });
    await page.waitForFunction(() => document.querySelector('#at-risk-rows tr[data-customer]')?.getAttribute('data-customer') === 'p17');
    const read = () => page.$$eval('#at-risk-rows tr[data-customer]', (trs) => trs.map((tr) => [tr.getAttribute('data-customer')!, Number(tr.getAttribute('data-value'))] as const));
    const first = await read();
    expect(first).toHaveLength(25);
    await page.click('#next-page');
    await page.waitForFunction(() => document.querySelectorAll('#at-risk-rows tr[data-customer]').length === 5);
    const second = await read();
    expect(await page.isDisabled('#next-page')).toBe(true);
    const all = [...first, ...second];
    expect(new Set(all.map(([id]) => id)).size).toBe(30);
    expect(all.map(([, value]) => value)).toEqual(all.map(([, value]) => value).sort((a, b) => b - a));
    expect(await page.textContent('#list-total')).toMatch(/^30 subscribers match, .*showing 26–30\.$/);
    await page.click('#first-page');
    await page.waitForFunction(() => document.querySelectorAll('#at-risk-rows tr[data-customer]').length === 25);
    expect(await read()).toEqual(first);
  });
});

describe.skipIf(!hasChromium)('the dashboard when the live feed is full', () => {
  const streams: AbortController[] = [];
  const dashboard = dashboardInChromium({ notifiers: [] }, async (server) => {
    await seedPopulation(server);
    for (let i = 0; i < 32; i++) {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/dashboard/live`, { signal: controller.signal });
      expect(res.status).toBe(200);
      streams.push(controller);
    }
  });
  // Registered after the fixture, so it runs before the server closes.
  afterAll(() => {
    for (const controller of streams) controller.abort();
  });

  // The page polls every 10 s and the row may need two polls under load: more than the 30 s default.
  it('falls back to polling, and a new webhook still shows up without a reload', { timeout: 60_000 }, async () => {
    const page = await dashboard.browser.context.newPage();
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#live-status[data-mode=polling]');
    expect(await page.textContent('#live-status')).toBe('Polling every 10 s');
    for (const body of churnEvents('polled-in')) expect(await dashboard.server.webhook(body)).toBe(200);
    await page.waitForSelector('#at-risk-rows tr[data-customer="polled-in"]', { timeout: 25_000 });
  });
});

describe.skipIf(!hasChromium)('the retention dashboard with TENURE_API_KEY set', () => {
  const dashboard = dashboardInChromium({ apiKey: 'right-key' });

  it('asks for the key, shows an error for a wrong one, and loads with the right one', async () => {
    const page = await dashboard.browser.context.newPage();
    await page.goto(`${dashboard.server.url}/`);
    await enterApiKey(page, { wrong: 'wrong-key', right: 'right-key', storageItem: 'tenure.apiKey' });
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    // Kept for the tab: a reload does not ask again.
    await page.reload();
    await page.waitForSelector('#at-risk-rows tr[data-customer]');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    await page.waitForSelector('#live-status[data-mode=live]');
  });
});

describe.skipIf(!hasChromium)('the trends and the timeline in Chromium', () => {
  const dashboard = dashboardInChromium({ dispatch: { auto: false } }, async (server) => {
    // Three weeks of history: a customer every other day, in turn each profile, so bands move from day to day.
    const profiles: Profile[] = ['active', 'trial', 'billing', 'pending', 'churned', 'active'];
    for (let i = 0; i < 12; i++) await server.seed(`hist-${i}`, profiles[i % profiles.length]!, -(22 - 2 * i) * DAY_MS);
    for (let i = 0; i < 25; i++) {
      const at = T0 - (25 - i) * DAY_MS;
      expect(await server.webhook({ api_version: '1.0', event: { type: 'RENEWAL', id: `long-${i}`, app_id: 'app', app_user_id: 'long-1', original_app_user_id: 'long-1', event_timestamp_ms: at, purchased_at_ms: at, expiration_at_ms: at + 30 * DAY_MS, environment: 'PRODUCTION', store: 'APP_STORE', product_id: 'pro_monthly', price: 9.99, currency: 'USD', transaction_id: `long-${i}` } })).toBe(200);
    }
  });

  beforeAll(() => {
    mkdirSync(images, { recursive: true });
  });

  it('draws the last 30 days as two SVG charts, a point per day and band, with the figures in a hidden table', async () => {
    const page = await dashboard.browser.context.newPage();
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#chart-revenue circle.point');
    const days = lastDays(T0, 30);
    const points = await page.$$eval('#chart-bands circle.point', (cs) => cs.map((c) => [c.getAttribute('data-series'), c.getAttribute('data-day'), Number(c.getAttribute('data-value'))] as const));
    expect(points).toHaveLength(RISK_BANDS.length * 30);
    expect(new Set(points.map(([, day]) => day))).toEqual(new Set(days));
    const revenue = await page.$$eval('#chart-revenue circle.point', (cs) => cs.map((c) => Number(c.getAttribute('data-value'))));
    expect(revenue).toHaveLength(30);
    // Today is live: the same figure as the revenue tile; the subscribers of a day add up over the bands.
    const summary: any = await (await fetch(`${dashboard.server.url}/api/dashboard/summary`)).json();
    expect(revenue[29]).toBe(summary.at_risk.monthly_value_usd);
    const today = points.filter(([, day]) => day === days[29]).reduce((n, [, , v]) => n + v, 0);
    expect(today).toBe(summary.subscribers);
    expect(points.filter(([, day]) => day === days[0]).reduce((n, [, , v]) => n + v, 0)).toBeLessThan(today); // the history grew
    // Accessible: named by its title and description, the figures as a table.
    expect(await page.getAttribute('#chart-bands', 'aria-labelledby')).toBe('chart-bands-title chart-bands-desc');
    expect(await page.textContent('#chart-bands-title')).toMatch(/Subscribers per risk band/);
    expect(await page.$$eval('#chart-revenue-data tbody tr', (trs) => trs.length)).toBe(30);
    await (await page.$('.trends'))!.screenshot({ path: `${images}dashboard-trends.png` });
    await page.close();
  });

  it("lists a subscriber's received events newest first, and older pages on demand", async () => {
    const page = await dashboard.browser.context.newPage();
    await page.goto(`${dashboard.server.url}/#subscriber/long-1`);
    // The first page in full: the view may render the timeline again while it loads (seen in CI on a slow machine).
    await page.waitForFunction(() => document.querySelectorAll('#timeline li[data-event-id]').length === 20);
    const ids = () => page.$$eval('#timeline li[data-event-id]', (lis) => lis.map((li) => li.getAttribute('data-event-id')));
    expect(await ids()).toEqual(Array.from({ length: 20 }, (_, i) => `long-${24 - i}`));
    await page.click('#timeline-more');
    await page.waitForFunction(() => document.querySelectorAll('#timeline li[data-event-id]').length === 25);
    expect(await ids()).toEqual(Array.from({ length: 25 }, (_, i) => `long-${24 - i}`));
    expect(await page.isHidden('#timeline-more')).toBe(true);
    // A live refresh draws the panel again in one step: the timeline is never empty meanwhile, and
    // it keeps as many events as were open, the new one on top.
    await page.evaluate(() => {
      const w = window as unknown as { fewest: number };
      w.fewest = Infinity;
      new MutationObserver(() => {
        w.fewest = Math.min(w.fewest, document.querySelectorAll('#timeline li[data-event-id]').length);
      }).observe(document.getElementById('subscriber-body')!, { childList: true, subtree: true });
    });
    const at = T0 - DAY_MS / 2;
    expect(await dashboard.server.webhook({ api_version: '1.0', event: { type: 'RENEWAL', id: 'long-25', app_id: 'app', app_user_id: 'long-1', original_app_user_id: 'long-1', event_timestamp_ms: at, purchased_at_ms: at, expiration_at_ms: at + 30 * DAY_MS, environment: 'PRODUCTION', store: 'APP_STORE', product_id: 'pro_monthly', price: 9.99, currency: 'USD', transaction_id: 'long-25' } })).toBe(200);
    await page.waitForFunction(() => document.querySelector('#timeline li[data-event-id]')?.getAttribute('data-event-id') === 'long-25');
    expect(await ids()).toEqual(Array.from({ length: 25 }, (_, i) => `long-${25 - i}`));
    expect(await page.isVisible('#timeline-more')).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { fewest: number }).fewest)).toBe(25);
    await page.close();
  });
});
