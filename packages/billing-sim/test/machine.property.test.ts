// The simulator as a pure machine, checked against the core: arbitrary command sequences on arbitrary
// clocks produce only events the core parses, and folding them with the core gives the subscription
// state the simulator believes.
import { ACCESS_RANK, EVENT_PRECEDENCE, HANDLED_EVENT_TYPES, SUBSCRIBER_STATES, compareIds, foldEventsByCustomer, isLaterKey, parseWebhook, virtualCurrencyTransactionEventSchema, type EventKey, type HandledEvent, type SubscriberState } from '@tenure/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PurchaseOutcome } from '../src/machine/lifecycle.js';
import { toProduct } from '../src/machine/products.js';
import { JOB_RANK } from '../src/machine/clock.js';
import { createWorld, customerIn, pendingJobs, subscriptionIn, transition, type Job, type SimCommand, type SubscriptionState, type WebhookBody, type World } from '../src/index.js';

const DAY = 86_400_000;
const SETTINGS = { app_id: 'app_sim', store: 'TEST_STORE', environment: 'SANDBOX' as const, default_project_id: 'p', country_code: 'US' };
const PRODUCTS = [
  { id: 'monthly', type: 'subscription' as const, period: 'P1M', trial_period: 'P7D' },
  { id: 'annual', type: 'subscription' as const, period: 'P1Y', trial_period: 'P14D' },
  { id: 'weekly', type: 'subscription' as const, period: 'P1W' },
  { id: 'pack', type: 'consumable' as const },
].map((p) => {
  const r = toProduct(p);
  if (!r.ok) throw new Error(r.message);
  return r.product;
});
const CUSTOMERS = ['u1', 'u2', '__proto__'];

/** A command before subscription ids are known: `sub` picks one of the subscriptions bought so far. */
type Step =
  | { kind: 'buy'; customer: string; product: string; trial: boolean }
  | { kind: 'cancel' | 'uncancel' | 'recover' | 'refund' | 'expire'; sub: number }
  | { kind: 'billing_issue'; sub: number; grace_days: number | null; when: 'now' | 'next_renewal' }
  | { kind: 'change'; sub: number; product: string; timing: 'immediate' | 'next_renewal' }
  | { kind: 'spend'; customer: string; amount: number }
  | { kind: 'refund_purchase'; purchase: number }
  | { kind: 'pause'; sub: number; resume_days: number }
  | { kind: 'extend'; sub: number; days: number }
  | { kind: 'resume' | 'reverse_refund'; sub: number }
  | { kind: 'transfer'; customer: string; target: string }
  | { kind: 'temporary'; customer: string; product: string; hours: number };

/**
 * The lifecycle commands beyond the basic ones: pause and resume (Play), extensions, refund
 * reversals, temporary entitlement grants, and transfers. The core models all of their events
 * (docs/rules.md §2); a transfer moves a subscription's history between customers in the store, not
 * in the fold, so it is left out of the fold comparison (`transfer: false`).
 */
const lifecycleSteps = (sub: fc.Arbitrary<number>, transfer: boolean): fc.Arbitrary<Step>[] => [
  fc.record({ kind: fc.constant('pause' as const), sub, resume_days: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ kind: fc.constant('extend' as const), sub, days: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constantFrom('resume' as const, 'reverse_refund' as const), sub }),
  ...(transfer ? [fc.record({ kind: fc.constant('transfer' as const), customer: fc.constantFrom(...CUSTOMERS), target: fc.constantFrom(...CUSTOMERS) })] : []),
  fc.record({ kind: fc.constant('temporary' as const), customer: fc.constantFrom(...CUSTOMERS), product: fc.constantFrom('monthly', 'annual', 'weekly'), hours: fc.integer({ min: 1, max: 24 }) }),
];

