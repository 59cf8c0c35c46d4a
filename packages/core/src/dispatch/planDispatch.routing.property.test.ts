// Routing to webhook endpoints: each endpoint gets the alerts of the urgencies it receives, once
// each, and no endpoint changes the other channels' plan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { URGENCIES } from '../recommend/recommendation.js';
import { assessmentsArb } from '../testing/index.js';
import type { DispatchRouting } from './delivery.js';
import { planDispatch } from './planDispatch.js';

const routingArb: fc.Arbitrary<DispatchRouting> = fc.record({
  webhooks: fc.uniqueArray(
    fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/), urgencies: fc.subarray([...URGENCIES]) }),
    { selector: (e) => e.name, maxLength: 4 },
  ),
});

describe('planDispatch routing properties', () => {
  it('sends every webhook delivery to an endpoint that receives its urgency, once per endpoint and alert', () => {
    fc.assert(
      fc.property(assessmentsArb, routingArb, (assessments, routing) => {
        const byName = new Map(routing.webhooks.map((e) => [e.name, e]));
        const seen = new Set<string>();
        for (const d of planDispatch(assessments, routing).filter((d) => d.channel === 'webhook')) {
          const endpoint = byName.get(d.target!);
          expect(endpoint).toBeDefined();
          expect(endpoint!.urgencies).toContain(d.alert.recommendation.urgency);
          const key = `${d.target}|${d.alert.customer_id}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
        }
      }),
    );
  });

  it('reaches every endpoint receiving the urgency of each planned alert, and leaves the other channels exactly as without endpoints', () => {
    fc.assert(
      fc.property(assessmentsArb, routingArb, (assessments, routing) => {
        const plain = planDispatch(assessments);
        const routed = planDispatch(assessments, routing);
        expect(routed.filter((d) => d.channel !== 'webhook')).toEqual(plain);
        const alerts = new Map(plain.map((d) => [d.alert.customer_id, d.alert]));
        const expected = [...alerts.values()].flatMap((alert) =>
          routing.webhooks.filter((e) => e.urgencies.includes(alert.recommendation.urgency)).map((e) => `${e.name}|${alert.customer_id}`),
        );
        expect(routed.filter((d) => d.channel === 'webhook').map((d) => `${d.target}|${d.alert.customer_id}`).sort()).toEqual(expected.sort());
      }),
    );
  });

  it('with no endpoints plans exactly what it plans without routing', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        expect(planDispatch(assessments, { webhooks: [] })).toEqual(planDispatch(assessments));
        expect(planDispatch(assessments).every((d) => d.channel !== 'webhook' && d.target === undefined)).toBe(true);
      }),
    );
  });
});
