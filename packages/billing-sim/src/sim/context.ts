/**
 * What every simulator operation works on: the state, the settings, the seeded id makers and the
 * event sink; plus the helpers they share (customers, grants and their webhook events).
 */
import {
  applyGrants,
  emptyLedger,
  grantsForPurchase,
  type GrantKind,
  type LedgerEntry,
  type VirtualCurrency,
} from '@tenure/core';
import { hexFrom, uuidFrom, type Random } from '../internal/random.js';
import type { Product } from './products.js';
import { projectOf, type CustomerState, type SimState } from './state.js';
import { virtualCurrencyEvent, type EventContext, type VcAdjustment, type WebhookBody } from './webhookEvents.js';

/** Settings of the emitted events. */
export interface EventSettings {
  app_id: string;
  store: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  default_project_id: string;
  country_code: string;
}

export interface SimContext {
  state: SimState;
  settings: EventSettings;
  random: Random;
  /** Records an event and hands it to the outbox. */
  emit(body: WebhookBody): void;
}

/** A fresh event context at the current virtual time. */
export const eventContext = (ctx: SimContext): EventContext => ({
  id: uuidFrom(ctx.random),
  at: ctx.state.now,
  app_id: ctx.settings.app_id,
  store: ctx.settings.store,
  environment: ctx.settings.environment,
});

/** A new store transaction id (digits, as the App Store's look). */
export const newTransactionId = (ctx: SimContext): string => {
  ctx.state.seq += 1;
  return `2000000${String(ctx.state.seq).padStart(9, '0')}`;
};

/** A new virtual currency transaction id. */
export const newVcTransactionId = (ctx: SimContext): string => `vctx_${hexFrom(ctx.random, 16)}`;

/** Returns the customer, creating it (first seen now) when `create` is set. */
export function customerOf(ctx: SimContext, projectId: string, customerId: string, create: boolean): CustomerState | undefined {
  const project = projectOf(ctx.state, projectId);
  let customer = project.customers.get(customerId);
  if (customer === undefined && create) {
    customer = {
      id: customerId,
      project_id: projectId,
      first_seen_at: ctx.state.now,
      last_seen_at: ctx.state.now,
      ledger: emptyLedger(),
      subscriptions: [],
      purchases: [],
    };
    project.customers.set(customerId, customer);
  }
  return customer;
}

/** The project's currencies, in creation order. */
export const currenciesOf = (ctx: SimContext, projectId: string): VirtualCurrency[] =>
  [...projectOf(ctx.state, projectId).currencies.values()].map((r) => r.currency);

/** Sums ledger entries per currency into webhook adjustments (zero sums left out). */
export function toAdjustments(ctx: SimContext, projectId: string, entries: readonly LedgerEntry[]): VcAdjustment[] {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0) + e.amount);
  const currencies = projectOf(ctx.state, projectId).currencies;
  const out: VcAdjustment[] = [];
  for (const [code, amount] of sums) {
    if (amount === 0) continue;
    const c = currencies.get(code)?.currency;
    out.push({ amount, currency: { code, name: c?.name ?? code, description: c?.description ?? null } });
  }
  return out;
}

/** Emits one VIRTUAL_CURRENCY_TRANSACTION for these entries, if they change anything. */
export function emitCurrencyEvent(
  ctx: SimContext,
  customer: CustomerState,
  entries: readonly LedgerEntry[],
  product: Product | null,
  transactionId: string | null,
): void {
  const adjustments = toAdjustments(ctx, customer.project_id, entries);
  if (adjustments.length === 0) return;
  ctx.emit(virtualCurrencyEvent(eventContext(ctx), customer, adjustments, product, newVcTransactionId(ctx), transactionId));
}

/**
 * Applies the core's grant rules for one purchase event to the customer's ledger and emits the
 * VIRTUAL_CURRENCY_TRANSACTION for what was granted.
 */
export function grantFor(
  ctx: SimContext,
  customer: CustomerState,
  product: Product,
  kind: GrantKind,
  cycleEndsAt: number | null,
  transactionId: string,
): LedgerEntry[] {
  const planned = grantsForPurchase(currenciesOf(ctx, customer.project_id), {
    product_id: product.id,
    kind,
    cycle_ends_at: cycleEndsAt,
    at: ctx.state.now,
  });
  const { ledger, entries } = applyGrants(customer.ledger, planned);
  customer.ledger = ledger;
  emitCurrencyEvent(ctx, customer, entries, product, transactionId);
  return entries;
}
