import type { SubscriberStore } from '@tenure/core';
import { describe, expect, it } from 'vitest';
import { instrumentStore } from '../src/metrics/instrumentStore.js';
import { createMemorySubscriberStore } from '../src/index.js';
import { fixedClock } from '../src/index.js';
import { DEFAULT_CONFIG } from '@tenure/core';
import { handledEvent, T0 } from './helpers/fixtures.js';

/** A store written as a class with a private field and a getter: the wrapper must call it on itself. */
class ClassStore {
  #inner = createMemorySubscriberStore();
  calls = 0;
  get kind() {
    return `class(${this.#inner.kind})`;
  }
  applyEvent(...args: Parameters<SubscriberStore['applyEvent']>) {
    this.calls += 1;
    return this.#inner.applyEvent(...args);
  }
  atRisk(...args: Parameters<SubscriberStore['atRisk']>) {
    return this.#inner.atRisk(...args);
  }
  get(id: string) {
    return this.#inner.get(id);
  }
}

describe('instrumentStore', () => {
  it('times atRisk and leaves every other member the store’s own, for a class with private fields', async () => {
    const store = new ClassStore();
    const reported: string[] = [];
    const timed = instrumentStore(store as unknown as SubscriberStore, (operation, seconds) => {
      expect(seconds).toBeGreaterThanOrEqual(0);
      reported.push(operation);
    });
    const ctx = { now: fixedClock(T0).now(), config: DEFAULT_CONFIG };
    expect(timed.kind).toBe('class(memory)');
    expect((await timed.applyEvent(handledEvent('initial_purchase', { app_user_id: 'u1' }), ctx)).status).toBe('applied');
    expect(store.calls).toBe(1);
    expect((await timed.get('u1'))?.customer_id).toBe('u1');
    const page = await timed.atRisk({ min_score: 0, limit: 10 }, ctx);
    expect(page.total.subscribers).toBe(1);
    await Promise.resolve(); // the report runs when the query's promise settles
    expect(reported).toEqual(['at_risk']);
  });

  it('reports a failed atRisk too, and passes its rejection through', async () => {
    const failing = { kind: 'broken', atRisk: () => Promise.reject(new Error('down')) } as unknown as SubscriberStore;
    const reported: string[] = [];
    const timed = instrumentStore(failing, (operation) => reported.push(operation));
    await expect(timed.atRisk({ limit: 1 }, { now: 0, config: DEFAULT_CONFIG })).rejects.toThrow('down');
    expect(reported).toEqual(['at_risk']);
  });
});
