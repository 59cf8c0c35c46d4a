/**
 * A synthetic but realistic subscriber base for the storage benches: a deterministic mix of trials,
 * paid subscriptions with renewals and top-ups, cancellations, billing issues, churn and product
 * changes, with event times spread over the year before `now` so inactivity, trial progress and
 * period ends vary (and rows keep coming due). Events are generated customer by customer, in batches,
 * so a million subscribers never need to be held as events at once.
 */
import { applyEvent, parseWebhook, seededRandom, type HandledEvent, type Subscriber } from '@tenure/core';

const DAY = 86_400_000;

/** The share of each kind of customer (sums to 1), as the README's dataset table states it. */
export const SYNTHETIC_MIX = [
  { kind: 'trial', share: 0.28, events: 'INITIAL_PURCHASE (TRIAL, 14 d) started 0–14 d ago' },
  { kind: 'converted', share: 0.03, events: 'trial + RENEWAL (is_trial_conversion), 1 in 5 slow' },
  { kind: 'paid', share: 0.35, events: 'INITIAL_PURCHASE 30–360 d ago, 0–2 RENEWALs, 40 % a recent top-up' },
  { kind: 'cancelled', share: 0.12, events: 'paid + CANCELLATION 0–25 d ago, period ends in 0–30 d' },
  { kind: 'billing', share: 0.1, events: 'paid + 1–2 BILLING_ISSUE 0–16 d ago' },
  { kind: 'churned', share: 0.1, events: 'paid + EXPIRATION 0–60 d ago' },
  { kind: 'changed', share: 0.02, events: 'paid + PRODUCT_CHANGE to the annual plan' },
] as const;


/**
 * Given a customer number, returns its id: a multiplicative hash (a bijection on 32 bits), so ids are
 * unique and their code point order is unrelated to the order customers are loaded in.
 */
export function syntheticCustomerId(customer: number): string {
  return `cus_${(Math.imul(customer + 1, 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}${(customer % 36).toString(36)}`;
}

const STORES = ['APP_STORE', 'PLAY_STORE', 'STRIPE'] as const;

/** The fields every synthetic event carries, in one fixed order (one object shape: cheap to build and to read). */
function baseEvent(id: string, customer: number, seq: number, at: number, expiration: number | null) {
  return {
    id: `evt_${id}_${seq}`,
    type: '',
    app_id: 'app1a2b3c4d5e',
    app_user_id: id,
    original_app_user_id: id,
    aliases: [id],
    event_timestamp_ms: at,
    environment: 'PRODUCTION',
    store: STORES[customer % STORES.length]!,
    product_id: 'pro_monthly',
    entitlement_ids: ['pro'],
    period_type: 'NORMAL',
    purchased_at_ms: at,
    expiration_at_ms: expiration,
    price: 9.99,
    currency: 'USD',
    country_code: 'US',
    transaction_id: `2000000${customer}-${seq}`, // the separator keeps (1, 12) and (11, 2) apart: stores count per transaction
    original_transaction_id: `1000000${customer}`,
  };
}

/** One customer's events, in delivery order. */
export function customerEvents(customer: number, now: number): HandledEvent[] {
  const rand = seededRandom(customer * 7919 + 17);
  const id = syntheticCustomerId(customer);
  const events: HandledEvent[] = [];
  // Each event is the base with its type and type-specific fields set on it.
  const push = (type: HandledEvent['type'], at: number, expiration: number | null, extra?: Record<string, unknown>): void => {
    const event = baseEvent(id, customer, events.length, at, expiration) as Record<string, unknown>;
    event['type'] = type;
    if (extra !== undefined) for (const key in extra) event[key] = extra[key];
    events.push(event as HandledEvent);
  };
  const ago = (minDays: number, maxDays: number) => Math.round(now - (minDays + rand() * (maxDays - minDays)) * DAY);
  const paid = () => {
    const start = ago(30, 360);
    push('INITIAL_PURCHASE', start, start + 30 * DAY);
    return start;
  };

  const u = rand();
  if (u < 0.28) {
    const start = ago(0, 14);
    push('INITIAL_PURCHASE', start, start + 14 * DAY, { period_type: 'TRIAL', price: 0 });
  } else if (u < 0.31) {
    const start = ago(20, 80);
    push('INITIAL_PURCHASE', start, start + 14 * DAY, { period_type: 'TRIAL', price: 0 });
    const converted = start + (rand() < 0.2 ? 16 : 14) * DAY;
    push('RENEWAL', converted, converted + 30 * DAY, { is_trial_conversion: true });
  } else if (u < 0.66) {
    const start = paid();
    const renewals = Math.floor(rand() * 3);
    for (let k = 1; k <= renewals; k++) {
      const at = start + k * 30 * DAY;
      if (at < now) push('RENEWAL', at, at + 30 * DAY);
    }
    if (rand() < 0.4) push('NON_RENEWING_PURCHASE', ago(0, 30), null, { product_id: 'credits_500' });
  } else if (u < 0.78) {
    paid();
    push('CANCELLATION', ago(0, 25), Math.round(now + rand() * 30 * DAY), { cancel_reason: 'UNSUBSCRIBE' });
  } else if (u < 0.88) {
    paid();
    const failures = rand() < 0.3 ? 2 : 1;
    for (let k = 0; k < failures; k++) {
      const at = ago(0, 16);
      push('BILLING_ISSUE', at, at + 16 * DAY, { grace_period_expiration_at_ms: at + 16 * DAY });
    }
  } else if (u < 0.98) {
    paid();
    const at = ago(0, 60);
    push('EXPIRATION', at, at, { expiration_reason: 'UNSUBSCRIBE' });
  } else {
    paid();
    const at = ago(0, 20);
    push('PRODUCT_CHANGE', at, at + 365 * DAY, { new_product_id: 'pro_annual' });
  }
  return events;
}

/**
 * Given a customer range and the instant the base is seen at, yields their events in batches of about
 * `batchSize` (a customer's events never straddle two batches), customer by customer.
 */
export function* syntheticEventBatches(from: number, to: number, now: number, batchSize = 10_000): Generator<HandledEvent[]> {
  let batch: HandledEvent[] = [];
  for (let customer = from; customer < to; customer++) {
    for (const event of customerEvents(customer, now)) batch.push(event);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Given a customer count and `now`, returns the subscribers their events fold to (the full-scan reference's input). */
export function syntheticSubscribers(count: number, now: number): Subscriber[] {
  const out: Subscriber[] = new Array(count);
  for (let customer = 0; customer < count; customer++) {
    let subscriber: Subscriber | undefined;
    for (const event of customerEvents(customer, now)) subscriber = applyEvent(subscriber, event);
    out[customer] = subscriber!;
  }
  return out;
}

/** Throws unless the first `sample` customers' events pass the webhook parser as handled events (the generator writes real-format events). */
export function checkSyntheticEvents(sample: number, now: number): void {
  for (const batch of syntheticEventBatches(0, sample, now)) {
    for (const event of batch) {
      const parsed = parseWebhook({ api_version: '1.0', event });
      if (!parsed.ok || !parsed.value.handled) throw new Error(`synthetic event ${event.id} is not a valid handled webhook event`);
    }
  }
}
