import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import { scoreSubscriber } from '../risk/scoreSubscriber.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { EXAMPLE_NOW, makeSubscriber, subscriberAtArb } from '../testing/index.js';
import { riskFeatures, scoreFeatures } from './riskFeatures.js';
import { KNOBS } from './tune.js';

const small = fc.integer({ min: -40, max: 100 });
/** A starting config with every risk weight drawn (fractions and slow-conversion days too). */
const configArb: fc.Arbitrary<TenureConfig> = fc
  .record({
    base: fc.tuple(...SUBSCRIBER_STATES.map(() => fc.integer({ min: 0, max: 100 }))),
    billing_failure_points: small,
    billing_failure_cap: small,
    renewal_points: small,
    renewal_cap: small,
    inactivity_grace_days: fc.integer({ min: 0, max: 60 }),
    inactivity_days_per_point: fc.integer({ min: 1, max: 10 }),
    inactivity_cap: fc.integer({ min: 0, max: 60 }),
    trial_halfway_fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    trial_halfway_points: small,
    trial_late_fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    trial_late_points: small,
    slow_conversion_days: fc.integer({ min: 0, max: 30 }),
    slow_conversion_points: small,
    price_increase_points: small,
  })
  .map(({ base, ...risk }) => ({
    ...DEFAULT_CONFIG,
    risk: { ...risk, state_base: Object.fromEntries(SUBSCRIBER_STATES.map((state, i) => [state, base[i]!])) as TenureConfig['risk']['state_base'] },
  }));
/** Knob moves as `tune` makes them: a knob set to a value in its range. */
const movesArb = fc.array(fc.tuple(fc.nat({ max: KNOBS.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 8 });

describe('riskFeatures and scoreFeatures', () => {
  it("score a subscriber as scoreSubscriber does, under any config tune's knobs reach from the one the features were read with", () => {
    fc.assert(
      fc.property(subscriberAtArb, configArb, movesArb, ({ subscriber, now }, start, moves) => {
        let candidate = start;
        for (const [k, at] of moves) {
          const knob = KNOBS[k]!;
          candidate = knob.set(candidate, knob.min + Math.round((at * (knob.max - knob.min)) / knob.step) * knob.step);
        }
        const features = riskFeatures(subscriber, now, start);
        expect(scoreFeatures(features, start)).toBe(scoreSubscriber(subscriber, now, start).score);
        expect(scoreFeatures(features, candidate)).toBe(scoreSubscriber(subscriber, now, candidate).score);
      }),
      { numRuns: 3000 },
    );
  });

  it('no knob moves what the features are read with (trial fractions, slow-conversion days)', () => {
    fc.assert(
      fc.property(configArb, fc.nat({ max: KNOBS.length - 1 }), fc.integer({ min: -50, max: 150 }), (config, k, value) => {
        const moved = KNOBS[k]!.set(config, value).risk;
        expect([moved.trial_halfway_fraction, moved.trial_late_fraction, moved.slow_conversion_days]).toEqual([
          config.risk.trial_halfway_fraction,
          config.risk.trial_late_fraction,
          config.risk.slow_conversion_days,
        ]);
      }),
    );
  });

  it('read a trial at the very instants its points start (halfway, late) as scoreSubscriber does', () => {
    const started = EXAMPLE_NOW - 20 * DAY_MS;
    const trialing = makeSubscriber({ state: 'trialing', trial_started_at: started, trial_ends_at: started + 10 * DAY_MS });
    for (const days of [4, 5, 6, 7, 8, 9]) {
      const now = started + days * DAY_MS;
      expect([days, riskFeatures(trialing, now, DEFAULT_CONFIG).trial]).toEqual([days, days >= 8 ? 'late' : days >= 5 ? 'halfway' : 'none']);
      expect(scoreFeatures(riskFeatures(trialing, now, DEFAULT_CONFIG), DEFAULT_CONFIG)).toBe(scoreSubscriber(trialing, now).score);
    }
  });
});
