/**
 * What the simulator's world is made of: plain, immutable data. Projects, currencies, customers,
 * subscriptions and their ledgers, the catalog, the virtual clock, the id counters, the PRNG state and
 * what the APIs keep beside them (`ApiParts`). `transition` takes a world and returns a new one;
 * untouched customers are shared between the two.
 *
 * Types only (and `WEBHOOK_EVENT_TYPES`, which `WebhookEventType` is read from): every module of the
 * machine takes the world's types from here, and this one imports nothing but types (the core's, the
 * persistent map's and vector's), so no chain of the machine's imports comes back to where it started.
 */
import type { Ledger, VirtualCurrency } from '@tenure/core';
import type { PMap } from './persistentMap.js';
import type { PVec } from './persistentVector.js';

/**
 * Where a subscription stands. `grace`: a charge failed and the grace period runs. `paused`: a
 * pause took effect at a period end (no access until `auto_resume_at`). `temporary`: a temporary
 * entitlement grant during a store outage, until its purchase is validated or it ends.
 */
export type SubscriptionStatus = 'trialing' | 'active' | 'grace' | 'paused' | 'temporary' | 'expired';

/** How a subscription renews: at the store's periods, or on the Test Store's minutes (`testStoreSchedule.ts`). */
export type RenewalSchedule = 'store' | 'test_store';

/** What a refund undid, so a refund reversal can restore it. */
export interface RefundRecord {
  at: number;
  status: SubscriptionStatus;
  period_end: number;
  auto_renew: boolean;
  cancel_reason: string | null;
}

/**
 * A transaction of a subscription before its current one (the current one is the subscription's own
 * `transaction_id`, `period_start`, `period_end`). A persistent list, newest first: a renewal adds one
 * node pointing at the older ones, so keeping every transaction copies nothing and earlier worlds
 * keep seeing their own history.
 */
export interface PastTransaction {
  readonly id: string;
  readonly product_id: string;
  readonly purchased_at: number;
  /** The end of the period it paid for, as it stood when the next transaction replaced it. */
  readonly expires_at: number;
  /** When it was refunded (a refund not reversed), or null. */
  readonly refunded_at: number | null;
  readonly previous: PastTransaction | null;
}

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
  /** When auto-renew was last turned off (a cancellation), or null while it renews (API v1's `unsubscribe_detected_at`). */
  unsubscribed_at: number | null;
  /** The store environment of every event of this subscription. */
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The store of every event of this subscription. */
  store: string;
  /** How it renews: at its product's periods, or on the Test Store's minutes (bought with a `test_` key). */
  schedule: RenewalSchedule;
  /**
   * A pause: while active, the subscription pauses at its period end and resumes at this instant;
   * while paused, when it resumes. Null: no pause.
   */
  auto_resume_at: number | null;
  /** The last refund, until it is reversed (REFUND_REVERSED restores what it undid). */
  refund: RefundRecord | null;
  /** Every transaction before the current one, newest first (each renewal adds one). */
  past_transactions: PastTransaction | null;
}

/** A one-time purchase (a consumable), with what it was bought with: every view and later event of it reads these. */
export interface OneTimePurchase {
  transaction_id: string;
  product_id: string;
  purchased_at: number;
  refunded: boolean;
  /** The store environment it was made in. */
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The store it was made in, as the webhooks name it (`PLAY_STORE`). */
  store: string;
  presented_offering_id: string | null;
}

export interface CustomerState {
  id: string;
  project_id: string;
  /** Creation order across the world: listing order and the tie-break of jobs due at one instant. */
  seq: number;
  first_seen_at: number;
  last_seen_at: number;
  ledger: Ledger;
  subscriptions: SubscriptionState[];
  purchases: OneTimePurchase[];
  /**
   * The `aliases` every event of the customer carries (its own id), one frozen array shared by all
   * of them rather than one per event (a month advance sends 300 k events). Absent: built per event.
   */
  readonly aliases?: readonly string[];
}

export interface CurrencyRecord {
  currency: VirtualCurrency;
  created_at: number;
}

/** A remembered response to an Idempotency-Key, forgotten `IDEMPOTENCY_TTL_MS` after `created_at`. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: unknown;
  /** Virtual time of the first request with the key. */
  created_at: number;
}

export interface ProjectState {
  id: string;
  /** By code, in creation order (at most 100). */
  currencies: ReadonlyMap<string, CurrencyRecord>;
  /**
   * The `seq` of each of the project's customers, by id: the customer itself is `World.customers`
   * at that seq (read it with `customerIn`, or `storedCustomer`).
   */
  customer_seqs: PMap<number>;
  idempotency: PMap<IdempotencyRecord>;
}

/** Where a subscription or a one-time purchase lives. */
export interface OwnerRef {
  project_id: string;
  customer_id: string;
}

/** Settings of the emitted events. */
export interface EventSettings {
  app_id: string;
  store: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  default_project_id: string;
  country_code: string;
}

export interface World {
  readonly settings: EventSettings;
  /** Virtual time (epoch ms). */
  readonly now: number;
  /** Counter of store transaction ids and subscription order. */
  readonly seq: number;
  readonly customer_seq: number;
  /** State of the seeded PRNG behind event, subscription and transaction ids. */
  readonly rng: number;
  readonly products: ReadonlyMap<string, Product>;
  readonly projects: PMap<ProjectState>;
  /**
   * Every customer of every project by its `seq` (creation order; a deleted customer leaves a
   * hole). One vector, so a month advance replaces all its customers in one pass and the clock walks
   * them in creation order.
   */
  readonly customers: PVec<CustomerState>;
  /** Every subscription's owner (subscriptions are never removed, except by a reset). */
  readonly subscriptions: PMap<OwnerRef>;
  /** Every one-time purchase's owner, by transaction id. */
  readonly purchases: PMap<OwnerRef>;
  /** What the APIs read and write beside customers and the catalog: webhook integrations, … (`ApiParts`). */
  readonly api: ApiParts;
}

