// `tenure serve` with a bad setting, as a real process (from source): exit 2 and one line on stderr
// naming the variable and its flag when the value came from the environment, the flag (and its
// variable) when the flag gave it; no stack trace. Nothing listens but on 127.0.0.1 (or fails to).
import { describe, expect, it } from 'vitest';
import { runTenure } from './helpers/runTenure.js';

const CASES: [string, string[], Record<string, string>, RegExp][] = [
  ['PORT=abc', [], { PORT: 'abc' }, /^tenure serve: PORT \(--port\) must be a port number from 0 to 65535, got "abc"\n$/],
  ['--port abc', ['--port', 'abc'], {}, /^tenure serve: --port \(PORT\) must be a port number from 0 to 65535, got "abc"\n$/],
  ['HOST=not-a-host', [], { HOST: 'not-a-host', PORT: '0' }, /^tenure serve: cannot listen on HOST \(--host\) "not-a-host": getaddrinfo \w+ not-a-host\n$/],
];

describe('tenure serve with a bad setting (process)', () => {
  it.each(CASES)('%s: exits 2 with one line naming it, no stack trace', async (_name, args, env, line) => {
    const run = await runTenure(['serve', ...args], { env: { DATABASE_URL: 'memory', LOG_LEVEL: 'silent', ...env }, timeoutMs: 45_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(line);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
