// The shared store contract (memory, SQLite and PostgreSQL run the same suite), each store in a
// schema of its own that is dropped after it.
import { describeStoreContract } from '@tenure/store-contract';
import type { PostgresStore } from '../src/index.js';
import { describePostgres, dropSchema, freshSchema, openTestStore } from './testDatabase.js';

describePostgres('PostgreSQL store', () => {
  describeStoreContract('postgres', {
    open: () => openTestStore(freshSchema('contract')),
    cleanup: (store) => dropSchema((store as PostgresStore).schema),
  });
});
