// The dispatch history's webhook rows and the "Resend" button, in a real headless Chromium against
// a real `startRetentionServer` and a real receiver: a refused delivery shows the endpoint and the
// receiver's answer; one click sends it again with the same webhook-id, recorded as manual.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasChromium, launchChromium, type Chromium } from '@tenure/testkit/chromium';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertWebhookNotifier } from '../../src/index.js';
import { eventually } from '../helpers/testServer.js';
import { startDashboardServer, type DashboardServer } from './dashboardServer.js';

const SECRET = `whsec_${Buffer.from('a dashboard test secret, 32 byte').toString('base64')}`;

describe.skipIf(!hasChromium)('the dashboard resends a refused webhook delivery, in Chromium', () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const answers = [{ status: 410, body: 'endpoint retired' }];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      res.writeHead(answer.status).end(answer.body);
    });
  });
  let server: DashboardServer;
  let browser: Chromium;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    server = await startDashboardServer({ alertWebhooks: [createAlertWebhookNotifier({ name: 'crm', url, secret: SECRET })] });
    await server.seed('churned-1', 'churned'); // auto-dispatch: winback, immediate → refused by the receiver
    await eventually(() => expect(received).toHaveLength(1), 5000);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('shows the endpoint and the answer, and one click resends the same message', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/#subscriber/churned-1`);
    const refused = '#dispatches tr[data-channel="webhook"][data-outcome="failed"]';
    await page.waitForSelector(refused);
    expect(await page.$eval(refused, (tr) => ({ status: tr.getAttribute('data-answer-status'), cells: [...tr.children].map((td) => td.textContent) }))).toMatchObject({
      status: '410',
      cells: [expect.any(String), 'webhook → crm', 'winback', 'refused, HTTP 410: endpoint retired', '1', 'webhook', 'Resend'],
    });
    await page.click(`${refused} button.resend`);
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#dispatch-status')?.textContent.startsWith('Resending to crm'));
    await eventually(() => expect(received).toHaveLength(2), 5000);
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    expect(received[1]!.body).toBe(received[0]!.body);
    new Webhook(SECRET).verify(received[1]!.body, received[1]!.headers as Record<string, string>);
    // The history after a reload: the delivery's newest row is sent, by hand from the dashboard, and offers no resend.
    await eventually(async () => {
      await page.reload();
      await page.waitForSelector('#dispatches tr[data-channel="webhook"]');
      const newest = await page.$eval('#dispatches tr[data-channel="webhook"]', (tr) => [...tr.children].map((td) => td.textContent));
      expect(newest.slice(1)).toEqual(['webhook → crm', 'winback', 'sent', '2', 'manual (dashboard)', '']);
    }, 5000);
    expect(await page.$$eval('#dispatches button.resend', (buttons) => buttons.length)).toBe(0);
  });
});
