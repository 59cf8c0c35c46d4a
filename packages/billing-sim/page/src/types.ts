/** The shapes the page reads, as the simulator's /sim routes answer them (docs/billing-sim.md). */

export interface Clock {
  now: number;
  now_iso: string;
  pending_jobs: { at: number; kind: string; customer_id: string; subscription_id?: string }[];
}

export interface Product {
  id: string;
  type: 'subscription' | 'consumable';
  period: string | null;
  trial_period: string | null;
  display_name: string;
  price: number;
  currency: string;
}

export interface Subscription {
  id: string;
  product_id: string;
  status: string;
  period_type: string;
  auto_renew: boolean;
  current_period_ends_at: number;
  renewal_number: number;
  grace_period_expires_at: number | null;
}

export interface Customer {
  id: string;
  project_id: string;
  subscriptions: Subscription[];
  purchases: { transaction_id?: string; product_id: string }[];
  virtual_currencies: { currency_code: string; balance: number; name: string }[];
}

export interface Delivery {
  event_id: string;
  event_type: string;
  event_timestamp_ms: number;
  target_id: string | null;
  state: string;
  attempts: { n: number; kind: string; at: number; status: number | null; error: string | null }[];
  next_attempt_at: number | null;
  faults: string[];
  body: { event: { app_user_id?: string } };
}

export type FaultName = 'duplicate_rate' | 'reorder_rate' | 'delay_rate' | 'drop_rate';

export interface WebhookConfig {
  url: string | null;
  retry_schedule_ms: number[];
  faults: Record<FaultName, number> & { reorder_window: number; delay_ms: number };
}

export interface List<T> {
  items: T[];
}

/** What a mutating /sim route adds to its answer: the webhooks it emitted. */
export interface Emitted {
  events?: { id: string; type: string }[];
}
