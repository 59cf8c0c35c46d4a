#!/usr/bin/env node
/** The `tenure-billing-sim` bin: parses arguments, serves until SIGINT/SIGTERM, or replays a scenario. */
import { main } from './cliMain.js';
import type { RunningBillingSim } from './startBillingSim.js';

const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };

// Signal handlers before anything is printed: a supervisor may send SIGTERM as soon as it reads the
// "listening" line, and a signal without a handler would end the process at once (not gracefully).
let running: RunningBillingSim | undefined;
const shutdown = (signal: NodeJS.Signals) => {
  if (running === undefined) process.exit(signal === 'SIGINT' ? 130 : 143); // not serving: nothing to drain
  void running.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

void main(process.argv.slice(2), process.env, io).then((result) => {
  running = result.running;
  if (running === undefined) {
    process.exitCode = result.code;
    process.off('SIGINT', shutdown);
    process.off('SIGTERM', shutdown);
  }
});
