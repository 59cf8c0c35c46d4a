import { Writable } from 'node:stream';
import { parsePrometheusText, sampleValue } from '@tenure/testkit';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { fixture } from './helpers/fixtures.js';

const quiet = () => ({
  stdout: () => undefined,
  stderr: () => undefined,
  logDestination: new Writable({ write: (_chunk, _enc, done) => done() }),
  handleSignals: false,
});

describe('tenure serve: GET /metrics', () => {
  it.each([
    [[], { TENURE_API_KEY: 'k' }, 401],
    [[], { TENURE_API_KEY: 'k', METRICS_PUBLIC: 'true' }, 200],
    [['--metrics-public'], { TENURE_API_KEY: 'k' }, 200],
    [[], {}, 200],
  ])('%j %j: %i without the key, 200 with it', async (argv, env, status) => {
    const { code, running } = await runCli(['serve', '--port', '0', '--store', 'memory', ...argv], env, quiet());
    expect(code).toBe(0);
    try {
      expect((await fetch(`${running!.url}/metrics`)).status).toBe(status);
      const res = await fetch(`${running!.url}/metrics`, { headers: { authorization: 'Bearer k' } });
      expect(res.status).toBe(200);
      parsePrometheusText(await res.text());
    } finally {
      await running!.close();
    }
  });

  it('counts a webhook received by the served process on its fast path', async () => {
    const { running } = await runCli(['serve', '--port', '0', '--store', 'memory', '--webhook-auth-key', 'w'], {}, quiet());
    try {
      const post = (auth: string) =>
        fetch(`${running!.url}/webhook`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(fixture('renewal')) });
      expect((await post('w')).status).toBe(200);
      expect((await post('nope')).status).toBe(401);
      const m = parsePrometheusText(await (await fetch(`${running!.url}/metrics`)).text());
      expect(sampleValue(m, 'tenure_webhooks_received_total', { type: 'RENEWAL', outcome: 'applied' })).toBe(1);
      expect(sampleValue(m, 'tenure_webhooks_received_total', { type: 'other', outcome: 'rejected_auth' })).toBe(1);
      expect(sampleValue(m, 'tenure_http_request_duration_seconds_count', { route: '/webhook', status_class: '4xx' })).toBe(1);
    } finally {
      await running!.close();
    }
  });
});
