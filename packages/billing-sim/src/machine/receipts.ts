/**
 * Receipts posted by an app (API v1's `POST /receipts`): a store's proof of purchase, by its fetch
 * token. The first post of a token buys its product (a purchase like any other: same webhooks, same
 * credits); posting the same token again changes nothing (the SDKs post again on restore), and a token
 * posted for another customer is refused, as the billing service's "keep with original App User ID"
 * restore behaviour refuses it.
 */
import { fail, ok, type Result } from './apiError.js';
import { findSubscription, purchaseOwner, type SimContext } from './context.js';
import { purchase, type PurchaseInput, type PurchaseOutcome } from './lifecycle.js';
import { pmapGet, pmapSet } from './persistentMap.js';
import type { ReceiptRecord } from './world.js';

/** A receipt post: the purchase it stands for and its fetch token. */
export type ReceiptInput = PurchaseInput & { fetch_token: string };

/** What a receipt post answers: the purchase, and whether it was new. */
export type ReceiptOutcome = PurchaseOutcome & { created: boolean };

const receiptKey = (projectId: string, token: string) => `${projectId}\u0000${token}`;

/** The customer that owns what a receipt bought now (a transfer moves it), or undefined. */
function ownerOf(ctx: SimContext, record: ReceiptRecord, projectId: string): string | undefined {
  if (record.subscription_id !== null) return findSubscription(ctx, record.subscription_id)?.customer.id;
  const owner = purchaseOwner(ctx, record.transaction_id);
  return owner?.project_id === projectId ? owner.customer_id : undefined;
}

/**
 * Posts a receipt: buys its product the first time (`created`), answers what it bought when the same
 * customer posts it again, and refuses it (409 naming `fetch_token`) for another customer.
 */
export function postReceipt(ctx: SimContext, input: ReceiptInput): Result<ReceiptOutcome> {
  const key = receiptKey(input.project_id, input.fetch_token);
  const known = pmapGet(ctx.api.receipts, key);
  if (known !== undefined) {
    const owner = ownerOf(ctx, known, input.project_id);
    if (owner !== undefined && owner !== input.customer_id) {
      return fail('resource_already_exists', `The receipt is already in use by another customer`, 'fetch_token');
    }
    if (owner !== undefined) {
      const base = known.subscription_id === null
        ? { kind: 'one_time' as const, transaction_id: known.transaction_id }
        : { kind: 'subscription' as const, subscription_id: known.subscription_id, transaction_id: known.transaction_id };
      return ok({ ...base, created: false });
    }
  }
  const bought = purchase(ctx, input);
  if (!bought.ok) return bought;
  const record: ReceiptRecord = { transaction_id: bought.value.transaction_id, subscription_id: bought.value.kind === 'subscription' ? bought.value.subscription_id : null };
  ctx.api = { ...ctx.api, receipts: pmapSet(ctx.api.receipts, key, record) };
  return ok({ ...bought.value, created: true });
}
