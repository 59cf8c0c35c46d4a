/**
 * The centrepiece of the contract: a model-based test (`fc.commands` + `fc.asyncModelRun`). Arbitrary
 * deliveries (duplicates, redeliveries, reordering, batches; events that name several ids of one person, merging records; late events of subscriptions a transfer moved), reported activity, a clock that moves
 * forward, configuration switches, sweeps, replays and transfers; every answer is checked against the model,
 * and every at-risk page against the core's full scan `selectAtRisk`.
 */
import fc from 'fast-check';
import {
  DEFAULT_CONFIG,
  HANDLED_EVENT_TYPES,
  RISK_BANDS,
  SUBSCRIBER_STATES,
  resolveConfig,
  type AtRiskQuery,
  type SubscriberStore,
  type TenureConfig,
} from '@tenure/core';
import { describe, it } from 'vitest';
import {
  AdvanceClockCommand,
  ApplyBatchCommand,
  ApplyEventCommand,
  AtRiskCommand,
  GetCommand,
  LateEventCommand,
  ReadAllCommand,
  RecordActivityCommand,
  RedeliverCommand,
  RefreshDueCommand,
  ReplayCommand,
  SwitchConfigCommand,
  type EventSpec,
} from './storeCommands.js';
import { emptyModel } from './storeModel.js';
import { TransferCommand } from './transferCommand.js';
import { EventsOfCommand } from './timelineCommand.js';
import { propertyParameters, withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';
import { CUSTOMER_IDS, DAY_MS, HOUR_MS, T0, type EventFields } from './storeFixtures.js';

/**
 * Customer ids: mostly a small pool (so customers gather several events), sometimes any well-formed
 * id without NUL, astral characters included.
 *
 * @example
 * fc.sample(customerArb, 3); // e.g. ['alice', '\u{1F600}', 'émile']
 */
export const customerArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CUSTOMER_IDS.slice(0, 4)) },
  { weight: 4, arbitrary: fc.constantFrom(...CUSTOMER_IDS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }).filter((s) => !s.includes('\0')) },
);

/** Event ids from a small pool (collisions are duplicates with other content), sometimes unique-looking. */
const eventIdArb = fc.oneof(
  { weight: 4, arbitrary: fc.nat(40).map((n) => `evt_${n}`) },
  { weight: 1, arbitrary: fc.nat(10).map((n) => `évt_\u{1F4E6}_${n}`) },
  { weight: 2, arbitrary: fc.uuid() },
);

/** An offset from the clock: mostly the recent past on a coarse grid (ties), sometimes a little in the future (clock skew). */
const offsetArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -120, max: 0 }).map((n) => n * 6 * HOUR_MS) },
  { weight: 2, arbitrary: fc.integer({ min: -30 * DAY_MS, max: 0 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * HOUR_MS }) },
);

/** `arb` with weight `weight`, against undefined with weight `none`. */
const sometimes = <T>(arb: fc.Arbitrary<T>, weight: number, none: number) =>
  fc.oneof({ weight: none, arbitrary: fc.constant(undefined) }, { weight, arbitrary: arb });

