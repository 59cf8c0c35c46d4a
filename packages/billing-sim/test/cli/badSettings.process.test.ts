// `tenure-billing-sim` with a bad setting, as a real process (from source): exit 2 and one line on
// stderr naming the variable and its flag when the value came from the environment, the flag (and
// its variable) when the flag gave it; no stack trace. Nothing listens but on 127.0.0.1 (or fails to).
import { fileURLToPath } from 'node:url';
import { runCliProcess } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

const CASES: [string, string[], Record<string, string>, RegExp][] = [
  ['BILLING_SIM_PORT=abc', [], { BILLING_SIM_PORT: 'abc' }, /^tenure-billing-sim: BILLING_SIM_PORT \(--port\) must be a port number from 0 to 65535, got "abc"\n$/],
  ['--port abc', ['--port', 'abc'], {}, /^tenure-billing-sim: --port \(BILLING_SIM_PORT\) must be a port number from 0 to 65535, got "abc"\n$/],
  ['BILLING_SIM_HOST=not-a-host', [], { BILLING_SIM_HOST: 'not-a-host', BILLING_SIM_PORT: '0' }, /^tenure-billing-sim: cannot listen on BILLING_SIM_HOST \(--host\) "not-a-host": getaddrinfo \w+ not-a-host\n$/],
];

describe('tenure-billing-sim with a bad setting (process)', () => {
  it.each(CASES)('%s: exits 2 with one line naming it, no stack trace', async (_name, args, env, line) => {
    const run = await runCliProcess({ cli, args, env: { LOG_LEVEL: 'silent', ...env }, timeoutMs: 45_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(line);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
