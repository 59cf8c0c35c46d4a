/**
 * The configuration file of the retention service (`tenure serve --config FILE`) and of what
 * `tenure tune --out` writes: a partial rule configuration (risk weights, bands, recommend
 * thresholds), the alert cooldowns per urgency and channel, the signed webhook endpoints alerts
 * go to, and an optional calibration with its provenance. One zod schema checks it; `parseConfigFile` lists every problem, each naming its path.
 */
import { z } from 'zod';
import { epochMsSchema } from '../events/webhookSchema.js';
import { CHANNELS_BY_URGENCY } from '../dispatch/delivery.js';
import { MAX_SCORE } from '../evaluation/scoreHistogram.js';
import type { Calibration } from '../evaluation/calibrate.js';
import { URGENCIES, type Urgency } from '../recommend/recommendation.js';
import { err, ok, type FieldError, type Result } from '../result.js';
import { SUBSCRIBER_STATES, type SubscriberState } from '../subscriber/subscriber.js';
import { DEFAULT_CONFIG, resolveConfig, type ConfigOverrides, type TenureConfig } from './defaultConfig.js';
import { offersSchema } from './offersConfig.js';

/** The format version `toConfigFile` writes. */
export const CONFIG_FILE_VERSION = 1;

/** Points and scores are whole numbers, so every score stays an integer. */
const points = (min: number, max: number) => z.number().int().min(min).max(max);
/** Days and fractions may be fractional; days at most ten years, so no instant overflows. */
const days = () => z.number().min(0).max(3650);
const fraction = () => z.number().min(0).max(1);
const score = () => points(0, MAX_SCORE);

const stateBaseSchema = z.strictObject(
  Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, score().optional()])) as Record<SubscriberState, z.ZodOptional<ReturnType<typeof score>>>,
);

const riskSchema = z
  .strictObject({
    state_base: stateBaseSchema.optional(),
    billing_failure_points: points(0, MAX_SCORE).optional(),
    billing_failure_cap: points(0, MAX_SCORE).optional(),
    renewal_points: points(-MAX_SCORE, 0).optional(),
    renewal_cap: points(-MAX_SCORE, 0).optional(),
    inactivity_grace_days: days().optional(),
    inactivity_days_per_point: days().positive().optional(),
    inactivity_cap: points(0, MAX_SCORE).optional(),
    trial_halfway_fraction: fraction().optional(),
    trial_halfway_points: points(0, MAX_SCORE).optional(),
    trial_late_fraction: fraction().optional(),
    trial_late_points: points(0, MAX_SCORE).optional(),
    slow_conversion_days: days().optional(),
    slow_conversion_points: points(0, MAX_SCORE).optional(),
    price_increase_points: points(0, MAX_SCORE).optional(),
  })
  .superRefine((risk, ctx) => {
    const halfway = risk.trial_halfway_fraction ?? DEFAULT_CONFIG.risk.trial_halfway_fraction;
    const late = risk.trial_late_fraction ?? DEFAULT_CONFIG.risk.trial_late_fraction;
    if (halfway > late) {
      const path = risk.trial_halfway_fraction === undefined ? 'trial_late_fraction' : 'trial_halfway_fraction';
      ctx.addIssue({ code: 'custom', path: [path], message: `trial_halfway_fraction (${halfway}) must not be above trial_late_fraction (${late})` });
    }
  });

const bandsSchema = z
  .strictObject({ critical: score().optional(), high: score().optional(), medium: score().optional() })
  .superRefine((given, ctx) => {
    const d = DEFAULT_CONFIG.bands;
    const b = { critical: given.critical ?? d.critical, high: given.high ?? d.high, medium: given.medium ?? d.medium };
    // Name the key the file set: with one of a pair given, that one is out of order.
    if (!(b.critical > b.high)) {
      ctx.addIssue({ code: 'custom', path: [given.high !== undefined && given.critical === undefined ? 'high' : 'critical'], message: `bands must be ordered critical > high > medium: critical ${b.critical} is not above high ${b.high}` });
    }
    if (!(b.high > b.medium)) {
      ctx.addIssue({ code: 'custom', path: [given.medium !== undefined && given.high === undefined ? 'medium' : 'high'], message: `bands must be ordered critical > high > medium: high ${b.high} is not above medium ${b.medium}` });
    }
  });

const recommendSchema = z.strictObject({
  billing_alert_above: score().optional(),
  winback_above: score().optional(),
  trial_nudge_days_before_end: days().optional(),
  loyalty_min_renewals: z.number().int().min(0).max(1000).optional(),
  renewal_reminder_days: days().optional(),
  engagement_inactive_days: days().optional(),
  grace_urgent_days: days().optional(),
});

/** Cooldown hours: at most ten years. */
const hours = () => z.number().min(0).max(87_600);

/** One cooldown per urgency and the channels its alerts go to (`CHANNELS_BY_URGENCY`), in hours. */
export type CooldownTable = { [U in Urgency]: Record<(typeof CHANNELS_BY_URGENCY)[U][number], number> };

