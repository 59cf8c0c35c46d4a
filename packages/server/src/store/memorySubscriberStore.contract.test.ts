// The shared store contract, run against the memory store (a small replay batch, so replays
// interleave with concurrent writes across several turns of the event loop); and once more through
// the contract's `reset` path (one store per property, emptied between runs), which the database
// stores use to avoid a schema per run.
import type { SubscriberStore } from '@tenure/core';
import { describeStoreContract } from '@tenure/store-contract';
import { createMemorySubscriberStore } from './memorySubscriberStore.js';

const open = async () => createMemorySubscriberStore({ replayBatchSize: 7 });

describeStoreContract('memory', { open }, { numRuns: 60 });

/** A store that forwards to a memory store it can swap for an empty one. */
function resettable(): SubscriberStore & { reset(): void } {
  let inner = createMemorySubscriberStore({ replayBatchSize: 7 });
  return {
    kind: 'memory',
    get dispatchLog() {
      return inner.dispatchLog;
    },
    get checkpoints() {
      return inner.checkpoints;
    },
    get snapshots() {
      return inner.snapshots;
    },
    applyEvent: (...args) => inner.applyEvent(...args),
    applyEvents: (...args) => inner.applyEvents(...args),
    beginImport: (...args) => inner.beginImport(...args),
    applyTransfer: (...args) => inner.applyTransfer(...args),
    get: (...args) => inner.get(...args),
    recordActivity: (...args) => inner.recordActivity(...args),
    atRisk: (...args) => inner.atRisk(...args),
    refreshDue: (...args) => inner.refreshDue(...args),
    list: () => inner.list(),
    count: () => inner.count(),
    eventCount: () => inner.eventCount(),
    records: () => inner.records(),
    movedSubscriptions: () => inner.movedSubscriptions(),
    restoreMovedSubscriptions: (...args) => inner.restoreMovedSubscriptions(...args),
    eventsOf: (...args) => inner.eventsOf(...args),
    replay: (...args) => inner.replay(...args),
    ensureConfig: (...args) => inner.ensureConfig(...args),
    close: () => inner.close(),
    reset: () => {
      inner = createMemorySubscriberStore({ replayBatchSize: 7 });
    },
  };
}

describeStoreContract(
  'memory, reset between model runs',
  { open: async () => resettable(), reset: async (store) => (store as ReturnType<typeof resettable>).reset() },
  { numRuns: 20 },
);
