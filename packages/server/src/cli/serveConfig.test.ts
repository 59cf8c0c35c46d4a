import { describe, expect, it } from 'vitest';
import { parseServeArgs, type ServeConfig } from './serveConfig.js';

const config = (argv: string[], env: Record<string, string> = {}): ServeConfig => {
  const parsed = parseServeArgs(argv, env);
  if (!parsed.ok || parsed.help) throw new Error(JSON.stringify(parsed));
  return parsed.config;
};
const error = (argv: string[], env: Record<string, string> = {}): string => {
  const parsed = parseServeArgs(argv, env);
  if (parsed.ok) throw new Error('expected an error');
  return parsed.error;
};

describe('parseServeArgs', () => {
  it('defaults: port 3000, host 127.0.0.1, service tenure, SQLite in ./data, wall clock, no auth, no notifiers, 1 msg/s, no cooldown given (24 h unless a config file says), no config file, auto-dispatch on', () => {
    expect(config([])).toEqual({
      port: 3000,
      host: '127.0.0.1',
      webhookAuthKey: undefined,
      apiKey: undefined,
      serviceName: 'tenure',
      store: 'sqlite:./data/tenure.db',
      clock: { kind: 'wall' },
      smtp: undefined,
      slackWebhookUrl: undefined,
      alertWebhook: undefined,
      ratePerSecond: 1,
      cooldownMs: undefined,
      configFile: undefined,
      autoDispatch: true,
      logLevel: 'info',
      metricsPublic: false,
      shutdownTimeoutMs: 10_000,
      revenuecat: { apiKey: undefined, project: undefined, baseUrl: undefined },
    });
  });

  it('reads every environment variable', () => {
    const c = config([], {
      PORT: '8080',
      HOST: '0.0.0.0',
      BILLING_WEBHOOK_AUTH_KEY: 'rc',
      TENURE_API_KEY: 'api',
      SERVICE_NAME: 'acme',
      TENURE_SHUTDOWN_TIMEOUT_MS: '2500',
      DATABASE_URL: 'postgres://app@db/tenure',
      TENURE_CLOCK: 'event',
      SMTP_URL: 'smtp://mail:25',
      ALERT_EMAIL_FROM: 'a@x.io',
      ALERT_EMAIL_TO: 'b@x.io',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/x',
      ALERT_RATE_PER_SECOND: '5',
      ALERT_COOLDOWN_HOURS: '1',
      TENURE_CONFIG: './tenure.config.json',
      TENURE_AUTO_DISPATCH: 'false',
      LOG_LEVEL: 'warn',
      METRICS_PUBLIC: 'true',
      REVENUECAT_API_KEY: 'sk_test',
      REVENUECAT_PROJECT: 'proj1',
      REVENUECAT_API_BASE_URL: 'http://127.0.0.1:4000/v2',
    });
    expect(c).toEqual({
      port: 8080,
      host: '0.0.0.0',
      webhookAuthKey: 'rc',
      apiKey: 'api',
      serviceName: 'acme',
      store: 'postgres://app@db/tenure',
      clock: { kind: 'event' },
      smtp: { url: 'smtp://mail:25', from: 'a@x.io', to: 'b@x.io' },
      slackWebhookUrl: 'https://hooks.slack.com/services/x',
      ratePerSecond: 5,
      cooldownMs: 3_600_000,
      configFile: './tenure.config.json',
      autoDispatch: false,
      logLevel: 'warn',
      metricsPublic: true,
      shutdownTimeoutMs: 2500,
      revenuecat: { apiKey: 'sk_test', project: 'proj1', baseUrl: 'http://127.0.0.1:4000/v2' },
    });
  });

  it('reads --config, which wins over TENURE_CONFIG (the file itself is read by the runner)', () => {
    expect(config(['--config', 'flag.json'], { TENURE_CONFIG: 'env.json' }).configFile).toBe('flag.json');
    expect(config([], { TENURE_CONFIG: '' }).configFile).toBeUndefined();
  });

  it('lets a flag win over its environment variable', () => {
    expect(
      config(['--port', '9000', '--service-name', 'flag', '--no-auto-dispatch', '--store', 'memory'], { PORT: '8080', SERVICE_NAME: 'env', DATABASE_URL: 'sqlite:env.db' }),
    ).toMatchObject({
      port: 9000,
      serviceName: 'flag',
      autoDispatch: false,
      store: 'memory',
    });
  });

  it('opens /metrics with --metrics-public or METRICS_PUBLIC=true|1, and not with false', () => {
    expect(config(['--metrics-public'], {}).metricsPublic).toBe(true);
    expect(config([], { METRICS_PUBLIC: '1' }).metricsPublic).toBe(true);
    expect(config([], { METRICS_PUBLIC: 'false' }).metricsPublic).toBe(false);
  });

  it('treats an empty variable as unset', () => {
    expect(config([], { BILLING_WEBHOOK_AUTH_KEY: '', PORT: '' })).toMatchObject({ webhookAuthKey: undefined, port: 3000 });
  });

  it('accepts a fixed ISO time as the clock', () => {
    expect(config(['--clock', '2026-01-12T00:00:00Z']).clock).toEqual({ kind: 'fixed', at: Date.parse('2026-01-12T00:00:00Z') });
  });

  it.each([
    [['--port', 'abc'], {}, /PORT/],
    [['--port', '70000'], {}, /PORT/],
    [['--clock', 'tomorrow'], {}, /TENURE_CLOCK/],
    [[], { SMTP_URL: 'smtp://x' }, /ALERT_EMAIL_FROM/],
    [[], { ALERT_EMAIL_TO: 'b@x.io' }, /SMTP_URL/],
    [[], { SMTP_URL: 'http://x', ALERT_EMAIL_FROM: 'a', ALERT_EMAIL_TO: 'b' }, /smtp:\/\//],
    [[], { SLACK_WEBHOOK_URL: 'hooks.slack.com' }, /SLACK_WEBHOOK_URL/],
    [['--alert-rate=-1'], {}, /ALERT_RATE_PER_SECOND/],
    [['--log-level', 'loud'], {}, /LOG_LEVEL/],
    [[], { METRICS_PUBLIC: 'yes' }, /METRICS_PUBLIC/],
    [['--shutdown-timeout-ms', '1.5'], {}, /TENURE_SHUTDOWN_TIMEOUT_MS/],
    [[], { TENURE_SHUTDOWN_TIMEOUT_MS: '-1' }, /--shutdown-timeout-ms/],
    [['--bogus'], {}, /bogus/],
    [['extra'], {}, /extra/],
  ])('rejects %j %j', (argv, env, message) => {
    expect(error(argv, env)).toMatch(message);
  });

  // Every option whose value can be bad: [flag, variable, a bad value, the rule the error states].
  it.each([
    ['port', 'PORT', 'abc', 'a port number from 0 to 65535'],
    ['clock', 'TENURE_CLOCK', 'tomorrow', '"wall", "event" or an ISO time'],
    ['alert-rate', 'ALERT_RATE_PER_SECOND', '-1', 'a number >= 0'],
    ['alert-cooldown-hours', 'ALERT_COOLDOWN_HOURS', 'a day', 'a number >= 0'],
    ['log-level', 'LOG_LEVEL', 'loud', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['shutdown-timeout-ms', 'TENURE_SHUTDOWN_TIMEOUT_MS', '1.5', 'an integer from 0 to 3600000 (ms)'],
  ])('names where a bad --%s / %s came from first: the variable, else the flag', (flag, variable, value, rule) => {
    expect(error([], { [variable]: value })).toBe(`${variable} (--${flag}) must be ${rule}, got "${value}"`);
    expect(error([`--${flag}=${value}`], { [variable]: 'ignored' })).toBe(`--${flag} (${variable}) must be ${rule}, got "${value}"`);
  });

  it.each([
    [{ SMTP_URL: 'smtp://mail:notaport', ALERT_EMAIL_FROM: 'a', ALERT_EMAIL_TO: 'b' }, 'SMTP_URL (--smtp-url) must be a URL that starts with smtp:// or smtps:// and names a host'],
    [{ SMTP_URL: 'smtp://', ALERT_EMAIL_FROM: 'a', ALERT_EMAIL_TO: 'b' }, 'SMTP_URL (--smtp-url) must be a URL that starts with smtp:// or smtps:// and names a host'],
    [{ SMTP_URL: 'smtp://mail' }, 'SMTP_URL (--smtp-url) is set: also set --alert-email-from (ALERT_EMAIL_FROM) and --alert-email-to (ALERT_EMAIL_TO)'],
    [{ ALERT_EMAIL_TO: 'b@x.io' }, 'ALERT_EMAIL_TO (--alert-email-to) needs --smtp-url (SMTP_URL)'],
    [{ SLACK_WEBHOOK_URL: 'https://' }, 'SLACK_WEBHOOK_URL (--slack-webhook-url) must be an http(s) URL'],
    [{ ALERT_WEBHOOK_URL: 'crm.example.com', ALERT_WEBHOOK_SECRET: WHSEC }, 'ALERT_WEBHOOK_URL (--alert-webhook-url) must be an http(s) URL'],
    [{ ALERT_WEBHOOK_URL: 'https://crm.example.com/h' }, 'ALERT_WEBHOOK_URL (--alert-webhook-url) is set: also set --alert-webhook-secret (ALERT_WEBHOOK_SECRET)'],
    [{ ALERT_WEBHOOK_SECRET: WHSEC }, 'ALERT_WEBHOOK_SECRET (--alert-webhook-secret) needs --alert-webhook-url (ALERT_WEBHOOK_URL)'],
    [{ ALERT_WEBHOOK_URL: 'https://crm.example.com/h', ALERT_WEBHOOK_SECRET: 'hunter2' }, 'ALERT_WEBHOOK_SECRET (--alert-webhook-secret) must be a whsec_-prefixed base64 secret of at least 16 bytes (several: space-separated)'],
    [{ TENURE_AUTO_DISPATCH: 'maybe' }, 'TENURE_AUTO_DISPATCH (--no-auto-dispatch) must be true or false, got "maybe"'],
    [{ METRICS_PUBLIC: 'yes' }, 'METRICS_PUBLIC (--metrics-public) must be true or false, got "yes"'],
  ])('rejects %j in one line naming the variable (a URL, which may hold a secret, is not repeated)', (env, message) => {
    expect(error([], env)).toBe(message);
  });

  it('names the host and port settings for a listen that fails later, as given', () => {
    const parsed = parseServeArgs(['--port', '0'], { HOST: 'not-a-host' });
    expect(parsed).toMatchObject({ ok: true, names: { port: '--port (PORT)', host: 'HOST (--host)' } });
  });

  it('recognises --help and -h', () => {
    expect(parseServeArgs(['--help'], {})).toEqual({ ok: true, help: true });
    expect(parseServeArgs(['-h'], {})).toEqual({ ok: true, help: true });
  });
});

const WHSEC = `whsec_${Buffer.from('sixteen bytes or more!').toString('base64')}`;

describe('the alert webhook settings', () => {
  it('takes the URL and secret from flags or the environment', () => {
    const parsed = parseServeArgs(['--alert-webhook-url', 'https://crm.example.com/h'], { ALERT_WEBHOOK_SECRET: WHSEC });
    expect(parsed.ok && !parsed.help && parsed.config.alertWebhook).toEqual({ url: 'https://crm.example.com/h', secret: WHSEC });
  });
});
