// The dashboard with a calibration, in a real headless Chromium against a real `startRetentionServer`:
// each at-risk row and the subscriber view show the churn probability; without a calibration
// (dashboard.browser.test.ts) the column stays hidden.
import { churnProbability, formatChurnPercent } from '@tenure/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '@tenure/testkit/chromium';
import { dashboardInChromium } from './dashboardInChromium.js';
import { stepCalibration } from '../helpers/calibration.js';

declare const document: any;

const calibration = stepCalibration(0.04, 1800, 240);

describe.skipIf(!hasChromium)('the dashboard with a calibration, in Chromium', () => {
  const dashboard = dashboardInChromium({ calibration });
  let page: Page;

  beforeAll(async () => {
    page = await dashboard.browser.context.newPage();
  });

  it('shows each at-risk row\'s churn probability under a "Churn within 30 days" column', async () => {
    await page.goto(`${dashboard.server.url}/`);
    await page.waitForSelector('#at-risk-rows tr[data-customer] td.churn');
    expect(await page.$eval('#churn-head', (th) => ({ hidden: (th as any).hidden, text: th.textContent }))).toEqual({ hidden: false, text: 'Churn within 30 days' });
    const cells = await page.$$eval('#at-risk-rows tr[data-customer]', (trs) =>
      trs.map((tr) => ({ score: Number(tr.getAttribute('data-score')), churn: tr.querySelector('td.churn')!.textContent })),
    );
    expect(cells.length).toBeGreaterThan(0);
    for (const { score, churn } of cells) expect(churn).toBe(formatChurnPercent(churnProbability(calibration, score)));
    expect(cells[0]).toEqual({ score: 100, churn: 'about 64 %' }); // churned-1
    expect(await page.$$eval('#at-risk-table thead th:not([hidden])', (ths) => ths.length)).toBe(await page.$eval('#at-risk-rows tr[data-customer]', (tr) => tr.children.length));
  });

  it('shows the subscriber\'s churn probability beside its score', async () => {
    await page.click('#at-risk-rows a[href="#subscriber/pending-1"]');
    await page.waitForSelector('#churn-chance');
    expect(await page.$eval('#churn-chance', (el) => el.textContent)).toBe(' · about 31 % chance of churning within 30 days');
    expect(await page.evaluate(() => document.querySelector('.score-line .score').getAttribute('data-score'))).toBe('60');
  });
});
