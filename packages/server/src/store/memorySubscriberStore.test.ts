// What the memory store adds to the shared contract (memorySubscriberStore.contract.test.ts).
import { DEFAULT_CONFIG, type StoreContext } from '@tenure/core';
import { T0, eventFactory } from '@tenure/store-contract';
import { describe, expect, it } from 'vitest';
import { createMemorySubscriberStore } from './memorySubscriberStore.js';

const ctx: StoreContext = { now: T0, config: DEFAULT_CONFIG };
const ev = eventFactory('evt_memory');

describe('createMemorySubscriberStore', () => {
  it('is named memory', () => {
    expect(createMemorySubscriberStore().kind).toBe('memory');
  });

  it('yields to the event loop between replay batches, so webhooks are not held up', async () => {
    const store = createMemorySubscriberStore({ replayBatchSize: 10 });
    await store.applyEvents(Array.from({ length: 100 }, (_, i) => ev('INITIAL_PURCHASE', `c${i}`, T0)), ctx);
    const progress: number[] = [];
    const tick = new Promise<number>((resolve) => setImmediate(() => resolve(progress.length)));
    const rebuilt = await store.replay(ctx, (done) => progress.push(done));
    expect(rebuilt).toBe(100);
    expect(progress).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    // The callback queued before the replay ran while it was still in its first batches.
    expect(await tick).toBeLessThan(10);
  });

  it('keeps a dispatch log and cooldowns per store', async () => {
    const a = createMemorySubscriberStore();
    const b = createMemorySubscriberStore();
    expect(await a.dispatchLog.claimCooldown('k', T0, 1000)).toBe(true);
    expect(await b.dispatchLog.claimCooldown('k', T0, 1000)).toBe(true);
  });
});
