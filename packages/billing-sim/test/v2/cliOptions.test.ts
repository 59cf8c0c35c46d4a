import { describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers.js';
import { webhookIntegrationsOf } from '../../src/machine/integrations.js';
import { main } from '../../src/cliMain.js';

const io = () => {
  const err: string[] = [];
  return { err, io: { out: () => undefined, err: (l: string) => err.push(l) } };
};

/** The statuses of n GETs (130 span at most one minute boundary, so one window holds more than 60). */
const hammer = async (url: string, n: number) => {
  const statuses = new Set<number>();
  for (let i = 0; i < n; i++) statuses.add((await fetch(url)).status);
  return [...statuses].sort();
};

describe('tenure-billing-sim CLI: projects and rate limits', () => {
  it('serves the projects named by --project, with rate limits on by default', async () => {
    const { code, running } = await main(['--port', '0', '--project', 'shop', '--project', 'lab'], {}, io().io);
    expect(code).toBe(0);
    try {
      expect((await fetch(`${running?.url}/v2/projects/lab/virtual_currencies`)).status).toBe(200);
      expect((await fetch(`${running?.url}/v2/projects/nowhere/virtual_currencies`)).status).toBe(404);
      expect(await hammer(`${running?.url}/v2/projects/shop/virtual_currencies`, 130)).toEqual([200, 429]);
    } finally {
      await running?.stop();
    }
  });

  it('turns refusals off with --rate-limits off (BILLING_SIM_PROJECTS names projects)', async () => {
    const { running } = await main(['--port', '0', '--rate-limits', 'off'], { BILLING_SIM_PROJECTS: 'shop,lab' }, io().io);
    try {
      expect(await hammer(`${running?.url}/v2/projects/shop/virtual_currencies`, 130)).toEqual([200]);
    } finally {
      await running?.stop();
    }
  });

  it('--webhook-url and --webhook-auth create one webhook integration of the default project, which gets the webhooks (and survives a reset)', async () => {
    const receiver = await startReceiver();
    const { running } = await main(['--port', '0', '--webhook-url', receiver.url, '--webhook-auth', 'Bearer cli', '--retry-schedule', 'fast'], {}, io().io);
    try {
      const sim = running!.sim;
      expect(webhookIntegrationsOf(sim.world(), 'proj_sim')).toMatchObject([{ url: receiver.url, authorization_header: 'Bearer cli', environment: null, event_types: null }]);
      expect(sim.webhookConfig().url).toBeNull();
      const post = (path: string, body?: unknown) =>
        fetch(`${running!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      await post('/sim/reset');
      expect(webhookIntegrationsOf(sim.world(), 'proj_sim')).toHaveLength(1);
      await post('/sim/products', { id: 'pack', type: 'consumable' });
      await post('/sim/purchases', { customer_id: 'u1', product_id: 'pack' });
      await sim.outbox.idle();
      expect(receiver.received.map((r) => [r.headers['authorization'], (r.body as { event: { type: string } }).event.type])).toEqual([['Bearer cli', 'NON_RENEWING_PURCHASE']]);
    } finally {
      await running?.stop();
      await receiver.close();
    }
  });

  it('refuses a --webhook-url that is not http(s) with exit code 2', async () => {
    const t = io();
    expect((await main(['--port', '0', '--webhook-url', 'ftp://x.test'], {}, t.io)).code).toBe(2);
    expect(t.err.join('\n')).toMatch(/http or https URL/);
  });

  it.each([['--rate-limits', 'sometimes'], ['--rate-limits', '0'], ['--project', 'x'.repeat(21)]])('refuses %s %s with exit code 2', async (flag, value) => {
    const t = io();
    expect((await main(['--port', '0', flag, value], {}, t.io)).code).toBe(2);
    expect(t.err.join('\n')).toMatch(flag === '--project' ? /1-20 characters/ : /on, off or a window/);
  });
});
