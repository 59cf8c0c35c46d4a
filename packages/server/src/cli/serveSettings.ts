/**
 * `tenure serve`'s configuration file and cooldown flag, resolved into the service's options.
 * Precedence of the cooldown: `--alert-cooldown-hours`, else `ALERT_COOLDOWN_HOURS`, else the file's
 * `dispatch.cooldown_hours`, else 24 hours; a flag or variable replaces every cooldown of the file.
 */
import { DEFAULT_COOLDOWN_HOURS, resolveOffers, rulesOf, type ConfigCalibration, type TenureConfig, type Urgency } from '@tenure/core';
import type { OffersOptions } from '../offers/offersOptions.js';
import { configProblemsMessage, readConfigFile } from '../config/readConfigFile.js';
import { cooldownsMsOf, type CooldownOverrides } from '../config/serviceConfig.js';
import type { ServeConfig } from './serveConfig.js';

/** One signed webhook endpoint of the configuration file (`alert_webhooks`), as validated there. */
export interface WebhookEndpointSetting {
  name: string;
  url: string;
  secret: string;
  urgencies?: readonly Urgency[] | undefined;
}

/** The options a configuration file and the cooldown flag give the service. */
export interface ServeSettings {
  service: { config?: TenureConfig; calibration?: ConfigCalibration; configSource?: string; offers?: OffersOptions };
  dispatch: { cooldownMs: number; cooldownsMs?: CooldownOverrides };
  /** The file's `alert_webhooks` (none without a file). */
  alertWebhooks: WebhookEndpointSetting[];
  /** Lines to log at warn once the logger exists. */
  warnings: string[];
}

/**
 * Given the parsed serve config, reads its configuration file (when given) and resolves with the
 * settings, or with the text listing every problem of the file (the start stops with code 2).
 *
 * @example
 * const settings = await loadServeSettings(parsed.config);
 * if (!settings.ok) return io.stderr(`tenure serve: ${settings.message}`), { code: 2 };
 */
export async function loadServeSettings(c: Pick<ServeConfig, 'configFile' | 'cooldownMs'> & Partial<Pick<ServeConfig, 'revenuecat'>>): Promise<({ ok: true } & ServeSettings) | { ok: false; message: string }> {
  const defaultMs = DEFAULT_COOLDOWN_HOURS * 3_600_000;
  // Without a file the source is `default`, also with a cooldown flag (its value shows in the config).
  if (c.configFile === undefined) return { ok: true, service: { configSource: 'default' }, dispatch: { cooldownMs: c.cooldownMs ?? defaultMs }, alertWebhooks: [], warnings: [] };
  const loaded = await readConfigFile(c.configFile);
  if (!loaded.ok) return { ok: false, message: configProblemsMessage(c.configFile, loaded.errors) };
  const { file, effective } = loaded.value;
  const alertWebhooks = file.alert_webhooks ?? [];
  const offers = resolveOffers(file.offers);
  const rc = c.revenuecat;
  if (offers.length > 0 && (rc?.apiKey === undefined || rc.project === undefined)) {
    const missing = [rc?.apiKey === undefined ? 'REVENUECAT_API_KEY (a secret API v2 key)' : null, rc?.project === undefined ? '--revenuecat-project (REVENUECAT_PROJECT)' : null].filter((m) => m !== null);
    return { ok: false, message: `${c.configFile} configures offers (${offers.map((o) => o.action).join(', ')}): also set ${missing.join(' and ')} to grant them through RevenueCat. Nothing was started.\n` };
  }
  const service = {
    config: rulesOf(effective),
    configSource: c.configFile,
    ...(effective.calibration === null ? {} : { calibration: effective.calibration }),
    ...(offers.length === 0 || rc?.apiKey === undefined || rc.project === undefined ? {} : { offers: { offers, apiKey: rc.apiKey, project: rc.project, baseUrl: rc.baseUrl } }),
  };
  if (c.cooldownMs !== undefined) {
    const given = file.dispatch?.cooldown_hours !== undefined;
    const warnings = given ? [`--alert-cooldown-hours / ALERT_COOLDOWN_HOURS (${c.cooldownMs / 3_600_000} h) replaces every cooldown of ${c.configFile}`] : [];
    return { ok: true, service, dispatch: { cooldownMs: c.cooldownMs }, alertWebhooks, warnings };
  }
  // A webhook has no cell in the file's cooldown table: it takes the file's `default`.
  const webhookDefault = (file.dispatch?.cooldown_hours?.default ?? DEFAULT_COOLDOWN_HOURS) * 3_600_000;
  return { ok: true, service, dispatch: { cooldownMs: webhookDefault, cooldownsMs: cooldownsMsOf(effective) }, alertWebhooks, warnings: [] };
}
