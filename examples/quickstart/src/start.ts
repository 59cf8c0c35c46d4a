/**
 * `npm start`: the billing simulator on :4000 sending webhooks to the retention service on :3000,
 * which keeps its data in a fresh SQLite file each run (the simulator's world starts anew too).
 * Prints the three pages' URLs: act on the simulator's control page or buy on the web paywall (the
 * official RevenueCat web SDK), watch the dashboard move.
 * Ports come from PORT and BILLING_SIM_PORT; Ctrl-C stops both and removes the file.
 */
import { startLocalStack } from './startLocalStack.js';

const stack = await startLocalStack({
  retentionPort: Number(process.env.PORT ?? 3000),
  billingPort: Number(process.env.BILLING_SIM_PORT ?? 4000),
  seed: process.env.BILLING_SIM_SEED ?? 'quickstart',
  logLevel: process.env.LOG_LEVEL ?? 'warn',
  store: 'sqlite',
  // The SDKs compare expiry dates with the browser's clock: the virtual clock starts at the wall
  // clock's and follows it (a Test Store subscription renews every 5 real minutes); advancing jumps ahead.
  now: Date.now(),
  followWallClock: true,
  paywallPort: Number(process.env.PAYWALL_PORT ?? 4100),
});
const r = stack.retention.url;
const b = stack.billing.url;
const p = stack.paywall!;
const json = "-H 'content-type: application/json'";

console.log(`
tenure is running
  open in a browser  ${r}/   the retention dashboard: who is at risk and why, live
                     ${b}/   the billing simulator's control page: clock, purchases, deliveries, faults
                     ${p.url}/   a web paywall on RevenueCat's official SDK: buy from the Test Store, offline
  retention service  ${r}   GET /health, /api/at-risk, /api/subscribers/{id}/recommend, /openapi.json
  store              ${stack.store}   (a fresh file this run, removed on Ctrl-C)
  billing simulator  ${b}   RevenueCat API v1 under /v1 (the SDKs' proxyURL), API v2 under /v2, control API under /sim
  Test Store key     ${p.apiKey}   (the SDKs' apiKey; sandbox purchases: the dashboard's Environment switch shows them)
  webhooks           ${b} → ${r}/webhook (shared secret, fast retries); scores follow the simulator's clock

Try this:
  curl -s ${json} -d '{"id":"pro_monthly","type":"subscription","period":"P1M","trial_period":"P14D"}' ${b}/sim/products
  curl -s ${json} -d '{"customer_id":"alice","product_id":"pro_monthly","trial":true}' ${b}/sim/purchases
  curl -s ${json} -d '{"by":"P11D"}' ${b}/sim/clock/advance; curl -s ${r}/api/subscribers/alice/recommend

Or run a month of a small app against it: npm run demo   (Ctrl-C stops both services)
`);

const stop = () => {
  stack.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
