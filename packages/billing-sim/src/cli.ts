#!/usr/bin/env node
/** The `tenure-billing-sim` bin: parses arguments, serves until SIGINT/SIGTERM, or replays a scenario. */
import { main } from './cliMain.js';

const io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) };

void main(process.argv.slice(2), process.env, io).then(({ code, running }) => {
  if (running === undefined) {
    process.exitCode = code;
    return;
  }
  const shutdown = () => {
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
});
