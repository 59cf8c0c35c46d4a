/**
 * The simulator as a pure machine, in the manner of XState's `transition()`: given a world, a command
 * and the instant it happens, returns the next world and the effects to apply (webhook events to
 * deliver, credit ledger changes), or an error and no change at all. No I/O, no clock, no hidden
 * randomness (the PRNG state is part of the world). The facade (`createBillingSimulator`), the HTTP
 * routes and the delivery outbox are adapters around it.
 */
import { match } from 'ts-pattern';
import { fail, ok, type ApiError, type Result } from './apiError.js';
import { refuseClock } from './clockBounds.js';
import { advanceTo } from './clock.js';
import type { CommandOf, CommandValues, SimCommand, SimCommandType } from './commands.js';
import { beginDraft, commitDraft, writableProducts, type CreditChange, type SimContext } from './context.js';
import { changeBalances } from './balanceOps.js';
import { createCurrency, deleteCurrency, updateCurrency } from './currencyOps.js';
import { forgetExpiredKeys, rememberKey } from './idempotency.js';
import * as life from './lifecycle.js';
import { createNamedProject, createProject } from './projects.js';
import { createCustomer } from './customerCreation.js';
import { assignOffering, createOffering, deleteOffering, updateOffering } from './offerings.js';
import * as pkg from './packages.js';
import { issuePortalToken, redeemPortalToken } from './portal.js';
import { deleteApiProduct, deleteEntitlement, updateEntitlement } from './catalogRemovals.js';
import { deleteCustomer, setAttributes } from './attributes.js';
import { createApiProduct } from './apiProducts.js';
import { changeEntitlementProducts, createEntitlement } from './entitlements.js';
import { grantEntitlement, revokeGrantedEntitlement } from './grantedEntitlements.js';
import { createIntegration, deleteIntegration, updateIntegration } from './integrations.js';
import { getOrCreateCustomer, identifyAppUser } from './appUsers.js';
import { setPlacements } from './placements.js';
import { grantPromotional, revokePromotional } from './promotional.js';
import { postReceipt } from './receipts.js';
import type { World } from './world.js';
import type { WebhookBody } from './webhookEvents.js';
import type { EventLog } from './eventLog.js';

/** The outcome of a transition: the next world and its effects, or an error (the world unchanged). */
export type TransitionOutcome<V> =
  | {
      ok: true;
      world: World;
      value: V;
      /** The webhook events to deliver, in order, column-wise: what the facade reads (bodies built when read or sent). */
      log: EventLog;
      /** The webhook bodies of `log`, built from it when first read and kept. */
      readonly events: WebhookBody[];
      /** The project of each event (same positions as `events`), read from `log` when first read. */
      readonly event_projects: string[];
      grants: CreditChange[];
    }
  | { ok: false; error: ApiError };

/** What a caller of `transition` wants gathered besides the next world, the value and the events. */
export interface TransitionOptions {
  /**
   * Gather every credit ledger change in `grants` (default true). A caller that does not read them
   * (the simulator facade) turns it off: a month advance makes 200 k of them, each kept alive until
   * the transition returns.
   */
  grants?: boolean;
}

/**
 * Applies one command to the working copy: one exhaustive match over the command union (a new
 * command type fails to compile until it is handled here). ts-pattern's dispatch costs 4-15 µs by the
 * command's place in the chain (docs/architecture.md), once per API write; the clock's jobs and the
 * core's per-event hot paths use switches instead.
 */
