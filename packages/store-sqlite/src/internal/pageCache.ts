/**
 * The size of the store connection's page cache, by the size of the file.
 *
 * SQLite's B-tree balancing (`balance_nonroot`) swaps two pages' numbers through a temporary number,
 * the page holding the lock byte at 1 GiB (`PENDING_BYTE`: page 262,145 at 4 KiB pages), and the
 * page cache then remembers that number as its largest key. When a write transaction ends, the pager
 * drops cached pages past the end of the file (`sqlite3PcacheTruncate`); with a largest key far past
 * the end, `pcache1TruncateUnsafe` walks its whole hash table, every cached page. In a file smaller
 * than 1 GiB that walk follows almost every commit that split a page (webhook ingest: most), and it
 * costs in proportion to the cache: at 64 MiB (16,384 pages) it was 19 % of a bare SQLite insert loop
 * of 20 rows a commit and ~7 % of `tenure serve`'s ingest on SQLite (perf, SQLite 3.53.2 as
 * better-sqlite3 12 bundles it, 2026-12-02). From 1 GiB on, the temporary number lies inside the file
 * and nothing is walked.
 *
 * So below 1 GiB the cache is sized to the file, a thirty-second of it (the interior pages of its
 * indexes, about 2 % at 50–80 entries a page, and the hottest leaves; a file this small is in the
 * operating system's page cache anyway), between SQLite's default of 2 MiB and 32 MiB; from 1 GiB,
 * where the walk never happens and the interior pages alone outgrow a small cache, 64 MiB.
 */
import type Database from 'better-sqlite3';

/** SQLite's lock byte (`PENDING_BYTE`): the page holding it is the temporary number of a page swap. */
export const LOCK_BYTE_OFFSET = 0x4000_0000;

const KIB = 1024;
const MIN_CACHE_KIB = 2 * 1024;
const SMALL_FILE_MAX_CACHE_KIB = 32 * 1024;
/** Page cache from 1 GiB on: enough for the hot index pages, small next to the 250 MB budget. */
export const LARGE_FILE_CACHE_KIB = 64 * 1024;

/**
 * Given a file's page count and page size, returns the page cache for it in KiB (see the module
 * header): a thirty-second of the file between 2 and 32 MiB below 1 GiB, 64 MiB from there on.
 *
 * @example
 * pageCacheKib(25_000, 4096); // 3125: a 100 MB file
 * pageCacheKib(300_000, 4096); // 65536: past the lock byte
 */
export function pageCacheKib(pages: number, pageSize: number): number {
  const bytes = pages * pageSize;
  if (bytes > LOCK_BYTE_OFFSET) return LARGE_FILE_CACHE_KIB;
  return Math.min(SMALL_FILE_MAX_CACHE_KIB, Math.max(MIN_CACHE_KIB, Math.ceil(bytes / 32 / KIB)));
}

/**
 * Given an open connection, returns a function that sets its page cache to `pageCacheKib` of the
 * file's current size, running `PRAGMA cache_size` only when that changes (the store calls it at
 * open and whenever the WAL checkpointer lets commits go, so the cache follows the file's growth).
 */
export function pageCacheSizer(db: Database.Database): () => void {
  // Fixed once the file has a page (in WAL mode it can never change).
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  let set = 0;
  return () => {
    if (!db.open) return;
    const pages = db.pragma('page_count', { simple: true }) as number;
    const kib = pageCacheKib(pages, pageSize);
    if (kib === set) return;
    db.pragma(`cache_size = -${kib}`);
    set = kib;
  };
}
