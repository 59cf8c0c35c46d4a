/** The memory store's daily trend records: a Map by day, forgotten on exit like the rest of the store. */
import type { DailySnapshot, SnapshotStore } from '@tenure/core';

/**
 * Returns an empty in-memory `SnapshotStore`; each record is kept as a copy.
 *
 * @example
 * const snapshots = createMemorySnapshots();
 * await snapshots.put(snapshot); await snapshots.range('2026-11-01', '2026-11-30'); // [snapshot]
 */
export function createMemorySnapshots(): SnapshotStore {
  const byDay = new Map<string, string>();
  return {
    async put(snapshot) {
      byDay.set(snapshot.day, JSON.stringify(snapshot));
    },
    async range(from, to) {
      // Days are `YYYY-MM-DD`: text order is day order. At most one record per day, so this is small.
      return [...byDay.keys()]
        .filter((day) => day >= from && day <= to)
        .sort()
        .map((day) => JSON.parse(byDay.get(day)!) as DailySnapshot);
    },
  };
}