function apply(ctx: SimContext, command: SimCommand): Result<CommandValues[SimCommandType]> {
  return match<SimCommand, Result<CommandValues[SimCommandType]>>(command)
    .with({ type: 'advance' }, () => ok({ now: ctx.now, jobs_run: [] }))
    .with({ type: 'put_product' }, (c) => {
      writableProducts(ctx).set(c.product.id, c.product);
      return ok(c.product);
    })
    .with({ type: 'create_currency' }, (c) => createCurrency(ctx, c.project_id, c.body))
    .with({ type: 'update_currency' }, (c) => updateCurrency(ctx, c.project_id, c.code, c.body))
    .with({ type: 'delete_currency' }, (c) => deleteCurrency(ctx, c.project_id, c.code))
    .with({ type: 'change_balances' }, (c) => changeBalances(ctx, c.project_id, c.customer_id, c.change, c.reference, c.include_empty))
    .with({ type: 'purchase' }, (c) => life.purchase(ctx, c))
    .with({ type: 'refund_purchase' }, (c) => life.refundPurchase(ctx, c.project_id, c.transaction_id))
    .with({ type: 'cancel' }, (c) => life.cancel(ctx, c.subscription_id, c.reason))
    .with({ type: 'uncancel' }, (c) => life.uncancel(ctx, c.subscription_id))
    .with({ type: 'billing_issue' }, (c) => life.billingIssue(ctx, c.subscription_id, c.grace_ms, c.when))
    .with({ type: 'recover' }, (c) => life.recover(ctx, c.subscription_id))
    .with({ type: 'change_product' }, (c) => life.changeProduct(ctx, c.subscription_id, c.new_product_id, c.timing))
    .with({ type: 'refund' }, (c) => life.refund(ctx, c.subscription_id))
    .with({ type: 'expire' }, (c) => life.expire(ctx, c.subscription_id, c.reason))
    .with({ type: 'pause' }, (c) => life.pause(ctx, c.subscription_id, c.resume_after))
    .with({ type: 'resume' }, (c) => life.resume(ctx, c.subscription_id))
    .with({ type: 'extend' }, (c) => life.extend(ctx, c.subscription_id, c.by))
    .with({ type: 'reverse_refund' }, (c) => life.reverseRefund(ctx, c.subscription_id))
    .with({ type: 'transfer' }, (c) => life.transfer(ctx, c.project_id, c.customer_id, c.target_customer_id))
    .with({ type: 'temporary_grant' }, (c) => life.temporaryGrant(ctx, c))
    .with({ type: 'remember_idempotency' }, (c) => ok(rememberKey(ctx, c.project_id, c.key, c.record)))
    .with({ type: 'create_project' }, (c) => createProject(ctx, c.project_id))
    .with({ type: 'create_named_project' }, (c) => createNamedProject(ctx, c.name))
    .with({ type: 'create_customer' }, (c) => createCustomer(ctx, c.project_id, c.customer_id, c.attributes))
    .with({ type: 'create_offering' }, (c) => createOffering(ctx, c.project_id, c.input))
    .with({ type: 'update_offering' }, (c) => updateOffering(ctx, c.project_id, c.id, c.update))
    .with({ type: 'delete_offering' }, (c) => deleteOffering(ctx, c.project_id, c.id))
    .with({ type: 'assign_offering' }, (c) => assignOffering(ctx, c.project_id, c.customer_id, c.offering_id))
    .with({ type: 'create_package' }, (c) => pkg.createPackage(ctx, c.project_id, c.offering_id, c.input))
    .with({ type: 'update_package' }, (c) => pkg.updatePackage(ctx, c.project_id, c.id, c.update))
    .with({ type: 'delete_package' }, (c) => pkg.deletePackage(ctx, c.project_id, c.id))
    .with({ type: 'attach_package_products' }, (c) => pkg.attachPackageProducts(ctx, c.project_id, c.id, c.products))
    .with({ type: 'detach_package_products' }, (c) => pkg.detachPackageProducts(ctx, c.project_id, c.id, c.product_ids))
    .with({ type: 'issue_portal_token' }, (c) => issuePortalToken(ctx, c.project_id, c.subscription_id))
    .with({ type: 'redeem_portal_token' }, (c) => redeemPortalToken(ctx, c.token))
    .with({ type: 'update_entitlement' }, (c) => updateEntitlement(ctx, c.project_id, c.id, c.display_name))
    .with({ type: 'delete_entitlement' }, (c) => deleteEntitlement(ctx, c.project_id, c.id))
    .with({ type: 'delete_api_product' }, (c) => deleteApiProduct(ctx, c.id))
    .with({ type: 'create_integration' }, (c) => createIntegration(ctx, c.project_id, c.input))
    .with({ type: 'update_integration' }, (c) => updateIntegration(ctx, c.project_id, c.id, c.input))
    .with({ type: 'delete_integration' }, (c) => deleteIntegration(ctx, c.project_id, c.id))
    .with({ type: 'set_attributes' }, (c) => setAttributes(ctx, c.project_id, c.customer_id, c.attributes))
    .with({ type: 'delete_customer' }, (c) => deleteCustomer(ctx, c.project_id, c.customer_id))
    .with({ type: 'create_api_product' }, (c) => createApiProduct(ctx, c.product))
    .with({ type: 'create_entitlement' }, (c) => createEntitlement(ctx, c.project_id, c.lookup_key, c.display_name))
    .with({ type: 'change_entitlement_products' }, (c) => changeEntitlementProducts(ctx, c.project_id, c.id, c.product_ids, c.attach))
    .with({ type: 'grant_entitlement' }, (c) => grantEntitlement(ctx, { ...c, duration: 'custom' }))
    .with({ type: 'revoke_granted_entitlement' }, (c) => revokeGrantedEntitlement(ctx, c.project_id, c.customer_id, c.entitlement_id))
    .with({ type: 'grant_promotional' }, (c) => grantPromotional(ctx, c))
    .with({ type: 'revoke_promotional' }, (c) => revokePromotional(ctx, c.project_id, c.customer_id, c.lookup_key))
    .with({ type: 'post_receipt' }, (c) => postReceipt(ctx, c))
    .with({ type: 'get_or_create_customer' }, (c) => getOrCreateCustomer(ctx, c.project_id, c.customer_id, c.seen))
    .with({ type: 'identify' }, (c) => identifyAppUser(ctx, c.project_id, c.customer_id, c.new_customer_id))
    .with({ type: 'set_placements' }, (c) => setPlacements(ctx, c.project_id, c.placements))
    .exhaustive();
}

