// Regression: `GET //a:b` sent raw made `new URL(req.url, base)` throw outside any handler and the
// simulator process exited. Every byte a client sends is now handled inside the error boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../../http-edge/test/rawHttp.js';
import { killSims, startSim, type SimProcess } from './simProcess.js';

let sim: SimProcess;
beforeAll(async () => {
  sim = await startSim();
}, 30_000);
afterAll(killSims);

const get = (target: string) => rawRequest(sim.port, `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
const isEnvelope = (body: string) => {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  return parsed['object'] === 'error' && typeof parsed['type'] === 'string' && typeof parsed['message'] === 'string';
};

describe('the simulator process and hostile request targets', () => {
  it('answers GET //a:b (a valid path that names no route) with a 404 envelope, and stays up', async () => {
    const { responses } = await get('//a:b');
    expect(responses[0]?.status).toBe(404);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ object: 'error', type: 'resource_missing' });
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.alive()).toBe(true);
    expect((await get('/health')).responses[0]?.status).toBe(200);
  });

  it('answers a target that is not a path with a 400 envelope', async () => {
    for (const target of ['*', 'a:b', 'http://[::1']) {
      const { responses } = await get(target);
      expect(responses[0]?.status, target).toBe(400);
      expect(JSON.parse(responses[0]!.body), target).toMatchObject({ object: 'error', type: 'invalid_request' });
    }
    // Node passes `*` on (it is OPTIONS' target); the edge names the field.
    expect(JSON.parse((await get('*')).responses[0]!.body)).toMatchObject({ param: 'path' });
    expect(sim.alive()).toBe(true);
  });

  it('answers other odd targets with a 4xx envelope', async () => {
    for (const target of ['//a:b/sim/clock', '/%', '/sim/products/%zz', '/v2?%', '/../../etc/passwd']) {
      const { responses } = await get(target);
      expect(responses[0]?.status, target).toBeGreaterThanOrEqual(400);
      expect(responses[0]?.status, target).toBeLessThan(500);
      expect(isEnvelope(responses[0]!.body), target).toBe(true);
    }
    expect(sim.alive()).toBe(true);
  });

  it("answers Node's own parse errors with the envelope: 431 for headers too large, 400 for a bad request line", async () => {
    const big = await rawRequest(sim.port, `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.responses[0]?.status).toBe(431);
    expect(big.responses[0]?.headers['connection']).toBe('close');
    expect(JSON.parse(big.responses[0]!.body)).toMatchObject({ object: 'error', type: 'invalid_request', param: 'headers' });
    const noHost = await rawRequest(sim.port, 'GET /health HTTP/1.1\r\nconnection: close\r\n\r\n');
    expect(noHost.responses[0]?.status).toBe(400);
    expect(JSON.parse(noHost.responses[0]!.body)).toMatchObject({ object: 'error', param: 'host' });
    const bad = await rawRequest(sim.port, 'NOT HTTP\r\n\r\n');
    expect(bad.responses[0]?.status).toBe(400);
    expect(isEnvelope(bad.responses[0]!.body)).toBe(true);
    expect(sim.alive()).toBe(true);
  });
});
