/**
 * @tenure/store-contract: the one vitest suite every tenure `SubscriberStore` runs, plus the pieces
 * a store's own tests may reuse. Every export is listed here by hand.
 */
export { describeStoreContract } from './describeStoreContract.js';
export { withStore, resolveContractOptions } from './storeFactory.js';
export type { StoreFactory, StoreContractOptions, ResolvedContractOptions } from './storeFactory.js';
export { T0, HOUR_MS, DAY_MS, CUSTOMER_IDS, buildEvent, eventFactory, collect, byCustomerId, listAll } from './storeFixtures.js';
export type { EventFields } from './storeFixtures.js';
export { expectAtRiskPage, expectAtRiskPages, viewOfEntry, viewOfAssessment } from './atRiskReference.js';
export type { AtRiskItemView } from './atRiskReference.js';
export { emptyModel, contextOf, applyToModel, recordActivityInModel } from './storeModel.js';
export type { StoreModel } from './storeModel.js';
export { eventSpecArb, customerArb, STRICT_CONFIG } from './modelContract.js';
export { eventOf } from './storeCommands.js';
export type { EventSpec } from './storeCommands.js';
