import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rateLimiter.js';
import { backoffDelay, DEFAULT_RETRY_POLICY } from './retryPolicy.js';

function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return { now: () => now, advance: (ms: number) => (now += ms), sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

describe('createRateLimiter', () => {
  it('lets the first message of a channel go at once and spaces the next ones 1000/perSecond ms apart', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 1, now: t.now, sleep: t.sleep });
    await Promise.all([limiter.acquire('email'), limiter.acquire('email'), limiter.acquire('email')]);
    expect(t.sleeps).toEqual([1000, 2000]);
  });

  it('keeps channels independent', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 2, now: t.now, sleep: t.sleep });
    await Promise.all([limiter.acquire('email'), limiter.acquire('chat'), limiter.acquire('email')]);
    expect(t.sleeps).toEqual([500]);
  });

  it('does not wait once the interval has passed', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 1, now: t.now, sleep: t.sleep });
    await limiter.acquire('chat');
    t.advance(1500);
    await limiter.acquire('chat');
    expect(t.sleeps).toEqual([]);
  });

  it('is disabled by a rate of 0', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 0, now: t.now, sleep: t.sleep });
    await Promise.all([limiter.acquire('chat'), limiter.acquire('chat')]);
    expect(t.sleeps).toEqual([]);
  });
});

describe('backoffDelay', () => {
  it('doubles from the base delay and is capped', () => {
    expect([1, 2, 3].map((n) => backoffDelay(DEFAULT_RETRY_POLICY, n))).toEqual([1000, 2000, 4000]);
    expect(backoffDelay({ attempts: 10, baseDelayMs: 1000, maxDelayMs: 5000 }, 8)).toBe(5000);
  });
});
