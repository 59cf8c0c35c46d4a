// `tenure serve` on a host or port it cannot listen on: exit 2 and one line naming the setting as
// given (the variable, or the flag), never a stack trace; nothing keeps listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { captureCli } from './helpers/cliCapture.js';

async function serveFails(argv: string[], env: Record<string, string>): Promise<string> {
  const c = captureCli();
  const result = await runCli(['serve', '--store', 'memory', ...argv], env, c.io);
  expect(result).toEqual({ code: 2 });
  const stderr = c.err.join('');
  expect(stderr.split('\n')).toHaveLength(2); // one line and its newline
  expect(stderr).not.toMatch(/\n\s+at /);
  return stderr;
}

describe('tenure serve that cannot listen', () => {
  it('names HOST for a host name that does not resolve, --host when the flag gave it', async () => {
    expect(await serveFails(['--port', '0'], { HOST: 'not-a-host' })).toMatch(/^tenure serve: cannot listen on HOST \(--host\) "not-a-host": getaddrinfo \w+ not-a-host\n$/);
    expect(await serveFails(['--port', '0', '--host', 'not-a-host'], {})).toMatch(/^tenure serve: cannot listen on --host \(HOST\) "not-a-host": /);
  });

  it('names PORT for a port in use, --port when the flag gave it', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = String((taken.address() as AddressInfo).port);
      expect(await serveFails([], { PORT: port })).toMatch(new RegExp(`^tenure serve: cannot listen on PORT \\(--port\\) ${port}: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port}\\n$`));
      expect(await serveFails(['--port', port], {})).toMatch(new RegExp(`^tenure serve: cannot listen on --port \\(PORT\\) ${port}: listen EADDRINUSE`));
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });
});