const cooldownSchema = z.strictObject({
  default: hours().optional(),
  ...(Object.fromEntries(
    URGENCIES.map((urgency) => [urgency, z.strictObject(Object.fromEntries(CHANNELS_BY_URGENCY[urgency].map((channel) => [channel, hours().optional()]))).optional()]),
  ) as { [U in Urgency]: z.ZodOptional<z.ZodObject<Record<(typeof CHANNELS_BY_URGENCY)[U][number], z.ZodOptional<ReturnType<typeof hours>>>>> }),
});

const calibrationSchema = z
  .strictObject({
    horizon_ms: z.number().int().positive().max(3650 * 86_400_000),
    samples: z.number().int().min(0),
    positives: z.number().int().min(0),
    probabilities: z.array(z.number().min(0).max(1)).length(MAX_SCORE + 1),
    window: z.strictObject({ from: epochMsSchema, to: epochMsSchema }),
  })
  .superRefine((c, ctx) => {
    if (c.positives > c.samples) ctx.addIssue({ code: 'custom', path: ['positives'], message: `positives (${c.positives}) must not exceed samples (${c.samples})` });
    for (let s = 1; s < c.probabilities.length; s += 1) {
      const [before, here] = [c.probabilities[s - 1]!, c.probabilities[s]!];
      if (here < before) ctx.addIssue({ code: 'custom', path: ['probabilities', s], message: `must not decrease: ${here} at score ${s} is below ${before} at score ${s - 1} (a calibration is monotone)` });
    }
    if (c.window.from > c.window.to) ctx.addIssue({ code: 'custom', path: ['window', 'from'], message: `window.from must not be after window.to` });
  });

/** A webhook endpoint's name: lowercase letters, digits, `_` and `-`, as it shows in the dispatch log. */
const ENDPOINT_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/**
 * Whether `text` is a Standard Webhooks secret as the service takes it: `whsec_` then base64 of at
 * least 16 key bytes (several, space-separated, during a rotation). Pure.
 *
 * @example
 * isWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'); // true
 */
export function isWebhookSecret(text: string): boolean {
  const parts = text.split(' ').filter((s) => s !== '');
  return (
    parts.length > 0 &&
    parts.every((part) => {
      const encoded = part.startsWith('whsec_') ? part.slice(6) : '';
      if (encoded.length === 0 || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false;
      const padding = encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0;
      return (encoded.length / 4) * 3 - padding >= 16;
    })
  );
}

/** An http(s) URL naming a host (checked by shape: the core has no URL parser; the service parses it again). */
const isHttpUrl = (text: string): boolean => /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i.test(text);

/** One signed webhook endpoint of `alert_webhooks`: where alerts of some urgencies are POSTed. */
const webhookEndpointSchema = z.strictObject({
  name: z.string().regex(ENDPOINT_NAME, 'must be 1-40 lowercase letters, digits, _ or -, starting with a letter or digit'),
  url: z.string().refine(isHttpUrl, 'must be an http(s) URL'),
  secret: z.string().refine(isWebhookSecret, 'must be a whsec_-prefixed base64 secret of at least 16 bytes (several: space-separated)'),
  /** Default: immediate and soon. */
  urgencies: z.array(z.enum(URGENCIES)).min(1).optional(),
});

/**
 * The schema of the configuration file: every section optional, unknown keys refused, bands ordered
 * (critical > high > medium, after merging with the defaults), a calibration monotone in [0, 1]
 * with one probability per score 0–100.
 *
 * @example
 * configFileSchema.safeParse({ bands: { critical: 90 } }).success; // true
 */
export const configFileSchema = z.strictObject({
  /** The file format; a reader refuses another. Optional (hand-written files may leave it out). */
  version: z.literal(CONFIG_FILE_VERSION).optional(),
  risk: riskSchema.optional(),
  bands: bandsSchema.optional(),
  recommend: recommendSchema.optional(),
  dispatch: z.strictObject({ cooldown_hours: cooldownSchema.optional() }).optional(),
  /** Signed webhook endpoints (Standard Webhooks), each named once; never written by `tenure tune`. */
  alert_webhooks: z
    .array(webhookEndpointSchema)
    .max(20)
    .superRefine((endpoints, ctx) => {
      endpoints.forEach((endpoint, i) => {
        if (endpoints.findIndex((other) => other.name === endpoint.name) < i) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${endpoint.name}" is named twice` });
      });
    })
    .optional(),
  calibration: calibrationSchema.nullable().optional(),
  /** One-click offers granted through RevenueCat, per recommended action (`offersConfig.ts`); read by the service, not by the rules. */
  offers: offersSchema.optional(),
  /** How `tenure tune` made the file (history, seed, the training and holdout periods, their figures); never read. */
  tuned: z.record(z.string(), z.unknown()).optional(),
});

/** A configuration file, as parsed. */
export type ConfigFile = z.output<typeof configFileSchema>;

/**
 * A calibration with its provenance: the mapping `calibrate` returns (horizon, samples, positives,
 * one probability per score) and the `window` it was fitted on, the first and last cutoff (epoch ms).
 */
export interface ConfigCalibration extends Calibration {
  window: { from: number; to: number };
}

/** Everything a configuration file decides, every value filled in. */
export interface EffectiveConfig extends TenureConfig {
  dispatch: { cooldown_hours: CooldownTable };
  calibration: ConfigCalibration | null;
}

/** The cooldown of every urgency and channel without a file: 24 hours. */
export const DEFAULT_COOLDOWN_HOURS = 24;

/** The entries of `section` that are set: an absent key keeps its default. */
const defined = (section: object | null | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(section ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));

/** The dotted path of an issue, `file` for the whole file; a key that is not a plain name is quoted (`risk."a b"`). */
const pathOf = (path: readonly PropertyKey[]): string =>
  path.length === 0 ? 'file' : path.map((key) => (typeof key === 'number' || /^[A-Za-z0-9_$-]+$/.test(String(key)) ? String(key) : JSON.stringify(String(key)))).join('.');

/**
 * Given any JSON value, returns the configuration file it holds, or every problem with it, each
 * naming its dotted path (an unknown key is one problem per key). Never throws. Pure.
 *
 * @example
 * validateConfigFile({ bands: { high: 90 } }); // { ok: false, errors: [{ field: 'bands.high', message: 'bands must be ordered …' }] }
 */
export function validateConfigFile(value: unknown): Result<ConfigFile, FieldError> {
  const parsed = configFileSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const errors = parsed.error.issues.flatMap((issue): FieldError[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: pathOf([...issue.path, key]), message: 'unknown key' }))
      : [{ field: pathOf(issue.path), message: issue.message }],
  );
  return { ok: false, errors };
}

