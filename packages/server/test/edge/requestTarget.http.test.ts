// Every byte a client sends is handled inside the error boundary: request targets `new URL` or
// the router would choke on, and requests Node's own parser rejects, get the JSON error shape.
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { rawRequest } from '../../../http-edge/test/rawHttp.js';
import { startRetentionServer, type RunningRetentionServer } from '../../src/index.js';

let running: RunningRetentionServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const start = async () => {
  running = await startRetentionServer({ port: 0, handleSignals: false, sweepIntervalMs: 0, logger: pino({ level: 'silent' }) });
  return Number(new URL(running.url).port);
};
const envelope = (body: string) => JSON.parse(body) as { error: { code: string; message: string; field?: string } };

describe('retention service request targets and client errors', () => {
  it('answers GET //a:b with a JSON 4xx and keeps serving', async () => {
    const port = await start();
    for (const target of ['//a:b', '//a:b/webhook', '/%', '/api/subscribers/%zz', '/webhook?%', '*']) {
      const { responses } = await rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      expect(responses[0]?.status, target).toBeGreaterThanOrEqual(400);
      expect(responses[0]?.status, target).toBeLessThan(500);
      expect(envelope(responses[0]!.body).error.code, target).toEqual(expect.any(String));
    }
    const { responses } = await rawRequest(port, 'GET /health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(responses[0]?.status).toBe(200);
  });

  it('answers headers too large with 431 and the envelope, a bad request line with 400 and the envelope', async () => {
    const port = await start();
    const big = await rawRequest(port, `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.responses[0]?.status).toBe(431);
    expect(envelope(big.responses[0]!.body)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String), field: 'headers' } });
    const noHost = await rawRequest(port, 'GET /health HTTP/1.1\r\nconnection: close\r\n\r\n');
    expect(noHost.responses[0]?.status).toBe(400);
    expect(envelope(noHost.responses[0]!.body).error).toMatchObject({ code: 'invalid_request', field: 'host' });
    const bad = await rawRequest(port, 'HELLO\r\n\r\n');
    expect(bad.responses[0]?.status).toBe(400);
    expect(envelope(bad.responses[0]!.body).error.code).toBe('invalid_request');
  });
});
