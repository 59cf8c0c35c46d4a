/**
 * `tenure serve` configuration: flags and environment variables into one validated object. Pure:
 * takes argv and env, returns the config or an error message, so it is tested without a process.
 */
import { parseArgs } from 'node:util';
import { parseClockSpec, type ClockSpec } from '../clock/clock.js';
import { DEFAULT_STORE_SPEC } from '../store/openStore.js';
import { parseWebhookSecret } from '../notify/webhookSignature.js';

export interface ServeConfig {
  port: number;
  host: string;
  webhookAuthKey: string | undefined;
  apiKey: string | undefined;
  serviceName: string;
  /** The store spec as given (parsed and opened by the runner, which reports a bad one as a failed start). */
  store: string;
  clock: ClockSpec;
  smtp: { url: string; from: string; to: string } | undefined;
  slackWebhookUrl: string | undefined;
  /** The signed outbound webhook (`--alert-webhook-url` and `--alert-webhook-secret`), when both are set. */
  alertWebhook: { url: string; secret: string } | undefined;
  ratePerSecond: number;
  /** The cooldown flag or variable, when given (ms); else the configuration file's, else 24 h. */
  cooldownMs: number | undefined;
  /** The configuration file (`--config` / `TENURE_CONFIG`), read and checked by the runner. */
  configFile: string | undefined;
  autoDispatch: boolean;
  logLevel: string;
  /** `GET /metrics` without the API key (METRICS_PUBLIC). */
  metricsPublic: boolean;
  /** The bound of a graceful shutdown (ms). */
  shutdownTimeoutMs: number;
  /** RevenueCat's API v2 for the offers: `REVENUECAT_API_KEY` (never a flag), `--revenuecat-project` and `--revenuecat-base-url`; each undefined when unset. */
  revenuecat: { apiKey: string | undefined; project: string | undefined; baseUrl: string | undefined };
}

/** How an error names the settings checked only once the service starts: a host or port it cannot listen on. */
export interface ServeSettingNames {
  port: string;
  host: string;
}

export type ServeArgs = { ok: true; help: true } | { ok: true; help: false; config: ServeConfig; names: ServeSettingNames } | { ok: false; error: string };

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'webhook-auth-key': { type: 'string' },
  'api-key': { type: 'string' },
  'service-name': { type: 'string' },
  store: { type: 'string' },
  clock: { type: 'string' },
  'smtp-url': { type: 'string' },
  'alert-email-from': { type: 'string' },
  'alert-email-to': { type: 'string' },
  'slack-webhook-url': { type: 'string' },
  'alert-webhook-url': { type: 'string' },
  'alert-webhook-secret': { type: 'string' },
  'alert-rate': { type: 'string' },
  'alert-cooldown-hours': { type: 'string' },
  config: { type: 'string' },
  'no-auto-dispatch': { type: 'boolean' },
  'log-level': { type: 'string' },
  'metrics-public': { type: 'boolean' },
  'shutdown-timeout-ms': { type: 'string' },
  'revenuecat-project': { type: 'string' },
  'revenuecat-base-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * A setting's text and its name in an error, the source first: `PORT (--port)` when the value came
 * from the environment, else `--port (PORT)`. An empty string counts as unset (e.g.
 * `BILLING_WEBHOOK_AUTH_KEY=` in a .env file).
 */
interface Setting {
  text: string | undefined;
  name: string;
}

const settingOf = (flag: string, flagText: string | undefined, variable: string, envText: string | undefined): Setting =>
  flagText === undefined || flagText === ''
    ? envText === undefined || envText === ''
      ? { text: undefined, name: `--${flag} (${variable})` }
      : { text: envText, name: `${variable} (--${flag})` }
    : { text: flagText, name: `--${flag} (${variable})` };

/** An http(s) (or smtp(s)) URL with a host; the value is a secret, so errors do not repeat it. */
const isUrlWith = (text: string, protocols: readonly string[]): boolean => {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url !== undefined && protocols.includes(url.protocol) && url.hostname !== '';
};

/**
 * Given the arguments after `serve` and the environment, returns the validated config (with the
 * names of its host and port settings, for a listen that fails later), a help request, or the first
 * error in one line: the setting's source first (`PORT (--port) must be …` for a variable,
 * `--port (PORT) must be …` for a flag), then the rule and the value given (never a URL's, which
 * may hold a secret). Pure.
 *
 * @example
 * parseServeArgs(['--port', '8080'], process.env); // { ok: true, help: false, config: { port: 8080, ... } }
 */
