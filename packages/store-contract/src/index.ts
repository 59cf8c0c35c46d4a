/**
 * @tenure/store-contract: the one vitest suite every tenure `SubscriberStore` runs, plus the pieces
 * a store's own tests reuse (real-format events, the at-risk reference check, the model's event
 * generator). Every export is listed here by hand.
 */
export { describeStoreContract } from './describeStoreContract.js';
export { withStore } from './storeFactory.js';
export type { StoreFactory, StoreContractOptions, PersonStoredApart } from './storeFactory.js';
export { T0, HOUR_MS, DAY_MS, CUSTOMER_IDS, buildEvent, eventFactory, collect, byCustomerId, listAll } from './storeFixtures.js';
export type { EventFields } from './storeFixtures.js';
export { expectAtRiskPage, expectAtRiskPages } from './atRiskReference.js';
export { UPGRADE_HISTORY, UPGRADED_KEYS, VERSION_7_KEYS, expectUpgradedOccurrences } from './occurrenceUpgrade.js';
export { ANON_HISTORY, expectRefoldsWithoutSeqIndex } from './eventIndexDrop.js';
export { eventSpecArb, customerArb, STRICT_CONFIG } from './modelContract.js';
export { eventOf } from './storeCommands.js';
export { transferEvent } from './transferContract.js';
export type { EventSpec } from './storeCommands.js';
