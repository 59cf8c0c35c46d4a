/**
 * The background sweep of the at-risk index: scores move with time alone (inactivity, trial
 * progress, a period about to end), so rows whose `rescore_at` has passed are re-materialized in
 * small batches between queries. Queries stay exact without it (the store refreshes what is due
 * before answering); the sweep keeps that due range small, so a query never pays for a backlog.
 */
import type { SubscriberStore, TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import { snapshotDue, takeDailySnapshot } from '../dashboard/dailySnapshots.js';
import { errorLine } from '../store/openStore.js';
import { storeContext } from '../store/storeContext.js';

export interface AtRiskSweepDeps {
  store: SubscriberStore;
  clock: Clock;
  config: TenureConfig;
  logger: Logger;
  /** Time between passes; 0 turns the sweep off. */
  intervalMs: number;
  /** Rows per `refreshDue` call (one transaction each). Default 1000. */
  batch?: number;
  /** Record the dashboard's daily trend figures (`takeDailySnapshot`) every `SNAPSHOT_EVERY_MS` of the service clock. Default true. */
  snapshots?: boolean;
}

export interface AtRiskSweep {
  /** Stops the timer and resolves once a pass in progress has finished (call before closing the store). */
  stop(): Promise<void>;
}

/** A pass goes on while batches come back full (a backlog after downtime), up to this many, then yields to the next tick. */
const MAX_BATCHES_PER_PASS = 50;
/** While the store keeps failing, repeat the warning once per this many failed passes. */
const REPEAT_WARNING_EVERY = 60;

/**
 * Given the store, clock, configuration, logger and interval, starts a timer (unref'd: it never
 * keeps the process alive) that calls `store.refreshDue(ctx, batch)` every `intervalMs`, and records
 * the dashboard's figures of the current UTC day (`store.snapshots`) every few minutes. A pass
 * never overlaps the previous one; failures are logged at warn and retried on the next tick.
 *
 * @example
 * const sweep = startAtRiskSweep({ store, clock, config, logger, intervalMs: 1000 });
 * await sweep.stop(); // before store.close()
 */
export function startAtRiskSweep(deps: AtRiskSweepDeps): AtRiskSweep {
  if (!(deps.intervalMs >= 0) || !Number.isFinite(deps.intervalMs)) throw new RangeError(`sweepIntervalMs must be a number >= 0, got ${deps.intervalMs}`);
  if (deps.intervalMs === 0) return { stop: () => Promise.resolve() };
  const batch = deps.batch ?? 1000;
  let stopped = false;
  let running: Promise<void> | undefined;
  let failures = 0;
  let snapshotAt: number | null = null;

  const pass = async () => {
    try {
      let refreshed = 0;
      for (let i = 0; i < MAX_BATCHES_PER_PASS && !stopped; i++) {
        const n = await deps.store.refreshDue(storeContext(deps), batch);
        refreshed += n;
        if (n < batch) break;
        await new Promise((resolve) => setImmediate(resolve)); // let requests in between batches
      }
      const ctx = storeContext(deps);
      if (deps.snapshots !== false && snapshotDue(snapshotAt, ctx.now)) {
        await deps.store.snapshots.put(await takeDailySnapshot(deps.store, ctx));
        snapshotAt = ctx.now;
      }
      if (failures > 0) deps.logger.info({ failed_passes: failures }, 'at-risk sweep recovered');
      failures = 0;
      if (refreshed > 0) deps.logger.debug({ refreshed }, 'at-risk sweep');
    } catch (error) {
      if (failures++ % REPEAT_WARNING_EVERY === 0) deps.logger.warn({ err: errorLine(error), failed_passes: failures }, 'at-risk sweep failed; retrying on the next tick');
    }
  };

  const timer = setInterval(() => {
    if (running !== undefined || stopped) return; // the previous pass is still going: skip this tick
    running = pass().finally(() => (running = undefined));
  }, deps.intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
