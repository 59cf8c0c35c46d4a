/**
 * The simulator as a pure machine, in the manner of XState's `transition()`: given a world, a command
 * and the instant it happens, returns the next world and the effects to apply (webhook events to
 * deliver, credit ledger changes), or an error and no change at all. No I/O, no clock, no hidden
 * randomness (the PRNG state is part of the world). The facade (`createBillingSimulator`), the HTTP
 * routes and the delivery outbox are adapters around it.
 */
import { fail, ok, type ApiError, type Result } from './apiError.js';
import { refuseClock } from './clockBounds.js';
import { advanceTo } from './clock.js';
import type { CommandOf, CommandValues, SimCommand, SimCommandType } from './commands.js';
import { beginDraft, commitDraft, writableProducts, type CreditChange, type SimContext } from './context.js';
import { changeBalances } from './balanceOps.js';
import { createCurrency, deleteCurrency, updateCurrency } from './currencyOps.js';
import { forgetExpiredKeys, rememberKey } from './idempotency.js';
import * as life from './lifecycle.js';
import type { World } from './state.js';
import type { WebhookBody } from './webhookEvents.js';

/** The outcome of a transition: the next world and its effects, or an error (the world unchanged). */
export type TransitionOutcome<V> =
  | { ok: true; world: World; value: V; events: WebhookBody[]; grants: CreditChange[] }
  | { ok: false; error: ApiError };

/** Applies one command to the working copy. A switch, not a pattern matcher: this runs once per request. */
function apply(ctx: SimContext, c: SimCommand): Result<CommandValues[SimCommandType]> {
  switch (c.type) {
    case 'advance':
      return ok({ now: ctx.now, jobs_run: [] });
    case 'put_product':
      writableProducts(ctx).set(c.product.id, c.product);
      return ok(c.product);
    case 'create_currency':
      return createCurrency(ctx, c.project_id, c.body);
    case 'update_currency':
      return updateCurrency(ctx, c.project_id, c.code, c.body);
    case 'delete_currency':
      return deleteCurrency(ctx, c.project_id, c.code);
    case 'change_balances':
      return changeBalances(ctx, c.project_id, c.customer_id, c.change, c.reference, c.include_empty);
    case 'purchase':
      return life.purchase(ctx, c);
    case 'refund_purchase':
      return life.refundPurchase(ctx, c.project_id, c.transaction_id);
    case 'cancel':
      return life.cancel(ctx, c.subscription_id, c.reason);
    case 'uncancel':
      return life.uncancel(ctx, c.subscription_id);
    case 'billing_issue':
      return life.billingIssue(ctx, c.subscription_id, c.grace_ms, c.when);
    case 'recover':
      return life.recover(ctx, c.subscription_id);
    case 'change_product':
      return life.changeProduct(ctx, c.subscription_id, c.new_product_id, c.timing);
    case 'refund':
      return life.refund(ctx, c.subscription_id);
    case 'expire':
      return life.expire(ctx, c.subscription_id, c.reason);
    case 'remember_idempotency':
      return ok(rememberKey(ctx, c.project_id, c.key, c.record));
    default:
      return c satisfies never;
  }
}

/**
 * Given a world, a command and the instant it happens (≥ the world's clock), returns the next world,
 * the command's value and its effects: first every job due up to `now` runs (renewals, expiries,
 * credit expiry; `advance` does only that), then the command. On an error nothing changes and no
 * effect is produced. Pure: the given world is never modified, and the same inputs give the same
 * outcome, ids included.
 *
 * @example
 * const out = transition(world, { type: 'cancel', subscription_id: 'sub_1', reason: 'UNSUBSCRIBE' }, world.now);
 * if (out.ok) { world = out.world; out.events; } // [CANCELLATION]
 */
export function transition<T extends SimCommandType>(world: World, command: CommandOf<T>, now: number): TransitionOutcome<CommandValues[T]> {
  const refused = refuseClock(world.now, now);
  if (refused !== null) return fail('parameter_error', refused, 'to');
  const ctx = beginDraft(world);
  let jobsRun: CommandValues['advance']['jobs_run'] = [];
  if (now > world.now || command.type === 'advance') {
    const advanced = advanceTo(ctx, now);
    if (!advanced.ok) return advanced;
    jobsRun = advanced.value.jobs_run;
    forgetExpiredKeys(ctx);
  }
  const result = command.type === 'advance' ? ok({ now: ctx.now, jobs_run: jobsRun }) : apply(ctx, command);
  if (!result.ok) return result;
  return { ok: true, world: commitDraft(ctx), value: result.value as CommandValues[T], events: ctx.events, grants: ctx.grants };
}
