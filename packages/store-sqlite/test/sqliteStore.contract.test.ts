// The shared store contract, against a fresh SQLite file per store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeStoreContract } from '@tenure/store-contract';
import { openSqliteStore, type SqliteStore } from '../src/index.js';

describeStoreContract<SqliteStore>('sqlite', {
  open: () => openSqliteStore({ path: join(mkdtempSync(join(tmpdir(), 'tenure-contract-')), 'tenure.db') }),
  cleanup: async (store) => rmSync(dirname(store.path), { recursive: true, force: true }),
});
