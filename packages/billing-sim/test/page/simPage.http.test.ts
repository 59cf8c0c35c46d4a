import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { externalReferences, pageAssetPaths } from '@tenure/testkit';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { build, generatedPath } from '../../page/buildPage.js';
import { createBillingSimApp, createBillingSimulator, startBillingSim, type RunningBillingSim } from '../../src/index.js';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** The simulator served by `startBillingSim` (the node:http binding). */
async function nodeBinding(apiKey: string | null = null): Promise<string> {
  const running: RunningBillingSim = await startBillingSim({ port: 0, seed: 'page', log: () => {}, apiKey });
  open.push(() => running.stop());
  return running.url;
}

/** An Express host serving `app` on 127.0.0.1:0. */
async function listen(app: express.Express): Promise<string> {
  const http: Server = createServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  open.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

const expressBinding = () => listen(createBillingSimApp(createBillingSimulator({ seed: 'page' })));

describe.each([
  ['node:http (startBillingSim)', () => nodeBinding()],
  ['Express (createBillingSimApp)', expressBinding],
])("the control page on the %s binding", (_name, start) => {
  it('is served at / as HTML that must be revalidated, with the same-origin CSP and an ETag', async () => {
    const url = await start();
    const res = await fetch(`${url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await res.text()).toMatch(/<title>tenure · billing simulator<\/title>/);
    const again = await fetch(`${url}/`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await fetch(`${url}/`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'text/html; charset=utf-8', '']);
  });

  it('serves its script and stylesheet by content hash as immutable, with their content types; another hash is the API\'s 404', async () => {
    const url = await start();
    const paths = pageAssetPaths(await (await fetch(`${url}/`)).text());
    expect(paths).toEqual([expect.stringMatching(/^page\/app\.[0-9a-f]{12}\.css$/), expect.stringMatching(/^page\/app\.[0-9a-f]{12}\.js$/)]);
    const types = [];
    for (const path of paths) {
      const res = await fetch(`${url}/${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toMatch(/^"/);
      types.push(res.headers.get('content-type'));
      await res.arrayBuffer();
    }
    expect(types).toEqual(['text/css; charset=utf-8', 'text/javascript; charset=utf-8']);
    const missing = await fetch(`${url}/page/app.000000000000.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { type: string }).type).toBe('resource_missing');
  });

  it('names no external URL in its HTML, script or stylesheet (works offline, no CDN)', async () => {
    const url = await start();
    const html = await (await fetch(`${url}/`)).text();
    const texts = [html, ...(await Promise.all(pageAssetPaths(html).map(async (p) => (await fetch(`${url}/${p}`)).text())))];
    for (const text of texts) expect(externalReferences(text)).toEqual([]);
  });
});

describe('the control page', () => {
  it('is built from packages/billing-sim/page: the committed module is what the build produces', async () => {
    expect(readFileSync(generatedPath, 'utf8')).toBe(await build());
  });

  it('is open with BILLING_SIM_API_KEY set (it asks for the key), while /sim and /v2 still need it', async () => {
    const url = await nodeBinding('k');
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/sim/clock`)).status).toBe(401);
    expect((await fetch(`${url}/sim/clock`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
  });

  it('calls only routes of the simulator\'s own API (every path in its script is a /sim or /v2 route)', async () => {
    const url = await nodeBinding();
    const html = await (await fetch(`${url}/`)).text();
    const script = await (await fetch(`${url}/${pageAssetPaths(html)[1]}`)).text();
    const called = new Set([...script.matchAll(/[`'"]((?:sim|v2)\/[\w/${}.?=-]*)/g)].map((m) => m[1]!.split(/[/?$]/, 2).join('/')));
    expect([...called].sort()).toEqual(['sim/clock', 'sim/customers', 'sim/products', 'sim/projects', 'sim/purchases', 'sim/subscriptions', 'sim/webhook', 'sim/webhooks', 'v2/projects']);
  });

  it('redirects a mounted Express app\'s prefix to its trailing slash, so the relative URLs resolve under it', async () => {
    const url = await listen(express().use('/billing', createBillingSimApp(createBillingSimulator({ seed: 'page' }))));
    const bare = await fetch(`${url}/billing`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/billing/');
    const [css] = pageAssetPaths(await (await fetch(`${url}/billing/`)).text());
    expect((await fetch(`${url}/billing/${css}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${url}/billing/sim/clock`)).status).toBe(200);
  });
});
