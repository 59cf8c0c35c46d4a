import { describe, expect, it } from 'vitest';
import { DAY_MS, DEFAULT_CONFIG } from './defaultConfig.js';
import { parseConfigFile, resolveConfigFile, rulesOf, validateConfigFile } from './configFile.js';

const T = 1_767_225_600_000; // 2026-01-01
/** A valid calibration: 0.01 up to score 39, then rising to 0.9. */
const probabilities = Array.from({ length: 101 }, (_, s) => (s < 40 ? 0.01 : Math.min(0.9, 0.01 + (s - 39) * 0.015)));
const calibration = { horizon_ms: 30 * DAY_MS, samples: 5000, positives: 400, probabilities, window: { from: T, to: T + 90 * DAY_MS } };

const fields = (text: string) => {
  const parsed = parseConfigFile(text);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.errors;
};

describe('parseConfigFile', () => {
  it('accepts an empty object: every value is the default', () => {
    const parsed = parseConfigFile('{}');
    expect(parsed).toEqual({ ok: true, value: {} });
    const effective = resolveConfigFile({});
    expect(rulesOf(effective)).toEqual(DEFAULT_CONFIG);
    expect(effective.dispatch.cooldown_hours).toEqual({ immediate: { email: 24, chat: 24 }, soon: { email: 24 }, monitor: { log: 24 } });
    expect(effective.calibration).toBeNull();
  });

  it('merges a partial file over the defaults, section by section', () => {
    const parsed = parseConfigFile(JSON.stringify({ risk: { state_base: { active: 0 }, billing_failure_points: 15 }, bands: { critical: 90 }, recommend: { winback_above: 85 }, calibration }));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const effective = resolveConfigFile(parsed.value);
    expect(effective.risk.state_base).toEqual({ ...DEFAULT_CONFIG.risk.state_base, active: 0 });
    expect(effective.risk.billing_failure_points).toBe(15);
    expect(effective.risk.billing_failure_cap).toBe(30);
    expect(effective.bands).toEqual({ critical: 90, high: 60, medium: 40 });
    expect(effective.recommend).toEqual({ ...DEFAULT_CONFIG.recommend, winback_above: 85 });
    expect(effective.calibration).toEqual(calibration);
  });

  it('takes each cooldown from its own entry, else the file default, else the fallback', () => {
    const file = { dispatch: { cooldown_hours: { immediate: { chat: 6 }, soon: { email: 72 } } } };
    expect(resolveConfigFile(file).dispatch.cooldown_hours).toEqual({ immediate: { email: 24, chat: 6 }, soon: { email: 72 }, monitor: { log: 24 } });
    expect(resolveConfigFile(file, 48).dispatch.cooldown_hours.monitor.log).toBe(48);
    const withDefault = { dispatch: { cooldown_hours: { default: 12, soon: { email: 72 } } } };
    expect(resolveConfigFile(withDefault, 48).dispatch.cooldown_hours).toEqual({ immediate: { email: 12, chat: 12 }, soon: { email: 72 }, monitor: { log: 12 } });
  });

  it('refuses what is not JSON, naming the file', () => {
    expect(fields('{ "bands": ')).toEqual([{ field: 'file', message: expect.stringMatching(/^not JSON: /) }]);
    expect(fields('')).toEqual([{ field: 'file', message: expect.stringMatching(/^not JSON: /) }]);
  });

  it('refuses a file that is not an object', () => {
    for (const text of ['[]', '42', '"x"', 'null']) expect(fields(text).map((e) => e.field)).toEqual(['file']);
  });

  it('lists every problem at once, each with its path: unknown keys, wrong types, out of range', () => {
    const problems = fields(
      JSON.stringify({
        risk: { state_base: { active: 'ten', zombie: 5 }, billing_failure_points: 2.5, renewal_points: 5, inactivity_days_per_point: 0, colour: 'red' },
        recommend: { winback_above: 101 },
        dispatch: { cooldown_hours: { soon: { chat: 1 }, immediate: { email: -1 } } },
        extra: true,
        another: 1,
      }),
    );
    expect(problems.map((p) => p.field).sort()).toEqual(
      [
        'another',
        'dispatch.cooldown_hours.immediate.email',
        'dispatch.cooldown_hours.soon.chat',
        'extra',
        'recommend.winback_above',
        'risk.billing_failure_points',
        'risk.colour',
        'risk.inactivity_days_per_point',
        'risk.renewal_points',
        'risk.state_base.active',
        'risk.state_base.zombie',
      ].sort(),
    );
    expect(problems.find((p) => p.field === 'extra')!.message).toBe('unknown key');
    expect(problems.find((p) => p.field === 'dispatch.cooldown_hours.soon.chat')!.message).toBe('unknown key'); // soon alerts go to email only
  });

  it('refuses bands out of order after merging with the defaults, naming the key the file set', () => {
    expect(fields('{ "bands": { "high": 85 } }')).toEqual([{ field: 'bands.high', message: expect.stringContaining('critical 80 is not above high 85') }]);
    expect(fields('{ "bands": { "critical": 60 } }')).toEqual([{ field: 'bands.critical', message: expect.stringContaining('critical 60 is not above high 60') }]);
    expect(fields('{ "bands": { "medium": 70 } }')).toEqual([{ field: 'bands.medium', message: expect.stringContaining('high 60 is not above medium 70') }]);
    expect(fields('{ "bands": { "critical": 50, "high": 60, "medium": 70 } }').map((p) => p.field)).toEqual(['bands.critical', 'bands.high']);
    expect(parseConfigFile('{ "bands": { "critical": 95, "high": 85, "medium": 70 } }').ok).toBe(true);
  });

  it('refuses trial fractions out of order', () => {
    expect(fields('{ "risk": { "trial_halfway_fraction": 0.9 } }')).toEqual([{ field: 'risk.trial_halfway_fraction', message: expect.stringContaining('must not be above trial_late_fraction (0.8)') }]);
  });

  it('refuses a calibration that is not monotone, naming every score where it falls', () => {
    const bumpy = probabilities.map((p, s) => (s === 50 || s === 70 ? 0 : p));
    const problems = fields(JSON.stringify({ calibration: { ...calibration, probabilities: bumpy } }));
    expect(problems.map((p) => p.field)).toEqual(['calibration.probabilities.50', 'calibration.probabilities.70']);
    expect(problems[0]!.message).toMatch(/^must not decrease: 0 at score 50 is below 0\.\d+ at score 49/);
  });

  it('refuses probabilities outside [0, 1], a wrong count, a bad window and more positives than samples', () => {
    const outside = probabilities.map((p, s) => (s === 0 ? -0.1 : s === 100 ? 1.5 : p));
    expect(fields(JSON.stringify({ calibration: { ...calibration, probabilities: outside } })).map((p) => p.field)).toEqual(['calibration.probabilities.0', 'calibration.probabilities.100']);
    expect(fields(JSON.stringify({ calibration: { ...calibration, probabilities: probabilities.slice(1) } })).map((p) => p.field)).toEqual(['calibration.probabilities']);
    const problems = fields(JSON.stringify({ calibration: { ...calibration, positives: 6000, window: { from: T + 1, to: T } } }));
    expect(problems.map((p) => p.field)).toEqual(['calibration.positives', 'calibration.window.from']);
    expect(fields(JSON.stringify({ calibration: { ...calibration, window: undefined, horizon_ms: 0 } })).map((p) => p.field).sort()).toEqual(['calibration.horizon_ms', 'calibration.window']);
  });

  it('accepts calibration: null as no calibration', () => {
    const parsed = parseConfigFile('{ "calibration": null }');
    expect(parsed.ok && resolveConfigFile(parsed.value).calibration).toBeNull();
  });
});

describe('validateConfigFile', () => {
  it('accepts its own effective configuration: the effective config is a config file', () => {
    const effective = resolveConfigFile({ bands: { critical: 90 }, calibration, dispatch: { cooldown_hours: { default: 6 } } });
    const again = validateConfigFile(JSON.parse(JSON.stringify(effective)));
    expect(again.ok && resolveConfigFile(again.value)).toEqual(effective);
  });
});
