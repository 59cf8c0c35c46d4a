/**
 * The timer port of webhook delivery. Real timers in production; a manual scheduler in tests, so the
 * retry schedule (minutes long) runs instantly and deterministically.
 */

/** Timers and a wall clock. */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Wall-clock time in epoch ms (the delivery log's timestamps). */
  now(): number;
}

/**
 * Returns the scheduler backed by Node's timers and `Date.now()`. Timers are unref'd so pending
 * retries never keep a process alive on their own.
 *
 * @example
 * createBillingSimulator({ scheduler: realScheduler() });
 */
export function realScheduler(): Scheduler {
  return {
    setTimeout(fn, ms) {
      const t = setTimeout(fn, ms);
      t.unref();
      return t;
    },
    clearTimeout(handle) {
      clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
    now: () => Date.now(),
  };
}

/** A scheduler whose time moves only when told to. */
export interface ManualScheduler extends Scheduler {
  /** Moves time forward by `ms`, running due timers in time order; returns how many ran. */
  advance(ms: number): number;
  /** Number of timers waiting. */
  pending(): number;
  /** Delay of the earliest waiting timer from now, or null. */
  nextDelay(): number | null;
}

/**
 * Returns a manual scheduler starting at `start` (epoch ms).
 *
 * @example
 * const scheduler = createManualScheduler(0);
 * scheduler.advance(5 * 60_000); // runs the first retry
 */
export function createManualScheduler(start = 0): ManualScheduler {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const earliest = () => {
    let best: [number, { at: number; fn: () => void }] | null = null;
    for (const entry of timers) if (best === null || entry[1].at < best[1].at) best = entry;
    return best;
  };
  return {
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    now: () => now,
    advance(ms) {
      const until = now + ms;
      let ran = 0;
      for (let e = earliest(); e !== null && e[1].at <= until; e = earliest()) {
        timers.delete(e[0]);
        now = e[1].at;
        e[1].fn();
        ran++;
      }
      now = until;
      return ran;
    },
    pending: () => timers.size,
    nextDelay() {
      const e = earliest();
      return e === null ? null : e[1].at - now;
    },
  };
}
