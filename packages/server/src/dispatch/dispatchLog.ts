/**
 * The dispatch log port: every delivery attempt, plus the cooldown marks that stop the same alert
 * from going out twice. In memory here; durable variants implement the same port later.
 */
import type { Action, DeliveryChannel, Urgency } from '@tenure/core';

/**
 * What happened to one attempt. `retrying` is a failed attempt that will be tried again.
 *
 * @example
 * DISPATCH_OUTCOMES.includes(record.outcome); // true
 */
export const DISPATCH_OUTCOMES = ['sent', 'retrying', 'failed', 'logged', 'skipped_cooldown', 'skipped_no_notifier'] as const;
export type DispatchOutcome = (typeof DISPATCH_OUTCOMES)[number];

/** Why a dispatch ran: a batch pass (`POST /api/dispatch`) or a webhook that raised an immediate alert. */
export type DispatchTrigger = 'batch' | 'webhook';

/** One line of the dispatch log. `at` is the service clock's time (epoch ms). */
export interface DispatchRecord {
  id: number;
  at: number;
  customer_id: string;
  action: Action;
  urgency: Urgency;
  risk_score: number;
  channel: DeliveryChannel;
  outcome: DispatchOutcome;
  /** 1 for the first attempt; 0 when nothing was attempted (logged, skipped). */
  attempt: number;
  error: string | null;
  trigger: DispatchTrigger;
}

/** A page of the log, newest first; pass `next_cursor` back as `before` for the next page. */
export interface DispatchPage {
  items: DispatchRecord[];
  next_cursor: number | null;
}

/**
 * The dispatch log port: append-only attempt records (newest-first pages) and cooldown marks.
 * Claiming a cooldown must be atomic, since batch and auto-dispatch can race for the same alert.
 */
export interface DispatchLog {
  append(entry: Omit<DispatchRecord, 'id'>): Promise<DispatchRecord>;
  /** Newest first, records with `id < before` when given. */
  list(page: { limit: number; before?: number }): Promise<DispatchPage>;
  /** Marks `key` as alerted until `now + cooldownMs`; false (and no change) if it already is. */
  claimCooldown(key: string, now: number, cooldownMs: number): Promise<boolean>;
  /** Drops the mark of `key` (after a failed delivery, so the next pass may try again). */
  releaseCooldown(key: string): Promise<void>;
}

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
      const record: DispatchRecord = { id: nextId++, ...entry };
      if (ring.length < capacity) ring.push(record);
      else {
        ring[start] = record;
        start = (start + 1) % capacity;
      }
      return record;
    },
    async list({ limit, before }) {
      const items: DispatchRecord[] = [];
      for (let i = ring.length - 1; i >= 0 && items.length < limit + 1; i--) {
        const record = ring[(start + i) % ring.length]!;
        if (before === undefined || record.id < before) items.push(record);
      }
      const more = items.length > limit;
      if (more) items.pop();
      return { items, next_cursor: more ? items[items.length - 1]!.id : null };
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