/** Every command (`transfer: true`), or every command but the transfer (the fold comparison). */
const stepArb = (transfer: boolean): fc.Arbitrary<Step> => {
  const sub = fc.nat(20);
  const subscriptionProduct = fc.constantFrom('monthly', 'annual', 'weekly');
  const steps: fc.Arbitrary<Step>[] = [
    fc.record({ kind: fc.constant('buy' as const), customer: fc.constantFrom(...CUSTOMERS), product: fc.constantFrom('monthly', 'annual', 'weekly', 'pack'), trial: fc.boolean() }),
    fc.record({ kind: fc.constantFrom('cancel' as const, 'uncancel' as const, 'recover' as const, 'refund' as const, 'expire' as const), sub }),
    fc.record({ kind: fc.constant('billing_issue' as const), sub, grace_days: fc.option(fc.integer({ min: 0, max: 16 }), { nil: null }), when: fc.constantFrom('now' as const, 'next_renewal' as const) }),
    fc.record({ kind: fc.constant('change' as const), sub, product: subscriptionProduct, timing: fc.constantFrom('immediate' as const, 'next_renewal' as const) }),
    fc.record({ kind: fc.constant('spend' as const), customer: fc.constantFrom(...CUSTOMERS), amount: fc.integer({ min: 1, max: 400 }) }),
    fc.record({ kind: fc.constant('refund_purchase' as const), purchase: fc.nat(10) }),
    ...lifecycleSteps(sub, transfer),
  ];
  return fc.oneof(...steps);
};

/**
 * Each step happens `dt` after the previous one. `sameInstant` allows 0: events of one customer at one
 * millisecond are ordered by the core's precedence, not by emission order (docs/billing-sim.md), so
 * the fold is only compared for actions at distinct instants, as real user actions are.
 */
const runArb = (transfer: boolean, sameInstant = transfer) =>
  fc.record({
    start: fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2090, 0, 1) }),
    steps: fc.array(
      fc.record({ dt: fc.oneof(fc.constant(sameInstant ? 0 : 1), fc.integer({ min: 1, max: 45 * DAY })), step: stepArb(transfer) }),
      { maxLength: 40 },
    ),
    tail: fc.integer({ min: 0, max: 400 * DAY }),
  });

function toCommand(step: Step, subs: readonly string[], purchases: readonly { customer: string; tx: string }[]): SimCommand | null {
  const pick = (n: number) => (subs.length === 0 ? null : subs[n % subs.length]!);
  switch (step.kind) {
    case 'buy':
      return { type: 'purchase', project_id: 'p', customer_id: step.customer, product_id: step.product, trial: step.trial && step.product !== 'weekly' && step.product !== 'pack', presented_offering_id: null, country_code: null };
    case 'cancel':
    case 'expire': {
      const id = pick(step.sub);
      return id === null ? null : { type: step.kind, subscription_id: id, reason: step.kind === 'cancel' ? 'UNSUBSCRIBE' : 'DEVELOPER_INITIATED' };
    }
    case 'uncancel':
    case 'recover':
    case 'refund': {
      const id = pick(step.sub);
      return id === null ? null : { type: step.kind, subscription_id: id };
    }
    case 'billing_issue': {
      const id = pick(step.sub);
      return id === null ? null : { type: 'billing_issue', subscription_id: id, grace_ms: step.grace_days === null ? null : step.grace_days * DAY, when: step.when };
    }
    case 'change': {
      const id = pick(step.sub);
      return id === null ? null : { type: 'change_product', subscription_id: id, new_product_id: step.product, timing: step.timing };
    }
    case 'spend':
      return { type: 'change_balances', project_id: 'p', customer_id: step.customer, change: { kind: 'transaction', adjustments: { CRD: -step.amount } }, reference: null, include_empty: false };
    case 'refund_purchase': {
      const p = purchases.length === 0 ? null : purchases[step.purchase % purchases.length]!;
      return p === null ? null : { type: 'refund_purchase', project_id: 'p', transaction_id: p.tx };
    }
    case 'pause': {
      const id = pick(step.sub);
      return id === null ? null : { type: 'pause', subscription_id: id, resume_after: { years: 0, months: 0, days: step.resume_days, ms: 0 } };
    }
    case 'extend': {
      const id = pick(step.sub);
      return id === null ? null : { type: 'extend', subscription_id: id, by: { years: 0, months: 0, days: step.days, ms: 0 } };
    }
    case 'resume':
    case 'reverse_refund': {
      const id = pick(step.sub);
      return id === null ? null : { type: step.kind, subscription_id: id };
    }
    case 'transfer':
      return { type: 'transfer', project_id: 'p', customer_id: step.customer, target_customer_id: step.target };
    case 'temporary':
      return { type: 'temporary_grant', project_id: 'p', customer_id: step.customer, product_id: step.product, duration_ms: step.hours * 3_600_000 };
  }
}

