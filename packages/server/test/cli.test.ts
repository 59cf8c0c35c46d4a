import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { SERVE_HELP } from '../src/cli/helpText.js';
import { captureCli } from './helpers/cliCapture.js';
import { DAY, T0, fixture } from './helpers/fixtures.js';


describe('tenure CLI', () => {
  it('prints the version and the help', async () => {
    const c = captureCli();
    expect((await runCli(['--version'], {}, c.io)).code).toBe(0);
    expect(c.out[0]).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect((await runCli(['serve', '--help'], {}, c.io)).code).toBe(0);
    expect(c.out[1]).toBe(SERVE_HELP);
  });

  it('documents every flag and environment variable in `serve --help`', () => {
    for (const name of ['PORT', 'HOST', 'DATABASE_URL', 'BILLING_WEBHOOK_AUTH_KEY', 'TENURE_API_KEY', 'SERVICE_NAME', 'TENURE_CLOCK', 'SMTP_URL', 'ALERT_EMAIL_FROM', 'ALERT_EMAIL_TO', 'SLACK_WEBHOOK_URL']) {
      expect(SERVE_HELP).toContain(name);
    }
  });

  it('exits 2 with a message for bad input or an unknown command', async () => {
    const c = captureCli();
    expect((await runCli(['serve', '--port', 'x'], {}, c.io)).code).toBe(2);
    expect(c.err[0]).toContain('PORT');
    expect((await runCli(['launch'], {}, c.io)).code).toBe(2);
  });

  it('serves, logs one startup line with URL, store and notifiers, warns without keys, and never logs secrets', async () => {
    const c = captureCli();
    const { code, running } = await runCli(['serve', '--port', '0', '--store', 'memory', '--service-name', 'cli-test'], { SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/sekrit' }, c.io);
    expect(code).toBe(0);
    try {
      const health = await fetch(`${running!.url}/health`);
      expect(await health.json()).toEqual({ status: 'ok', service: 'cli-test' });
      const startup = c.logs.find((l) => typeof l['url'] === 'string')!;
      expect(startup).toMatchObject({ url: running!.url, store: 'memory', notifiers: { email: 'off', chat: 'slack webhook (hooks.slack.com)' }, clock: 'wall' });
      const warnings = c.logs.filter((l) => l['level'] === 40).map((l) => String(l['msg']));
      expect(warnings.some((w) => w.includes('BILLING_WEBHOOK_AUTH_KEY'))).toBe(true);
      expect(warnings.some((w) => w.includes('TENURE_API_KEY'))).toBe(true);
    } finally {
      await running!.close();
    }
    expect(JSON.stringify(c.logs)).not.toContain('sekrit');
    expect(c.logs.at(-1)!['msg']).toBe('stopped');
  });

  it('does not warn when both keys are set, and enforces them', async () => {
    const c = captureCli();
    const { running } = await runCli(['serve', '--port', '0', '--store', 'memory'], { BILLING_WEBHOOK_AUTH_KEY: 'rc-key', TENURE_API_KEY: 'api-key' }, c.io);
    try {
      expect(c.logs.filter((l) => l['level'] === 40)).toEqual([]);
      expect((await fetch(`${running!.url}/webhook`, { method: 'POST', body: '{}' })).status).toBe(401);
      expect((await fetch(`${running!.url}/api/at-risk`)).status).toBe(401);
      expect((await fetch(`${running!.url}/api/at-risk`, { headers: { authorization: 'Bearer api-key' } })).status).toBe(200);
    } finally {
      await running!.close();
    }
    expect(JSON.stringify(c.logs)).not.toMatch(/rc-key|api-key/);
  });

  it('uses TENURE_CLOCK: a fixed ISO time is "now" for scores and recommendations', async () => {
    const c = captureCli();
    const clock = new Date(T0 + 11 * DAY).toISOString();
    const { running } = await runCli(['serve', '--port', '0'], { DATABASE_URL: 'memory', TENURE_CLOCK: clock }, c.io);
    try {
      // A 14-day trial that started at T0: eleven days later is day 12.
      const trial = { app_user_id: 'user_1', event_timestamp_ms: T0, purchased_at_ms: T0, expiration_at_ms: T0 + 14 * DAY };
      await fetch(`${running!.url}/webhook`, { method: 'POST', body: JSON.stringify(fixture('initial_purchase_trial', trial)) });
      const rec = (await (await fetch(`${running!.url}/api/subscribers/user_1/recommend`)).json()) as { recommendations: { action: string }[] };
      expect(rec.recommendations[0]!.action).toBe('trial_nudge');
      expect(c.logs.find((l) => typeof l['url'] === 'string')!['clock']).toBe(clock);
    } finally {
      await running!.close();
    }
  });
});
