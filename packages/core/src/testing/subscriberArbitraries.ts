/**
 * fast-check arbitraries of subscriber records, risks and assessments: valid records by
 * construction, biased toward the day and threshold boundaries where rules change.
 */
import fc from 'fast-check';
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { bandFor } from '../risk/bandFor.js';
import type { Risk } from '../risk/risk.js';
import { SUBSCRIBER_STATES, type EventKey, type Subscriber, type SubscriberState } from '../subscriber/subscriber.js';

/** Around 2026, in epoch ms. */
const EPOCH_MIN = 1_700_000_000_000;
const EPOCH_MAX = 1_900_000_000_000;

/**
 * One of the subscriber states.
 *
 * @example
 * fc.sample(stateArb, 1); // e.g. ['churned']
 */
export const stateArb: fc.Arbitrary<SubscriberState> = fc.constantFrom(...SUBSCRIBER_STATES);

/**
 * An ordering key of an event (or null), around 2026.
 *
 * @example
 * fc.sample(eventKeyArb, 1); // e.g. [{ at: 1_800_000_000_000, rank: 3, id: 'a' }]
 */
export const eventKeyArb: fc.Arbitrary<EventKey | null> = fc.option(
  fc.record({ at: fc.integer({ min: EPOCH_MIN, max: EPOCH_MAX }), rank: fc.nat(10), id: fc.string({ maxLength: 8 }) }),
);

/**
 * Customer ids, including ones with Slack and HTML control characters.
 *
 * @example
 * fc.assert(fc.property(customerIdArb, (id) => !buildEmail(alertFor(id)).subject.includes('\n')));
 */
export const customerIdArb: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[a-z0-9_]{1,12}$/),
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.constantFrom('<script>alert(1)</script>', 'a&b', '<!channel>', '*bold* _it_ `code`', 'x"y\'z'),
);

/** A duration of up to `maxDays` days, in ms, biased toward whole-day boundaries. */
const durationArb = (maxDays: number): fc.Arbitrary<number> =>
  fc.oneof(
    fc.integer({ min: 0, max: maxDays * DAY_MS }),
    fc.tuple(fc.nat(maxDays), fc.constantFrom(-1, 0, 1)).map(([d, e]) => Math.max(0, d * DAY_MS + e)),
  );

/**
 * A valid subscriber record: counters at least 0, `event_count` at least the counted events,
 * `first_event_at <= last_activity_at <= last_event_at`, a trial that ends after it starts and a
 * conversion after the trial start.
 *
 * @example
 * fc.assert(fc.property(subscriberArb, (s) => s.event_count >= 1));
 */
export const subscriberArb: fc.Arbitrary<Subscriber> = fc
  .record({
    customer_id: customerIdArb,
    state: stateArb,
    state_key: eventKeyArb,
    product_id: fc.option(fc.constantFrom('pro_monthly', 'pro_yearly', 'basic<&>')),
    product_key: eventKeyArb,
    first_event_at: fc.integer({ min: EPOCH_MIN, max: EPOCH_MAX - 800 * DAY_MS }),
    span: durationArb(400),
    activity: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    period: fc.option(durationArb(400)),
    period_key: eventKeyArb,
    billing_failures: fc.nat(8),
    renewals: fc.nat(30),
    extra_events: fc.nat(20),
    trial: fc.option(fc.record({ offset: durationArb(300), length: fc.integer({ min: 1, max: 40 * DAY_MS }) })),
    trial_key: eventKeyArb,
    conversion: fc.option(durationArb(60)),
    conversion_key: eventKeyArb,
    base_state_key: eventKeyArb,
    cancel_reason: fc.constantFrom(null, 'UNSUBSCRIBE', 'PRICE_INCREASE', 'CUSTOMER_SUPPORT'),
    grace: fc.option(fc.tuple(durationArb(40), fc.constantFrom(-1, 1))),
    grace_key: eventKeyArb,
    auto_resume: fc.option(durationArb(90)),
    // A promotional grant: its end before or after the last event, or none (a grant without end).
    promotional: fc.option(fc.record({ key: eventKeyArb.filter((k) => k !== null), end: fc.option(fc.tuple(durationArb(40), fc.constantFrom(-1, 1))) })),
  })
  .map((r): Subscriber => {
    const last = r.first_event_at + r.span;
    const trialStart = r.trial === null ? null : r.first_event_at + r.trial.offset;
    return {
      customer_id: r.customer_id,
      state: r.state,
      state_key: r.state_key,
      product_id: r.product_id,
      product_key: r.product_key,
      period_ends_at: r.period === null ? null : r.first_event_at + r.period,
      period_key: r.period_key,
      billing_failures: r.billing_failures,
      renewals: r.renewals,
      trial_started_at: trialStart,
      trial_ends_at: trialStart === null || r.trial === null ? null : trialStart + r.trial.length,
      trial_key: r.trial_key,
      trial_converted_at: trialStart === null || r.conversion === null ? null : trialStart + r.conversion,
      conversion_key: r.conversion_key,
      base_state_key: r.base_state_key,
      cancel_reason: r.cancel_reason,
      // A grace end before or after the last event, as delivery can make it.
      grace_ends_at: r.grace === null ? null : last + r.grace[1] * r.grace[0],
      grace_key: r.grace_key,
      auto_resume_at: r.auto_resume === null ? null : last + r.auto_resume,
      pause_key: null,
      promotional_access_until: r.promotional === null || r.promotional.end === null ? null : last + r.promotional.end[1] * r.promotional.end[0],
      promotional_key: r.promotional === null ? null : r.promotional.key,
      last_activity_at: r.activity === null ? null : r.first_event_at + Math.floor(r.activity * r.span),
      first_event_at: r.first_event_at,
      last_event_at: last,
      event_count: 1 + r.billing_failures + r.renewals + r.extra_events,
    };
  });

