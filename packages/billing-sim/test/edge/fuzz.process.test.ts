// The fuzz suite of the simulator, over real sockets against a real `tenure-billing-sim` process:
// random request lines, paths, headers and bodies. The process stays up, every answer is a 2xx or
// a 4xx with the API v2 error envelope, and a 4xx changes nothing the simulator shows. FUZZ_RUNS
// sets the runs.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anySuccess, contractViolation, FUZZ_RUNS, fuzzRequest, tally, type FuzzService } from '../../../http-edge/test/fuzzRequests.js';
import { rawRequest } from '../../../http-edge/test/rawHttp.js';
import { killSims, startSim, type SimProcess } from './simProcess.js';

const P = '/v2/projects/proj_sim';
let sim: SimProcess;

beforeAll(async () => {
  // Rate limits off: hundreds of requests in a minute would be refused, and the refusal's backoff_ms moves with time.
  sim = await startSim(['--rate-limits', 'off']);
  const post = (path: string, body: unknown) =>
    fetch(sim.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/sim/products', { id: 'pack', type: 'consumable' })).status).toBe(201);
  expect((await post(`${P}/virtual_currencies`, { code: 'GEM', name: 'Gems' })).status).toBeLessThan(300);
}, 30_000);
afterAll(killSims);

/** Everything a request could change, as the simulator shows it. */
const VIEWS = ['/sim/clock', '/sim/events', '/sim/products', '/sim/customers', '/sim/webhooks/deliveries', '/sim/webhook', `${P}/virtual_currencies`, `${P}/customers/u1/virtual_currencies`];
const snapshot = async () => JSON.stringify(await Promise.all(VIEWS.map(async (v) => (await fetch(sim.url + v)).text())));

const isEnvelope = (body: unknown): boolean => {
  const b = body as { object?: unknown; type?: unknown; message?: unknown } | null;
  return b?.object === 'error' && typeof b.type === 'string' && typeof b.message === 'string';
};

const service: FuzzService = {
  seeds: [
    { method: 'GET', path: '/health' },
    { method: 'GET', path: '/openapi.json' },
    { method: 'GET', path: '/sim/clock' },
    { method: 'POST', path: '/sim/clock/advance', body: { by: 'PT1H' } },
    { method: 'GET', path: '/sim/products/pack' },
    { method: 'POST', path: '/sim/products', body: { id: 'monthly', type: 'subscription', period: 'P1M' } },
    { method: 'POST', path: '/sim/purchases', body: { customer_id: 'u1', product_id: 'pack' } },
    { method: 'GET', path: '/sim/customers' },
    { method: 'GET', path: '/sim/events?type=NON_RENEWING_PURCHASE' },
    { method: 'GET', path: '/sim/webhooks/deliveries' },
    { method: 'POST', path: '/sim/customers/u1/balances', body: { balances: { GEM: 3 } } },
    { method: 'GET', path: `${P}/virtual_currencies` },
    { method: 'POST', path: `${P}/virtual_currencies`, body: { code: 'COIN', name: 'Coins' } },
    { method: 'POST', path: `${P}/virtual_currencies/GEM`, body: { name: 'Gems 2' } },
    { method: 'GET', path: `${P}/customers/u1` },
    { method: 'POST', path: `${P}/customers/u1/virtual_currencies/transactions`, body: { adjustments: { GEM: 5 } } },
    { method: 'POST', path: `${P}/customers/u1/virtual_currencies/update_balance`, body: { adjustments: { GEM: -1 } } },
    { method: 'GET', path: '/v2/coffee' },
  ],
};

describe('billing simulator fuzz (real process, raw sockets)', () => {
  it(`answers ${FUZZ_RUNS} random requests with a 2xx or a 4xx envelope, stays up, and changes nothing on a 4xx`, async () => {
    let before = await snapshot();
    const stats: Record<string, number> = {};
    let changes = 0;
    await fc.assert(
      fc.asyncProperty(fuzzRequest(service), async (req) => {
        const { responses, timedOut } = await rawRequest(sim.port, req.bytes, 5000, req.incomplete ? 100 : 1500);
        tally(stats, responses);
        expect(contractViolation(req, responses, timedOut, isEnvelope), req.describe).toBeNull();
        expect(sim.alive(), `the simulator exited after ${req.describe}:\n${sim.stderr()}`).toBe(true);
        const after = await snapshot();
        if (!anySuccess(responses)) expect(after, `state changed on ${responses[0]?.status ?? 'no answer'}: ${req.describe}`).toBe(before);
        if (after !== before) changes++;
        before = after;
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(stats['2xx'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(0);
    expect(stats['4xx'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(FUZZ_RUNS / 10);
    expect(changes).toBeGreaterThan(0);
    expect((await fetch(`${sim.url}/health`)).status).toBe(200);
  }, 120_000);
});
