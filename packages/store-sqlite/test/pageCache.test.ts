// The store connection's page cache follows the file's size (internal/pageCache.ts): small below the
// 1 GiB lock byte, where SQLite walks the whole cache after most commits, 64 MiB from there on.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { LARGE_FILE_CACHE_KIB, LOCK_BYTE_OFFSET, pageCacheKib, pageCacheSizer } from '../src/internal/pageCache.js';
import { tempDbPath } from './helpers.js';

const PAGE_SIZES = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536] as const;

describe('pageCacheKib', () => {
  it('gives a small file SQLite’s default 2 MiB, a larger one a thirty-second of it, at most 32 MiB below 1 GiB', () => {
    expect(pageCacheKib(0, 4096)).toBe(2048);
    expect(pageCacheKib(10_000, 4096)).toBe(2048); // 40 MB
    expect(pageCacheKib(25_000, 4096)).toBe(3125); // 100 MB
    expect(pageCacheKib(200_000, 4096)).toBe(25_000); // 800 MB
    expect(pageCacheKib(262_144, 4096)).toBe(32 * 1024); // exactly 1 GiB: the lock byte's page is still past the end
  });

  it('gives 64 MiB once the lock byte’s page is inside the file, at every page size', () => {
    for (const size of PAGE_SIZES) {
      const lockPage = LOCK_BYTE_OFFSET / size + 1;
      expect(pageCacheKib(lockPage - 1, size)).toBeLessThanOrEqual(32 * 1024);
      expect(pageCacheKib(lockPage, size)).toBe(LARGE_FILE_CACHE_KIB);
    }
  });

  it('never shrinks as the file grows and stays between 2 and 64 MiB (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PAGE_SIZES), fc.nat(1 << 24), fc.nat(1 << 24), (size, a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        const kib = pageCacheKib(small, size);
        expect(kib).toBeGreaterThanOrEqual(2048);
        expect(pageCacheKib(large, size)).toBeLessThanOrEqual(LARGE_FILE_CACHE_KIB);
        expect(pageCacheKib(large, size)).toBeGreaterThanOrEqual(kib);
      }),
    );
  });
});

describe('pageCacheSizer', () => {
  const open: Database.Database[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });

  it('sets the connection’s cache to the file’s size and follows it as the file grows', () => {
    const db = new Database(tempDbPath());
    open.push(db);
    db.pragma('journal_mode = WAL');
    const size = pageCacheSizer(db);
    size();
    expect(db.pragma('cache_size', { simple: true })).toBe(-2048);
    // 96 MiB of rows: a thirty-second of the file is 3 MiB and more.
    db.exec('CREATE TABLE pad (b BLOB)');
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO pad (b) VALUES (zeroblob(1048576))');
      for (let i = 0; i < 96; i += 1) insert.run();
    })();
    size();
    const pages = db.pragma('page_count', { simple: true }) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    expect(pages * pageSize).toBeGreaterThan(96 * 1024 * 1024);
    expect(db.pragma('cache_size', { simple: true })).toBe(-Math.ceil((pages * pageSize) / 32 / 1024));
    expect(-(db.pragma('cache_size', { simple: true }) as number)).toBeGreaterThan(3 * 1024);
  });

  it('does nothing on a closed connection', () => {
    const db = new Database(tempDbPath());
    const size = pageCacheSizer(db);
    db.close();
    expect(() => size()).not.toThrow();
  });
});
