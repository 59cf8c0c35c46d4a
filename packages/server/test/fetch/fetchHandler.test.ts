// createRetentionFetchHandler: the webhook as a web-standard (Request) => Promise<Response>, under
// the same edge rules and with the same answers as the node:http listener. Real Request objects;
// the listener compared against runs on a real socket.
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryEmailNotifier, createRetentionFetchHandler, fixedClock, type RetentionFetchHandler } from '../../src/index.js';
import { DAY, T0, fixture } from '../helpers/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../helpers/testServer.js';

const KEY = 'Bearer whk_fetch';
const handlers: RetentionFetchHandler[] = [];
let server: TestServer | undefined;
afterEach(async () => {
  while (handlers.length > 0) await handlers.pop()!.close();
  await server?.close();
  server = undefined;
});

function handler(options: Parameters<typeof createRetentionFetchHandler>[0] = {}): RetentionFetchHandler {
  const h = createRetentionFetchHandler({ webhookAuthKey: KEY, clock: fixedClock(T0 + DAY), logger: pino({ level: 'silent' }), sweepIntervalMs: 3_600_000, ...options });
  handlers.push(h);
  return h;
}

const post = (url: string, body: string | Uint8Array | null, headers: Record<string, string> = { authorization: KEY }) =>
  new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
const read = async (res: Response) => ({ status: res.status, body: JSON.parse(await res.text()) as unknown });

const purchase = JSON.stringify(fixture('initial_purchase'));

describe('createRetentionFetchHandler', () => {
  it('applies a webhook, answers a repeat as a duplicate, and serves /health and /ready', async () => {
    const tenure = handler();
    expect(await read(await tenure(post('http://x/webhook', purchase)))).toEqual({ status: 200, body: { ok: true, result: 'applied' } });
    expect(await read(await tenure(post('http://x/webhook', purchase)))).toEqual({ status: 200, body: { ok: true, result: 'duplicate' } });
    expect((await tenure.runtime.store.get('user_1234'))?.state).toBe('active');
    const res = await tenure(new Request('http://x/health'));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await read(res)).toEqual({ status: 200, body: { status: 'ok', service: 'tenure' } });
    expect(await read(await tenure(new Request('http://x/ready')))).toEqual({ status: 200, body: { status: 'ready', service: 'tenure' } });
  });

  it('refuses what the listener refuses: a wrong key, invalid UTF-8, a body over 1 MB (also once inflated), an unknown encoding, another method', async () => {
    const tenure = handler();
    expect((await read(await tenure(post('http://x/webhook', purchase, { authorization: 'Bearer nope' })))).status).toBe(401);
    const invalid = await read(await tenure(post('http://x/webhook', new Uint8Array([0x7b, 0xff, 0x7d]))));
    expect(invalid).toMatchObject({ status: 400, body: { error: { field: 'body' } } });
    const big = `{"pad":"${'x'.repeat(1024 * 1024)}"}`;
    expect((await read(await tenure(post('http://x/webhook', big)))).status).toBe(413);
    expect((await read(await tenure(post('http://x/webhook', gzipSync(big), { authorization: KEY, 'content-encoding': 'gzip' })))).status).toBe(413);
    expect((await read(await tenure(post('http://x/webhook', brotliCompressSync(purchase), { authorization: KEY, 'content-encoding': 'br' })))).status).toBe(415);
    expect((await read(await tenure(post('http://x/webhook', 'not gzip', { authorization: KEY, 'content-encoding': 'gzip' })))).status).toBe(400);
    const get = await tenure(new Request('http://x/webhook'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await read(await tenure(new Request('http://x/api/at-risk')))).status).toBe(404);
    expect(await tenure.runtime.store.count()).toBe(0);
  });

  it('takes gzip and deflate bodies, and strips its basePath', async () => {
    const tenure = handler({ basePath: '/api/tenure' });
    expect((await read(await tenure(post('http://x/api/tenure/webhook', gzipSync(purchase), { authorization: KEY, 'content-encoding': 'gzip' })))).body).toEqual({ ok: true, result: 'applied' });
    const renewal = JSON.stringify(fixture('renewal'));
    expect((await read(await tenure(post('http://x/api/tenure/webhook', deflateSync(renewal), { authorization: KEY, 'content-encoding': 'deflate' })))).body).toEqual({ ok: true, result: 'applied' });
    expect((await tenure.runtime.store.get('user_1234'))?.renewals).toBe(1);
    expect((await tenure(new Request('http://x/webhook', { method: 'POST', body: purchase }))).status).toBe(404);
  });

  it('auto-dispatches after the answer, as the other bindings do', async () => {
    const email = createMemoryEmailNotifier();
    const tenure = handler({ notifiers: [email] });
    const issue = fixture('billing_issue', { event_timestamp_ms: T0, purchased_at_ms: T0 - 30 * DAY, expiration_at_ms: T0 + DAY });
    expect((await tenure(post('http://x/webhook', JSON.stringify(issue)))).status).toBe(200);
    await eventually(() => expect(email.sent.length).toBeGreaterThan(0), 5_000);
  });

  it('answers every request body exactly as the node:http listener does, in any sequence', async () => {
    const bodies = fc.oneof(
      fc.constantFrom(...['initial_purchase', 'renewal', 'cancellation', 'billing_issue', 'expiration', 'transfer', 'test'].map((name) => JSON.stringify(fixture(name)))),
      fc.constantFrom('initial_purchase', 'renewal').chain((name) =>
        fc.record({ key: fc.constantFrom('id', 'app_user_id', 'event_timestamp_ms', 'type', 'price'), value: fc.jsonValue() }).map(({ key, value }) =>
          JSON.stringify({ ...fixture(name), event: { ...fixture(name).event, [key]: value } }),
        ),
      ),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const requests = fc.array(fc.record({ body: bodies, auth: fc.constantFrom(KEY, KEY, KEY, 'Bearer wrong', '') }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(requests, async (sequence) => {
        server = await startTestServer({ webhookAuthKey: KEY });
        server.clock.set(T0 + DAY);
        const tenure = handler();
        for (const { body, auth } of sequence) {
          const headers: Record<string, string> = auth === '' ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', authorization: auth };
          const viaListener = await fetch(`${server.url}/webhook`, { method: 'POST', body, headers });
          const viaFetch = await tenure(new Request('http://x/webhook', { method: 'POST', body, headers }));
          expect({ status: viaFetch.status, body: await viaFetch.text() }).toEqual({ status: viaListener.status, body: await viaListener.text() });
        }
        expect(await tenure.runtime.store.count()).toBe(await server.store.count());
        await server.close();
        server = undefined;
        await handlers.pop()!.close();
      }),
      { numRuns: 25 },
    );
  });
});
