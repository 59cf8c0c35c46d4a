/** `tenure replay`: every projection rebuilt from the stored events, while the store stays in use. */
import type { SubscriberStore } from '@tenure/core';
import { clockFromSpec } from '../../clock/clock.js';
import type { DataArgs } from './dataArgs.js';
import { progressDisplay, type DataIo } from './dataIo.js';
import { createProgressReporter, formatCount, formatDuration, formatRate } from './progressReporter.js';

/**
 * Given an open store, the parsed arguments and the io, replays the store at the clock's `now` under
 * the arguments' rules (the configuration file's, else the defaults) and resolves with the exit code (0, or throws what failed).
 *
 * @example
 * const code = await runReplay(store, args, io);
 */
export async function runReplay(store: SubscriberStore, args: DataArgs, io: DataIo): Promise<number> {
  const events = await store.eventCount();
  const progress = createProgressReporter({ label: 'replay', unit: 'subscribers', write: io.stderr, ...progressDisplay(io) });
  const now = clockFromSpec(args.clock).now();
  const rebuilt = await store.replay({ now, config: args.config }, (done, total) => progress.update(done, total));
  const ms = progress.elapsedMs();
  progress.finish(
    `replay: ${formatCount(rebuilt)} subscribers rebuilt from ${formatCount(events)} events in ${formatDuration(ms)} (${formatRate(events, ms, 'events')}, ${formatRate(rebuilt, ms, 'subscribers')})`,
  );
  return 0;
}
