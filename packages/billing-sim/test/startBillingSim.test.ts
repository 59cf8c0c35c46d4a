import { afterEach, describe, expect, it } from 'vitest';
import { startBillingSim, type RunningBillingSim } from '../src/index.js';
import { startReceiver, type Receiver } from './helpers.js';

let running: RunningBillingSim | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await running?.stop();
  await receiver?.close();
  running = undefined;
  receiver = undefined;
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('startBillingSim', () => {
  it('retries on real timers with the fast schedule until the receiver answers 200', async () => {
    receiver = await startReceiver((n) => (n < 2 ? 500 : 200));
    running = await startBillingSim({ port: 0, seed: 'timers', log: () => undefined, webhook: { url: receiver.url, retry_schedule: 'fast' } });
    await post(`${running.url}/sim/products`, { id: 'pack', type: 'consumable' });
    await post(`${running.url}/sim/purchases`, { customer_id: 'u1', product_id: 'pack' });
    const deadline = Date.now() + 2000;
    while (running.sim.deliveries()[0]?.state !== 'delivered' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const attempts = running.sim.deliveries()[0]?.attempts ?? [];
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(45);
    expect((attempts[2]?.at ?? 0) - (attempts[1]?.at ?? 0)).toBeGreaterThanOrEqual(95);
  });
  it('requires the Bearer key when one is given', async () => {
    running = await startBillingSim({ port: 0, apiKey: 'sk_1', log: () => undefined });
    expect((await fetch(`${running.url}/v2/projects/proj_sim/virtual_currencies`)).status).toBe(401);
    const ok = await fetch(`${running.url}/v2/projects/proj_sim/virtual_currencies`, { headers: { authorization: 'Bearer sk_1' } });
    expect(ok.status).toBe(200);
  });
});

describe('startBillingSim: followWallClock', () => {
  it('keeps the virtual clock at the wall clock: jobs run by themselves, a request reads a fresh clock, an advance jumps ahead', async () => {
    const start = Date.now() - 60_000;
    const running = await startBillingSim({ port: 0, seed: 'follow', now: start, log: () => {}, followWallClock: { tickMs: 50 }, products: [{ id: 'fast', type: 'subscription', period: 300 }] });
    try {
      expect(running.sim.now()).toBeGreaterThanOrEqual(start + 60_000);
      const post = (path: string, body: unknown) => fetch(`${running.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/sim/purchases', { customer_id: 'u1', product_id: 'fast' });
      await expect.poll(() => running.sim.events().filter((e) => e.event.type === 'RENEWAL').length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      const clock = (await (await fetch(`${running.url}/sim/clock`)).json()) as { now: number };
      expect(Math.abs(clock.now - Date.now())).toBeLessThan(1_000);
      await post('/sim/clock/advance', { by: 'P1D' });
      expect(running.sim.now()).toBeGreaterThan(Date.now() + 86_000_000);
    } finally {
      await running.stop();
    }
  });
});
