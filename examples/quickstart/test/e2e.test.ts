// End to end: the billing simulator sends real HTTP webhooks to the retention service (both in this
// process, on ephemeral ports); the month of the demo must end in the expected states, scores,
// recommendations and balances, and the same with delivery faults injected into a service on a
// fresh SQLite file, as `npm start` runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoMonth, type DemoResult } from '../src/demoMonth.js';
import { call } from '../src/httpClient.js';
import { startLocalStack, type LocalStack } from '../src/startLocalStack.js';

const stacks: LocalStack[] = [];
afterAll(async () => {
  await Promise.all(stacks.map((s) => s.close()));
});

async function runMonth(faults?: Record<string, number>, store: 'memory' | 'sqlite' = 'memory'): Promise<{ result: DemoResult; stack: LocalStack }> {
  const stack = await startLocalStack({ retentionPort: 0, billingPort: 0, seed: 'e2e', logLevel: 'error', store, retention: { dispatch: { auto: false } } });
  stacks.push(stack);
  if (faults) await call('POST', `${stack.billing.url}/sim/webhook`, { faults });
  return { result: await runDemoMonth(stack.retention.url, stack.billing.url), stack };
}

const statesOf = (result: DemoResult) =>
  Object.fromEntries(Object.entries(result.subscribers).map(([id, s]) => [id, s.state]));

describe('billing simulator → webhooks → retention service', () => {
  let result: DemoResult;
  beforeAll(async () => {
    result = (await runMonth()).result;
  }, 60_000);

  it('ends the demo month in the expected state for every customer', async () => {
    expect(statesOf(result)).toEqual({
      alice: 'active',
      bob: 'churned',
      carol: 'active',
      dave: 'churned',
      erin: 'pending_cancel',
      frank: 'active',
    });
  });

  it('recommends trial_nudge on day 12 of a 14-day trial', async () => {
    expect(result.day12.recommendations.map((r) => r.action)).toEqual(['trial_nudge']);
    expect(result.day12.breakdown['state']).toBe(40);
  });

  it('counts renewals and billing failures from the delivered events', async () => {
    expect(result.subscribers['alice']).toMatchObject({ renewals: 1, billing_failures: 0 }); // trial conversion
    expect(result.subscribers['carol']).toMatchObject({ renewals: 1, billing_failures: 1 }); // recovered in grace
    expect(result.subscribers['dave']).toMatchObject({ renewals: 0, billing_failures: 1 });
  });

  it('scores and recommends from the seed rules', async () => {
    const dave = result.recommendations['dave']!;
    expect(dave.breakdown).toMatchObject({ state: 100, billing_failures: 10 });
    expect(dave.risk_score).toBe(100);
    expect(dave.risk_band).toBe('critical');
    expect(dave.recommendations[0]).toMatchObject({ action: 'winback', urgency: 'immediate', priority: 1 });
    const erin = result.recommendations['erin']!;
    expect(erin.breakdown['state']).toBe(60);
    expect(erin.recommendations[0]?.action).toBe('engagement_checkin');
  });

  it('lists churned and cancelling customers first in the at-risk table', async () => {
    const scores = result.atRisk.map((item) => item.risk_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(result.atRisk.slice(0, 2).map((item) => item.customer_id).sort()).toEqual(['bob', 'dave']);
  });

  it('grants credits by the hybrid pattern: trial, monthly use-it-or-lose-it, annual, top-up minus spending', async () => {
    expect(result.balances).toEqual({
      alice: 100, // trial 20 expired at the trial's end; conversion grants 100 for the new cycle
      bob: 0, // trial credits expired with the trial
      carol: 100, // first cycle's 100 expired; recovery renewal grants 100
      dave: 0, // first cycle's 100 expired at its end; no renewal
      erin: 1500, // annual grant, not expiring
      // 100 − 60 spent = 40 expiring; + 500 top-up (never expires); −120 spends the 40 expiring first,
      // then 80 of the top-up = 420; the renewal on day 32 grants 100 more.
      frank: 520,
    });
  });

  it('reaches the same final states with duplicated, reordered and delayed deliveries (on SQLite)', async () => {
    const faulty = await runMonth({ duplicate_rate: 0.3, reorder_rate: 0.3, reorder_window: 3, delay_rate: 0.2, delay_ms: 40 }, 'sqlite');
    expect(faulty.stack.store).toMatch(/^sqlite:.*tenure\.db$/);
    expect(statesOf(faulty.result)).toEqual(statesOf(result));
    expect(faulty.result.subscribers).toEqual(result.subscribers);
    expect(faulty.result.atRisk).toEqual(result.atRisk);
    expect(faulty.result.balances).toEqual(result.balances);
    const deliveries = await call<{ items: { faults: string[] }[] }>('GET', `${faulty.stack.billing.url}/sim/webhooks/deliveries`);
    const injected = new Set(deliveries.items.flatMap((d) => d.faults));
    expect(injected).toEqual(new Set(['duplicate', 'reorder', 'delay']));
  }, 60_000);
});