/**
 * Given a world, a command and the instant it happens (≥ the world's clock), returns the next world,
 * the command's value and its effects: first every job due up to `now` runs (renewals, expiries,
 * credit expiry; `advance` does only that), then the command. The events are in `log` (and, built
 * from it on first read, in `events`). On an error nothing changes and no effect is produced (`options.grants: false` leaves `grants` empty). Pure: the given world is never modified, and the same inputs give the same
 * outcome, ids included.
 *
 * @example
 * const out = transition(world, { type: 'cancel', subscription_id: 'sub_1', reason: 'UNSUBSCRIBE' }, world.now);
 * if (out.ok) { world = out.world; out.events; } // [CANCELLATION]
 */
export function transition<T extends SimCommandType>(world: World, command: CommandOf<T>, now: number, options: TransitionOptions = {}): TransitionOutcome<CommandValues[T]> {
  const refused = refuseClock(world.now, now);
  if (refused !== null) return fail('parameter_error', refused, 'to');
  const ctx = beginDraft(world, options.grants ?? true);
  // What the clock answers, passed on as it is: its `jobs_run` are made only when read.
  let advancedValue: CommandValues['advance'] | null = null;
  if (now > world.now || command.type === 'advance') {
    const advanced = advanceTo(ctx, now);
    if (!advanced.ok) return advanced;
    advancedValue = advanced.value;
    forgetExpiredKeys(ctx);
  }
  const result = command.type === 'advance' ? ok(advancedValue ?? { now: ctx.now, jobs_run: [] }) : apply(ctx, command);
  if (!result.ok) return result;
  return succeeded(commitDraft(ctx), result.value as CommandValues[T], ctx.log, ctx.grants);
}

/**
 * A successful outcome. `events` and `event_projects` are built from the log the first time they are
 * read (then kept): a month advance's 300 k bodies are not made unless someone asks for them.
 */
function succeeded<V>(world: World, value: V, log: EventLog, grants: CreditChange[]): TransitionOutcome<V> {
  let events: WebhookBody[] | null = null;
  let projects: string[] | null = null;
  return {
    ok: true,
    world,
    value,
    log,
    get events() {
      return (events ??= Array.from({ length: log.length }, (_, i) => log.body(i)));
    },
    get event_projects() {
      return (projects ??= Array.from({ length: log.length }, (_, i) => log.project(i)));
    },
    grants,
  };
}
