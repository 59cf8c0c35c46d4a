import { describe, expect, it } from 'vitest';
import { NOW, makeRisk, makeSubscriber } from '../../test/subscribers.js';
import type { Recommendation } from '../recommend/recommendation.js';
import { toAlert } from './toAlert.js';
import { DAY_MS } from '../config/defaultConfig.js';

describe('toAlert', () => {
  it('carries the customer, state, product, risk and the given recommendation', () => {
    const risk = makeRisk(65, 'high');
    const recommendation: Recommendation = { action: 'engagement_checkin', urgency: 'soon', reason: 'why', priority: 1 };
    const subscriber = makeSubscriber({ customer_id: 'c42', state: 'pending_cancel', product_id: null, last_event_at: NOW });
    expect(toAlert({ subscriber, risk, recommendations: [recommendation] }, recommendation)).toEqual({
      customer_id: 'c42',
      person_id: 'c42',
      state: 'pending_cancel',
      product_id: null,
      monthly_value_usd: null,
      store: null,
      risk,
      recommendation,
    });
  });

  it('carries the revenue at risk in whole cents and the store of the current subscription', () => {
    const risk = makeRisk(90, 'critical');
    const recommendation: Recommendation = { action: 'billing_failure_alert', urgency: 'immediate', reason: 'why', priority: 1 };
    const revenue = { price: 99.99, price_in_purchased_currency: 89.99, currency: 'EUR', takehome_percentage: 0.7, store: 'PLAY_STORE', period_ms: 365 * DAY_MS };
    const subscriber = makeSubscriber({ customer_id: 'c7', state: 'billing_issue', revenue, last_event_at: NOW });
    // 99.99 a year = 8.3325 a month: whole cents, as the at-risk list shows it.
    expect(toAlert({ subscriber, risk, recommendations: [recommendation] }, recommendation)).toMatchObject({ monthly_value_usd: 8.33, store: 'PLAY_STORE' });
  });
});