/** A product in the catalog. */
export interface Product {
  object: 'sim.product';
  id: string;
  type: 'subscription' | 'consumable';
  period: string | number | null;
  trial_period: string | number | null;
  display_name: string;
  price: number;
  currency: string;
  entitlement_ids: string[] | null;
}

/**
 * The parts of the world beside customers and the catalog that the APIs read and write (webhook
 * integrations, customer attributes, entitlements, offerings, receipts, placements, when products
 * were created), in one field of the world: immutable data, replaced by a transition that changes them.
 */
export interface ApiParts {
  /** Webhook integrations of every project, by id. */
  readonly integrations: PMap<WebhookIntegrationRecord>;
  /** Customer attributes, by `attributeKey(project, customer)`. */
  readonly attributes: PMap<CustomerAttributes>;
  /** Entitlements of every project, by id. */
  readonly entitlements: PMap<EntitlementRecord>;
  /** Entitlements granted to customers through API v2, by `attributeKey(project, customer)`. */
  readonly granted: PMap<readonly GrantedEntitlement[]>;
  /** When API v2 created a catalog product, by product id (products from /sim or options have none). */
  readonly product_created_at: PMap<number>;
  /** Each project's name and creation time, by project id (projects that a /sim write created implicitly have none). */
  readonly projects: PMap<ProjectRecord>;
  /** Offerings of every project, by id. */
  readonly offerings: PMap<OfferingRecord>;
  /** Packages of every offering, by id. */
  readonly packages: PMap<PackageRecord>;
  /** Each project's current offering id, by project id (absent: none is current). */
  readonly current_offering: PMap<string>;
  /** Offerings assigned to customers (`assign_offering`), by `attributeKey(project, customer)`. */
  readonly offering_overrides: PMap<string>;
  /** Customer portal tokens not yet used, by token. */
  readonly portal_tokens: PMap<PortalToken>;
  /** What each posted fetch token bought (API v1's receipts), by `project\u0000token`. */
  readonly receipts: PMap<ReceiptRecord>;
  /** Each project's placements (which offering each paywall placement shows), by project id. */
  readonly placements: PMap<PlacementMap>;
}

/** One attribute: its value and when it last changed (a deleted attribute is not kept). */
export interface AttributeValue {
  value: string;
  updated_at: number;
}

/** A customer's attributes by name, in the order they were first set. */
export type CustomerAttributes = ReadonlyMap<string, AttributeValue>;

/** A stored entitlement. */
export interface EntitlementRecord {
  id: string;
  project_id: string;
  lookup_key: string;
  display_name: string;
  created_at: number;
  /** Attached catalog product ids, in attach order. */
  product_ids: string[];
  /** Creation order (listing order). */
  seq: number;
}

/** One grant: which entitlement, until when (null: lifetime), since when, and the promotional purchase that carries it. */
export interface GrantedEntitlement {
  entitlement_id: string;
  expires_at: number | null;
  granted_at: number;
  /** The promotional product the customer info and the webhooks name: `rc_promo_<lookup key>_<duration>`. */
  product_id: string;
  /** The grant's store transaction id (32 hex digits, as the billing service's promotional ones). */
  transaction_id: string;
}

/** API v2's lower-case webhook event types (`WebhookEventType`). */
export const WEBHOOK_EVENT_TYPES = [
  'initial_purchase', 'renewal', 'product_change', 'cancellation', 'billing_issue', 'non_renewing_purchase',
  'uncancellation', 'transfer', 'subscription_paused', 'expiration', 'subscription_extended', 'invoice_issuance',
  'temporary_entitlement_grant', 'refund_reversed', 'virtual_currency_transaction',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** A stored webhook integration. */
export interface WebhookIntegrationRecord {
  id: string;
  project_id: string;
  name: string;
  url: string;
  /** Sent verbatim as `Authorization`; never shown by the API. */
  authorization_header: string | null;
  /** Only events of this environment; null: both. */
  environment: 'production' | 'sandbox' | null;
  /** Only these event types; null: all. */
  event_types: WebhookEventType[] | null;
  app_id: string | null;
  created_at: number;
  /** Creation order (listing order). */
  seq: number;
}

/** A project's name and when it was created (API v2's `Project` object carries both). */
export interface ProjectRecord {
  name: string;
  created_at: number;
}

/** A stored offering (`is_current` is derived from the project's current offering). */
export interface OfferingRecord {
  id: string;
  project_id: string;
  lookup_key: string;
  display_name: string;
  metadata: Record<string, unknown> | null;
  created_at: number;
  /** Creation order (listing order). */
  seq: number;
}

/** A stored package of an offering, with its products. */
export interface PackageRecord {
  id: string;
  project_id: string;
  offering_id: string;
  lookup_key: string;
  display_name: string;
  position: number | null;
  created_at: number;
  products: { product_id: string; eligibility_criteria: EligibilityCriteria }[];
  seq: number;
}

/** Which SDKs see a package's product (the document's `EligibilityCriteria`). */
export type EligibilityCriteria = 'all' | 'google_sdk_lt_6' | 'google_sdk_ge_6';

/** A portal token not yet used: whose subscription it manages. */
export interface PortalToken {
  project_id: string;
  customer_id: string;
  subscription_id: string;
  issued_at: number;
}

/** Each placement's offering id (null: the placement shows no offering). */
export type PlacementMap = Readonly<Record<string, string | null>>;

/** What a posted fetch token bought. */
export interface ReceiptRecord {
  transaction_id: string;
  /** The subscription it started, or null for a one-time purchase. */
  subscription_id: string | null;
}
