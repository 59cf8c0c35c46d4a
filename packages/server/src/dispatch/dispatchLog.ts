/**
 * The in-memory dispatch log (the port itself is declared in @tenure/core; durable stores
 * implement it beside their subscribers).
 */
import type { DispatchLog, DispatchRecord, DispatchTally } from '@tenure/core';

export { DISPATCH_OUTCOMES } from '@tenure/core';
export type { DispatchChannel, DispatchEntry, DispatchLog, DispatchOutcome, DispatchPage, DispatchQuery, DispatchRecord, DispatchTally, DispatchTrigger } from '@tenure/core';

/**
 * Returns an in-memory dispatch log keeping the latest `capacity` records (default 10 000) and the
 * cooldown marks (expired marks are pruned as new ones are claimed).
 *
 * @example
 * const log = createMemoryDispatchLog();
 * await log.claimCooldown('u1|winback|email', now, 86_400_000); // true, then false for 24 h
 */
export function createMemoryDispatchLog(capacity = 10_000): DispatchLog {
  // A ring buffer: appending at capacity overwrites the oldest record in O(1).
  const ring: DispatchRecord[] = [];
  let start = 0;
  const cooldowns = new Map<string, number>();
  let nextId = 1;
  let claimsSincePrune = 0;

  const prune = (now: number) => {
    for (const [key, until] of cooldowns) if (until <= now) cooldowns.delete(key);
  };

  return {
    async append(entry) {
      const id = nextId++;
      const record: DispatchRecord = { id, ...entry, delivery_id: entry.delivery_id === undefined ? id : entry.delivery_id, target: entry.target ?? null, detail: entry.detail ?? null, actor: entry.actor ?? null };
      if (ring.length < capacity) ring.push(record);
      else {
        ring[start] = record;
        start = (start + 1) % capacity;
      }
      return record;
    },
    async list({ limit, before, customer_id, since }) {
      // A scan of at most `capacity` records: the memory log is bounded, so no index is needed.
      const items: DispatchRecord[] = [];
      for (let i = ring.length - 1; i >= 0 && items.length < limit + 1; i--) {
        const record = ring[(start + i) % ring.length]!;
        if (before !== undefined && record.id >= before) continue;
        if (customer_id !== undefined && record.customer_id !== customer_id) continue;
        if (since !== undefined && record.at < since) continue;
        items.push(record);
      }
      const more = items.length > limit;
      if (more) items.pop();
      return { items, next_cursor: more ? items[items.length - 1]!.id : null };
    },
    async unfinished(limit) {
      // The newest record of each delivery, found from the newest end; the bounded ring is scanned.
      const newest = new Map<number, DispatchRecord>();
      for (let i = ring.length - 1; i >= 0; i--) {
        const record = ring[(start + i) % ring.length]!;
        if (record.delivery_id !== null && !newest.has(record.delivery_id)) newest.set(record.delivery_id, record);
      }
      return [...newest.values()]
        .filter((r) => r.outcome === 'pending' || r.outcome === 'retrying')
        .sort((a, b) => a.delivery_id! - b.delivery_id!)
        .slice(0, Math.max(0, Math.floor(limit)));
    },
    async delivery(deliveryId) {
      const records: DispatchRecord[] = [];
      for (let i = 0; i < ring.length; i++) {
        const record = ring[(start + i) % ring.length]!;
        if (record.delivery_id === deliveryId) records.push(record);
      }
      return records;
    },
    async tally(since) {
      const counts = new Map<string, DispatchTally>();
      for (const record of ring) {
        if (record.at < since) continue;
        const key = `${record.channel}|${record.outcome}`;
        const line = counts.get(key);
        if (line === undefined) counts.set(key, { channel: record.channel, outcome: record.outcome, count: 1 });
        else line.count += 1;
      }
      return [...counts.values()];
    },
    async claimCooldown(key, now, cooldownMs) {
      if (++claimsSincePrune >= 1000) {
        claimsSincePrune = 0;
        prune(now);
      }
      const until = cooldowns.get(key);
      if (until !== undefined && until > now) return false;
      cooldowns.set(key, now + cooldownMs);
      return true;
    },
    async releaseCooldown(key) {
      cooldowns.delete(key);
    },
  };
}
