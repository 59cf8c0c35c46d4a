// The at-risk sweep of the runtime, against the real memory store with its refreshDue calls
// observed: it re-materializes rows that came due with time alone, never overlaps itself, logs
// failures at warn, and stops before the store closes. Plus the one refresh before listening.
import { Writable } from 'node:stream';
import { DEFAULT_CONFIG, resolveConfig } from '@tenure/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySubscriberStore, createRetentionRequestListener, fixedClock, startRetentionServer, type RetentionRequestListener } from '../src/index.js';
import { DAY, handledEvent, T0 } from './helpers/fixtures.js';
import { observeStore, type ObservedStore } from './helpers/observedStore.js';
import { eventually } from './helpers/testServer.js';

const silent = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pending_cancel subscriber at T0: score 60, whose first inactivity point comes after 9 days. */
async function seedPending(observed: ObservedStore) {
  const ctx = { now: T0, config: DEFAULT_CONFIG };
  const base = { app_user_id: 'p', expiration_at_ms: T0 + 30 * DAY };
  await observed.store.applyEvent(handledEvent('initial_purchase', { ...base, id: 'p1' }), ctx);
  await observed.store.applyEvent(handledEvent('cancellation', { ...base, id: 'p2', event_timestamp_ms: T0 + 1 }), ctx);
}

let listener: RetentionRequestListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe('the at-risk sweep', () => {
  it('re-materializes rows that came due with time alone, and stops before the store closes', async () => {
    const observed = observeStore(createMemorySubscriberStore());
    const clock = fixedClock(T0);
    await seedPending(observed);
    listener = createRetentionRequestListener({ store: observed.store, clock, logger: silent, sweepIntervalMs: 10 });
    await eventually(() => expect(observed.calls.filter((c) => c.result === 0).length).toBeGreaterThanOrEqual(2));
    expect(observed.calls.every((c) => c.limit === 1000 && c.ctx.config === listener!.runtime.config)).toBe(true);

    clock.set(T0 + 10 * DAY); // the first inactivity point: the row is due
    await eventually(() => expect(observed.calls.some((c) => c.result === 1)).toBe(true));
    await eventually(() => expect(observed.calls.at(-1)?.result).toBe(0)); // refreshed once, then nothing is due
    expect(observed.calls.filter((c) => c.result === 1)).toHaveLength(1);

    await listener.close();
    listener = undefined;
    const made = observed.calls.length;
    await sleep(60);
    expect(observed.closed()).toBe(true);
    expect(observed.closedDuringRefresh()).toBe(false);
    expect(observed.calls).toHaveLength(made);
    expect(observed.calls.some((c) => c.afterClose)).toBe(false);
  });

  it('never overlaps itself when a pass is slower than the interval, and close waits for it', async () => {
    const observed = observeStore(createMemorySubscriberStore());
    observed.delayMs = 40;
    listener = createRetentionRequestListener({ store: observed.store, clock: fixedClock(T0), logger: silent, sweepIntervalMs: 5 });
    await eventually(() => expect(observed.calls.length).toBeGreaterThanOrEqual(3));
    expect(observed.maxConcurrent()).toBe(1);
    await eventually(() => expect(observed.calls.at(-1)?.result).toBeUndefined()); // one in flight
    await listener.close();
    listener = undefined;
    expect(observed.closedDuringRefresh()).toBe(false);
    expect(observed.calls.at(-1)?.result).toBe(0); // it finished before the store closed
  });

  it('logs a failing pass at warn once (not every tick), keeps trying, and says when it recovers', async () => {
    const lines: { level: number; msg: string; err?: string }[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as (typeof lines)[number]);
        done();
      },
    });
    const observed = observeStore(createMemorySubscriberStore());
    observed.failWith = new Error('disk I/O error');
    listener = createRetentionRequestListener({ store: observed.store, clock: fixedClock(T0), logger: pino({ level: 'info' }, destination), sweepIntervalMs: 5 });
    await eventually(() => expect(observed.calls.length).toBeGreaterThanOrEqual(4));
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ msg: expect.stringContaining('at-risk sweep failed'), err: 'disk I/O error' });
    observed.failWith = undefined;
    await eventually(() => expect(lines.some((l) => l.level === 30 && l.msg === 'at-risk sweep recovered')).toBe(true));
  });

  it('is off with sweepIntervalMs: 0', async () => {
    const observed = observeStore(createMemorySubscriberStore());
    listener = createRetentionRequestListener({ store: observed.store, clock: fixedClock(T0), logger: silent, sweepIntervalMs: 0 });
    await sleep(50);
    expect(observed.calls).toHaveLength(0);
  });

  it('refuses a negative interval', () => {
    expect(() => createRetentionRequestListener({ logger: silent, sweepIntervalMs: -1 })).toThrow(/sweepIntervalMs/);
  });
});

describe('startRetentionServer', () => {
  it('brings the at-risk rows up to date once before listening, with the configured rules', async () => {
    const observed = observeStore(createMemorySubscriberStore());
    const config = resolveConfig({ bands: { high: 50 } });
    const running = await startRetentionServer({ port: 0, handleSignals: false, logger: silent, store: observed.store, config, clock: fixedClock(T0), sweepIntervalMs: 0 });
    try {
      expect(observed.calls).toHaveLength(1);
      expect(observed.calls[0]).toMatchObject({ ctx: { now: T0, config }, limit: 1000, result: 0 });
    } finally {
      await running.close();
    }
  });

  it('does not listen when that first refresh fails, closes the store and rethrows', async () => {
    const observed = observeStore(createMemorySubscriberStore());
    observed.failWith = new Error('database is locked');
    await expect(startRetentionServer({ port: 0, handleSignals: false, logger: silent, store: observed.store, sweepIntervalMs: 0 })).rejects.toThrow('database is locked');
    expect(observed.closed()).toBe(true);
  });
});
