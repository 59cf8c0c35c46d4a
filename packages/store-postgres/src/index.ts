/**
 * @tenure/store-postgres: tenure's store for several replicas on one PostgreSQL database. Every
 * export is listed here by hand.
 */
export { openPostgresStore } from './openPostgresStore.js';
export type { PostgresStore, PostgresStoreOptions } from './openPostgresStore.js';
export { PostgresStoreError } from './postgresStoreError.js';
