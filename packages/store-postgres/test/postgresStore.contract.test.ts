// The shared store contract (memory, SQLite and PostgreSQL run the same suite), each store in a
// schema of its own that is dropped after it.
import { describeStoreContract } from '@tenure/store-contract';
import type { PostgresStore } from '../src/index.js';
import { storeApart } from './storeApart.js';
import { describePostgres, dropSchema, freshSchema, openTestStore } from './testDatabase.js';

describePostgres('PostgreSQL store', () => {
  describeStoreContract(
    'postgres',
    {
      open: () => openTestStore(freshSchema('contract')),
      cleanup: (store) => dropSchema((store as PostgresStore).schema),
      storeApart: (store, persons) => storeApart((store as PostgresStore).schema, persons),
    },
    // Each model run opens a schema of its own, and its events now link ids (merges re-fold in the
    // database): a model test takes ~50 s alone on a shared 2-core machine, over the default 60 s under load.
    { timeoutMs: 150_000 },
  );
});
