// Every option of `tenure-billing-sim --help` with a bad value, given as a flag and as its variable:
// exit 2 and one line naming where the value came from first (the variable, or the flag), then its
// other name; a host or port it cannot listen on likewise. In process: `main` with captured output.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cliMain.js';

async function fails(argv: string[], env: Record<string, string>): Promise<string> {
  const err: string[] = [];
  const result = await main(argv, { LOG_LEVEL: 'silent', ...env }, { out: () => undefined, err: (l) => err.push(l) });
  await result.running?.stop();
  expect(result.code).toBe(2);
  expect(err).toHaveLength(1);
  expect(err[0]).not.toContain('\n');
  return err[0]!;
}

// [flag, variable, a bad value, the rule the line states]
const BAD: [string, string, string, string][] = [
  ['port', 'BILLING_SIM_PORT', 'abc', 'a port number from 0 to 65535'],
  ['port', 'BILLING_SIM_PORT', '0x10', 'a port number from 0 to 65535'],
  ['start', 'BILLING_SIM_START', 'soon', 'an ISO 8601 date-time from 1970 to 2100-01-01T00:00:00Z'],
  ['start', 'BILLING_SIM_START', '2200-01-01T00:00:00Z', 'an ISO 8601 date-time from 1970 to 2100-01-01T00:00:00Z'],
  ['webhook-url', 'BILLING_SIM_WEBHOOK_URL', 'ftp://x.test', 'an http or https URL'],
  ['retry-schedule', 'BILLING_SIM_RETRY_SCHEDULE', 'slow', 'real or fast'],
  ['shutdown-timeout-ms', 'BILLING_SIM_SHUTDOWN_TIMEOUT_MS', '-1', 'an integer from 0 to 3600000 (ms)'],
  ['rate-limits', 'BILLING_SIM_RATE_LIMITS', '0', 'on, off or a window in ms from 1 to 3600000'],
  ['project', 'BILLING_SIM_PROJECTS', 'x'.repeat(21), 'a project id of 1-20 characters'],
  ['log-level', 'LOG_LEVEL', 'loud', 'one of fatal, error, warn, info, debug, trace, silent'],
];

describe('tenure-billing-sim with a bad setting', () => {
  it.each(BAD)('--%s / %s %j: names the variable first when it gave the value, else the flag', async (flag, variable, value, rule) => {
    const port = flag === 'port' ? [] : ['--port', '0']; // never the default port, should a check let it through
    expect(await fails(port, { [variable]: value })).toBe(`tenure-billing-sim: ${variable} (--${flag}) must be ${rule}, got "${value}"`);
    expect(await fails([...port, `--${flag}=${value}`], { [variable]: 'ignored' })).toBe(`tenure-billing-sim: --${flag} (${variable}) must be ${rule}, got "${value}"`);
  });

  it('names BILLING_SIM_FOLLOW_WALL_CLOCK, a variable of a boolean flag', async () => {
    expect(await fails(['--port', '0'], { BILLING_SIM_FOLLOW_WALL_CLOCK: 'yes' })).toBe('tenure-billing-sim: BILLING_SIM_FOLLOW_WALL_CLOCK (--follow-wall-clock) must be true or false, got "yes"');
  });

  it('names METRICS_PUBLIC, and says how long a too long --webhook-auth is without repeating it', async () => {
    expect(await fails(['--port', '0'], { METRICS_PUBLIC: 'yes' })).toBe('tenure-billing-sim: METRICS_PUBLIC (--metrics-public) must be true or false, got "yes"');
    const auth = 'a'.repeat(5001);
    expect(await fails(['--port', '0', '--webhook-url', 'http://127.0.0.1:9/hook'], { BILLING_SIM_WEBHOOK_AUTH: auth })).toBe(
      'tenure-billing-sim: BILLING_SIM_WEBHOOK_AUTH (--webhook-auth) must be at most 5000 characters, got 5001',
    );
  });

  it('folds a flag that does not parse into one line', async () => {
    expect(await fails(['--port'], {})).toBe("tenure-billing-sim: Option '--port <value>' argument missing (tenure-billing-sim --help lists the options)");
  });

  it('names the host setting for a host name that does not resolve', async () => {
    expect(await fails(['--port', '0'], { BILLING_SIM_HOST: 'not-a-host' })).toMatch(/^tenure-billing-sim: cannot listen on BILLING_SIM_HOST \(--host\) "not-a-host": getaddrinfo \w+ not-a-host$/);
    expect(await fails(['--port', '0', '--host', 'not-a-host'], {})).toMatch(/^tenure-billing-sim: cannot listen on --host \(BILLING_SIM_HOST\) "not-a-host": /);
  });

  it('names the port setting for a port in use', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = String((taken.address() as AddressInfo).port);
      expect(await fails([], { BILLING_SIM_PORT: port })).toBe(
        `tenure-billing-sim: cannot listen on BILLING_SIM_PORT (--port) ${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
      );
      expect(await fails(['--port', port], {})).toMatch(new RegExp(`^tenure-billing-sim: cannot listen on --port \\(BILLING_SIM_PORT\\) ${port}: listen EADDRINUSE`));
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('counts an empty variable as unset, as tenure serve does', async () => {
    const { code, running } = await main(['--port', '0'], { LOG_LEVEL: 'silent', BILLING_SIM_HOST: '', BILLING_SIM_START: '' }, { out: () => undefined, err: () => undefined });
    try {
      expect(code).toBe(0);
      expect(running!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await running?.stop();
    }
  });
});
