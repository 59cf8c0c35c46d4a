/**
 * @tenure/store-sqlite: tenure's embedded durable store. The webhook event log, the subscriber
 * projections, the at-risk index, the dispatch log and cooldowns in one SQLite file (better-sqlite3,
 * WAL). Every export is listed here by hand.
 */
export { openSqliteStore } from './openSqliteStore.js';
export type { SqliteStore, SqliteStoreOptions } from './openSqliteStore.js';
export { SCHEMA_VERSION } from './internal/migrations.js';
