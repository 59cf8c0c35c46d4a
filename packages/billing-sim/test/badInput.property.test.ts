import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES, createBillingSimulator, createRequestHandler } from '../src/index.js';

/** A simulator with one product, one currency, one customer and one subscription, so routes reach their checks. */
function seeded() {
  const sim = createBillingSimulator({ seed: 'fuzz', products: [{ id: 'm', type: 'subscription', period: 'P1M' }] });
  const handle = createRequestHandler(sim, { rateLimits: false });
  const post = (path: string, body: unknown) =>
    handle({ method: 'POST', path, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
  post('/v2/projects/proj_sim/virtual_currencies', { code: 'CRD', name: 'Credits', product_grants: [{ product_ids: ['m'], amount: 5 }] });
  const bought = post('/sim/purchases', { customer_id: 'u1', product_id: 'm' }).body as { subscription_id: string };
  return { sim, handle, sub: bought.subscription_id };
}

const concretePath = (pattern: string, sub: string) =>
  pattern
    .replace(':project_id', 'proj_sim')
    .replace(':customer_id', 'u1')
    .replace(':code', 'CRD')
    .replace(':transaction_id', 'tx')
    .replace(':event_id', 'ev')
    .replace(':id', sub);

/** The world is immutable: a refused request must leave the very same world (and webhook settings) behind. */
const snapshot = (sim: ReturnType<typeof seeded>['sim']) => ({ world: sim.world(), events: sim.eventCount(), webhook: sim.webhookConfig() });

describe('bad input', () => {
  const posts = ROUTES.filter((r) => r.method === 'POST');

  it('never answers 500 to any JSON body on any route', () => {
    fc.assert(
      fc.property(fc.constantFrom(...posts), fc.jsonValue(), (route, body) => {
        const { handle, sub } = seeded();
        const res = handle({ method: 'POST', path: concretePath(route.pattern, sub), query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('answers an error envelope and changes nothing when it refuses a body that is not an object', () => {
    fc.assert(
      fc.property(fc.constantFrom(...posts), fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer()), fc.boolean()), (route, body) => {
        const { sim, handle, sub } = seeded();
        const before = snapshot(sim);
        const res = handle({ method: 'POST', path: concretePath(route.pattern, sub), query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body) });
        // Routes without a body schema ignore the body; the others refuse it with 400.
        if (res.status >= 400) {
          expect([400, 404]).toContain(res.status);
          expect(res.body).toMatchObject({ object: 'error', retryable: false });
          const after = snapshot(sim);
          expect(after.world).toBe(before.world);
          expect(after.events).toBe(before.events);
          expect(after.webhook).toBe(before.webhook);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('answers 429 rate_limit_error past the per-minute limit (on by default)', () => {
    const sim = createBillingSimulator({ seed: 'rl' });
    const handle = createRequestHandler(sim, { wallClock: () => 0 });
    const get = () => handle({ method: 'GET', path: '/v2/projects/proj_sim/virtual_currencies', query: {}, headers: {}, rawBody: '' });
    for (let i = 0; i < 60; i++) expect(get().status).toBe(200);
    const res = get();
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ type: 'rate_limit_error', retryable: true, backoff_ms: 60_000 });
    expect(res.headers?.['Retry-After']).toBe('60');
  });
});
