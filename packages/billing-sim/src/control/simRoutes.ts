/** The /sim control API: catalog, purchases and lifecycle, clock, balances, webhook target and log. */
import { fail, type Result } from '../machine/apiError.js';
import { subscriptionView } from '../machine/balanceOps.js';
import { webhookConfigSchema } from '../delivery/deliveryConfig.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { addDuration, parseDuration } from '../internal/duration.js';
import { productInputSchema, toProduct } from '../machine/products.js';
import { customersOf, subscriptionIn } from '../machine/queries.js';
import { errorResponse, json, parseBody, respond, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { Route } from '../http/route.js';
import {
  advanceBodySchema,
  billingIssueBodySchema,
  resetBodySchema,
  cancelBodySchema,
  emptyBodySchema,
  expireBodySchema,
  extendBodySchema,
  pauseBodySchema,
  temporaryGrantBodySchema,
  transferBodySchema,
  productChangeBodySchema,
  purchaseBodySchema,
  refundPurchaseBodySchema,
  setBalancesBodySchema,
} from './simSchemas.js';

/** Runs an operation and adds the ids and types of the events it emitted to its response. */
function withEvents(sim: BillingSimulator, run: () => SimResponse): SimResponse {
  const before = sim.eventCount();
  const res = run();
  if (res.status >= 300 || typeof res.body !== 'object' || res.body === null) return res;
  const events = sim.eventsSince(before).map((b) => ({ id: b.event.id, type: b.event.type, event_timestamp_ms: b.event.event_timestamp_ms }));
  return { ...res, body: { ...res.body, events } };
}

const sub = (sim: BillingSimulator, id: string) => {
  const found = subscriptionIn(sim.world(), id);
  if (found === undefined) return null;
  const s = found.sub;
  return { ...subscriptionView(s), customer_id: s.customer_id, environment: s.environment, store: s.store, auto_resume_at: s.auto_resume_at };
};

/** A duration from the body in ms, or the default; null when it does not parse. */
const durationOf = (input: string | number | undefined, fallback: string) => parseDuration(input ?? fallback);

/** A lifecycle route on one subscription: validate the body, run, answer the subscription and its events. */
function subOp<T>(schema: Parameters<typeof parseBody>[0], run: (sim: BillingSimulator, id: string, body: T) => Result<unknown>): Route['handler'] {
  return (sim, input) =>
    withEvents(sim, () => {
      const body = parseBody(schema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const id = input.params['id'] ?? '';
      return respond(run(sim, id, body.value as T), 200, () => sub(sim, id));
    });
}

const clock = (sim: BillingSimulator) => ({
  object: 'sim.clock',
  now: sim.now(),
  now_iso: new Date(sim.now()).toISOString(),
  pending_jobs: sim.pendingJobs().slice(0, 50),
});

const projectOfInput = (sim: BillingSimulator, input: RouteInput, bodyProject: string | undefined) =>
  bodyProject ?? input.query['project_id'] ?? sim.settings.default_project_id;

export const simRoutes: Route[] = [
  { method: 'GET', pattern: '/sim/clock', summary: 'Read the virtual clock and the next jobs', handler: (sim) => json(200, clock(sim)) },
  {
    method: 'POST', pattern: '/sim/clock/advance', summary: 'Advance the virtual clock by a duration or to a time, running due jobs',
    handler: (sim, input) =>
      withEvents(sim, () => {
        const body = parseBody(advanceBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const { by, to } = body.value;
        const result = by !== undefined ? sim.advanceBy(by) : sim.advanceTo(typeof to === 'string' ? Date.parse(to) : (to ?? sim.now()));
        return respond(result, 200, (r) => ({ ...clock(sim), jobs_run: r.jobs_run }));
      }),
  },
  {
    method: 'POST', pattern: '/sim/reset',
    summary: 'Clear the world (customers, currencies, ledgers, subscriptions, idempotency keys, added products, events, delivery log); the clock goes back to its start or to `now`',
    handler(sim, input) {
      const body = parseBody(resetBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const at = body.value.now;
      const result = sim.reset(at === undefined ? {} : { now: typeof at === 'string' ? Date.parse(at) : at });
      return respond(result, 200, () => ({ ...clock(sim), object: 'sim.reset' }));
    },
  },
  {
    method: 'GET', pattern: '/sim/products', summary: 'List the product catalog',
    handler: (sim, input) => json(200, { object: 'list', items: [...sim.world().products.values()], next_page: null, url: input.path }),
  },
  {
    method: 'POST', pattern: '/sim/products', summary: 'Add or replace a product (subscription with period and trial, or consumable)',
    handler(sim, input) {
      const body = parseBody(productInputSchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const r = toProduct(body.value);
      if (!r.ok) return errorResponse(fail('parameter_error', r.message, r.param).error);
      if (r.product.period !== null && parseDuration(r.product.period) === null) return errorResponse(fail('parameter_error', 'bad period', 'period').error);
      return respond(sim.dispatch({ type: 'put_product', product: r.product }), 201);
    },
  },
  {
    method: 'GET', pattern: '/sim/products/:id', summary: 'Get a product',
    handler(sim, input) {
      const product = sim.world().products.get(input.params['id'] ?? '');
      return product === undefined ? errorResponse(fail('resource_missing', 'Product not found', 'id').error) : json(200, product);
    },
  },
  {
    method: 'POST', pattern: '/sim/purchases', summary: 'Purchase a product now (subscription, with or without trial, or top-up)',
    handler: (sim, input) =>
      withEvents(sim, () => {
        const body = parseBody(purchaseBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const b = body.value;
        const result = sim.dispatch({
          type: 'purchase',
          project_id: projectOfInput(sim, input, b.project_id),
          customer_id: b.customer_id,
          product_id: b.product_id,
          trial: b.trial ?? false,
          presented_offering_id: b.presented_offering_id ?? null,
          country_code: b.country_code ?? null,
          environment: b.environment ?? null,
          store: b.store ?? null,
        });
        return respond(result, 201, (o) => ({ object: 'sim.purchase_result', ...o, subscription: o.kind === 'subscription' ? sub(sim, o.subscription_id) : null }));
      }),
  },
  {
    method: 'POST', pattern: '/sim/purchases/:transaction_id/refund', summary: 'Refund a one-time purchase',
    handler: (sim, input) =>
      withEvents(sim, () => {
        const body = parseBody(refundPurchaseBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const project_id = projectOfInput(sim, input, body.value.project_id);
        return respond(sim.dispatch({ type: 'refund_purchase', project_id, transaction_id: input.params['transaction_id'] ?? '' }));
      }),
  },
  {
    method: 'GET', pattern: '/sim/subscriptions/:id', summary: 'Get a subscription',
    handler(sim, input) {
      const s = sub(sim, input.params['id'] ?? '');
      return s === null ? errorResponse(fail('resource_missing', 'Subscription not found', 'subscription_id').error) : json(200, s);
    },
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/cancel', summary: 'Turn auto-renew off (CANCELLATION; EXPIRATION at period end)',
    handler: subOp<{ reason?: string }>(cancelBodySchema, (sim, id, b) => sim.dispatch({ type: 'cancel', subscription_id: id, reason: b.reason ?? 'UNSUBSCRIBE' })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/uncancel', summary: 'Turn auto-renew back on (UNCANCELLATION)',
    handler: subOp<object>(refundPurchaseBodySchema.pick({}), (sim, id) => sim.dispatch({ type: 'uncancel', subscription_id: id })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/billing_issue', summary: 'Fail a charge now or at the next renewal, with an optional grace period',
    handler: subOp<{ grace_period?: string | number | null; when?: 'now' | 'next_renewal' }>(billingIssueBodySchema, (sim, id, b) => {
      const grace = b.grace_period === undefined || b.grace_period === null ? null : parseDuration(b.grace_period);
      const graceMs = grace === null ? null : addDuration(sim.now(), grace) - sim.now();
      return sim.dispatch({ type: 'billing_issue', subscription_id: id, grace_ms: graceMs, when: b.when ?? 'now' });
    }),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/recover', summary: 'The failed charge goes through during grace (RENEWAL)',
    handler: subOp<object>(refundPurchaseBodySchema.pick({}), (sim, id) => sim.dispatch({ type: 'recover', subscription_id: id })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/product_change', summary: 'Change product now or at the next renewal (PRODUCT_CHANGE)',
    handler: subOp<{ new_product_id: string; timing?: 'immediate' | 'next_renewal' }>(productChangeBodySchema, (sim, id, b) =>
      sim.dispatch({ type: 'change_product', subscription_id: id, new_product_id: b.new_product_id, timing: b.timing ?? 'next_renewal' }),
    ),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/refund', summary: 'Refund the current period (CANCELLATION CUSTOMER_SUPPORT, EXPIRATION)',
    handler: subOp<object>(refundPurchaseBodySchema.pick({}), (sim, id) => sim.dispatch({ type: 'refund', subscription_id: id })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/expire', summary: 'Expire now (EXPIRATION)',
    handler: subOp<{ reason?: string }>(expireBodySchema, (sim, id, b) => sim.dispatch({ type: 'expire', subscription_id: id, reason: b.reason ?? 'DEVELOPER_INITIATED' })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/pause', summary: 'Pause at the period end (SUBSCRIPTION_PAUSED now; EXPIRATION(SUBSCRIPTION_PAUSED) at the period end; RENEWAL at auto_resume_at)',
    handler: subOp<{ resume_after?: string | number }>(pauseBodySchema, (sim, id, b) => {
      const d = durationOf(b.resume_after, 'P1M');
      if (d === null) return fail('parameter_error', 'Expected an ISO 8601 duration or ms > 0', 'resume_after');
      return sim.dispatch({ type: 'pause', subscription_id: id, resume_after: d });
    }),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/resume', summary: 'Resume a paused subscription now (RENEWAL)',
    handler: subOp<object>(emptyBodySchema, (sim, id) => sim.dispatch({ type: 'resume', subscription_id: id })),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/extend', summary: 'Move the period end later (SUBSCRIPTION_EXTENDED)',
    handler: subOp<{ by: string | number }>(extendBodySchema, (sim, id, b) => {
      const d = parseDuration(b.by);
      if (d === null) return fail('parameter_error', 'Expected an ISO 8601 duration or ms > 0', 'by');
      return sim.dispatch({ type: 'extend', subscription_id: id, by: d });
    }),
  },
  {
    method: 'POST', pattern: '/sim/subscriptions/:id/reverse_refund', summary: 'Reverse the last refund (REFUND_REVERSED; access again until the refunded period ends)',
    handler: subOp<object>(emptyBodySchema, (sim, id) => sim.dispatch({ type: 'reverse_refund', subscription_id: id })),
  },
  {
    method: 'POST', pattern: '/sim/customers/:customer_id/transfer', summary: "Move a customer's subscriptions and purchases to another customer (TRANSFER)",
    handler: (sim, input) =>
      withEvents(sim, () => {
        const body = parseBody(transferBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const project_id = projectOfInput(sim, input, body.value.project_id);
        const r = sim.dispatch({ type: 'transfer', project_id, customer_id: input.params['customer_id'] ?? '', target_customer_id: body.value.target_customer_id });
        return respond(r, 200, (v) => ({ object: 'sim.transfer', ...v }));
      }),
  },
  {
    method: 'POST', pattern: '/sim/temporary_grants', summary: 'Grant a temporary entitlement during a store outage (TEMPORARY_ENTITLEMENT_GRANT; a purchase validates it, else EXPIRATION)',
    handler: (sim, input) =>
      withEvents(sim, () => {
        const body = parseBody(temporaryGrantBodySchema, input.body);
        if (!body.ok) return errorResponse(body.error);
        const b = body.value;
        const d = durationOf(b.duration, 'PT24H');
        if (d === null) return errorResponse(fail('parameter_error', 'Expected an ISO 8601 duration or ms > 0', 'duration').error);
        const r = sim.dispatch({
          type: 'temporary_grant',
          project_id: projectOfInput(sim, input, b.project_id),
          customer_id: b.customer_id,
          product_id: b.product_id,
          duration_ms: addDuration(sim.now(), d) - sim.now(),
          country_code: b.country_code ?? null,
          environment: b.environment ?? null,
          store: b.store ?? null,
        });
        return respond(r, 201, (v) => ({ object: 'sim.temporary_grant', ...v, subscription: sub(sim, v.subscription_id) }));
      }),
  },
  {
    method: 'GET', pattern: '/sim/customers', summary: "List a project's customers (query project_id)",
    handler(sim, input) {
      const customers = customersOf(sim.world(), projectOfInput(sim, input, undefined));
      const items = customers.map((c) => ({ object: 'customer', id: c.id, project_id: c.project_id, first_seen_at: c.first_seen_at }));
      return json(200, { object: 'list', items, next_page: null, url: input.path });
    },
  },
  {
    method: 'POST', pattern: '/sim/customers/:customer_id/balances', summary: "Set a customer's balances to absolute values (no webhook)",
    handler(sim, input) {
      const body = parseBody(setBalancesBodySchema, input.body);
      if (!body.ok) return errorResponse(body.error);
      const project = projectOfInput(sim, input, body.value.project_id);
      const r = sim.dispatch({
        type: 'change_balances', project_id: project, customer_id: input.params['customer_id'] ?? '',
        change: { kind: 'set', balances: body.value.balances }, reference: null, include_empty: true,
      });
      return respond(r, 200, (items) => ({ object: 'list', items, next_page: null, url: input.path }));
    },
  },
  { method: 'GET', pattern: '/sim/webhook', summary: 'Read the webhook target, retry schedule and faults', handler: (sim) => json(200, { object: 'sim.webhook_config', ...sim.webhookConfig() }) },
  {
    method: 'POST', pattern: '/sim/webhook', summary: 'Change the webhook target, Authorization value, retry schedule or faults',
    handler(sim, input) {
      const body = parseBody(webhookConfigSchema, input.body);
      return body.ok ? json(200, { object: 'sim.webhook_config', ...sim.configureWebhook(body.value) }) : errorResponse(body.error);
    },
  },
  {
    method: 'GET', pattern: '/sim/events', summary: 'Every webhook body emitted (query type to filter)',
    handler(sim, input) {
      const type = input.query['type'];
      const items = sim.events().filter((b) => type === undefined || b.event.type === type);
      return json(200, { object: 'list', items, next_page: null, url: input.path });
    },
  },
  {
    method: 'GET', pattern: '/sim/webhooks/deliveries', summary: 'The delivery log: every event and its attempts',
    handler: (sim, input) => json(200, { object: 'list', items: sim.deliveries(), next_page: null, url: input.path }),
  },
  {
    method: 'GET', pattern: '/sim/webhooks/deliveries/:event_id', summary: 'The delivery of one event',
    handler(sim, input) {
      const record = sim.outbox.get(input.params['event_id'] ?? '');
      return record === undefined ? errorResponse(fail('resource_missing', 'Event not found', 'event_id').error) : json(200, record);
    },
  },
  {
    method: 'POST', pattern: '/sim/webhooks/deliveries/:event_id/redeliver', summary: 'Send one event again now (same id and timestamp)',
    handler(sim, input) {
      const record = sim.outbox.redeliver(input.params['event_id'] ?? '');
      return record === undefined ? errorResponse(fail('resource_missing', 'Event not found', 'event_id').error) : json(202, { object: 'sim.redelivery', event_id: record.event_id, queued: true });
    },
  },
];
