/**
 * The working copy of one transition: what every simulator operation reads and writes. It starts
 * from a world, copies a customer the first time an operation touches it (so the world it started
 * from never changes), records the webhook events and credit changes instead of sending them, and
 * `commitDraft` turns it into the next world. Plus the helpers operations share (customers, grants
 * and their webhook events).
 */
import {
  applyGrants,
  emptyLedger,
  grantsForPurchase,
  type GrantKind,
  type LedgerEntry,
  type VirtualCurrency,
} from '@tenure/core';
import { randomFromState, uuidFrom, type Random } from '../internal/random.js';
import { createEventLog, type EventLogWriter } from './eventLog.js';
import type { ApiParts, Product, CurrencyRecord, CustomerState, EventSettings, IdempotencyRecord, OwnerRef, ProjectState, SubscriptionState, World } from './world.js';
import { pmapGet, pmapRemove, pmapSet, pmapSetAll, type PMap } from './persistentMap.js';
import { pvecSetAll } from './persistentVector.js';
import { emptyProject } from './createWorld.js';
import { storedCustomer } from './worldCustomers.js';
import { copyCustomer } from './copyCustomer.js';
import type { EventContext, VcAdjustment, WebhookBody } from './webhookEvents.js';

/** One change to a customer's credits: the ledger entries, with whose ledger they changed. */
export interface CreditChange {
  project_id: string;
  customer_id: string;
  entries: LedgerEntry[];
}

/** A project being changed: its currencies and idempotency keys as copied on first write. */
interface ProjectDraft {
  base: ProjectState;
  currencies: Map<string, CurrencyRecord> | null;
  idempotency: PMap<IdempotencyRecord> | null;
  /** Customers copied in this transition, by id (see `copiedCustomers`). */
  customers: Map<string, CustomerState>;
  /**
   * Customers the clock copied (`adoptCustomer`), not yet in `customers`: a month advance copies
   * every customer, and a map of them is only needed when a command after the jobs looks one up.
   */
  adopted: CustomerState[];
  /** Customers deleted in this transition (API v2 `DELETE /customers/{id}`). */
  removed: Set<string>;
}

export interface SimContext {
  readonly base: World;
  /** Virtual time of the operation (moves forward while the clock runs jobs). */
  now: number;
  readonly settings: EventSettings;
  readonly random: Random;
  /** Webhook events emitted, in order, with the project of each (delivery sends it to that project's integrations). */
  readonly log: EventLogWriter;
  /** Credit ledger changes, in order (none gathered when the caller does not want them). */
  readonly grants: CreditChange[];
  readonly gatherCredits: boolean;
  seq: number;
  customerSeq: number;
  products: Map<string, Product> | null;
  readonly projects: Map<string, ProjectDraft>;
  readonly subscriptions: Map<string, OwnerRef>;
  readonly purchases: Map<string, OwnerRef>;
  readonly rngState: () => number;
  /** API v2's parts of the world, replaced (not mutated) by the operations that change them. */
  api: ApiParts;
}

/** Starts the working copy of a transition from a world. */
export function beginDraft(world: World, gatherCredits = true): SimContext {
  const rng = randomFromState(world.rng);
  return {
    base: world,
    now: world.now,
    settings: world.settings,
    random: rng.random,
    log: createEventLog(world.settings.app_id, rng.random),
    grants: [],
    gatherCredits,
    seq: world.seq,
    customerSeq: world.customer_seq,
    products: null,
    projects: new Map(),
    subscriptions: new Map(),
    purchases: new Map(),
    rngState: rng.state,
    api: world.api,
  };
}

function projectDraft(ctx: SimContext, projectId: string): ProjectDraft {
  let draft = ctx.projects.get(projectId);
  if (draft === undefined) {
    const base = pmapGet(ctx.base.projects, projectId) ?? emptyProject(projectId);
    draft = { base, currencies: null, idempotency: null, customers: new Map(), adopted: [], removed: new Set() };
    ctx.projects.set(projectId, draft);
  }
  return draft;
}

/** The draft's copied customers by id, the clock's adopted ones moved in first. */
function copiedCustomers(draft: ProjectDraft): Map<string, CustomerState> {
  if (draft.adopted.length > 0) {
    for (const c of draft.adopted) if (!draft.customers.has(c.id)) draft.customers.set(c.id, c);
    draft.adopted = [];
  }
  return draft.customers;
}

/** The project as the transition sees it so far (read only). */
export function readProject(ctx: SimContext, projectId: string): { currencies: ReadonlyMap<string, CurrencyRecord>; base: ProjectState } {
  const draft = ctx.projects.get(projectId);
  const base = draft?.base ?? pmapGet(ctx.base.projects, projectId) ?? emptyProject(projectId);
  return { currencies: draft?.currencies ?? base.currencies, base };
}

