/**
 * `tenure serve` configuration: flags and environment variables into one validated object. Pure:
 * takes argv and env, returns the config or an error message, so it is tested without a process.
 */
import { parseArgs } from 'node:util';
import { parseClockSpec, type ClockSpec } from '../clock/clock.js';
import { DEFAULT_STORE_SPEC } from '../store/openStore.js';

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
}

export type ServeArgs = { ok: true; help: true } | { ok: true; help: false; config: ServeConfig } | { ok: false; error: string };

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
  'alert-rate': { type: 'string' },
  'alert-cooldown-hours': { type: 'string' },
  config: { type: 'string' },
  'no-auto-dispatch': { type: 'boolean' },
  'log-level': { type: 'string' },
  'metrics-public': { type: 'boolean' },
  'shutdown-timeout-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** An empty string counts as unset (e.g. `BILLING_WEBHOOK_AUTH_KEY=` in a .env file). */
const pick = (flag: string | undefined, env: string | undefined): string | undefined =>
  flag !== undefined && flag !== '' ? flag : env !== undefined && env !== '' ? env : undefined;

/**
 * Given the arguments after `serve` and the environment, returns the validated config, a help
 * request, or the first error (naming the flag and its variable). Pure.
 *
 * @example
 * parseServeArgs(['--port', '8080'], process.env); // { ok: true, help: false, config: { port: 8080, ... } }
 */
export function parseServeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ServeArgs {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help === true) return { ok: true, help: true };
  const fail = (error: string): ServeArgs => ({ ok: false, error });

  const portText = pick(values.port, env['PORT']) ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) return fail(`--port / PORT must be a port number (0-65535), got "${portText}"`);

  const clockText = pick(values.clock, env['TENURE_CLOCK']) ?? 'wall';
  const clock = parseClockSpec(clockText);
  if (clock === undefined) return fail(`--clock / TENURE_CLOCK must be "wall", "event" or an ISO time, got "${clockText}"`);

  const smtpUrl = pick(values['smtp-url'], env['SMTP_URL']);
  const from = pick(values['alert-email-from'], env['ALERT_EMAIL_FROM']);
  const to = pick(values['alert-email-to'], env['ALERT_EMAIL_TO']);
  if (smtpUrl !== undefined && (from === undefined || to === undefined)) {
    return fail('SMTP_URL is set: also set ALERT_EMAIL_FROM and ALERT_EMAIL_TO (or --alert-email-from/--alert-email-to)');
  }
  if (smtpUrl === undefined && (from !== undefined || to !== undefined)) return fail('ALERT_EMAIL_FROM/ALERT_EMAIL_TO need SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) return fail('--smtp-url / SMTP_URL must start with smtp:// or smtps://');
  const slack = pick(values['slack-webhook-url'], env['SLACK_WEBHOOK_URL']);
  if (slack !== undefined && !/^https?:\/\//.test(slack)) return fail('--slack-webhook-url / SLACK_WEBHOOK_URL must be an http(s) URL');

  const rateText = pick(values['alert-rate'], env['ALERT_RATE_PER_SECOND']) ?? '1';
  const ratePerSecond = Number(rateText);
  if (!Number.isFinite(ratePerSecond) || ratePerSecond < 0) return fail(`--alert-rate / ALERT_RATE_PER_SECOND must be a number >= 0, got "${rateText}"`);
  const cooldownText = pick(values['alert-cooldown-hours'], env['ALERT_COOLDOWN_HOURS']);
  const cooldownHours = cooldownText === undefined ? undefined : Number(cooldownText);
  if (cooldownHours !== undefined && (!Number.isFinite(cooldownHours) || cooldownHours < 0)) {
    return fail(`--alert-cooldown-hours / ALERT_COOLDOWN_HOURS must be a number >= 0, got "${cooldownText}"`);
  }

  const autoEnv = env['TENURE_AUTO_DISPATCH']?.toLowerCase();
  if (autoEnv !== undefined && autoEnv !== '' && !['true', 'false', '1', '0'].includes(autoEnv)) return fail('TENURE_AUTO_DISPATCH must be true or false');
  const autoDispatch = values['no-auto-dispatch'] !== true && autoEnv !== 'false' && autoEnv !== '0';

  const logLevel = pick(values['log-level'], env['LOG_LEVEL']) ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) return fail(`--log-level / LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const publicEnv = env['METRICS_PUBLIC']?.toLowerCase();
  if (publicEnv !== undefined && publicEnv !== '' && !['true', 'false', '1', '0'].includes(publicEnv)) return fail('METRICS_PUBLIC must be true or false');
  const metricsPublic = values['metrics-public'] === true || publicEnv === 'true' || publicEnv === '1';

  const shutdownText = pick(values['shutdown-timeout-ms'], env['TENURE_SHUTDOWN_TIMEOUT_MS']) ?? '10000';
  const shutdownTimeoutMs = Number(shutdownText);
  if (!/^\d+$/.test(shutdownText) || shutdownTimeoutMs > 3_600_000) {
    return fail(`--shutdown-timeout-ms / TENURE_SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 3600000 (ms), got "${shutdownText}"`);
  }

  return {
    ok: true,
    help: false,
    config: {
      port,
      host: pick(values.host, env['HOST']) ?? '127.0.0.1',
      webhookAuthKey: pick(values['webhook-auth-key'], env['BILLING_WEBHOOK_AUTH_KEY']),
      apiKey: pick(values['api-key'], env['TENURE_API_KEY']),
      serviceName: pick(values['service-name'], env['SERVICE_NAME']) ?? 'tenure',
      store: pick(values.store, env['DATABASE_URL']) ?? DEFAULT_STORE_SPEC,
      clock,
      smtp: smtpUrl === undefined || from === undefined || to === undefined ? undefined : { url: smtpUrl, from, to },
      slackWebhookUrl: slack,
      ratePerSecond,
      cooldownMs: cooldownHours === undefined ? undefined : Math.round(cooldownHours * 3_600_000),
      configFile: pick(values.config, env['TENURE_CONFIG']),
      autoDispatch,
      logLevel,
      metricsPublic,
      shutdownTimeoutMs,
    },
  };
}