/** Runs the steps through `transition`, from a world with the catalog and one CRD currency. */
function runMachine(run: { start: number; steps: { dt: number; step: Step }[]; tail: number }) {
  let world: World = createWorld(SETTINGS, 'machine', run.start, PRODUCTS);
  const events: WebhookBody[] = [];
  const apply = (command: SimCommand, at: number) => {
    const out = transition(world, command, at);
    if (!out.ok) return null;
    world = out.world;
    events.push(...out.events);
    return out.value;
  };
  apply({
    type: 'create_currency', project_id: 'p',
    body: { code: 'CRD', name: 'Credits', product_grants: [
      { product_ids: ['monthly', 'weekly'], amount: 100, expire_at_cycle_end: true, trial_amount: 10 },
      { product_ids: ['annual', 'pack'], amount: 500, expire_at_cycle_end: false, trial_amount: 0 },
    ] },
  }, run.start);
  const subs: string[] = [];
  const purchases: { customer: string; tx: string }[] = [];
  let at = run.start;
  for (const { dt, step } of run.steps) {
    at += dt;
    const command = toCommand(step, subs, purchases);
    const value = apply(command ?? { type: 'advance' }, at);
    if (command?.type === 'temporary_grant' && value !== null) subs.push((value as unknown as { subscription_id: string }).subscription_id);
    if (command?.type === 'purchase' && value !== null) {
      const outcome = value as PurchaseOutcome;
      if (outcome.kind === 'subscription') subs.push(outcome.subscription_id);
      else purchases.push({ customer: command.customer_id, tx: outcome.transaction_id });
    }
  }
  apply({ type: 'advance' }, at + run.tail);
  return { world, events, subs };
}

/** The retention service's state for a subscription, as the simulator sees it. */
const believedState = (sub: SubscriptionState): string => {
  switch (sub.status) {
    case 'expired':
      // Ended by a refund (EXPIRATION with CUSTOMER_SUPPORT): the core's refunded state.
      return sub.refund !== null ? 'refunded' : 'churned';
    case 'temporary':
      return 'churned';
    case 'paused':
      return (SUBSCRIBER_STATES as readonly string[]).includes('paused') ? 'paused' : 'churned';
    case 'grace':
      return 'billing_issue';
    case 'trialing':
    case 'active':
      if (!sub.auto_renew) return 'pending_cancel';
      return sub.status === 'trialing' && sub.renewal_number === 1 && sub.period_type === 'TRIAL' ? 'trialing' : 'active';
  }
};

/** The parsed event of an accepted body, whether the outcome carries it as `value` or inline. */
function accepted(body: WebhookBody): { handled: boolean; event: HandledEvent } | null {
  const parsed: unknown = parseWebhook(JSON.parse(JSON.stringify(body)));
  if (typeof parsed !== 'object' || parsed === null || !('ok' in parsed) || parsed.ok !== true) return null;
  const inner = ('value' in parsed ? parsed.value : parsed) as { handled: boolean; event: HandledEvent };
  return { handled: inner.handled, event: inner.event };
}

/** A REFUND_REVERSED sent at or after the end of the period it gives back (see the known divergence). */
const keyOf = (e: HandledEvent): EventKey => ({ at: e.event_timestamp_ms, rank: EVENT_PRECEDENCE[e.type], id: e.id });

