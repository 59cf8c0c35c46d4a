/** The one contract suite every `SubscriberStore` runs (memory, SQLite, PostgreSQL). */
import { describe } from 'vitest';
import { describeAliasContract } from './aliasContract.js';
import { describeAtRiskContract } from './atRiskContract.js';
import { describeCheckpointContract } from './checkpointContract.js';
import { describeConfigContract } from './configContract.js';
import { describeDispatchLogContract } from './dispatchLogContract.js';
import { describeEventsContract } from './eventsContract.js';
import { describeImportContract } from './importContract.js';
import { describeModelContract } from './modelContract.js';
import { describeMovedSubscriptionContract } from './movedSubscriptionContract.js';
import { describeOccurrenceContract } from './occurrenceContract.js';
import { describeRecordsContract } from './recordsContract.js';
import { describeReplayMergeContract } from './replayMergeContract.js';
import { describeRoutesExportContract } from './routesExportContract.js';
import { describeTimelineContract } from './timelineContract.js';
import { describeTransferContract } from './transferContract.js';
import { resolveContractOptions, type StoreContractOptions, type StoreFactory } from './storeFactory.js';

/**
 * Given a name and a factory of empty stores, registers the store contract as vitest `describe`
 * blocks: exactly-once events (also within a batch; one transaction counts once under any id), transfers (and the later events of the subscriptions they moved, also in a store imported from an export), aliases (one person under several ids), the bulk import (a session folding each person once, equal to applyEvents), activity, reads in code point order, the
 * at-risk query (filters, order, keyset paging, default minimum score, rows moving with time, the
 * sweep, configuration changes), `ensureConfig` (one rescore per configuration change, with progress), records, replay (which merges persons stored apart, when the factory can store them: `storeApart`), the dispatch log (also by customer, since a time, and its tally), a customer's timeline, the daily snapshots, and a model-based test checking
 * arbitrary histories against the core's reducers and `selectAtRisk`. Call it at the top level of a
 * test file.
 *
 * @example
 * describeStoreContract('sqlite', {
 *   open: () => openSqliteStore({ path: tempFile() }),
 *   cleanup: async (store) => rm(pathOf(store)),
 * });
 */
export function describeStoreContract(name: string, factory: StoreFactory, options?: StoreContractOptions): void {
  const resolved = resolveContractOptions(options);
  describe(`store contract: ${name}`, () => {
    describeEventsContract(factory, resolved);
    describeOccurrenceContract(factory, resolved);
    describeTransferContract(factory, resolved);
    describeMovedSubscriptionContract(factory, resolved);
    describeRoutesExportContract(factory, resolved);
    describeAliasContract(factory, resolved);
    describeImportContract(factory, resolved);
    describeAtRiskContract(factory, resolved);
    describeRecordsContract(factory, resolved);
    describeReplayMergeContract(factory, resolved);
    describeDispatchLogContract(factory, resolved);
    describeTimelineContract(factory, resolved);
    describeCheckpointContract(factory, resolved);
    describeConfigContract(factory, resolved);
    describeModelContract(factory, resolved);
  });
}
