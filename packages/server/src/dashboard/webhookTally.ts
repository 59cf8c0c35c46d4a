/**
 * Webhooks received and rejected in the last hour, counted by this process (they start at zero on
 * every restart): 60 one-minute buckets on monotonic time, so counting is two array writes.
 */

/** Counts of the last hour. */
export interface WebhookCounts {
  received: number;
  rejected: number;
}

/** A rolling one-hour count of webhook answers. */
export interface WebhookTally {
  /** Counts one answered webhook: rejected when its status is 400 or more. */
  record(status: number): void;
  /** The sums over the last 60 minutes (the current minute included). */
  lastHour(): WebhookCounts;
}

const MINUTES = 60;
const MINUTE_MS = 60_000;

/**
 * Given a monotonic time source in ms (default `performance.now`), returns an empty tally. Not pure:
 * it keeps counts.
 *
 * @example
 * const tally = createWebhookTally();
 * tally.record(200); tally.record(401);
 * tally.lastHour(); // { received: 2, rejected: 1 }
 */
export function createWebhookTally(now: () => number = () => performance.now()): WebhookTally {
  const minuteOf = new Float64Array(MINUTES).fill(-1);
  const received = new Uint32Array(MINUTES);
  const rejected = new Uint32Array(MINUTES);
  const slot = (): number => {
    const minute = Math.floor(now() / MINUTE_MS);
    const i = minute % MINUTES;
    if (minuteOf[i] !== minute) {
      minuteOf[i] = minute;
      received[i] = 0;
      rejected[i] = 0;
    }
    return i;
  };
  return {
    record(status) {
      const i = slot();
      received[i]! += 1;
      if (status >= 400) rejected[i]! += 1;
    },
    lastHour() {
      const current = Math.floor(now() / MINUTE_MS);
      const counts = { received: 0, rejected: 0 };
      for (let i = 0; i < MINUTES; i++) {
        const minute = minuteOf[i]!;
        if (minute < 0 || current - minute >= MINUTES) continue;
        counts.received += received[i]!;
        counts.rejected += rejected[i]!;
      }
      return counts;
    },
  };
}
