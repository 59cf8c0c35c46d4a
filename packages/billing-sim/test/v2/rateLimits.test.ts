import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRateLimiter, RATE_LIMITS, type RateDomain } from '../../src/http/rateLimit/rateLimits.js';
import { ROUTES } from '../../src/index.js';
import { P, startApp, type TestApp } from '../helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('rate limits over HTTP', () => {
  it('refuses the 61st Project Configuration request of a minute with 429, Retry-After and backoff_ms, until the window ends', async () => {
    let now = 1_000_000 * 60_000 + 15_000; // 15 s into a minute
    app = await startApp({}, { wallClock: () => now });
    for (let i = 0; i < 60; i++) expect((await app.call('GET', `${P}/virtual_currencies`)).status).toBe(200);
    const refused = await app.call('GET', `${P}/virtual_currencies`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      object: 'error', type: 'rate_limit_error', param: null, message: 'Rate limit exceeded', retryable: true,
      doc_url: 'https://errors.rev.cat/rate-limit-error', backoff_ms: 45_000,
    });
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('revenuecat-rate-limit-current-usage')).toBe('61');
    expect(refused.headers.get('revenuecat-rate-limit-current-limit')).toBe('60');
    // Another domain has its own budget; another key has its own count.
    expect((await app.call('GET', `${P}/customers/nobody`)).status).toBe(404);
    now += 45_000;
    expect((await app.call('GET', `${P}/virtual_currencies`)).headers.get('revenuecat-rate-limit-current-usage')).toBe('1');
  });

  it('counts per API key', async () => {
    app = await startApp({}, { rateLimits: { limits: { project_configuration: 1 } }, wallClock: () => 0 });
    expect((await app.call('GET', `${P}/virtual_currencies`, undefined, { authorization: 'Bearer a' })).status).toBe(200);
    expect((await app.call('GET', `${P}/virtual_currencies`, undefined, { authorization: 'Bearer a' })).status).toBe(429);
    expect((await app.call('GET', `${P}/virtual_currencies`, undefined, { authorization: 'Bearer b' })).status).toBe(200);
  });

  it('with a small window, refuses and then serves again once the window passes (real time)', async () => {
    app = await startApp({}, { rateLimits: { window_ms: 200, limits: { customer_information: 2 } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.call('GET', `${P}/customers/u1`)).status);
    // The three may straddle a window boundary; at least the first two are not refused.
    expect(statuses.slice(0, 2)).toEqual([404, 404]);
    await new Promise((r) => setTimeout(r, 250));
    expect((await app.call('GET', `${P}/customers/u1`)).status).toBe(404);
  });

  it('off: never refuses, usage headers stay', async () => {
    app = await startApp({}, { rateLimits: false, wallClock: () => 0 });
    let last;
    for (let i = 0; i < 70; i++) last = await app.call('GET', `${P}/virtual_currencies`);
    expect(last?.status).toBe(200);
    expect(last?.headers.get('revenuecat-rate-limit-current-usage')).toBe('70');
  });

  it('puts every API v2 route in a documented domain', () => {
    for (const r of ROUTES.filter((x) => x.pattern.startsWith('/v2/projects'))) expect(Object.keys(RATE_LIMITS)).toContain(r.domain);
  });
});

describe('createRateLimiter', () => {
  const domains = Object.keys(RATE_LIMITS) as RateDomain[];
  it('lets exactly the limit through in each window, whatever the arrival times', () => {
    fc.assert(
      fc.property(fc.constantFrom(...domains), fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 120 }), (domain, limit, gaps) => {
        let now = 0;
        const limiter = createRateLimiter({ limits: { [domain]: limit }, window_ms: 1_000 }, () => now);
        const allowed = new Map<number, number>();
        for (const gap of gaps) {
          now += gap;
          const d = limiter.take(domain, 'k');
          const w = Math.floor(now / 1_000);
          if (!d.limited) allowed.set(w, (allowed.get(w) ?? 0) + 1);
          else expect(d.backoff_ms).toBe((w + 1) * 1_000 - now);
        }
        for (const n of allowed.values()) expect(n).toBeLessThanOrEqual(limit);
      }),
    );
  });
});
