// The shared store contract, run against the memory store (a small replay batch, so replays
// interleave with concurrent writes across several turns of the event loop).
import { describeStoreContract } from '@tenure/store-contract';
import { createMemorySubscriberStore } from './memorySubscriberStore.js';

describeStoreContract('memory', { open: async () => createMemorySubscriberStore({ replayBatchSize: 7 }) }, { numRuns: 60 });
