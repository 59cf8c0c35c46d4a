/** The memory store's checkpoints: a Map, forgotten on exit like the rest of the store. */
import type { CheckpointStore } from '@tenure/core';

/**
 * Returns an empty in-memory `CheckpointStore`.
 *
 * @example
 * const checkpoints = createMemoryCheckpoints();
 * await checkpoints.set('backfill', 'cus_9'); await checkpoints.get('backfill'); // 'cus_9'
 */
export function createMemoryCheckpoints(): CheckpointStore {
  const values = new Map<string, string>();
  return {
    async get(name) {
      return values.get(name);
    },
    async set(name, value) {
      values.set(name, value);
    },
    async delete(name) {
      values.delete(name);
    },
  };
}
