/**
 * A real store with its `refreshDue` and `close` calls observed (when, how many at once, what they
 * returned), for the tests of the at-risk sweep. Everything else goes to the store untouched.
 */
import type { StoreContext, SubscriberStore } from '@tenure/core';

export interface RefreshCall {
  ctx: StoreContext;
  limit: number;
  /** Rows refreshed; undefined while running or when it failed. */
  result?: number;
  afterClose: boolean;
}

export interface ObservedStore {
  store: SubscriberStore;
  calls: RefreshCall[];
  /** Most `refreshDue` calls in progress at the same time. */
  maxConcurrent(): number;
  closed(): boolean;
  /** Whether a `refreshDue` was still running when `close` was called. */
  closedDuringRefresh(): boolean;
  /** Each call first waits this long (a slow database). */
  delayMs: number;
  /** When set, each call rejects with it. */
  failWith: Error | undefined;
}

export function observeStore(inner: SubscriberStore): ObservedStore {
  let active = 0;
  let max = 0;
  let closed = false;
  let closedDuringRefresh = false;
  const observed: ObservedStore = {
    store: undefined as unknown as SubscriberStore,
    calls: [],
    maxConcurrent: () => max,
    closed: () => closed,
    closedDuringRefresh: () => closedDuringRefresh,
    delayMs: 0,
    failWith: undefined,
  };
  const refreshDue = async (ctx: StoreContext, limit: number): Promise<number> => {
    const call: RefreshCall = { ctx, limit, afterClose: closed };
    observed.calls.push(call);
    max = Math.max(max, ++active);
    try {
      if (observed.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, observed.delayMs));
      if (observed.failWith !== undefined) throw observed.failWith;
      call.result = await inner.refreshDue(ctx, limit);
      return call.result;
    } finally {
      active--;
    }
  };
  const close = async () => {
    closedDuringRefresh ||= active > 0;
    closed = true;
    await inner.close();
  };
  observed.store = new Proxy(inner, {
    get(target, property) {
      if (property === 'refreshDue') return refreshDue;
      if (property === 'close') return close;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return observed;
}