/** The project's currencies, writable (copied on first write). */
export function writableCurrencies(ctx: SimContext, projectId: string): Map<string, CurrencyRecord> {
  const draft = projectDraft(ctx, projectId);
  draft.currencies ??= new Map(draft.base.currencies);
  return draft.currencies;
}

/** The project's idempotency keys as the transition sees them. */
export function readIdempotency(ctx: SimContext, projectId: string): PMap<IdempotencyRecord> {
  const draft = ctx.projects.get(projectId);
  return draft?.idempotency ?? (draft?.base ?? pmapGet(ctx.base.projects, projectId) ?? emptyProject(projectId)).idempotency;
}

/** Replaces the project's idempotency keys. */
export function setIdempotency(ctx: SimContext, projectId: string, next: PMap<IdempotencyRecord>): void {
  projectDraft(ctx, projectId).idempotency = next;
}

/** The product catalog as the transition sees it. */
export const productsOf = (ctx: SimContext): ReadonlyMap<string, Product> => ctx.products ?? ctx.base.products;

/** The catalog, writable (copied on first write). */
export function writableProducts(ctx: SimContext): Map<string, Product> {
  ctx.products ??= new Map(ctx.base.products);
  return ctx.products;
}

/** A fresh event context at the current virtual time (the settings' environment and store unless given). */
export const eventContext = (ctx: SimContext, environment = ctx.settings.environment, store = ctx.settings.store): EventContext => ({
  id: uuidFrom(ctx.random),
  at: ctx.now,
  app_id: ctx.settings.app_id,
  store,
  environment,
});

/** Records a webhook event of a project, given as its body (lifecycle and currency events go to the log column-wise). */
export function emitEvent(ctx: SimContext, projectId: string, body: WebhookBody): void {
  ctx.log.whole(projectId, body);
}

/** A new store transaction id (digits, as the App Store's look). */
export const newTransactionId = (ctx: SimContext): string => {
  ctx.seq += 1;
  // "2000000" and the counter in 9 digits, as one flat string (below a billion transactions).
  return ctx.seq < 1e9 ? String(2_000_000_000_000_000 + ctx.seq) : `2000000${ctx.seq}`;
};

/** Returns the customer as stored, without copying it (read only), or undefined. */
export function peekCustomer(ctx: SimContext, projectId: string, customerId: string): CustomerState | undefined {
  const draft = ctx.projects.get(projectId);
  const copied = draft === undefined ? undefined : copiedCustomers(draft).get(customerId);
  if (copied !== undefined) return copied;
  if (draft?.removed.has(customerId) === true) return undefined;
  const base = draft?.base ?? pmapGet(ctx.base.projects, projectId);
  return base === undefined ? undefined : storedCustomer(ctx.base, base, customerId);
}

/**
 * Returns the customer, writable (copied into the transition on first access), creating it (first
 * seen now) when `create` is set.
 */
export function customerOf(ctx: SimContext, projectId: string, customerId: string, create: boolean): CustomerState | undefined {
  const draft = projectDraft(ctx, projectId);
  const copied = copiedCustomers(draft).get(customerId);
  if (copied !== undefined) return copied;
  const stored = draft.removed.has(customerId) ? undefined : storedCustomer(ctx.base, draft.base, customerId);
  if (stored !== undefined) {
    const copy = copyCustomer(stored);
    draft.customers.set(customerId, copy);
    return copy;
  }
  if (!create) return undefined;
  ctx.customerSeq += 1;
  const customer: CustomerState = {
    id: customerId,
    project_id: projectId,
    seq: ctx.customerSeq,
    first_seen_at: ctx.now,
    last_seen_at: ctx.now,
    ledger: emptyLedger(),
    subscriptions: [],
    purchases: [],
    aliases: Object.freeze([customerId]),
  };
  draft.customers.set(customerId, customer);
  return customer;
}

/**
 * Copies a customer the transition has not touched yet (the caller knows), as read from the world it
 * started from, into the transition and returns the writable copy. The clock's jobs hold the stored
 * customer already, so this skips the lookups `customerOf` makes (a month advance touches every customer).
 */
export function adoptCustomer(ctx: SimContext, stored: CustomerState): CustomerState {
  const draft = projectDraft(ctx, stored.project_id);
  // No lookup of an earlier copy: the clock adopts each customer once, before anything else in the transition.
  const copy = copyCustomer(stored);
  draft.adopted.push(copy);
  return copy;
}

/**
 * Removes a customer from its project (its subscriptions and purchases go with it; their jobs stop,
 * as jobs are derived from customers). Creating the id again later in the transition starts afresh.
 */
