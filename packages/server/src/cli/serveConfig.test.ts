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
      ratePerSecond: 1,
      cooldownMs: undefined,
      configFile: undefined,
      autoDispatch: true,
      logLevel: 'info',
      metricsPublic: false,
      shutdownTimeoutMs: 10_000,
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

  it('recognises --help and -h', () => {
    expect(parseServeArgs(['--help'], {})).toEqual({ ok: true, help: true });
    expect(parseServeArgs(['-h'], {})).toEqual({ ok: true, help: true });
  });
});
