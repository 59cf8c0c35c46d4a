import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../evaluation/calibrate.js';
import { addSample, emptyHistogram } from '../evaluation/scoreHistogram.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { parseConfigFile, toConfigFile } from './configFile.js';
import { resolveConfig, type TenureConfig } from './defaultConfig.js';

/** Configurations within the ranges the tuner searches, bands in order. */
const configArb: fc.Arbitrary<TenureConfig> = fc
  .record({
    state: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: SUBSCRIBER_STATES.length, maxLength: SUBSCRIBER_STATES.length }),
    billing_failure_points: fc.integer({ min: 0, max: 30 }),
    renewal_points: fc.integer({ min: -20, max: 0 }),
    inactivity_days_per_point: fc.integer({ min: 1, max: 10 }),
    inactivity_cap: fc.integer({ min: 0, max: 40 }),
    bands: fc.uniqueArray(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }).map((b) => [...b].sort((x, y) => y - x)),
  })
  .map((r) =>
    resolveConfig({
      risk: {
        state_base: Object.fromEntries(SUBSCRIBER_STATES.map((s, i) => [s, r.state[i]!])),
        billing_failure_points: r.billing_failure_points,
        renewal_points: r.renewal_points,
        inactivity_days_per_point: r.inactivity_days_per_point,
        inactivity_cap: r.inactivity_cap,
      },
      bands: { critical: r.bands[0]!, high: r.bands[1]!, medium: r.bands[2]! },
    }),
  );

const calibrationArb = fc.option(
  fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), churned: fc.boolean() }), { maxLength: 60 }).map((samples) => {
    const h = emptyHistogram();
    for (const s of samples) addSample(h, s.score, s.churned);
    return calibrate(h, 30 * 86_400_000);
  }),
  { nil: null },
);

describe('config file', () => {
  it('round-trips: toConfigFile through JSON and parseConfigFile gives back the configuration and calibration', () => {
    fc.assert(
      fc.property(configArb, calibrationArb, (config, calibration) => {
        const file = JSON.parse(JSON.stringify(toConfigFile(config, calibration))) as unknown;
        expect(parseConfigFile(file)).toEqual({ ok: true, value: { config, calibration } });
      }),
    );
  });
});
