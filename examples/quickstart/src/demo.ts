/**
 * `npm run demo`: drives a running pair (`npm start`) through a month of a small app and prints the
 * credit balances and the at-risk table. URLs come from RETENTION_URL and BILLING_SIM_URL.
 */
import { call } from './httpClient.js';
import { runDemoMonth } from './demoMonth.js';

const retentionUrl = process.env.RETENTION_URL ?? 'http://127.0.0.1:3000';
const billingUrl = process.env.BILLING_SIM_URL ?? 'http://127.0.0.1:4000';

try {
  await call('GET', `${retentionUrl}/health`);
  await call('GET', `${billingUrl}/health`);
} catch {
  console.error(`The services are not running at ${retentionUrl} and ${billingUrl}: start them with \`npm start\` first.`);
  process.exit(1);
}

// A second run against the same simulator gets its own customers.
const { items } = await call<{ items: unknown[] }>('GET', `${billingUrl}/sim/customers`);
const tag = items.length === 0 ? '' : `_${Math.floor(items.length / 6) + 1}`;

const result = await runDemoMonth(retentionUrl, billingUrl, tag);
const pad = (value: unknown, width: number) => String(value).padEnd(width);

console.log(`\nDay 12 of alice's trial: ${result.day12.recommendations.map((r) => r.action).join(', ')} (risk ${result.day12.risk_score})`);
console.log('\nAfter 35 days');
console.log(`${pad('customer', 12)}${pad('story', 56)}${pad('state', 16)}${pad('credits', 9)}`);
for (const { customer_id, story } of result.customers) {
  console.log(`${pad(customer_id, 12)}${pad(story, 56)}${pad(result.subscribers[customer_id]?.state, 16)}${pad(result.balances[customer_id], 9)}`);
}
console.log('\nAt-risk table (GET /api/at-risk?min_score=0)');
console.log(`${pad('customer', 12)}${pad('score', 7)}${pad('band', 10)}${pad('state', 16)}top recommendation`);
for (const item of result.atRisk) {
  const top = item.top_recommendation;
  console.log(`${pad(item.customer_id, 12)}${pad(item.risk_score, 7)}${pad(item.risk_band, 10)}${pad(item.state, 16)}${top ? `${top.action} (${top.urgency})` : '-'}`);
}
console.log(`\nExplore: ${retentionUrl}/api/subscribers/${result.customers[0]?.customer_id}/recommend, ${billingUrl}/sim/events, ${retentionUrl}/api/dispatches`);
