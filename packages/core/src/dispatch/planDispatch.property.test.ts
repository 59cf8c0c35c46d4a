import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessmentsArb } from '../testing/index.js';
import { CHANNELS_BY_URGENCY, type Delivery } from './delivery.js';
import { planDispatch } from './planDispatch.js';

const byCustomer = (deliveries: Delivery[]) => {
  const groups = new Map<string, Delivery[]>();
  for (const d of deliveries) groups.set(d.alert.customer_id, [...(groups.get(d.alert.customer_id) ?? []), d]);
  return groups;
};

describe('planDispatch properties', () => {
  it('sends at most one recommendation per customer', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        for (const group of byCustomer(planDispatch(assessments)).values()) {
          expect(new Set(group.map((d) => d.alert.recommendation.action)).size).toBe(1);
        }
      }),
    );
  });

  it('only ever sends priority-1 recommendations', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        for (const d of planDispatch(assessments)) expect(d.alert.recommendation.priority).toBe(1);
      }),
    );
  });

  it('uses exactly the channels of CHANNELS_BY_URGENCY for the urgency', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        for (const group of byCustomer(planDispatch(assessments)).values()) {
          const urgency = group[0]!.alert.recommendation.urgency;
          expect(group.map((d) => d.channel)).toEqual([...CHANNELS_BY_URGENCY[urgency]]);
        }
      }),
    );
  });

  it('plans for exactly the customers whose latest assessment has recommendations', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        const latest = new Map(assessments.map((a) => [a.subscriber.customer_id, a]));
        const expected = [...latest.values()].filter((a) => a.recommendations.length > 0).map((a) => a.subscriber.customer_id);
        expect([...byCustomer(planDispatch(assessments)).keys()].sort()).toEqual(expected.sort());
      }),
    );
  });
});
