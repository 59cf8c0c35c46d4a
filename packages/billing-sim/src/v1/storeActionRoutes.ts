/**
 * API v1's store actions (secret key): Google Play's refund and revoke, refund of a transaction,
 * cancel and defer, and the App Store's extension. Each changes the subscription (or one-time
 * purchase) as the store would and so sends the webhooks that change implies: a refund its
 * CANCELLATION (`CUSTOMER_SUPPORT`) and EXPIRATION, a cancel its CANCELLATION (`DEVELOPER_INITIATED`),
 * a defer or an extension SUBSCRIPTION_EXTENDED. The simulator applies them to a subscription of any store.
 */
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { customerIn } from '../machine/queries.js';
import type { SubscriptionState } from '../machine/world.js';
import type { RouteInput, SimResponse } from '../http/httpTypes.js';
import type { V1Caller } from './apiKeys.js';
import { answerAfter, appUserIdOf, SUBSCRIBER } from './customerRoutes.js';
import { badField, V1_CODES, v1Error } from './v1Errors.js';
import type { V1Route } from './v1Route.js';

const DAY_MS = 86_400_000;

/** Whether a subscription carries the transaction (its current, original or a past one). */
function holds(sub: SubscriptionState, tx: string): boolean {
  if (sub.transaction_id === tx || sub.original_transaction_id === tx) return true;
  for (let p = sub.past_transactions; p !== null; p = p.previous) if (p.id === tx) return true;
  return false;
}

type Found = { ok: true; customerId: string; sub: SubscriptionState | null; purchase: string | null } | { ok: false; answer: SimResponse };

/** The customer's subscription (by product, the live one first, or by transaction) or one-time purchase the path names. */
function find(sim: BillingSimulator, input: RouteInput, caller: V1Caller, by: 'product' | 'transaction', param: string): Found {
  const id = appUserIdOf(input);
  if (!id.ok) return id;
  const customer = customerIn(sim.world(), caller.project_id, id.id);
  if (customer === undefined) return { ok: false, answer: v1Error(404, V1_CODES.subscriber_not_found, `app_user_id: customer ${id.id} not found`) };
  const key = input.params[param] ?? '';
  const subs = customer.subscriptions.filter((s) => (by === 'product' ? s.product_id === key : holds(s, key)));
  const sub = subs.find((s) => s.status !== 'expired') ?? subs.at(-1) ?? null;
  const purchase = by === 'transaction' ? (customer.purchases.find((p) => p.transaction_id === key)?.transaction_id ?? null) : null;
  if (sub === null && purchase === null) return { ok: false, answer: v1Error(404, V1_CODES.bad_request, `${param}: the customer has no ${by === 'product' ? 'subscription to' : 'transaction'} ${key}`) };
  return { ok: true, customerId: id.id, sub, purchase };
}

const days = (n: number, min: number, max: number) => Number.isSafeInteger(n) && n >= min && n <= max;

/** The store action routes of API v1. */
export const storeActionRoutes: V1Route[] = [
  {
    method: 'POST', pattern: `${SUBSCRIBER}/subscriptions/:product_identifier/revoke`, access: 'secret',
    summary: 'Google Play: refund and revoke the subscription to a product now (CANCELLATION CUSTOMER_SUPPORT, EXPIRATION)',
    handler(sim, input, caller) {
      const found = find(sim, input, caller, 'product', 'product_identifier');
      if (!found.ok) return found.answer;
      return answerAfter(sim, caller, found.customerId, sim.dispatch({ type: 'refund', subscription_id: found.sub!.id }));
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/transactions/:store_transaction_identifier/refund`, access: 'secret',
    summary: 'Google Play: refund and revoke the purchase of a transaction (a subscription or a one-time purchase)',
    handler(sim, input, caller) {
      const found = find(sim, input, caller, 'transaction', 'store_transaction_identifier');
      if (!found.ok) return found.answer;
      const command = found.purchase !== null
        ? sim.dispatch({ type: 'refund_purchase', project_id: caller.project_id, transaction_id: found.purchase })
        : sim.dispatch({ type: 'refund', subscription_id: found.sub!.id });
      return answerAfter(sim, caller, found.customerId, command);
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/subscriptions/:store_transaction_identifier/cancel`, access: 'secret',
    summary: 'Google Play: cancel a subscription (auto-renew off: CANCELLATION DEVELOPER_INITIATED; access until the period ends)',
    handler(sim, input, caller) {
      const found = find(sim, input, caller, 'transaction', 'store_transaction_identifier');
      if (!found.ok) return found.answer;
      if (found.sub === null) return badField('store_transaction_identifier', 'a one-time purchase cannot be cancelled; refund it');
      return answerAfter(sim, caller, found.customerId, sim.dispatch({ type: 'cancel', subscription_id: found.sub.id, reason: 'DEVELOPER_INITIATED' }));
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/subscriptions/:product_identifier/defer`, access: 'secret',
    summary: 'Google Play: defer the next renewal by extend_by_days (1–365) or to expiry_time_ms (SUBSCRIPTION_EXTENDED)',
    handler(sim, input, caller) {
      const found = find(sim, input, caller, 'product', 'product_identifier');
      if (!found.ok) return found.answer;
      const { expiry_time_ms: to, extend_by_days: by } = (input.body ?? {}) as Record<string, unknown>;
      const sub = found.sub!;
      let ms: number;
      if (by !== undefined) {
        if (!days(by as number, 1, 365)) return badField('extend_by_days', 'whole days from 1 to 365');
        ms = (by as number) * DAY_MS;
      } else if (Number.isSafeInteger(to)) {
        if ((to as number) <= sub.period_end) return badField('expiry_time_ms', 'must be later than the current expiry');
        ms = (to as number) - sub.period_end;
      } else return badField('extend_by_days', 'give extend_by_days (1–365) or expiry_time_ms');
      return answerAfter(sim, caller, found.customerId, sim.dispatch({ type: 'extend', subscription_id: sub.id, by: { years: 0, months: 0, days: 0, ms } }));
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/subscriptions/:store_transaction_identifier/extend`, access: 'secret',
    summary: 'App Store: extend the renewal date by extend_by_days (1–90) with an extend_reason_code (0–3) (SUBSCRIPTION_EXTENDED)',
    handler(sim, input, caller) {
      const { extend_by_days: by, extend_reason_code: reason } = (input.body ?? {}) as Record<string, unknown>;
      if (!days(by as number, 1, 90)) return badField('extend_by_days', 'whole days from 1 to 90');
      if (!days(reason as number, 0, 3)) return badField('extend_reason_code', '0 (undeclared), 1 (customer satisfaction), 2 (other) or 3 (service issue)');
      const found = find(sim, input, caller, 'transaction', 'store_transaction_identifier');
      if (!found.ok) return found.answer;
      if (found.sub === null) return badField('store_transaction_identifier', 'a one-time purchase has no renewal date');
      return answerAfter(sim, caller, found.customerId, sim.dispatch({ type: 'extend', subscription_id: found.sub.id, by: { years: 0, months: 0, days: by as number, ms: 0 } }));
    },
  },
];