/**
 * An evaluation time relative to a subscriber: usually after its last event, sometimes before its first.
 *
 * @example
 * subscriberArb.chain((s) => nowFor(s).map((now) => scoreSubscriber(s, now)));
 */
export const nowFor = (subscriber: Subscriber): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 8, arbitrary: durationArb(400).map((d) => subscriber.last_event_at + d) },
    { weight: 1, arbitrary: durationArb(30).map((d) => subscriber.first_event_at - d) },
    { weight: 1, arbitrary: fc.integer({ min: subscriber.first_event_at, max: subscriber.last_event_at }) },
  );

/**
 * A subscriber together with a time to assess it at.
 *
 * @example
 * fc.assert(fc.property(subscriberAtArb, ({ subscriber, now }) => scoreSubscriber(subscriber, now, myConfig).score <= 100));
 */
export const subscriberAtArb: fc.Arbitrary<{ subscriber: Subscriber; now: number }> = subscriberArb.chain((subscriber) =>
  nowFor(subscriber).map((now) => ({ subscriber, now })),
);

/**
 * Any risk in range under a configuration (not necessarily the scorer's output for a given
 * subscriber), biased to the default rule thresholds; the band follows `config.bands`.
 *
 * @example
 * fc.assert(fc.property(riskArbFor(myConfig), (risk) => risk.score <= 100));
 */
export const riskArbFor = (config: TenureConfig = DEFAULT_CONFIG): fc.Arbitrary<Risk> => fc
  .record({
    score: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(39, 40, 59, 60, 69, 70, 71, 79, 80, 81)),
    inactivity: fc.nat(15),
  })
  .map(({ score, inactivity }) => ({
    score,
    band: bandFor(score, config.bands),
    breakdown: { state: score - inactivity, billing_failures: 0, renewals: 0, inactivity, trial_conversion: 0, cancel_reason: 0 },
  }));

/**
 * Any risk in range under the default configuration.
 *
 * @example
 * fc.assert(fc.property(riskArb, (risk) => risk.band === bandFor(risk.score)));
 */
export const riskArb: fc.Arbitrary<Risk> = riskArbFor(DEFAULT_CONFIG);

/**
 * A subscriber, an arbitrary risk and a time: exercises every recommendation threshold.
 *
 * @example
 * fc.assert(fc.property(subscriberRiskAtArb, ({ subscriber, risk, now }) => recommend(subscriber, risk, now).length > 0));
 */
export const subscriberRiskAtArb: fc.Arbitrary<{ subscriber: Subscriber; risk: Risk; now: number }> = fc
  .tuple(subscriberAtArb, riskArb)
  .map(([{ subscriber, now }, risk]) => ({ subscriber, risk, now }));

/**
 * A batch of assessments whose customer ids come from a small pool, so the same customer often
 * appears more than once; some assessments have their recommendations removed.
 *
 * @example
 * fc.assert(fc.property(assessmentsArb, (batch) => planDispatch(batch).length <= 2 * batch.length));
 */
export const assessmentsArb: fc.Arbitrary<Assessment[]> = fc.array(
  fc
    .tuple(subscriberAtArb, fc.constantFrom('u1', 'u2', 'u3', 'u<4>&'), fc.boolean())
    .map(([{ subscriber, now }, customer_id, empty]) => {
      const assessment = assessSubscriber({ ...subscriber, customer_id }, now);
      return empty ? { ...assessment, recommendations: [] } : assessment;
    }),
  { maxLength: 12 },
);
