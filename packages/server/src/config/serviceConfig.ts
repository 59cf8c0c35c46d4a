/**
 * The service's effective configuration as one value: the rules, the alert cooldowns per urgency
 * and channel, the calibration, where they came from and a content hash. `GET /api/config` answers
 * it; the CLI builds the options of a configuration file with `optionsFromConfigFile`.
 */
import { createHash } from 'node:crypto';
import { CHANNELS_BY_URGENCY, URGENCIES, type ConfigCalibration, type CooldownTable, type EffectiveConfig, type TenureConfig, type Urgency } from '@tenure/core';

const HOUR_MS = 3_600_000;

/** Cooldowns (ms) of some urgencies and channels; the others take `cooldownMs`. */
export type CooldownOverrides = { [U in Urgency]?: Partial<CooldownTable[U]> };

/** What `GET /api/config` answers. */
export interface ServiceConfig {
  /** The configuration file's path, `default` (nothing configured) or `options` (an embedding app's options). */
  source: string;
  /** `sha256:` and the hex digest of `effective` as canonical JSON (keys sorted): formatting does not count. */
  hash: string;
  effective: EffectiveConfig;
}

/**
 * Given a cooldown for every route and overrides (ms), returns the cooldown of one urgency and
 * channel. Pure.
 *
 * @example
 * cooldownOf(86_400_000, { soon: { email: 3_600_000 } }, 'soon', 'email'); // 3_600_000
 */
export function cooldownOf(cooldownMs: number, overrides: CooldownOverrides | undefined, urgency: Urgency, channel: string): number {
  const cell = overrides?.[urgency] as Record<string, number | undefined> | undefined;
  return cell?.[channel] ?? cooldownMs;
}

/**
 * Given any JSON value, returns its canonical JSON: object keys sorted at every level. Pure.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }); // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]))
        : v;
  return JSON.stringify(sorted(value));
}

/**
 * Given the rules, the cooldowns (ms: one for every route, and overrides), the calibration and the
 * source, returns the service's configuration with its hash.
 *
 * @example
 * serviceConfigOf({ rules: DEFAULT_CONFIG, cooldownMs: 86_400_000, calibration: null, source: 'default' }).hash; // 'sha256:…'
 */
export function serviceConfigOf(parts: {
  rules: TenureConfig;
  cooldownMs: number;
  cooldownsMs?: CooldownOverrides | undefined;
  calibration: ConfigCalibration | null;
  source: string;
}): ServiceConfig {
  const table = Object.fromEntries(
    URGENCIES.map((urgency) => [urgency, Object.fromEntries(CHANNELS_BY_URGENCY[urgency].map((channel) => [channel, cooldownOf(parts.cooldownMs, parts.cooldownsMs, urgency, channel) / HOUR_MS]))]),
  ) as CooldownTable;
  const { risk, bands, recommend } = parts.rules;
  const effective: EffectiveConfig = { risk, bands, recommend, dispatch: { cooldown_hours: table }, calibration: parts.calibration };
  return { source: parts.source, hash: `sha256:${createHash('sha256').update(canonicalJson(effective)).digest('hex')}`, effective };
}

/**
 * Given the service's configuration, returns the body of `GET /api/config`: source, hash, the
 * effective configuration (itself a valid configuration file) and the calibration's provenance
 * (horizon, window, samples and churners; null without a calibration). Pure.
 *
 * @example
 * configView(runtime.serviceConfig).calibration?.horizon_ms; // 2_592_000_000
 */
export function configView({ source, hash, effective }: ServiceConfig) {
  const c = effective.calibration;
  return {
    source,
    hash,
    config: effective,
    calibration: c === null ? null : { horizon_ms: c.horizon_ms, window: { ...c.window }, samples: c.samples, positives: c.positives },
  };
}

/**
 * Given an effective configuration read from a file, returns the cooldown overrides (ms) it sets
 * for every route. Pure.
 *
 * @example
 * cooldownsMsOf(resolveConfigFile(file)).soon?.email; // 259_200_000 for 72 hours
 */
export function cooldownsMsOf(effective: EffectiveConfig): CooldownOverrides {
  const table = effective.dispatch.cooldown_hours;
  return Object.fromEntries(
    URGENCIES.map((urgency) => [urgency, Object.fromEntries(Object.entries(table[urgency]).map(([channel, hours]) => [channel, Math.round(hours * HOUR_MS)]))]),
  ) as CooldownOverrides;
}
