// What `tenure-billing-sim serve` prints for an app: the proxy URL and the default project's Test
// Store key, the key API v2 lists for its Test Store app; and --follow-wall-clock keeps the clock up.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cliMain.js';

async function serve(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const result = await main(['--port', '0', ...argv], env, { out: (l) => out.push(l), err: () => undefined });
  expect(result.code).toBe(0);
  return { running: result.running!, out };
}

describe('tenure-billing-sim serve', () => {
  it("prints the SDKs' proxyURL and the Test Store key, which opens API v1 beside the secret key", async () => {
    const { running, out } = await serve([], { BILLING_SIM_API_KEY: 'sk_banner' });
    try {
      const key = /Test Store API key (test_[0-9a-f]{24})/.exec(out.join('\n'))?.[1];
      expect(out.join('\n')).toContain(`proxyURL ${running.url}`);
      const listed = await (await fetch(`${running.url}/v2/projects/proj_sim/apps/app_sim/public_api_keys`, { headers: { authorization: 'Bearer sk_banner' } })).json();
      expect(key).toBe((listed as { items: { key: string }[] }).items[0]!.key);
      expect((await fetch(`${running.url}/v1/subscribers/u1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(201);
    } finally {
      await running.stop();
    }
  });

  it('--follow-wall-clock starts the virtual clock at now and keeps it there', async () => {
    const { running } = await serve(['--follow-wall-clock', '--start', '2026-01-01T00:00:00Z']);
    try {
      expect(Math.abs(running.sim.now() - Date.now())).toBeLessThan(2_000);
    } finally {
      await running.stop();
    }
  });
});