export function removeCustomer(ctx: SimContext, projectId: string, customerId: string): void {
  const draft = projectDraft(ctx, projectId);
  copiedCustomers(draft).delete(customerId);
  draft.removed.add(customerId);
}

/** Finds a subscription by id in any project, writable. */
export function findSubscription(ctx: SimContext, id: string): { customer: CustomerState; sub: SubscriptionState } | undefined {
  const owner = ctx.subscriptions.get(id) ?? pmapGet(ctx.base.subscriptions, id);
  if (owner === undefined) return undefined;
  const customer = customerOf(ctx, owner.project_id, owner.customer_id, false);
  const sub = customer?.subscriptions.find((s) => s.id === id);
  return customer === undefined || sub === undefined ? undefined : { customer, sub };
}

/** Finds the owner of a one-time purchase. */
export const purchaseOwner = (ctx: SimContext, transactionId: string): OwnerRef | undefined =>
  ctx.purchases.get(transactionId) ?? pmapGet(ctx.base.purchases, transactionId);

/** The currency list of each stored (immutable) currency map: a grant reads it per renewal. */
const currencyLists = new WeakMap<ReadonlyMap<string, CurrencyRecord>, readonly VirtualCurrency[]>();

/** The project's currencies, in creation order (read only). */
export function currenciesOf(ctx: SimContext, projectId: string): readonly VirtualCurrency[] {
  const draft = ctx.projects.get(projectId);
  // Written in this transition: a map still changing, so no list is kept for it.
  if (draft?.currencies != null) return [...draft.currencies.values()].map((r) => r.currency);
  const stored = (draft?.base ?? pmapGet(ctx.base.projects, projectId) ?? emptyProject(projectId)).currencies;
  let list = currencyLists.get(stored);
  if (list === undefined) {
    list = Object.freeze([...stored.values()].map((r) => r.currency));
    currencyLists.set(stored, list);
  }
  return list;
}

/** The `currency` of an adjustment, one frozen object per currency record (shared by all its events). */
const adjustmentCurrencies = new WeakMap<CurrencyRecord, VcAdjustment['currency']>();
function adjustmentCurrency(record: CurrencyRecord | undefined, code: string): VcAdjustment['currency'] {
  if (record === undefined) return { code, name: code, description: null };
  let shared = adjustmentCurrencies.get(record);
  if (shared === undefined) {
    shared = Object.freeze({ code, name: record.currency.name, description: record.currency.description ?? null });
    adjustmentCurrencies.set(record, shared);
  }
  return shared;
}

/** Most-used amounts kept per currency record (a grant's amount, its expiry's negative, …). */
const SHARED_AMOUNTS_PER_CURRENCY = 256;
const singleAdjustments = new WeakMap<CurrencyRecord, Map<number, VcAdjustment[]>>();

/**
 * The adjustments of a one-currency change: one frozen list per currency record and amount, shared
 * by every event of that amount (events are read, never changed). A month advance sends 200 k of
 * them with one or two amounts, and each list with its adjustment stayed alive with its event.
 */
function singleAdjustment(record: CurrencyRecord | undefined, code: string, amount: number): VcAdjustment[] {
  if (record === undefined) return [{ amount, currency: adjustmentCurrency(record, code) }];
  let byAmount = singleAdjustments.get(record);
  if (byAmount === undefined) {
    byAmount = new Map();
    singleAdjustments.set(record, byAmount);
  }
  let shared = byAmount.get(amount);
  if (shared === undefined) {
    shared = Object.freeze([Object.freeze({ amount, currency: adjustmentCurrency(record, code) })]) as unknown as VcAdjustment[];
    if (byAmount.size < SHARED_AMOUNTS_PER_CURRENCY) byAmount.set(amount, shared);
  }
  return shared;
}

/** The project's currency records as the transition sees them (read only; no object made: a month advance asks 200 k times). */
function currencyRecords(ctx: SimContext, projectId: string): ReadonlyMap<string, CurrencyRecord> {
  const draft = ctx.projects.get(projectId);
  return draft?.currencies ?? (draft?.base ?? pmapGet(ctx.base.projects, projectId) ?? emptyProject(projectId)).currencies;
}

/** Sums ledger entries per currency into webhook adjustments (zero sums left out). */
export function toAdjustments(ctx: SimContext, projectId: string, entries: readonly LedgerEntry[]): VcAdjustment[] {
  if (entries.length === 0) return [];
  const currencies = currencyRecords(ctx, projectId);
  const only = entries.length === 1 ? entries[0]! : null;
  if (only !== null) {
    // The common case (one grant or one expiry): no sums to build.
    if (only.amount === 0) return [];
    return singleAdjustment(currencies.get(only.currency), only.currency, only.amount);
  }
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  const out: VcAdjustment[] = [];
  for (const [code, amount] of sums) {
    if (amount === 0) continue;
    out.push({ amount, currency: adjustmentCurrency(currencies.get(code), code) });
  }
  return out;
}

