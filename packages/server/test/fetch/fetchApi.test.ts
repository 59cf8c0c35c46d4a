// The JSON API over the fetch handler (`api: true`): the route table the Express router serves,
// with its answers. The Express app runs on a real socket beside a fetch handler over an identical
// store and clock; any sequence of requests (every route, odd ids and queries, bodies of every kind,
// wrong keys and methods) gets the same status and body from both.
import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySubscriberStore, createRetentionFetchHandler, fixedClock, type RetentionFetchHandler } from '../../src/index.js';
import { DAY, T0, fixture } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/testServer.js';

const WEBHOOK_KEY = 'Bearer whk_fetch_api';
const API_KEY = 'tenure_api_key';
const AUTH = `Bearer ${API_KEY}`;
const quiet = pino({ level: 'silent' });

let server: TestServer | undefined;
const handlers: RetentionFetchHandler[] = [];
afterEach(async () => {
  while (handlers.length > 0) await handlers.pop()!.close();
  await server?.close();
  server = undefined;
});

/** A few customers in every state worth reading: trialing, billing issue, cancelled, churned. */
const seed = [
  fixture('initial_purchase', { app_user_id: 'user_a', id: 'e1' }),
  fixture('initial_purchase', { app_user_id: 'user b/é', id: 'e2', period_type: 'TRIAL' }),
  fixture('billing_issue', { app_user_id: 'user_c', id: 'e3', event_timestamp_ms: T0 - DAY, purchased_at_ms: T0 - 30 * DAY, expiration_at_ms: T0 + DAY }),
  fixture('cancellation', { app_user_id: 'user_d', id: 'e4' }),
  fixture('expiration', { app_user_id: 'user_e', id: 'e5' }),
].map((body) => JSON.stringify(body));

/** The Express app on a socket and a fetch handler, each over its own store holding the seed. */
async function pair(): Promise<{ express: TestServer; tenure: RetentionFetchHandler }> {
  const options = { webhookAuthKey: WEBHOOK_KEY, apiKey: API_KEY, sweepIntervalMs: 3_600_000, notifiers: [] };
  const express = await startTestServer(options, 'express');
  express.clock.set(T0 + DAY);
  const tenure = createRetentionFetchHandler({ ...options, api: true, store: createMemorySubscriberStore(), clock: fixedClock(T0 + DAY), logger: quiet });
  handlers.push(tenure);
  for (const body of seed) {
    expect((await express.webhook(body, { authorization: WEBHOOK_KEY })).status).toBe(200);
    const res = await tenure(new Request('http://x/webhook', { method: 'POST', body, headers: { authorization: WEBHOOK_KEY, 'content-type': 'application/json' } }));
    expect(res.status).toBe(200);
  }
  return { express, tenure };
}

const id = fc.constantFrom('user_a', 'user%20b%2F%C3%A9', 'user_c', 'user_d', 'user_e', 'nobody', '%E0%A4%A', '%00', 'a'.repeat(300));
const path = fc.oneof(
  id.map((c) => `/api/subscribers/${c}`),
  id.map((c) => `/api/subscribers/${c}/recommend`),
  id.map((c) => `/api/subscribers/${c}/activity`),
  id.map((c) => `/api/subscribers/${c}/events`),
  id.map((c) => `/api/subscribers/${c}/dispatch`),
  id.map((c) => `/api/dashboard/subscribers/${c}`),
  fc.constantFrom('/api/at-risk', '/api/at-risk/', '/API/AT-RISK', '/api/dispatch', '/api/dispatches', '/api/config', '/api/dashboard/summary'),
  fc.constantFrom('/api/dashboard/trends', '/api', '/api/', '/api/nothing', '/api/subscribers', '/api/subscribers//recommend'),
);
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?limit=2', '?limit=0', '?limit=x', '?limit=2&limit=3', '?environment=SANDBOX', '?environment=nope', '?state=billing_issue', '?cursor=zz'),
  fc.constantFrom('?days=7', '?days=-1', '?unknown=1', '?dry_run=true', '?min_score=50', '?limit=1&cursor=', '?a=%E0', '?environment=PRODUCTION&limit=5'),
);
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('{}', '{"dry_run":true}', '{"at":1762000000000}', '{"at":"soon"}', '{"channels":["email"]}', '{"unknown":1}') },
  { weight: 1, arbitrary: fc.constantFrom('[]', '"text"', '12', 'null', '{', '  {"dry_run":false}', '\u00ff', '') },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
);
const request = fc.record({
  method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE'),
  path,
  query,
  body,
  type: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1'),
  auth: fc.constantFrom(AUTH, AUTH, AUTH, 'Bearer wrong', ''),
});

