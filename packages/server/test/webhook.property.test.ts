import fc from 'fast-check';
import { HANDLED_EVENT_TYPES } from '@tenure/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.js';

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(() => app.close());

/** Bodies that are JSON but not a valid handled event: anything, or an envelope with a broken event. */
const brokenEnvelope = fc.record({
  api_version: fc.oneof(fc.constant('1.0'), fc.jsonValue()),
  event: fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        type: fc.oneof(fc.constantFrom(...HANDLED_EVENT_TYPES), fc.jsonValue()),
        id: fc.oneof(fc.constant(''), fc.integer(), fc.constant(null)),
        app_user_id: fc.jsonValue(),
        event_timestamp_ms: fc.oneof(fc.double(), fc.string(), fc.integer({ max: -1 })),
      },
      { requiredKeys: ['type'] },
    ),
  ),
});

describe('POST /webhook with arbitrary bodies', () => {
  it('never answers 5xx and never changes the store (arbitrary JSON values)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const res = await app.webhook(JSON.stringify(value));
        expect(res.status).toBeLessThan(500);
        expect([200, 400]).toContain(res.status);
        expect(await app.store.count()).toBe(0);
        expect(await app.store.eventCount()).toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 30_000); // 150 HTTP round trips: generous for a loaded CI machine

  it('never answers 5xx and never changes the store (envelopes with broken events)', async () => {
    await fc.assert(
      fc.asyncProperty(brokenEnvelope, async (body) => {
        const res = await app.webhook(JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        expect(await app.store.count()).toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 30_000); // 150 HTTP round trips: generous for a loaded CI machine

  it('never answers 5xx for arbitrary text, and rejects what is not JSON with 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        const res = await app.webhook(text);
        expect(res.status).toBeLessThan(500);
        let isJson = true;
        try {
          JSON.parse(text);
        } catch {
          isJson = false;
        }
        if (!isJson) expect(res.status).toBe(400);
        expect(await app.store.count()).toBe(0);
      }),
      { numRuns: 150 },
    );
  }, 30_000); // 150 HTTP round trips: generous for a loaded CI machine
});