const fieldsArb: fc.Arbitrary<EventFields> = fc
  .record(
    {
      period_type: fc.constantFrom('TRIAL', 'NORMAL', 'INTRO', null),
      cancel_reason: fc.constantFrom('UNSUBSCRIBE', 'BILLING_ERROR', 'PRICE_INCREASE', null),
      is_trial_conversion: fc.boolean(),
      product_id: fc.constantFrom('pro_monthly', 'pro_annual', null),
      new_product_id: fc.constantFrom('pro_monthly', 'pro_annual'),
      expires_in: fc.oneof(fc.integer({ min: 1, max: 35 }).map((d) => d * DAY_MS), fc.integer({ min: 1, max: 35 * DAY_MS })),
      // Charges (ties common), trials at 0, refunds below 0: the revenue order and totals.
      price: fc.constantFrom(0.99, 9.99, 9.99, 59.99, 0, -9.99, null),
      currency: fc.constantFrom('USD', 'EUR'),
      // A few subscriptions, shared across customers now and then: a transfer moves them, and their
      // later events follow the receiver (docs/rules.md §2, Transfers).
      original_transaction_id: fc.constantFrom('otx_1', 'otx_2', 'otx_3', '', null),
      // Now and then an event names other ids of its person (RevenueCat's aliasing after a login):
      // it joins records, or moves one to the id of its latest event (docs/rules.md §2).
      link: sometimes(
        fc.record(
          { original_app_user_id: fc.constantFrom(...CUSTOMER_IDS.slice(0, 5)), aliases: fc.subarray([...CUSTOMER_IDS.slice(0, 5)], { maxLength: 2 }) },
          { requiredKeys: [] },
        ),
        1,
        6,
      ),
    },
    { requiredKeys: [] },
  )
  .chain((fields) =>
    // Often a transaction id shared by events of other ids, customers and stores: the counted types
    // are one occurrence per type, store and transaction (docs/rules.md §2), and a copy under
    // another customer names who holds it.
    fc
      .record({ transaction_id: fc.constantFrom('tx_1', 'tx_1', 'tx_2', undefined), store: fc.constantFrom('APP_STORE', 'APP_STORE', 'APP_STORE', 'PLAY_STORE', null) })
      .map((occurrence) => ({ ...fields, ...occurrence })),
  )
  .map(({ link, ...fields }) => Object.fromEntries(Object.entries({ ...fields, ...link }).filter(([, v]) => v !== undefined)));

/**
 * Events to deliver, as specs relative to the clock (turn one into an event with `eventOf`): every
 * handled type, ids from a small pool (repeats), a few customers, times mostly in the recent past.
 *
 * @example
 * fc.assert(fc.asyncProperty(fc.array(eventSpecArb), async (specs) => { ... specs.map((s) => eventOf(s, T0)) ... }));
 */
export const eventSpecArb: fc.Arbitrary<EventSpec> = fc.record({
  type: fc.constantFrom(...HANDLED_EVENT_TYPES),
  id: eventIdArb,
  customer: customerArb,
  offset: offsetArb,
  fields: fieldsArb,
});

/** Queries biased toward answers with items: often no minimum (0), filters and positions now and then. */
const queryArb: fc.Arbitrary<AtRiskQuery> = fc
  .record({
    min_score: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 101 }) },
      { weight: 1, arbitrary: fc.constantFrom(40, 50, 60, 80) },
    ),
    state: sometimes(fc.constantFrom(...SUBSCRIBER_STATES), 1, 3),
    band: sometimes(fc.constantFrom(...RISK_BANDS), 1, 4),
    limit: fc.integer({ min: 1, max: 6 }),
    sort: sometimes(fc.constantFrom('score', 'revenue'), 1, 1),
    after: sometimes(fc.record({ score: fc.integer({ min: 0, max: 101 }), customer_id: customerArb }), 1, 4),
    after_value: fc.constantFrom(0, 0.99, 9.99, 59.99, 100),
  })
  .map(({ after, after_value, ...q }) => {
    // A position of the query's own order.
    const position = after === undefined ? undefined : q.sort === 'revenue' ? { monthly_value_usd: after_value, customer_id: after.customer_id } : after;
    return Object.fromEntries(Object.entries({ ...q, after: position }).filter(([, v]) => v !== undefined)) as unknown as AtRiskQuery;
  });

/** A step of the clock: none, a millisecond, the rule boundaries (hours, days), or anything up to three weeks. */
const clockStepArb = fc.oneof(fc.constantFrom(0, 1, HOUR_MS, DAY_MS, 2 * DAY_MS, 7 * DAY_MS), fc.integer({ min: 0, max: 21 * DAY_MS }));

