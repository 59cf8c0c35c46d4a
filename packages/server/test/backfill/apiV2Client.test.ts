// The API v2 client against a real HTTP peer on loopback that answers as told: retries of 5xx
// and network failures (bounded), 429 waits (Retry-After, backoff_ms), pacing near the limit, the
// request timeout, and the failures that are not retried.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiV2Error, createApiV2Client } from '../../src/backfill/apiV2Client.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

/** Serves `answer(n, req, res)` for the n-th request (from 0); resolves with its base URL. */
async function peer(answer: (n: number, req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  let n = 0;
  server = createServer((req, res) => answer(n++, req, res));
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('createApiV2Client', () => {
  it('sends the key as a Bearer token and returns the JSON', async () => {
    const seen: (string | undefined)[] = [];
    const baseUrl = await peer((_, req, res) => (seen.push(req.headers.authorization), json(res, 200, { path: req.url })));
    const api = createApiV2Client({ baseUrl, apiKey: 'sk_1' });
    expect(await api.get('/projects/p1/customers?limit=2')).toEqual({ path: '/v2/projects/p1/customers?limit=2' });
    expect(seen).toEqual(['Bearer sk_1']);
  });

  it('retries a 5xx with backoff and succeeds', async () => {
    const baseUrl = await peer((n, _, res) => (n < 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: true })));
    const waits: number[] = [];
    const api = createApiV2Client({ baseUrl, apiKey: 'k', retryBaseMs: 10, onWait: (w) => waits.push(w.ms) });
    expect(await api.get('/x')).toEqual({ ok: true });
    expect(waits).toEqual([10, 20]);
    expect(api.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  it('gives up after the retries with the last answer', async () => {
    const baseUrl = await peer((_, __, res) => json(res, 500, { type: 'server_error', message: 'boom' }));
    const api = createApiV2Client({ baseUrl, apiKey: 'k', retryBaseMs: 1, maxRetries: 2 });
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'server', status: 500, message: '500 boom (after 3 attempts)' });
    expect(api.stats().requests).toBe(3);
  });

  it('waits out a 429 for backoff_ms, else Retry-After seconds', async () => {
    const baseUrl = await peer((n, _, res) =>
      n === 0 ? json(res, 429, { type: 'rate_limit_error', message: 'Rate limit exceeded', retryable: true, backoff_ms: 30 }, { 'retry-after': '1' })
      : n === 1 ? json(res, 429, { message: 'Rate limit exceeded' }, { 'retry-after': '1' })
      : json(res, 200, { ok: true }));
    const waits: { reason: string; ms: number }[] = [];
    const api = createApiV2Client({ baseUrl, apiKey: 'k', onWait: (w) => waits.push({ reason: w.reason, ms: w.ms }) });
    expect(await api.get('/x')).toEqual({ ok: true });
    expect(waits).toEqual([{ reason: 'rate_limit', ms: 30 }, { reason: 'rate_limit', ms: 1_000 }]);
    expect(api.stats()).toMatchObject({ rate_limited: 2, retries: 0 });
  });

  it('paces its requests once usage nears the limit', async () => {
    const baseUrl = await peer((n, _, res) => json(res, 200, {}, { 'RevenueCat-Rate-Limit-Current-Usage': String(n + 1), 'RevenueCat-Rate-Limit-Current-Limit': '5' }));
    const waits: string[] = [];
    const api = createApiV2Client({ baseUrl, apiKey: 'k', rateWindowMs: 100, onWait: (w) => waits.push(`${w.reason}:${w.ms}`) });
    for (let i = 0; i < 5; i += 1) await api.get('/x');
    // Usage 4 of 5 reaches 80 %: the fifth request waits a window's share (100 ms / 5).
    expect(waits).toEqual(['pace:20']);
  });

  it('does not retry 401, 403, 404 or another 4xx', async () => {
    for (const [status, kind] of [[401, 'authentication'], [403, 'authorization'], [404, 'not_found'], [400, 'request']] as const) {
      const baseUrl = await peer((_, __, res) => json(res, status, { message: 'no' }));
      const api = createApiV2Client({ baseUrl, apiKey: 'k', retryBaseMs: 1 });
      const failure = await api.get('/x').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ApiV2Error);
      expect(failure).toMatchObject({ kind, status, message: `${status} no` });
      expect(api.stats().requests).toBe(1);
      server?.closeAllConnections();
      await new Promise((r) => server?.close(r));
    }
  });

  it('times a request out and retries it, then fails as a network failure', async () => {
    const baseUrl = await peer(() => undefined);
    const api = createApiV2Client({ baseUrl, apiKey: 'k', timeoutMs: 50, retryBaseMs: 1, maxRetries: 1 });
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'network', status: null, message: 'no answer within 50 ms (after 2 attempts)' });
  });

  it('fails on a refused connection after the retries', async () => {
    const api = createApiV2Client({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k', retryBaseMs: 1, maxRetries: 2 });
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'network', message: expect.stringContaining('(after 3 attempts)') });
    expect(api.stats().requests).toBe(3);
  });

  it('stops waiting when its signal aborts', async () => {
    const baseUrl = await peer((_, __, res) => json(res, 429, { backoff_ms: 60_000 }));
    const controller = new AbortController();
    const api = createApiV2Client({ baseUrl, apiKey: 'k', signal: controller.signal, onWait: () => controller.abort(new Error('stop')) });
    await expect(api.get('/x')).rejects.toThrow('stop');
  });
});
