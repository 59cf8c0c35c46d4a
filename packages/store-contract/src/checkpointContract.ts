/** The contract of the store's checkpoints: named text values, replaced by `set`, gone after `delete`. */
import { describe, expect, it } from 'vitest';
import { withStore, type ResolvedContractOptions, type StoreFactory } from './storeFactory.js';

/** Registers the checkpoint tests. */
export function describeCheckpointContract(factory: StoreFactory, options: ResolvedContractOptions): void {
  const timeout = options.timeoutMs;

  describe('checkpoints', () => {
    it('answers undefined for a name never set, and what was set after', { timeout }, () =>
      withStore(factory, async (store) => {
        expect(await store.checkpoints.get('backfill:proj1')).toBeUndefined();
        await store.checkpoints.set('backfill:proj1', '{"starting_after":"cus_42","done":120}');
        expect(await store.checkpoints.get('backfill:proj1')).toBe('{"starting_after":"cus_42","done":120}');
        expect(await store.checkpoints.get('backfill:proj2')).toBeUndefined();
      }),
    );

    it('replaces a value, keeps names apart, and deletes (deleting an absent name is a no-op)', { timeout }, () =>
      withStore(factory, async (store) => {
        const names = ['a', 'A', '\u{1F600}_émile', 'backfill:proj1'];
        for (const [i, name] of names.entries()) await store.checkpoints.set(name, `v${i}`);
        await store.checkpoints.set('a', '');
        await store.checkpoints.set('backfill:proj1', 'x'.repeat(10_000));
        expect(await store.checkpoints.get('a')).toBe('');
        expect(await store.checkpoints.get('A')).toBe('v1');
        expect(await store.checkpoints.get('\u{1F600}_émile')).toBe('v2');
        expect(await store.checkpoints.get('backfill:proj1')).toBe('x'.repeat(10_000));
        await store.checkpoints.delete('A');
        await store.checkpoints.delete('never-set');
        expect(await store.checkpoints.get('A')).toBeUndefined();
        expect(await store.checkpoints.get('a')).toBe('');
      }),
    );

    it('keeps checkpoints apart from the data: they are no subscriber, event or record', { timeout }, () =>
      withStore(factory, async (store) => {
        await store.checkpoints.set('backfill:proj1', 'cus_1');
        expect(await store.count()).toBe(0);
        expect(await store.eventCount()).toBe(0);
        const records = [];
        for await (const record of store.records()) records.push(record);
        expect(records).toEqual([]);
      }),
    );
  });
}
