/**
 * `npm start -w @tenure/example-web-paywall`: the billing simulator (its clock following the wall
 * clock, as the SDK compares expiry dates with the browser's clock), the paywall's catalog, and the
 * paywall. Open the printed URL, buy through the Test Store's modal, see the entitlement.
 * (`npm start` at the root runs it beside the retention service and its dashboard.)
 */
import { startBillingSim } from '@tenure/billing-sim';
import { seedCatalog } from './seedCatalog.js';
import { startPaywallServer } from './startPaywallServer.js';

const billing = await startBillingSim({ port: Number(process.env.BILLING_SIM_PORT ?? 4000), seed: 'paywall', now: Date.now(), followWallClock: true, log: () => {} });
const apiKey = await seedCatalog(billing.url);
const paywall = await startPaywallServer({ billingUrl: billing.url, apiKey, port: Number(process.env.PAYWALL_PORT ?? 4100) });
console.log(`
  paywall            ${paywall.url}/   the official web SDK, buying from the simulator's Test Store
  billing simulator  ${billing.url}/   its control page; API v1 under /v1 (proxyURL), API v2 under /v2
  Test Store key     ${apiKey}
`);
const stop = () => void Promise.all([paywall.close(), billing.stop()]).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
