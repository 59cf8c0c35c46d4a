// The shared store contract, against a fresh SQLite file per store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SubscriberStore } from '@tenure/core';
import { describeStoreContract } from '@tenure/store-contract';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { storeApart } from './storeApart.js';

const dirs = new WeakMap<SubscriberStore, string>();

describeStoreContract('sqlite', {
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'tenure-contract-'));
    const store = await openSqliteStore({ path: join(dir, 'tenure.db') });
    dirs.set(store, dir);
    return store;
  },
  async cleanup(store) {
    const dir = dirs.get(store);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  },
  async storeApart(store, persons) {
    storeApart((store as SqliteStore).path, persons);
  },
});
