/**
 * The tenure config file (`tenure.config.json`): a partial configuration and, optionally, a
 * calibration from score to churn probability. `tenure tune` writes it, `tenure backtest --config`
 * and `tenure serve --config` read it. One zod schema, so every reader refuses the same files with
 * the same messages, every problem listed.
 */
import { z } from 'zod';
import { toFieldErrors } from '../events/parseWebhook.js';
import { err, ok, type FieldError, type Result } from '../result.js';
import type { Calibration } from '../evaluation/calibrate.js';
import { MAX_SCORE } from '../evaluation/scoreHistogram.js';
import { SUBSCRIBER_STATES } from '../subscriber/subscriber.js';
import { resolveConfig, type ConfigOverrides, type TenureConfig } from './defaultConfig.js';

/** The version written in the file; a reader refuses another. */
export const CONFIG_FILE_VERSION = 1;

// Every signal is a whole number of points, so the score stays an integer 0..100 (scoreSubscriber).
const points = (min: number, max: number) => z.number().int('Expected a whole number of points').min(min).max(max);
const score = points(0, MAX_SCORE);
const days = z.number().finite().min(0).max(3650);
const fraction = z.number().min(0).max(1);

const riskSchema = z
  .object({
    state_base: z.object(Object.fromEntries(SUBSCRIBER_STATES.map((s) => [s, score])) as Record<(typeof SUBSCRIBER_STATES)[number], typeof score>).partial().strict(),
    billing_failure_points: points(0, MAX_SCORE),
    billing_failure_cap: points(0, MAX_SCORE),
    renewal_points: points(-MAX_SCORE, 0),
    renewal_cap: points(-MAX_SCORE, 0),
    inactivity_grace_days: points(0, 3650),
    inactivity_days_per_point: points(1, 3650),
    inactivity_cap: points(0, MAX_SCORE),
    trial_halfway_fraction: fraction,
    trial_halfway_points: points(0, MAX_SCORE),
    trial_late_fraction: fraction,
    trial_late_points: points(0, MAX_SCORE),
    slow_conversion_days: days,
    slow_conversion_points: points(0, MAX_SCORE),
    price_increase_points: points(0, MAX_SCORE),
  })
  .partial()
  .strict();

const bandsSchema = z.object({ critical: score, high: score, medium: score }).partial().strict();

const recommendSchema = z
  .object({
    billing_alert_above: score,
    winback_above: score,
    trial_nudge_days_before_end: days,
    loyalty_min_renewals: points(0, 10_000),
    renewal_reminder_days: days,
    engagement_inactive_days: days,
    grace_urgent_days: days,
  })
  .partial()
  .strict();

const calibrationSchema = z
  .object({
    horizon_ms: z.number().int().positive(),
    samples: z.number().int().min(0),
    positives: z.number().int().min(0),
    probabilities: z.array(fraction).length(MAX_SCORE + 1, `Expected ${MAX_SCORE + 1} probabilities, one per score 0..${MAX_SCORE}`),
  })
  .strict()
  .refine((c) => c.positives <= c.samples, { message: 'positives cannot exceed samples', path: ['positives'] })
  .refine((c) => c.probabilities.every((p, s) => s === 0 || p >= c.probabilities[s - 1]!), {
    message: 'Expected probabilities that never fall as the score rises',
    path: ['probabilities'],
  });

/** The file's JSON shape: every section optional; unknown keys are refused (a typo is not ignored). */
export const configFileSchema = z
  .object({
    version: z.literal(CONFIG_FILE_VERSION).optional(),
    risk: riskSchema.optional(),
    bands: bandsSchema.optional(),
    recommend: recommendSchema.optional(),
    calibration: calibrationSchema.optional(),
    /** Written by `tenure tune` (how the file was made); not read. */
    tuned: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** The keys whose value is not undefined (a JS caller may pass `{ high: undefined }`; JSON cannot), so defaults fill them. */
function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** What a config file holds: the resolved configuration, and the calibration when it has one. */
export interface ConfigFile {
  config: TenureConfig;
  calibration: Calibration | null;
}

/**
 * Given a parsed JSON value, returns the configuration it stands for (its values over
 * `DEFAULT_CONFIG`) and its calibration, or every problem, one per field: unknown keys, values out
 * of range, band thresholds out of order (critical ≥ high ≥ medium), a trial's late fraction below
 * its halfway one, a calibration that falls or does not have one probability per score. Pure.
 *
 * @example
 * parseConfigFile({ bands: { critical: 85 } }); // { ok: true, value: { config: { ..., bands: { critical: 85, high: 60, medium: 40 } }, calibration: null } }
 * parseConfigFile({ bands: { high: 'x' } }); // { ok: false, errors: [{ field: 'bands.high', message: '...' }] }
 */
export function parseConfigFile(value: unknown): Result<ConfigFile, FieldError> {
  const parsed = configFileSchema.safeParse(value);
  if (!parsed.success) return { ok: false, errors: toFieldErrors('', parsed.error, 'file') };
  const { risk, bands, recommend, calibration } = parsed.data;
  const overrides: ConfigOverrides = {};
  if (risk !== undefined) {
    const { state_base, ...weights } = risk;
    overrides.risk = { ...definedOnly(weights), ...(state_base === undefined ? {} : { state_base: definedOnly(state_base) }) };
  }
  if (bands !== undefined) overrides.bands = definedOnly(bands);
  if (recommend !== undefined) overrides.recommend = definedOnly(recommend);
  const config = resolveConfig(overrides);
  const problems: FieldError[] = [];
  if (config.bands.high > config.bands.critical) problems.push({ field: 'bands.high', message: `Expected at most bands.critical (${config.bands.critical}), got ${config.bands.high}` });
  if (config.bands.medium > config.bands.high) problems.push({ field: 'bands.medium', message: `Expected at most bands.high (${config.bands.high}), got ${config.bands.medium}` });
  if (config.risk.trial_late_fraction < config.risk.trial_halfway_fraction) {
    problems.push({ field: 'risk.trial_late_fraction', message: `Expected at least risk.trial_halfway_fraction (${config.risk.trial_halfway_fraction})` });
  }
  const [first, ...rest] = problems;
  if (first !== undefined) return err(first, ...rest);
  return ok({ config, calibration: calibration ?? null });
}

/**
 * Given a configuration, an optional calibration and an optional note of how they were made,
 * returns the config file's JSON value (the weights and bands; `parseConfigFile` reads it back to
 * the same configuration and calibration). Pure.
 *
 * @example
 * JSON.stringify(toConfigFile(tuned.config, calibration, { seed: 1 }), null, 2);
 */
export function toConfigFile(config: TenureConfig, calibration: Calibration | null, tuned?: Record<string, unknown>): z.input<typeof configFileSchema> {
  return {
    version: CONFIG_FILE_VERSION,
    risk: { ...config.risk, state_base: { ...config.risk.state_base } },
    bands: { ...config.bands },
    recommend: { ...config.recommend },
    ...(calibration === null ? {} : { calibration: { ...calibration, probabilities: [...calibration.probabilities] } }),
    ...(tuned === undefined ? {} : { tuned }),
  };
}
