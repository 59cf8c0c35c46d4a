/**
 * Serves the paywall: its page, script and style (`public/`), the official web SDK's browser build
 * from the `@revenuecat/purchases-js` package as it is installed, and `/config.json` telling the page
 * where the billing service is (`proxyURL`) and which public key to use. Nothing else: the page talks
 * to the billing simulator directly, as an app talks to RevenueCat.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PaywallOptions {
  /** The billing service's base URL: the SDK's `proxyURL` (the simulator's, e.g. `http://127.0.0.1:4000`). */
  billingUrl: string;
  /** The app's public API key (the simulator's Test Store key: `test_…`). */
  apiKey: string;
  /** Default 4100; 0 for a free one. */
  port?: number;
  host?: string;
}

export interface RunningPaywall {
  url: string;
  close(): Promise<void>;
}

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const sdkBuild = join(dirname(createRequire(import.meta.url).resolve('@revenuecat/purchases-js')), 'Purchases.umd.js');

const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: join(publicDir, 'index.html'), type: 'text/html; charset=utf-8' },
  '/paywall.js': { file: join(publicDir, 'paywall.js'), type: 'text/javascript; charset=utf-8' },
  '/paywall.css': { file: join(publicDir, 'paywall.css'), type: 'text/css; charset=utf-8' },
  '/purchases.umd.js': { file: sdkBuild, type: 'text/javascript; charset=utf-8' },
};

/**
 * Starts the paywall's server on 127.0.0.1 (by default) and resolves once it listens.
 *
 * @example
 * const paywall = await startPaywallServer({ billingUrl: sim.url, apiKey: 'test_…', port: 0 });
 * await paywall.close();
 */
export async function startPaywallServer(options: PaywallOptions): Promise<RunningPaywall> {
  const bodies = new Map(Object.entries(FILES).map(([path, { file, type }]) => [path, { body: readFileSync(file), type }]));
  const config = JSON.stringify({ proxyURL: options.billingUrl, apiKey: options.apiKey });
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/config.json') return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(config);
    const found = bodies.get(path);
    if (found === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': found.type, 'cache-control': 'no-cache' }).end(found.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4100, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
