/** The simulator's in-memory state: projects, currencies, customers, subscriptions and their ledgers. */
import type { Ledger, VirtualCurrency } from '@tenure/core';
import type { Product } from './products.js';

/** Where a subscription stands. `grace`: a charge failed and the grace period runs. */
export type SubscriptionStatus = 'trialing' | 'active' | 'grace' | 'expired';

export interface SubscriptionState {
  id: string;
  customer_id: string;
  product_id: string;
  status: SubscriptionStatus;
  period_type: 'TRIAL' | 'NORMAL';
  original_transaction_id: string;
  transaction_id: string;
  original_purchased_at: number;
  /** Start and end of the current cycle (trial or paid). */
  period_start: number;
  period_end: number;
  /** Cycles are counted from this anchor so calendar months do not drift. */
  cycle_anchor: number;
  cycle_index: number;
  auto_renew: boolean;
  renewal_number: number;
  grace_expires_at: number | null;
  /** When the failed charge was due (cycles resume from here on recovery). */
  failed_at: number | null;
  pending_product_id: string | null;
  /** The next renewal fails with this grace period (ms, or null for none). */
  fail_next_renewal: { grace_ms: number | null } | null;
  presented_offering_id: string | null;
  country_code: string;
  seq: number;
  expired_at: number | null;
  /** Why auto-renew was turned off (the EXPIRATION at the period's end carries it). */
  cancel_reason: string | null;
}

export interface OneTimePurchase {
  transaction_id: string;
  product_id: string;
  purchased_at: number;
  refunded: boolean;
}

export interface CustomerState {
  id: string;
  project_id: string;
  first_seen_at: number;
  last_seen_at: number;
  ledger: Ledger;
  subscriptions: SubscriptionState[];
  purchases: OneTimePurchase[];
}

export interface CurrencyRecord {
  currency: VirtualCurrency;
  created_at: number;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface ProjectState {
  id: string;
  currencies: Map<string, CurrencyRecord>;
  customers: Map<string, CustomerState>;
  idempotency: Map<string, IdempotencyRecord>;
}

export interface SimState {
  now: number;
  projects: Map<string, ProjectState>;
  /** Every subscription by id, with its customer (subscriptions are never removed). */
  subscriptions: Map<string, { customer: CustomerState; sub: SubscriptionState }>;
  products: Map<string, Product>;
  seq: number;
}

/** Returns the project with this id, creating it on first use (projects are implicit in the simulator). */
export function projectOf(state: SimState, id: string): ProjectState {
  let project = state.projects.get(id);
  if (project === undefined) {
    project = { id, currencies: new Map(), customers: new Map(), idempotency: new Map() };
    state.projects.set(id, project);
  }
  return project;
}