const commandsArb = (maxCommands: number) =>
  fc.commands(
    [
      eventSpecArb.map((s) => new ApplyEventCommand(s)),
      eventSpecArb.map((s) => new ApplyEventCommand(s)),
      eventSpecArb.map((s) => new ApplyEventCommand(s)),
      fc.nat().map((n) => new RedeliverCommand(n)),
      fc.tuple(eventSpecArb, fc.nat()).map(([s, n]) => new LateEventCommand(s, n)),
      fc
        .tuple(fc.array(eventSpecArb, { maxLength: 6 }), fc.boolean(), fc.option(fc.nat()))
        .map(([specs, repeat, redeliver]) => new ApplyBatchCommand(specs, repeat, redeliver)),
      fc.tuple(customerArb, fc.integer({ min: -20 * DAY_MS, max: 0 })).map(([c, o]) => new RecordActivityCommand(c, o)),
      clockStepArb.map((ms) => new AdvanceClockCommand(ms)),
      clockStepArb.map((ms) => new AdvanceClockCommand(ms)),
      fc.nat().map((n) => new SwitchConfigCommand(n)),
      fc.tuple(queryArb, fc.integer({ min: 1, max: 4 })).map(([q, pages]) => new AtRiskCommand(q, pages)),
      fc.tuple(queryArb, fc.integer({ min: 1, max: 4 })).map(([q, pages]) => new AtRiskCommand(q, pages)),
      fc.integer({ min: 1, max: 5 }).map((n) => new RefreshDueCommand(n)),
      fc.constant(new ReplayCommand()),
      customerArb.map((c) => new GetCommand(c)),
      fc.tuple(customerArb, fc.integer({ min: 1, max: 4 })).map(([c, limit]) => new EventsOfCommand(c, limit)),
      fc.constant(new ReadAllCommand()),
      fc
        .tuple(fc.nat(6).map((n) => `tr_${n}`), fc.uniqueArray(customerArb, { minLength: 1, maxLength: 2 }), fc.uniqueArray(customerArb, { maxLength: 2 }))
        .map(([id, from, to]) => new TransferCommand(id, from, to)),
    ],
    { maxCommands, size: 'medium' },
  );

/** Given a factory, the configurations of the run and the options, runs the model-based property. */
async function runModel(factory: StoreFactory, configs: readonly TenureConfig[], options: ResolvedContractOptions): Promise<void> {
  const property = (store: () => Promise<SubscriberStore>, release: (store: SubscriberStore) => Promise<void>) =>
    fc.asyncProperty(commandsArb(options.maxCommands), async (commands) => {
      const real = await store();
      try {
        await fc.asyncModelRun(() => ({ model: emptyModel(T0, configs), real }), commands);
      } finally {
        await release(real);
      }
    });
  const { reset } = factory;
  if (reset === undefined) {
    await fc.assert(
      property(
        () => factory.open(),
        async (store) => {
          await store.close();
          await factory.cleanup?.(store);
        },
      ),
      propertyParameters(options),
    );
    return;
  }
  // One store for the whole property, emptied before each run.
  await withStore(factory, async (shared) => {
    await fc.assert(
      property(
        async () => {
          await reset(shared);
          return shared;
        },
        async () => {},
      ),
      propertyParameters(options),
    );
  });
}

/**
 * A configuration that moves the boundaries: a lower high band (50) and one inactivity point a day.
 *
 * @example
 * await store.atRisk({ limit: 10 }, { now, config: STRICT_CONFIG });
 */
export const STRICT_CONFIG = resolveConfig({ bands: { high: 50 }, risk: { inactivity_days_per_point: 1 } });

/** Registers the model-based tests. */
export function describeModelContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  describe('model-based', () => {
    it('agrees with folding the applied events and with selectAtRisk, whatever the history (default configuration)', { timeout: options.timeoutMs }, () =>
      runModel(factory, [DEFAULT_CONFIG], options),
    );

    it('agrees under another configuration, and when the configuration switches mid-run', { timeout: options.timeoutMs }, () =>
      runModel(factory, [STRICT_CONFIG, DEFAULT_CONFIG, resolveConfig({ risk: { state_base: { active: 65, trialing: 60 } }, bands: { critical: 70 } })], options),
    );
  });
}