type ApiCall = { method: string; path: string; query: string; body: string | undefined; type: string; auth: string };

/** Sends one request to both and expects the same status, body and `www-authenticate`. */
async function expectSameAnswer(express: TestServer, tenure: RetentionFetchHandler, r: ApiCall): Promise<void> {
  const method = r.body !== undefined && r.method === 'GET' ? 'POST' : r.method;
  const headers: Record<string, string> = r.auth === '' ? {} : { authorization: r.auth };
  if (r.body !== undefined) headers['content-type'] = r.type;
  const init: RequestInit = { method, headers, ...(r.body === undefined ? {} : { body: r.body }) };
  const viaExpress = await fetch(`${express.url}${r.path}${r.query}`, init);
  // What the client put on the wire: an empty body of a POST or PUT as `content-length: 0`, of another method not at all.
  const wire: RequestInit =
    r.body !== '' ? init : method === 'POST' || method === 'PUT' ? { ...init, headers: { ...headers, 'content-length': '0' } } : { method, headers };
  const viaFetch = await tenure(new Request(`http://x${r.path}${r.query}`, wire));
  const label = `${method} ${r.path}${r.query} ${r.type} ${JSON.stringify(r.body)}`;
  const read = async (res: Response) => (method === 'HEAD' ? await res.text() : await res.json());
  expect({ status: viaFetch.status, body: await read(viaFetch) }, label).toEqual({ status: viaExpress.status, body: await read(viaExpress) });
  expect(viaFetch.headers.get('www-authenticate'), label).toBe(viaExpress.headers.get('www-authenticate'));
}

describe('createRetentionFetchHandler with api: true', () => {
  it('answers any sequence of JSON API requests exactly as the Express app does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (sequence) => {
        const { express, tenure } = await pair();
        server = express;
        for (const r of sequence) await expectSameAnswer(express, tenure, r);
        await express.close();
        server = undefined;
        await handlers.pop()!.close();
      }),
      { numRuns: Number(process.env.RUNS ?? 40) },
    );
  }, 120_000);

  it('matches paths as Express does (literal segments in any case, a trailing slash, HEAD as GET, ids percent-decoded) and counts its webhooks in the summary', async () => {
    const { express, tenure } = await pair();
    server = express;
    const get = (path: string, method = 'GET'): ApiCall => ({ method, path, query: '', body: undefined, type: 'application/json', auth: AUTH });
    for (const call of [
      get('/api/AT-RISK'),
      get('/Api/At-Risk/'),
      get('/API/subscribers/user_a/RECOMMEND'),
      get('/api/subscribers/USER_A'),
      get('/api/subscribers/user%20b%2F%C3%A9'),
      get('/api/subscribers/user_a//'),
      get('/api/at-risk', 'HEAD'),
      get('/api/dashboard/live', 'POST'),
      get('/api/dashboard/summary'),
    ])
      await expectSameAnswer(express, tenure, call);
  });

  it('serves nothing under /api unless asked, and honours its basePath', async () => {
    const off = createRetentionFetchHandler({ webhookAuthKey: WEBHOOK_KEY, apiKey: API_KEY, logger: quiet, sweepIntervalMs: 3_600_000 });
    handlers.push(off);
    expect((await off(new Request('http://x/api/at-risk', { headers: { authorization: AUTH } }))).status).toBe(404);
    const on = createRetentionFetchHandler({ webhookAuthKey: WEBHOOK_KEY, apiKey: API_KEY, logger: quiet, sweepIntervalMs: 3_600_000, api: true, basePath: '/tenure' });
    handlers.push(on);
    const res = await on(new Request('http://x/tenure/api/at-risk?limit=5', { headers: { authorization: AUTH } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ items: [] });
    const head = await on(new Request('http://x/tenure/api/at-risk', { method: 'HEAD', headers: { authorization: AUTH } }));
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect((await on(new Request('http://x/tenure/api/at-risk'))).status).toBe(401);
  });
});
