import { describe, expect, it } from 'vitest';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import type { Recommendation } from '../recommend/recommendation.js';
import { toAlert } from './toAlert.js';

describe('toAlert', () => {
  it('carries the customer, state, product, risk and the given recommendation', () => {
    const risk = makeRisk(65, 'high');
    const recommendation: Recommendation = { action: 'engagement_checkin', urgency: 'soon', reason: 'why', priority: 1 };
    const subscriber = makeSubscriber({ customer_id: 'c42', state: 'pending_cancel', product_id: null, last_event_at: NOW });
    expect(toAlert({ subscriber, risk, recommendations: [recommendation] }, recommendation)).toEqual({
      customer_id: 'c42',
      state: 'pending_cancel',
      product_id: null,
      risk,
      recommendation,
    });
  });
});
