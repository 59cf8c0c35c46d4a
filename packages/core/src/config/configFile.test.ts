import { describe, expect, it } from 'vitest';
import { calibrate } from '../evaluation/calibrate.js';
import { addSample, emptyHistogram } from '../evaluation/scoreHistogram.js';
import { parseConfigFile, toConfigFile } from './configFile.js';
import { DEFAULT_CONFIG, resolveConfig } from './defaultConfig.js';

const DAY = 86_400_000;

describe('parseConfigFile', () => {
  it('resolves a partial file over the defaults, with no calibration when it has none', () => {
    const parsed = parseConfigFile({ risk: { state_base: { active: 20 }, inactivity_cap: 25 }, bands: { critical: 85 } });
    expect(parsed).toEqual({ ok: true, value: { config: resolveConfig({ risk: { state_base: { active: 20 }, inactivity_cap: 25 }, bands: { critical: 85 } }), calibration: null } });
  });

  it('reads an empty object as the default configuration', () => {
    expect(parseConfigFile({})).toEqual({ ok: true, value: { config: DEFAULT_CONFIG, calibration: null } });
  });

  it('lists every problem, each naming its field', () => {
    const parsed = parseConfigFile({ risk: { state_base: { active: 120 }, renewal_points: 5, inactivity_days_per_point: 0.5 }, bands: { high: 'x' }, colour: 'red' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.field).sort()).toEqual(['bands.high', 'file', 'risk.inactivity_days_per_point', 'risk.renewal_points', 'risk.state_base.active'].sort());
    expect(parsed.errors.find((e) => e.field === 'file')?.message).toMatch(/colour/);
  });

  it('refuses band thresholds out of order and a trial late fraction below the halfway one', () => {
    const parsed = parseConfigFile({ bands: { critical: 50, high: 60, medium: 70 }, risk: { trial_late_fraction: 0.2 } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => e.field)).toEqual(['bands.high', 'bands.medium', 'risk.trial_late_fraction']);
  });

  it('refuses a calibration that falls, has the wrong length, or more churners than samples', () => {
    const rising = Array.from({ length: 101 }, (_, s) => s / 100);
    expect(parseConfigFile({ calibration: { horizon_ms: 30 * DAY, samples: 10, positives: 2, probabilities: rising } }).ok).toBe(true);
    const falling = [...rising].reverse();
    const parsed = parseConfigFile({ calibration: { horizon_ms: 30 * DAY, samples: 1, positives: 2, probabilities: falling } });
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.field).sort()).toEqual(['calibration.positives', 'calibration.probabilities']);
    const short = parseConfigFile({ calibration: { horizon_ms: 30 * DAY, samples: 1, positives: 0, probabilities: [0, 0.5] } });
    expect(short.ok ? '' : short.errors[0]!.message).toMatch(/101 probabilities/);
  });

  it('ignores undefined values a JavaScript caller passes: the defaults fill them', () => {
    expect(parseConfigFile({ bands: { critical: undefined } })).toEqual({ ok: true, value: { config: DEFAULT_CONFIG, calibration: null } });
  });
});

describe('toConfigFile', () => {
  it('writes what parseConfigFile reads back to the same configuration and calibration', () => {
    const histogram = emptyHistogram();
    for (let s = 0; s <= 100; s += 7) addSample(histogram, s, s % 3 === 0);
    const calibration = calibrate(histogram, 30 * DAY);
    const config = resolveConfig({ risk: { inactivity_cap: 30, state_base: { active: 15 } }, bands: { high: 55 } });
    const file = JSON.parse(JSON.stringify(toConfigFile(config, calibration, { seed: 3 }))) as unknown;
    expect(parseConfigFile(file)).toEqual({ ok: true, value: { config, calibration } });
  });
});
