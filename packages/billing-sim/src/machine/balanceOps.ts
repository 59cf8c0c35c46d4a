/** API v2 customer balance operations: list balances, transactions, balance updates, customer info. */
import {
  adjustBalances,
  balancesOf,
  emptyLedger,
  setBalances,
  type AdjustmentErrorCode,
  type AdjustmentOutcome,
  type Balances,
} from '@tenure/core';
import { fail, ok, type ApiErrorType, type Result } from './apiError.js';
import { currenciesOf, customerOf, peekCustomer, readProject, recordCredits, type SimContext } from './context.js';
import type { CustomerState, SubscriptionState } from './world.js';

/** A balance as the API returns it. */
export interface BalanceResource {
  object: 'virtual_currency_balance';
  currency_code: string;
  balance: number;
  name: string;
  /** Left out when the currency has none (the official schema types it as a string, not nullable). */
  description?: string;
}

/** How each refusal of the core's credit rules is answered. */
export const ERROR_TYPE_BY_ADJUSTMENT_ERROR = {
  insufficient_balance: 'unprocessable_entity_error',
  balance_limit: 'unprocessable_entity_error',
  invalid_amount: 'parameter_error',
  unknown_currency: 'resource_missing',
  empty_adjustments: 'parameter_error',
} as const satisfies Record<AdjustmentErrorCode, ApiErrorType>;

/** Balances of the project's currencies (all, or only those listed), zero ones only when asked. */
export function toBalanceResources(
  ctx: SimContext,
  projectId: string,
  balances: Balances,
  opts: { include_empty: boolean; only?: readonly string[] },
): BalanceResource[] {
  return currenciesOf(ctx, projectId)
    .filter((c) => opts.only === undefined || opts.only.includes(c.code))
    .map((c) => ({
      object: 'virtual_currency_balance' as const,
      currency_code: c.code,
      balance: balances[c.code] ?? 0,
      name: c.name,
      ...(c.description === null ? {} : { description: c.description }),
    }))
    .filter((b) => opts.include_empty || b.balance > 0);
}

/** A customer's balances, or 404 for a customer the project has never seen. */
export function listBalances(ctx: SimContext, projectId: string, customerId: string, includeEmpty: boolean): Result<BalanceResource[]> {
  const customer = peekCustomer(ctx, projectId, customerId);
  if (customer === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  return ok(toBalanceResources(ctx, projectId, balancesOf(customer.ledger, ctx.now), { include_empty: includeEmpty }));
}

export type BalanceChange =
  | { kind: 'transaction'; adjustments: Record<string, number> }
  | { kind: 'update'; adjustments: Record<string, number> }
  | { kind: 'set'; balances: Record<string, number> };

/**
 * Applies a transaction (spend/deposit), a balance update (the same deltas, recorded without a
 * transaction) or absolute balances to a customer, all or nothing. The customer is created on
 * success if new. No webhook is sent: the billing service sends none for API adjustments.
 */
export function changeBalances(
  ctx: SimContext,
  projectId: string,
  customerId: string,
  change: BalanceChange,
  reference: string | null,
  includeEmpty: boolean,
): Result<BalanceResource[]> {
  const existing = peekCustomer(ctx, projectId, customerId);
  const ledger = existing?.ledger ?? emptyLedger();
  const known = [...readProject(ctx, projectId).currencies.keys()];
  const opts = { known_currencies: known, ...(reference === null ? {} : { reference }) };
  const now = ctx.now;
  const outcome: AdjustmentOutcome =
    change.kind === 'set'
      ? setBalances(ledger, change.balances, now, opts)
      : adjustBalances(ledger, change.adjustments, now, { ...opts, record: change.kind });
  if (!outcome.ok) {
    const error = outcome.errors[0]!;
    const field = change.kind === 'set' ? 'balances' : 'adjustments';
    const param = error.code === 'insufficient_balance' || error.currency === null ? field : `${field}.${error.currency}`;
    return fail(ERROR_TYPE_BY_ADJUSTMENT_ERROR[error.code], error.message, param);
  }
  const customer = customerOf(ctx, projectId, customerId, true);
  if (customer === undefined) return fail('server_error', 'customer could not be created');
  customer.ledger = outcome.value.ledger;
  customer.last_seen_at = now;
  recordCredits(ctx, customer, outcome.value.entries);
  const codes = Object.keys(change.kind === 'set' ? change.balances : change.adjustments);
  return ok(toBalanceResources(ctx, projectId, outcome.value.balances, { include_empty: includeEmpty, only: codes }));
}

/** A subscription as the customer view shows it. */
export const subscriptionView = (s: SubscriptionState) => ({
  object: 'sim.subscription' as const,
  id: s.id,
  product_id: s.product_id,
  status: s.status,
  period_type: s.period_type,
  auto_renew: s.auto_renew,
  current_period_starts_at: s.period_start,
  current_period_ends_at: s.period_end,
  renewal_number: s.renewal_number,
  grace_period_expires_at: s.grace_expires_at,
  pending_product_id: s.pending_product_id,
  original_transaction_id: s.original_transaction_id,
  transaction_id: s.transaction_id,
  expired_at: s.expired_at,
});

/** The customer view: subscriptions, one-time purchases, balances and credit lots. */
export function customerView(ctx: SimContext, customer: CustomerState) {
  const balances = balancesOf(customer.ledger, ctx.now);
  return {
    object: 'customer' as const,
    id: customer.id,
    project_id: customer.project_id,
    first_seen_at: customer.first_seen_at,
    last_seen_at: customer.last_seen_at,
    subscriptions: customer.subscriptions.map(subscriptionView),
    purchases: customer.purchases.map((p) => ({ object: 'sim.purchase' as const, ...p })),
    virtual_currencies: toBalanceResources(ctx, customer.project_id, balances, { include_empty: true }),
    credit_lots: customer.ledger.lots.map((l) => ({ ...l })),
  };
}