export function parseServeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ServeArgs {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: `${error instanceof Error ? error.message : String(error)} (tenure serve --help lists the options)` };
  }
  if (values.help === true) return { ok: true, help: true };
  const fail = (error: string): ServeArgs => ({ ok: false, error });
  const read = (flag: keyof typeof OPTIONS, variable: string): Setting => settingOf(flag, values[flag] as string | undefined, variable, env[variable]);
  const bad = (s: Setting, rule: string, shown = `, got "${s.text}"`) => fail(`${s.name} must be ${rule}${shown}`);

  const portSetting = read('port', 'PORT');
  const portText = portSetting.text ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) return bad(portSetting, 'a port number from 0 to 65535');
  const hostSetting = read('host', 'HOST');

  const clockSetting = read('clock', 'TENURE_CLOCK');
  const clock = parseClockSpec(clockSetting.text ?? 'wall');
  if (clock === undefined) return bad(clockSetting, '"wall", "event" or an ISO time');

  const smtp = read('smtp-url', 'SMTP_URL');
  const from = read('alert-email-from', 'ALERT_EMAIL_FROM');
  const to = read('alert-email-to', 'ALERT_EMAIL_TO');
  if (smtp.text !== undefined && (from.text === undefined || to.text === undefined)) {
    return fail(`${smtp.name} is set: also set --alert-email-from (ALERT_EMAIL_FROM) and --alert-email-to (ALERT_EMAIL_TO)`);
  }
  const address = from.text === undefined ? to : from;
  if (smtp.text === undefined && address.text !== undefined) return fail(`${address.name} needs --smtp-url (SMTP_URL)`);
  if (smtp.text !== undefined && !isUrlWith(smtp.text, ['smtp:', 'smtps:'])) return bad(smtp, 'a URL that starts with smtp:// or smtps:// and names a host', '');
  const slack = read('slack-webhook-url', 'SLACK_WEBHOOK_URL');
  if (slack.text !== undefined && !isUrlWith(slack.text, ['http:', 'https:'])) return bad(slack, 'an http(s) URL', '');

  const hookUrl = read('alert-webhook-url', 'ALERT_WEBHOOK_URL');
  const hookSecret = read('alert-webhook-secret', 'ALERT_WEBHOOK_SECRET');
  if (hookUrl.text !== undefined && !isUrlWith(hookUrl.text, ['http:', 'https:'])) return bad(hookUrl, 'an http(s) URL', '');
  if (hookUrl.text !== undefined && hookSecret.text === undefined) return fail(`${hookUrl.name} is set: also set --alert-webhook-secret (ALERT_WEBHOOK_SECRET)`);
  if (hookUrl.text === undefined && hookSecret.text !== undefined) return fail(`${hookSecret.name} needs --alert-webhook-url (ALERT_WEBHOOK_URL)`);
  if (hookSecret.text !== undefined && hookSecret.text.split(' ').some((s) => s !== '' && parseWebhookSecret(s) === undefined)) {
    return bad(hookSecret, 'a whsec_-prefixed base64 secret of at least 16 bytes (several: space-separated)', '');
  }

  const rate = read('alert-rate', 'ALERT_RATE_PER_SECOND');
  const ratePerSecond = Number(rate.text ?? '1');
  if (!Number.isFinite(ratePerSecond) || ratePerSecond < 0) return bad(rate, 'a number >= 0');
  const cooldown = read('alert-cooldown-hours', 'ALERT_COOLDOWN_HOURS');
  const cooldownHours = cooldown.text === undefined ? undefined : Number(cooldown.text);
  if (cooldownHours !== undefined && (!Number.isFinite(cooldownHours) || cooldownHours < 0)) return bad(cooldown, 'a number >= 0');

  const auto = settingOf('no-auto-dispatch', undefined, 'TENURE_AUTO_DISPATCH', env['TENURE_AUTO_DISPATCH']);
  const autoEnv = auto.text?.toLowerCase();
  if (autoEnv !== undefined && !['true', 'false', '1', '0'].includes(autoEnv)) return bad(auto, 'true or false');
  const autoDispatch = values['no-auto-dispatch'] !== true && autoEnv !== 'false' && autoEnv !== '0';

  const level = read('log-level', 'LOG_LEVEL');
  const logLevel = level.text ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) return bad(level, `one of ${LOG_LEVELS.join(', ')}`);

  const metrics = settingOf('metrics-public', undefined, 'METRICS_PUBLIC', env['METRICS_PUBLIC']);
  const publicEnv = metrics.text?.toLowerCase();
  if (publicEnv !== undefined && !['true', 'false', '1', '0'].includes(publicEnv)) return bad(metrics, 'true or false');
  const metricsPublic = values['metrics-public'] === true || publicEnv === 'true' || publicEnv === '1';

  const shutdown = read('shutdown-timeout-ms', 'TENURE_SHUTDOWN_TIMEOUT_MS');
  const shutdownText = shutdown.text ?? '10000';
  const shutdownTimeoutMs = Number(shutdownText);
  if (!/^\d+$/.test(shutdownText) || shutdownTimeoutMs > 3_600_000) return bad(shutdown, 'an integer from 0 to 3600000 (ms)');

  const rcBase = read('revenuecat-base-url', 'REVENUECAT_API_BASE_URL');
  if (rcBase.text !== undefined && !isUrlWith(rcBase.text, ['http:', 'https:'])) return bad(rcBase, 'an http(s) URL', '');
  const rcKey = env['REVENUECAT_API_KEY'];

  return {
    ok: true,
    help: false,
    names: { port: portSetting.name, host: hostSetting.name },
    config: {
      port,
      host: hostSetting.text ?? '127.0.0.1',
      webhookAuthKey: read('webhook-auth-key', 'BILLING_WEBHOOK_AUTH_KEY').text,
      apiKey: read('api-key', 'TENURE_API_KEY').text,
      serviceName: read('service-name', 'SERVICE_NAME').text ?? 'tenure',
      store: read('store', 'DATABASE_URL').text ?? DEFAULT_STORE_SPEC,
      clock,
      smtp: smtp.text === undefined || from.text === undefined || to.text === undefined ? undefined : { url: smtp.text, from: from.text, to: to.text },
      slackWebhookUrl: slack.text,
      alertWebhook: hookUrl.text === undefined || hookSecret.text === undefined ? undefined : { url: hookUrl.text, secret: hookSecret.text },
      ratePerSecond,
      cooldownMs: cooldownHours === undefined ? undefined : Math.round(cooldownHours * 3_600_000),
      configFile: read('config', 'TENURE_CONFIG').text,
      autoDispatch,
      logLevel,
      metricsPublic,
      shutdownTimeoutMs,
      revenuecat: { apiKey: rcKey === '' ? undefined : rcKey, project: read('revenuecat-project', 'REVENUECAT_PROJECT').text, baseUrl: rcBase.text },
    },
  };
}
