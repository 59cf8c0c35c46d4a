import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessmentsArb } from '../testing/index.js';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { planDispatch } from './planDispatch.js';
import { shouldAutoDispatch } from './shouldAutoDispatch.js';

describe('shouldAutoDispatch', () => {
  it('dispatches at once a billing issue (immediate billing_failure_alert first)', () => {
    const assessment = assessSubscriber(makeSubscriber({ state: 'billing_issue', billing_failures: 1 }), NOW);
    expect(assessment.recommendations[0]?.urgency).toBe('immediate');
    expect(shouldAutoDispatch(assessment)).toBe(true);
  });

  it('waits for a batch pass with a soon or monitor recommendation, or none', () => {
    const subscriber = makeSubscriber();
    const risk = makeRisk(10, 'low');
    const soon = { action: 'trial_nudge', urgency: 'soon', reason: 'r', priority: 1 } as const;
    const monitor = { action: 'monitor', urgency: 'monitor', reason: 'r', priority: 1 } as const;
    expect(shouldAutoDispatch({ subscriber, risk, recommendations: [soon] })).toBe(false);
    expect(shouldAutoDispatch({ subscriber, risk, recommendations: [monitor] })).toBe(false);
    expect(shouldAutoDispatch({ subscriber, risk, recommendations: [] })).toBe(false);
  });

  it('looks at the priority-1 recommendation, wherever it sits in the list', () => {
    const subscriber = makeSubscriber();
    const risk = makeRisk(90, 'critical');
    const recommendations = [
      { action: 'trial_nudge', urgency: 'soon', reason: 'r', priority: 2 },
      { action: 'winback', urgency: 'immediate', reason: 'r', priority: 1 },
    ] as const;
    expect(shouldAutoDispatch({ subscriber, risk, recommendations: [...recommendations] })).toBe(true);
  });

  it('is true exactly when the plan of the assessment sends on chat (immediate: email and chat)', () => {
    fc.assert(
      fc.property(assessmentsArb, (assessments) => {
        for (const assessment of assessments) {
          const channels = planDispatch([assessment]).map((d) => d.channel);
          expect(shouldAutoDispatch(assessment)).toBe(channels.includes('chat'));
        }
      }),
    );
  });
});