/**
 * Given the text of a configuration file, returns the file, or every problem: `file` when it is not
 * JSON, else those of `validateConfigFile`. Never throws. Pure.
 *
 * @example
 * parseConfigFile('{ "bands": { "critical": 90 } }'); // { ok: true, value: { bands: { critical: 90 } } }
 */
export function parseConfigFile(text: string): Result<ConfigFile, FieldError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err({ field: 'file', message: `not JSON: ${error instanceof Error ? error.message : String(error)}` });
  }
  return validateConfigFile(value);
}

/**
 * Given a configuration file, returns the effective configuration: the rules merged over
 * `DEFAULT_CONFIG` (`resolveConfig`), each cooldown from its own entry, else `default`, else
 * `fallbackHours` (24), and the calibration or null. Pure.
 *
 * @example
 * resolveConfigFile({ dispatch: { cooldown_hours: { default: 12, soon: { email: 72 } } } }).dispatch.cooldown_hours;
 * // { immediate: { email: 12, chat: 12 }, soon: { email: 72 }, monitor: { log: 12 } }
 */
export function resolveConfigFile(file: ConfigFile, fallbackHours = DEFAULT_COOLDOWN_HOURS): EffectiveConfig {
  const given = file.dispatch?.cooldown_hours;
  const base = given?.default ?? fallbackHours;
  const cell = <U extends Urgency>(urgency: U) =>
    Object.fromEntries(CHANNELS_BY_URGENCY[urgency].map((channel) => [channel, (given?.[urgency] as Record<string, number | undefined> | undefined)?.[channel] ?? base])) as CooldownTable[U];
  const rules: ConfigOverrides = {
    risk: { ...defined(file.risk), state_base: defined(file.risk?.state_base) },
    bands: defined(file.bands),
    recommend: defined(file.recommend),
  };
  return {
    ...resolveConfig(rules),
    dispatch: { cooldown_hours: { immediate: cell('immediate'), soon: cell('soon'), monitor: cell('monitor') } },
    calibration: file.calibration ?? null,
  };
}

/**
 * Given an effective configuration, returns its rules alone (`risk`, `bands`, `recommend`): what
 * scores and stores depend on, so a change of cooldowns or calibration rescores nothing. Pure.
 *
 * @example
 * rulesOf(resolveConfigFile(file)); // a TenureConfig
 */
export function rulesOf(config: TenureConfig): TenureConfig {
  return { risk: config.risk, bands: config.bands, recommend: config.recommend };
}

/**
 * Given rules, an optional calibration with its window and an optional note of how they were made,
 * returns the configuration file's JSON value with every rule written out (not only the changed
 * ones, so the file keeps its meaning if a default changes later); `validateConfigFile` and
 * `resolveConfigFile` read it back to the same rules and calibration. Pure.
 *
 * @example
 * JSON.stringify(toConfigFile(tuned.config, { ...calibration, window }, { seed: 1 }), null, 2);
 */
export function toConfigFile(config: TenureConfig, calibration: ConfigCalibration | null, tuned?: Record<string, unknown>): ConfigFile {
  return {
    version: CONFIG_FILE_VERSION,
    risk: { ...config.risk, state_base: { ...config.risk.state_base } },
    bands: { ...config.bands },
    recommend: { ...config.recommend },
    ...(calibration === null ? {} : { calibration: { ...calibration, probabilities: [...calibration.probabilities], window: { ...calibration.window } } }),
    ...(tuned === undefined ? {} : { tuned }),
  };
}
