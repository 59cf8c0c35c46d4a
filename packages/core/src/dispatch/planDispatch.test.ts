import { describe, expect, it } from 'vitest';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import type { Recommendation } from '../recommend/recommendation.js';
import type { Assessment } from './delivery.js';
import { planDispatch } from './planDispatch.js';

const rec = (action: Recommendation['action'], urgency: Recommendation['urgency'], priority: number): Recommendation => ({
  action,
  urgency,
  priority,
  reason: `${action} because`,
});

const assessment = (customer_id: string, recommendations: Recommendation[], score = 50): Assessment => ({
  subscriber: makeSubscriber({ customer_id, state: 'billing_issue' }),
  risk: makeRisk(score, 'medium'),
  recommendations,
});

describe('planDispatch', () => {
  it('sends only the highest-priority recommendation per subscriber', () => {
    const deliveries = planDispatch([
      assessment('u1', [rec('billing_failure_alert', 'immediate', 1), rec('payment_update', 'immediate', 2)]),
    ]);
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries) expect(d.alert.recommendation.action).toBe('billing_failure_alert');
  });

  it('picks priority 1 even when the list is not in priority order', () => {
    const deliveries = planDispatch([
      assessment('u1', [rec('renewal_reminder', 'soon', 2), rec('loyalty_discount', 'soon', 1)]),
    ]);
    expect(deliveries.map((d) => d.alert.recommendation.action)).toEqual(['loyalty_discount']);
  });

  it('routes an immediate recommendation to email and chat', () => {
    const deliveries = planDispatch([assessment('u1', [rec('winback', 'immediate', 1)])]);
    expect(deliveries.map((d) => d.channel)).toEqual(['email', 'chat']);
  });

  it('routes a soon recommendation to email only', () => {
    const deliveries = planDispatch([assessment('u1', [rec('trial_nudge', 'soon', 1)])]);
    expect(deliveries.map((d) => d.channel)).toEqual(['email']);
  });

  it('logs a monitor recommendation without sending it', () => {
    const deliveries = planDispatch([assessment('u1', [rec('monitor', 'monitor', 1)])]);
    expect(deliveries.map((d) => d.channel)).toEqual(['log']);
  });

  it('produces nothing for a subscriber without recommendations', () => {
    expect(planDispatch([assessment('u1', [])])).toEqual([]);
    expect(planDispatch([])).toEqual([]);
  });

  it('keeps only the latest assessment of a customer that appears twice', () => {
    const deliveries = planDispatch([
      assessment('u1', [rec('winback', 'immediate', 1)], 90),
      assessment('u2', [rec('trial_nudge', 'soon', 1)]),
      assessment('u1', [rec('loyalty_discount', 'soon', 1)], 70),
    ]);
    expect(deliveries.map((d) => [d.alert.customer_id, d.alert.recommendation.action, d.channel])).toEqual([
      ['u1', 'loyalty_discount', 'email'],
      ['u2', 'trial_nudge', 'email'],
    ]);
    expect(deliveries[0]?.alert.risk.score).toBe(70);
  });

  it('sends nothing for a customer whose latest assessment has no recommendations', () => {
    const deliveries = planDispatch([assessment('u1', [rec('winback', 'immediate', 1)]), assessment('u1', [])]);
    expect(deliveries).toEqual([]);
  });

  it('builds each alert from the assessment', () => {
    const a = assessment('u9', [rec('winback', 'immediate', 1)], 95);
    const [first] = planDispatch([a]);
    expect(first?.alert).toEqual({
      customer_id: 'u9',
      person_id: 'u9',
      state: 'billing_issue',
      product_id: 'pro_monthly',
      monthly_value_usd: null,
      store: null,
      risk: a.risk,
      recommendation: rec('winback', 'immediate', 1),
    });
  });

  it('alerts email and chat with billing_failure_alert for a billing_issue subscriber with a high score', () => {
    const subscriber = makeSubscriber({ customer_id: 'u7', state: 'billing_issue', billing_failures: 1 });
    const deliveries = planDispatch([assessSubscriber(subscriber, NOW)]);
    expect(deliveries.map((d) => [d.channel, d.alert.recommendation.action, d.alert.risk.score])).toEqual([
      ['email', 'billing_failure_alert', 90],
      ['chat', 'billing_failure_alert', 90],
    ]);
  });
});
