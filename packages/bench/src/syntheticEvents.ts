/**
 * Synthetic webhook traffic in the billing service's real format: a lifecycle per customer (trial or
 * paid start, renewals, a billing issue, cancellations, expirations, product changes, top-ups),
 * serialized as the ~1 KB JSON bodies RevenueCat sends.
 */
const DAY = 86_400_000;
const T0 = 1_762_000_000_000;

type Body = { api_version: '1.0'; event: Record<string, unknown> };

function body(type: string, customer: number, seq: number, at: number, extra: Record<string, unknown>): Body {
  return {
    api_version: '1.0',
    event: {
      aliases: [`$RCAnonymousID:${(customer * 2654435761).toString(16).padStart(32, '0')}`],
      app_id: 'app1a2b3c4d5e',
      app_user_id: `user_${customer}`,
      commission_percentage: 0.15,
      country_code: 'US',
      currency: 'USD',
      entitlement_id: null,
      entitlement_ids: ['pro'],
      environment: 'PRODUCTION',
      event_timestamp_ms: at,
      expiration_at_ms: at + 30 * DAY,
      id: `${customer.toString(16).padStart(8, '0')}-${seq.toString(16).padStart(4, '0')}-4f00-9a11-000000000000`,
      is_family_share: false,
      offer_code: null,
      original_app_user_id: `$RCAnonymousID:${(customer * 2654435761).toString(16).padStart(32, '0')}`,
      original_transaction_id: `10000009${customer.toString().padStart(8, '0')}`,
      period_type: 'NORMAL',
      presented_offering_id: 'default',
      price: 9.99,
      price_in_purchased_currency: 9.99,
      product_id: 'pro_monthly',
      purchased_at_ms: at - 2000,
      store: 'APP_STORE',
      subscriber_attributes: { $email: { updated_at_ms: at - 60_000, value: `user${customer}@example.com` } },
      takehome_percentage: 0.85,
      tax_percentage: 0,
      transaction_id: `20000009${customer.toString().padStart(8, '0')}${seq}`,
      type,
      ...extra,
    },
  };
}

/** One customer's events in delivery order (a deterministic mix of paths). */
function lifecycle(customer: number, length: number): Body[] {
  const out: Body[] = [];
  let at = T0 + (customer % 1000) * 60_000;
  const trial = customer % 3 === 0;
  out.push(body('INITIAL_PURCHASE', customer, 0, at, trial ? { period_type: 'TRIAL', price: 0, expiration_at_ms: at + 14 * DAY } : {}));
  for (let seq = 1; out.length < length; seq += 1) {
    const step = (customer + seq) % 10;
    at += step < 6 ? 30 * DAY : DAY;
    if (step < 6) out.push(body('RENEWAL', customer, seq, at, { is_trial_conversion: trial && seq === 1 }));
    else if (step === 6) out.push(body('BILLING_ISSUE', customer, seq, at, { grace_period_expiration_at_ms: at + 16 * DAY }));
    else if (step === 7) out.push(body('CANCELLATION', customer, seq, at, { cancel_reason: 'UNSUBSCRIBE' }));
    else if (step === 8) out.push(body('PRODUCT_CHANGE', customer, seq, at, { new_product_id: 'pro_annual' }));
    else out.push(body('NON_RENEWING_PURCHASE', customer, seq, at, { product_id: 'credits_500', expiration_at_ms: null }));
  }
  return out;
}

/** `count` webhook bodies as JSON strings, `perCustomer` consecutive events per customer. */
export function syntheticWebhookStrings(count: number, perCustomer = 50): string[] {
  const out: string[] = new Array(count);
  let i = 0;
  for (let customer = 0; i < count; customer += 1) {
    for (const b of lifecycle(customer, Math.min(perCustomer, count - i))) out[i++] = JSON.stringify(b);
  }
  return out;
}
