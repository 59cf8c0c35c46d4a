import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subscriberAtArb, subscriberRiskAtArb } from '../testing/index.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { recommend } from './recommend.js';
import { URGENCY_BY_ACTION, URGENCY_RANK } from './recommendation.js';

/** Recommendations for a subscriber scored by the real scorer, and for any risk in range. */
const recommendationsArb = fc.oneof(
  subscriberAtArb.map(({ subscriber, now }) => recommend(subscriber, scoreSubscriber(subscriber, now), now)),
  subscriberRiskAtArb.map(({ subscriber, risk, now }) => recommend(subscriber, risk, now)),
);

describe('recommend properties', () => {
  it('always recommends something', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        expect(recs.length).toBeGreaterThan(0);
      }),
    );
  });

  it('numbers priorities exactly 1..n in list order', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        expect(recs.map((r) => r.priority)).toEqual(recs.map((_, i) => i + 1));
      }),
    );
  });

  it('sorts recommendations by urgency rank', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        for (let i = 1; i < recs.length; i++) {
          expect(URGENCY_RANK[recs[i - 1]!.urgency]).toBeLessThanOrEqual(URGENCY_RANK[recs[i]!.urgency]);
        }
      }),
    );
  });

  it('always takes the urgency from URGENCY_BY_ACTION', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        for (const r of recs) expect(r.urgency).toBe(URGENCY_BY_ACTION[r.action]);
      }),
    );
  });

  it('never recommends the same action twice', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        expect(new Set(recs.map((r) => r.action)).size).toBe(recs.length);
      }),
    );
  });

  it('recommends monitor only alone', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        if (recs.some((r) => r.action === 'monitor')) expect(recs).toHaveLength(1);
      }),
    );
  });

  it('always gives a reason that cites a number', () => {
    fc.assert(
      fc.property(recommendationsArb, (recs) => {
        for (const r of recs) expect(r.reason).toMatch(/\d/);
      }),
    );
  });
});
