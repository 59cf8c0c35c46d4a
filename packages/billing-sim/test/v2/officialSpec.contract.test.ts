/**
 * Every response of every API v2 operation the simulator serves, success and error paths, validated
 * against RevenueCat's official OpenAPI document (read from `REVENUECAT_OPENAPI`, never copied into
 * the repository). Skipped with a notice when the variable is unset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/index.js';
import type { TestApp } from '../helpers.js';
import { driveCatalog, driveCustomerEntitlements } from './drives/catalog.js';
import { driveCustomers } from './drives/customers.js';
import { driveIntegrations } from './drives/integrations.js';
import { driveInvoices } from './drives/invoices.js';
import { driveOfferings } from './drives/offerings.js';
import { driveProjects } from './drives/projects.js';
import { driveCatalogExpansions, driveCatalogRemovals, driveReports } from './drives/reports.js';
import { drivePurchases, driveSearches } from './drives/purchases.js';
import { driveSubscriptions } from './drives/subscriptions.js';
import { driveVirtualCurrencies } from './drives/virtualCurrencies.js';
import { loadOfficialSpec, type Exchange } from './officialSpec.js';
import { SERVED_V2, startRecordingApp } from './recordingApp.js';

const spec = loadOfficialSpec();
if (spec === null) console.warn('[billing-sim] REVENUECAT_OPENAPI is unset: the API v2 contract test against the official document is SKIPPED');

const KEY = { authorization: 'Bearer sk_contract' };
const log: Exchange[] = [];
let app: TestApp;

/** Adds the Bearer key to every call, so the same drives run with authentication on. */
const authed = (inner: TestApp): TestApp => ({ ...inner, call: (m, p, b, h) => inner.call(m, p, b, { ...KEY, ...h }) });

describe.skipIf(spec === null)('API v2 against the official OpenAPI document', () => {
  beforeAll(async () => {
    // Limits above what the drives send, so only the loop below reaches one (its 429 is validated too).
    app = await startRecordingApp(log, {}, { apiKey: 'sk_contract', rateLimits: { limits: { project_configuration: 200 } } });
    const client = authed(app);
    await client.call('POST', '/sim/products', { id: 'monthly', type: 'subscription', period: 'P1M' });
    await driveVirtualCurrencies(client);
    await driveCustomers(client);
    await driveSubscriptions(client);
    await drivePurchases(client);
    await driveSearches(client);
    await driveIntegrations(client);
    await driveCatalog(client);
    await driveCustomerEntitlements(client);
    await driveProjects(client);
    await driveOfferings(client);
    await driveInvoices(client);
    await driveReports(client);
    await driveCatalogRemovals(client);
    await driveCatalogExpansions(client);
    // Error paths every operation shares: a wrong key (401) and a limit reached (429).
    for (const key of SERVED_V2) {
      const [method, pattern] = key.split(' ') as [string, string];
      const path = pattern.replaceAll(':project_id', 'proj1').replace(/:[a-z_]+/g, 'x');
      await app.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, { authorization: 'Bearer wrong' });
    }
    for (let i = 0; i < 201; i += 1) if ((await client.call('GET', '/v2/projects/proj1/virtual_currencies')).status === 429) break;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every exchange as the document describes it (status, headers, body)', () => {
    const problems = log.flatMap((e) => spec!.problemsOf(e));
    expect(problems).toEqual([]);
  });

  it('maps every served route to an operation of the document', () => {
    expect(SERVED_V2.filter((k) => spec!.specPathOf(k.split(' ')[1]!) === null)).toEqual([]);
  });

  it('saw every served operation answer a success and an error other than 401', () => {
    const seen = (pred: (e: Exchange) => boolean) => new Set(log.filter(pred).map((e) => `${e.method} ${e.pattern}`));
    // An invoice file's success is the document's 302 to the download.
    const success = seen((e) => e.status < 400);
    const failure = seen((e) => e.status >= 400 && e.status !== 401);
    expect(SERVED_V2.filter((k) => !success.has(k))).toEqual([]);
    expect(SERVED_V2.filter((k) => !failure.has(k))).toEqual([]);
  });

  it("puts every served route in the document's rate-limit domain", () => {
    const wrong = ROUTES.filter((r) => r.pattern.startsWith('/v2/projects')).filter((r) => spec!.rateDomainOf(r.method, r.pattern) !== r.domain);
    expect(wrong.map((r) => `${r.method} ${r.pattern} ${r.domain} ≠ ${spec!.rateDomainOf(r.method, r.pattern)}`)).toEqual([]);
  });

  it('saw a 429 with Retry-After', () => {
    expect(log.some((e) => e.status === 429 && e.headers.get('retry-after') !== null)).toBe(true);
  });
});
