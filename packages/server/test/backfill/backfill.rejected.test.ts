// An API v2 answer whose events the core refuses (a customer id past the 256-byte limit of an
// app_user_id, which API v2 allows up to 1,500 characters): the event is rejected and listed with
// its customer, the other customers are stored, and `tenure backfill` exits 1 as an import with
// rejected rows does. The API is a real loopback HTTP peer serving the official shapes.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/runCli.js';
import { openStore } from '../../src/store/openStore.js';

const T0 = Date.UTC(2026, 0, 1);
const LONG = 'x'.repeat(300);
const money = { currency: 'USD', gross: 9.99, commission: 1.5, tax: 0, proceeds: 8.49 };
const list = (items: unknown[]) => ({ object: 'list', items, next_page: null, url: '/v2/list' });
const subscription = (customer: string) => ({
  object: 'subscription', id: `sub_${customer.slice(0, 8)}`, customer_id: customer, original_customer_id: customer, product_id: 'monthly',
  starts_at: T0, current_period_starts_at: T0, current_period_ends_at: T0 + 30 * 86_400_000, ends_at: null, gives_access: true,
  pending_payment: false, auto_renewal_status: 'will_renew', status: 'active', total_revenue_in_usd: money, presented_offering_id: null,
  entitlements: list([]), environment: 'production', store: 'app_store', store_subscription_identifier: `tx_${customer.slice(0, 8)}`,
  ownership: 'purchased', pending_changes: null, country: null, management_url: null,
});

let server: Server;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'tenure-backfill-rejected-'));
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const customer = /\/customers\/([^/]+)\/subscriptions$/.exec(path)?.[1];
    const body =
      path === '/v2/projects/p1/customers' ? list([{ object: 'customer', id: 'ok1' }, { object: 'customer', id: LONG }])
      : customer !== undefined ? list([subscription(customer)])
      : path.endsWith('/transactions') || path.endsWith('/purchases') ? list([])
      : undefined;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { object: 'error', type: 'resource_missing', message: 'Resource not found', retryable: false }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('tenure backfill with events the core refuses', () => {
  it('lists the rejected customer, stores the others and exits 1', async () => {
    const path = join(dir, 'tenure.db');
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), handleSignals: false, progressTty: false };
    const { code } = await runCli(['backfill', '--project', 'p1', '--base-url', url, '--store', `sqlite:${path}`, '--json'], { REVENUECAT_API_KEY: 'k' }, io);
    expect(code).toBe(1);
    const report = JSON.parse(out.join(''));
    expect(report).toMatchObject({ complete: true, customers: 2, new: 1, rejected: 1 });
    expect(report.rejections).toEqual([{ customer_id: LONG, field: 'app_user_id', message: expect.any(String) }]);
    expect(err.join('')).toContain(`  customer ${LONG} (app_user_id): `);
    const store = await openStore({ kind: 'sqlite', path });
    try {
      expect((await store.get('ok1'))?.state).toBe('active');
    } finally {
      await store.close();
    }
  });
});
