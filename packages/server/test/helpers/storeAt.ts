/** Opening a store by its `--store` spec for a look at what a command left in it, closed after. */
import type { Subscriber, SubscriberStore } from '@tenure/core';
import { openStore, parseStoreSpec } from '../../src/store/openStore.js';

/**
 * Given a store spec (`sqlite:path`, a PostgreSQL URL, ...) and a function, opens the store, runs
 * the function on it and closes it; resolves with what the function resolved with.
 */
export async function withStoreAt<T>(spec: string, use: (store: SubscriberStore) => Promise<T>): Promise<T> {
  const parsed = parseStoreSpec(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  const store = await openStore(parsed.spec);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** Every subscriber of the store at `spec`, in its listing order. */
export function subscribersAt(spec: string): Promise<Subscriber[]> {
  return withStoreAt(spec, async (store) => {
    const out: Subscriber[] = [];
    for await (const s of store.list()) out.push(s);
    return out;
  });
}
