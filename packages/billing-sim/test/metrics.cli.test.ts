import { describe, expect, it } from 'vitest';
import { main } from '../src/cliMain.js';
import { startReceiver } from './helpers.js';

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

describe('tenure-billing-sim CLI: --log-level / LOG_LEVEL and METRICS_PUBLIC', () => {
  it.each([
    [['--log-level', 'loud'], {}],
    [[], { LOG_LEVEL: 'verbose' }],
    [[], { METRICS_PUBLIC: 'yes' }],
  ])('exits 2 with one line for %j %j', async (argv, env) => {
    const c = capture();
    expect((await main(argv, env, c.io)).code).toBe(2);
    expect(c.err).toHaveLength(1);
    expect(c.err[0]).toMatch(/LOG_LEVEL|METRICS_PUBLIC/);
    expect(c.err[0]).not.toContain('\n');
  });

  it('prints the listening line and the open-API warning at info (the default), neither at LOG_LEVEL=error', async () => {
    const info = capture();
    const a = await main(['--port', '0'], {}, info.io);
    await a.running?.stop();
    expect(info.out.join('\n')).toMatch(/listening on/);
    expect(info.err.join('\n')).toMatch(/BILLING_SIM_API_KEY is not set/);
    const quiet = capture();
    const b = await main(['--port', '0'], { LOG_LEVEL: 'error' }, quiet.io);
    await b.running?.stop();
    expect(b.code).toBe(0);
    expect([...quiet.out, ...quiet.err]).toEqual([]);
  });

  it('logs each webhook delivery step at --log-level debug (a flag wins over LOG_LEVEL)', async () => {
    const receiver = await startReceiver();
    const c = capture();
    const { running } = await main(['--port', '0', '--log-level', 'debug', '--webhook-url', receiver.url], { LOG_LEVEL: 'silent' }, c.io);
    try {
      const post = (path: string, body: unknown) => fetch(`${running!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/sim/products', { id: 'pack', type: 'consumable' });
      await post('/sim/purchases', { customer_id: 'u1', product_id: 'pack' });
      await running!.sim.outbox.idle();
      expect(c.err.filter((l) => l.startsWith('webhook delivery: delivered'))).toHaveLength(1);
    } finally {
      await running?.stop();
      await receiver.close();
    }
  });

  it('guards /metrics with BILLING_SIM_API_KEY, opened by METRICS_PUBLIC=true or --metrics-public', async () => {
    for (const [argv, env, status] of [
      [[], { BILLING_SIM_API_KEY: 'k' }, 401],
      [[], { BILLING_SIM_API_KEY: 'k', METRICS_PUBLIC: 'true' }, 200],
      [['--metrics-public'], { BILLING_SIM_API_KEY: 'k' }, 200],
    ] as const) {
      const { running } = await main(['--port', '0', ...argv], { ...env, LOG_LEVEL: 'silent' }, capture().io);
      try {
        expect((await fetch(`${running!.url}/metrics`)).status).toBe(status);
        expect((await fetch(`${running!.url}/metrics`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
      } finally {
        await running?.stop();
      }
    }
  });
});