describe('the simulator machine against the core', () => {
  it("emits only events the core parses: the types the core handles handled, the others (currency transactions) accepted as unhandled; currency transactions valid for the core's credit event schema", () => {
    fc.assert(
      fc.property(runArb(true), (run) => {
        for (const body of runMachine(run).events) {
          const wire: unknown = JSON.parse(JSON.stringify(body));
          expect(accepted(body)?.handled, JSON.stringify(body)).toBe((HANDLED_EVENT_TYPES as readonly string[]).includes(body.event.type));
          if (body.event.type === 'VIRTUAL_CURRENCY_TRANSACTION') {
            expect(virtualCurrencyTransactionEventSchema.safeParse((wire as { event: unknown }).event).success).toBe(true);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('folds, with the core, to the state, product and period end the simulator believes', () => {
    fc.assert(
      fc.property(runArb(false), (run) => {
        const { world, events } = runMachine(run);
        const handled: HandledEvent[] = [];
        for (const body of events) {
          const parsed = accepted(body);
          expect(parsed).not.toBeNull();
          if (parsed?.handled) handled.push(parsed.event);
        }
        const folded = foldEventsByCustomer(handled);
        for (const [customerId, subscriber] of folded) {
          // The core follows the customer's primary subscription (docs/rules.md §2): among the
          // simulator's subscriptions the core has seen events of, the one with the most access.
          const latestOf = new Map<string, HandledEvent>();
          // The latest event naming the subscription's product: a pause or an extension does not (no state in the core).
          const productOf = new Map<string, HandledEvent>();
          for (const e of handled) {
            // Top-ups and temporary grants are not a subscription's events in the core (no state, product or period).
            if (e.app_user_id !== customerId || e.type === 'NON_RENEWING_PURCHASE' || e.type === 'TEMPORARY_ENTITLEMENT_GRANT' || e.original_transaction_id == null) continue;
            const latest = latestOf.get(e.original_transaction_id);
            if (latest === undefined || isLaterKey(keyOf(e), keyOf(latest))) latestOf.set(e.original_transaction_id, e);
            if (e.type === 'SUBSCRIPTION_PAUSED' || e.type === 'SUBSCRIPTION_EXTENDED') continue;
            const named = productOf.get(e.original_transaction_id);
            if (named === undefined || isLaterKey(keyOf(e), keyOf(named))) productOf.set(e.original_transaction_id, e);
          }
          const seen = subsOf(world, customerId).filter((s) => latestOf.has(s.original_transaction_id));
          if (seen.length === 0) continue;
          const rank = (s: SubscriptionState) => ACCESS_RANK[s.status === 'grace' && s.grace_expires_at !== null ? 'billing_issue_in_grace' : (believedState(s) as SubscriberState)];
          const sub = [...seen].sort((a, b) => rank(a) - rank(b) || b.period_end - a.period_end || compareIds(a.original_transaction_id, b.original_transaction_id))[0]!;
          const latest = productOf.get(sub.original_transaction_id);
          expect({ state: subscriber.state, product: subscriber.product_id, period_end: subscriber.period_ends_at }).toEqual({
            state: believedState(sub),
            // The core takes a PRODUCT_CHANGE's new product at once; any later event of the subscription
            // names the product it is billed for (the old one until the change takes effect at renewal).
            product: latest?.type === 'PRODUCT_CHANGE' ? sub.pending_product_id : sub.product_id,
            period_end: sub.period_end,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a trial un-cancelled during the trial as trialing in the core', () => {
    const { events } = runMachine({
      start: Date.UTC(2026, 0, 1),
      steps: [
        { dt: 0, step: { kind: 'buy', customer: 'u1', product: 'monthly', trial: true } },
        { dt: DAY, step: { kind: 'cancel', sub: 0 } },
        { dt: DAY, step: { kind: 'uncancel', sub: 0 } },
      ],
      tail: 0,
    });
    const handled = events.map(accepted).filter((p) => p?.handled === true).map((p) => p!.event);
    expect(foldEventsByCustomer(handled).get('u1')?.state).toBe('trialing');
  });

  it('leaves a customer without subscription untouched when a top-up is refunded', () => {
    // The billing service reports a refunded one-time purchase as CANCELLATION(CUSTOMER_SUPPORT) of
    // that product with expiration_at_ms null; the core leaves the subscription alone (docs/rules.md §2).
    const { events } = runMachine({
      start: Date.UTC(2026, 0, 1),
      steps: [
        { dt: 0, step: { kind: 'buy', customer: 'u1', product: 'pack', trial: false } },
        { dt: DAY, step: { kind: 'refund_purchase', purchase: 0 } },
      ],
      tail: 0,
    });
    const handled = events.map(accepted).filter((p) => p?.handled === true).map((p) => p!.event);
    expect(foldEventsByCustomer(handled).get('u1')).toMatchObject({ state: 'active', state_key: null, product_id: null });
  });

  // The billing service sends one REFUND_REVERSED when a refund is reversed (revenuecat.md §1.3), and
  // after the refunded period ended that event's expiration_at_ms is already past, so no access comes
  // back and nothing else is sent (the refund's EXPIRATION went out already): the core reads that
  // period end and folds the reversal to churned (docs/rules.md §2).
  it('folds a refund reversed after the refunded period ended to churned, as the simulator holds it', () => {
    const { world, events, subs } = runMachine({
      start: Date.UTC(2026, 0, 1),
      steps: [
        { dt: 0, step: { kind: 'buy', customer: 'u1', product: 'monthly', trial: false } },
        { dt: DAY, step: { kind: 'refund', sub: 0 } },
        { dt: 60 * DAY, step: { kind: 'reverse_refund', sub: 0 } },
      ],
      tail: 0,
    });
    const last = events.at(-1)!.event as HandledEvent;
    expect(last).toMatchObject({ type: 'REFUND_REVERSED', expiration_at_ms: Date.UTC(2026, 1, 1) });
    expect(subscriptionIn(world, subs[0]!)?.sub).toMatchObject({ status: 'expired', refund: null });
    const handled = events.map(accepted).filter((p) => p?.handled === true).map((p) => p!.event);
    expect(foldEventsByCustomer(handled).get('u1')).toMatchObject({ state: 'churned', period_ends_at: Date.UTC(2026, 1, 1) });
  });

  it('queues the pending jobs by time, then rank, then customer creation order, then the subscription\'s place', () => {
    fc.assert(
      fc.property(runArb(true), (run) => {
        const { world } = runMachine(run);
        const sortKey = (job: Job): number[] => {
          const customer = customerIn(world, job.project_id, job.customer_id)!;
          const place = job.subscription_id === null ? 0 : customer.subscriptions.findIndex((s) => s.id === job.subscription_id) + 1;
          return [job.at, JOB_RANK[job.kind], customer.seq, place];
        };
        const keys = pendingJobs(world).map(sortKey);
        const sorted = [...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]! || a[3]! - b[3]!);
        expect(keys).toEqual(sorted);
      }),
      { numRuns: 100 },
    );
  });

  it('never changes the world it is given', () => {
    fc.assert(
      fc.property(runArb(true), fc.integer({ min: 0, max: 60 * DAY }), (run, dt) => {
        const { world, subs } = runMachine(run);
        const before = structuredClone(world);
        const id = subs[0];
        const commands: SimCommand[] = [{ type: 'advance' }, { type: 'delete_currency', project_id: 'p', code: 'CRD' }];
        if (id !== undefined) commands.push({ type: 'refund', subscription_id: id }, { type: 'cancel', subscription_id: id, reason: 'UNSUBSCRIBE' });
        for (const command of commands) transition(world, command, world.now + dt);
        expect(world).toEqual(before);
        if (id !== undefined) expect(subscriptionIn(world, id)?.sub).toEqual(subscriptionIn(before, id)?.sub);
      }),
      { numRuns: 60 },
    );
  });
});

const subsOf = (world: World, customerId: string): SubscriptionState[] => customerIn(world, 'p', customerId)?.subscriptions ?? [];
