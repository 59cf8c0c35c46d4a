import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from './helpers/seed.js';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ dispatch: { auto: false } });
  await seed(app, 'u1', 'churned');
});
afterAll(() => app.close());

const param = fc.oneof(fc.constantFrom('min_score', 'state', 'band', 'limit', 'cursor', 'x'), fc.string({ maxLength: 8 }));
const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('60', 'churned', 'critical', '500'));

describe('/api with arbitrary input', () => {
  it('GET /api/at-risk never answers 5xx, and every 4xx has the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(param, value), { maxLength: 4 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const res = await app.request('GET', `/api/at-risk?${query}`);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(res.body).toEqual({ error: { code: expect.any(String), message: expect.any(String), field: expect.any(String) } });
      }),
      { numRuns: 100 },
    );
  });

  it('POST bodies to activity and dispatch never answer 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/subscribers/u1/activity', '/api/dispatch'), fc.jsonValue(), async (path, body) => {
        const res = await app.request('POST', path, JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
