// The simulator's graceful stop, as a process: SIGTERM lets an in-flight request finish, cuts a
// connection still open at the bound, and exits 0 inside the bound.
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../http-edge/test/rawHttp.js';
import { killSims, startSim } from './simProcess.js';

afterAll(killSims);

describe('tenure-billing-sim shutdown', () => {
  it('exits 0 at once when idle', async () => {
    const sim = await startSim();
    const started = performance.now();
    expect(await sim.stop()).toBe(0);
    expect(performance.now() - started).toBeLessThan(2000);
  }, 30_000);

  it('cuts a request that never completes at --shutdown-timeout-ms and exits 0 inside the bound', async () => {
    const sim = await startSim(['--shutdown-timeout-ms', '700']);
    // Half a request: the head, then nothing; and a complete request answered before the signal.
    const hung = connect({ port: sim.port, host: '127.0.0.1' });
    hung.on('error', () => {});
    await new Promise<void>((resolve) => hung.once('connect', () => resolve()));
    hung.write('POST /sim/purchases HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"cust');
    const cut = new Promise<void>((resolve) => hung.once('close', () => resolve()));
    expect((await rawRequest(sim.port, 'GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')).responses[0]?.status).toBe(200);
    const started = performance.now();
    const code = await sim.stop();
    const took = performance.now() - started;
    await cut;
    expect(code).toBe(0);
    expect(took).toBeGreaterThanOrEqual(600);
    expect(took).toBeLessThan(700 + 1500);
  }, 30_000);
});
