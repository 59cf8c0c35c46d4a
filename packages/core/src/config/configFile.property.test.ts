import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate } from '../evaluation/calibrate.js';
import { addSample, emptyHistogram } from '../evaluation/scoreHistogram.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { DAY_MS, resolveConfig, type TenureConfig } from './defaultConfig.js';
import { parseConfigFile, resolveConfigFile, rulesOf, toConfigFile, validateConfigFile } from './configFile.js';

const T = 1_767_225_600_000;
const samplesArb = fc.array(fc.record({ score: fc.integer({ min: 0, max: 100 }), churned: fc.boolean() }), { maxLength: 80 });
const calibrationArb = fc.tuple(samplesArb, fc.integer({ min: 1, max: 365 }), fc.integer({ min: 0, max: 365 })).map(([samples, horizonDays, windowDays]) => {
  const h = emptyHistogram();
  for (const s of samples) addSample(h, s.score, s.churned);
  return { ...calibrate(h, horizonDays * DAY_MS), window: { from: T, to: T + windowDays * DAY_MS } };
});
const bandsArb = fc.uniqueArray(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }).map((v) => {
  const [medium, high, critical] = [...v].sort((a, b) => a - b);
  return { critical: critical!, high: high!, medium: medium! };
});

describe('the configuration file', () => {
  it('accepts every calibration `calibrate` returns, with its window, unchanged', () => {
    fc.assert(
      fc.property(calibrationArb, (calibration) => {
        const parsed = parseConfigFile(JSON.stringify({ calibration }));
        expect(parsed.ok && resolveConfigFile(parsed.value).calibration).toEqual(calibration);
      }),
    );
  });

  it('refuses a calibration exactly where it decreases', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 101, maxLength: 101 }), (probabilities) => {
        const falls = probabilities.flatMap((p, s) => (s > 0 && p < probabilities[s - 1]! ? [`calibration.probabilities.${s}`] : []));
        const result = validateConfigFile({ calibration: { horizon_ms: DAY_MS, samples: 1, positives: 0, probabilities, window: { from: T, to: T } } });
        expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual(falls);
      }),
    );
  });

  it('accepts bands exactly when they are strictly ordered critical > high > medium', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (critical, high, medium) => {
        expect(validateConfigFile({ bands: { critical, high, medium } }).ok).toBe(critical > high && high > medium);
      }),
    );
  });

  it('round-trips: the effective configuration, written as JSON, parses back to itself', () => {
    fc.assert(
      fc.property(bandsArb, fc.option(calibrationArb, { nil: undefined }), fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }), (bands, calibration, hours) => {
        const file = { bands, ...(calibration === undefined ? {} : { calibration }), ...(hours === undefined ? {} : { dispatch: { cooldown_hours: { default: hours } } }) };
        const effective = resolveConfigFile(file);
        const again = parseConfigFile(JSON.stringify(effective));
        expect(again.ok && resolveConfigFile(again.value)).toEqual(effective);
      }),
    );
  });

  it('never throws, whatever the JSON, and names a path for every problem', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateConfigFile(value);
        if (!result.ok) for (const e of result.errors) expect(e.field).not.toBe('');
      }),
    );
  });

  it('round-trips what tenure tune writes: toConfigFile through JSON reads back to the same rules and calibration', () => {
    const configArb: fc.Arbitrary<TenureConfig> = fc
      .record({
        state: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: SUBSCRIBER_STATES.length, maxLength: SUBSCRIBER_STATES.length }),
        billing_failure_points: fc.integer({ min: 0, max: 30 }),
        renewal_points: fc.integer({ min: -20, max: 0 }),
        inactivity_days_per_point: fc.integer({ min: 1, max: 10 }),
        inactivity_cap: fc.integer({ min: 0, max: 40 }),
        bands: bandsArb,
      })
      .map((r) =>
        resolveConfig({
          risk: {
            state_base: Object.fromEntries(SUBSCRIBER_STATES.map((state, i) => [state, r.state[i]!])),
            billing_failure_points: r.billing_failure_points,
            renewal_points: r.renewal_points,
            inactivity_days_per_point: r.inactivity_days_per_point,
            inactivity_cap: r.inactivity_cap,
          },
          bands: r.bands,
        }),
      );
    fc.assert(
      fc.property(configArb, fc.option(calibrationArb, { nil: null }), (config, calibration) => {
        const parsed = parseConfigFile(JSON.stringify(toConfigFile(config, calibration, { seed: 1 })));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const effective = resolveConfigFile(parsed.value);
        expect({ rules: rulesOf(effective), calibration: effective.calibration }).toEqual({ rules: config, calibration });
      }),
    );
  });
});
