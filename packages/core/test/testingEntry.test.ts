// The example of docs/testing-your-config.md, run as written (imports from source instead of the package).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessSubscriber, foldEvents, resolveConfig, scoreSubscriber } from '../src/index.js';
import { distinctEventsArb, subscriberAtArb } from '../src/testing/index.js';

// Ours: trials matter more, and only 90+ is critical.
const config = resolveConfig({
  risk: { state_base: { trialing: 55 } },
  bands: { critical: 90 },
});

describe('our retention config (docs/testing-your-config.md)', () => {
  it('never puts a billing issue below the high band', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        fc.pre(subscriber.state === 'billing_issue');
        expect(['critical', 'high']).toContain(scoreSubscriber(subscriber, now, config).band);
      }),
    );
  });

  it('scores a churned customer at least as high as an active one with the same history', () => {
    fc.assert(
      fc.property(subscriberAtArb, ({ subscriber, now }) => {
        const churned = scoreSubscriber({ ...subscriber, state: 'churned' }, now, config).score;
        const active = scoreSubscriber({ ...subscriber, state: 'active' }, now, config).score;
        expect(churned).toBeGreaterThanOrEqual(active);
      }),
    );
  });

  it('always recommends something, priority 1 first', () => {
    fc.assert(
      fc.property(distinctEventsArb, fc.integer({ min: 0, max: 60 * 86_400_000 }), (events, later) => {
        const subscriber = foldEvents(events)!;
        const { recommendations } = assessSubscriber(subscriber, subscriber.last_event_at + later, config);
        expect(recommendations[0]?.priority).toBe(1);
      }),
    );
  });

  it('finds the counterexample the doc promises when bands.high is 65', () => {
    const strict = resolveConfig({ risk: { state_base: { trialing: 55 } }, bands: { critical: 90, high: 65 } });
    expect(() =>
      fc.assert(
        fc.property(subscriberAtArb, ({ subscriber, now }) => {
          fc.pre(subscriber.state === 'billing_issue');
          expect(['critical', 'high']).toContain(scoreSubscriber(subscriber, now, strict).band);
        }),
        { numRuns: 2000 },
      ),
    ).toThrow();
  });
});