/** Records a credit change of a customer (nothing when there are no entries). */
export function recordCredits(ctx: SimContext, customer: CustomerState, entries: readonly LedgerEntry[]): void {
  // The entries are the core's fresh result and nothing changes them later: no copy.
  if (ctx.gatherCredits && entries.length > 0) ctx.grants.push({ project_id: customer.project_id, customer_id: customer.id, entries: entries as LedgerEntry[] });
}

/** Records the credit change and emits one VIRTUAL_CURRENCY_TRANSACTION for it, if it changes anything. */
export function emitCurrencyEvent(
  ctx: SimContext,
  customer: CustomerState,
  entries: readonly LedgerEntry[],
  product: Product | null,
  transactionId: string | null,
  environment: EventSettings['environment'] = ctx.settings.environment,
): void {
  recordCredits(ctx, customer, entries);
  const adjustments = toAdjustments(ctx, customer.project_id, entries);
  if (adjustments.length === 0) return;
  // Its id, then its `virtual_currency_transaction_id` (`vctx_` and 16 hex digits), drawn by the log.
  ctx.log.currency(ctx.now, customer, adjustments, product, environment, ctx.settings.store, transactionId);
}

/**
 * Applies the core's grant rules for one purchase event to the customer's ledger and emits the
 * VIRTUAL_CURRENCY_TRANSACTION for what was granted (`purchase_environment`: the purchase's).
 */
export function grantFor(
  ctx: SimContext,
  customer: CustomerState,
  product: Product,
  kind: GrantKind,
  cycleEndsAt: number | null,
  transactionId: string,
  environment: EventSettings['environment'] = ctx.settings.environment,
): LedgerEntry[] {
  const planned = grantsForPurchase(currenciesOf(ctx, customer.project_id), {
    product_id: product.id,
    kind,
    cycle_ends_at: cycleEndsAt,
    at: ctx.now,
  });
  const { ledger, entries } = applyGrants(customer.ledger, planned);
  customer.ledger = ledger;
  emitCurrencyEvent(ctx, customer, entries, product, transactionId, environment);
  return entries;
}

/** Turns the working copy into the next world; the world it started from is unchanged. */
export function commitDraft(ctx: SimContext): World {
  let projects = ctx.base.projects;
  // What changes in the world's customers, by seq (undefined: deleted), set in one batch.
  const seqs: number[] = [];
  const changed: (CustomerState | undefined)[] = [];
  for (const [id, draft] of ctx.projects) {
    const touched = draft.currencies !== null || draft.idempotency !== null || draft.customers.size > 0 || draft.adopted.length > 0 || draft.removed.size > 0;
    if (!touched) continue;
    // The clock's copies were never looked up again (or they would be in `customers`): set as they are.
    for (const copy of draft.adopted) {
      seqs.push(copy.seq);
      changed.push(copy);
    }
    let customerSeqs = draft.base.customer_seqs;
    // A customer deleted (and maybe created again, with a new seq) in this transition.
    for (const customerId of draft.removed) {
      const seq = pmapGet(draft.base.customer_seqs, customerId);
      if (seq === undefined) continue;
      seqs.push(seq);
      changed.push(undefined);
      if (!draft.customers.has(customerId)) customerSeqs = pmapRemove(customerSeqs, customerId);
    }
    for (const [customerId, customer] of draft.customers) {
      seqs.push(customer.seq);
      changed.push(customer);
      if (pmapGet(draft.base.customer_seqs, customerId) !== customer.seq) customerSeqs = pmapSet(customerSeqs, customerId, customer.seq);
    }
    projects = pmapSet(projects, id, {
      id,
      currencies: draft.currencies ?? draft.base.currencies,
      customer_seqs: customerSeqs,
      idempotency: draft.idempotency ?? draft.base.idempotency,
    });
  }
  const subscriptions = ctx.subscriptions.size === 0 ? ctx.base.subscriptions : pmapSetAll(ctx.base.subscriptions, ctx.subscriptions);
  const purchases = ctx.purchases.size === 0 ? ctx.base.purchases : pmapSetAll(ctx.base.purchases, ctx.purchases);
  return {
    settings: ctx.settings,
    now: ctx.now,
    seq: ctx.seq,
    customer_seq: ctx.customerSeq,
    rng: ctx.rngState(),
    products: ctx.products ?? ctx.base.products,
    projects,
    customers: pvecSetAll(ctx.base.customers, seqs, changed),
    subscriptions,
    purchases,
    api: ctx.api,
  };
}
