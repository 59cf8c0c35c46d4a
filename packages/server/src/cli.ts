#!/usr/bin/env node
/** The `tenure` bin. All logic is in cli/runCli.ts; this file only binds it to the process. */
import { runCli } from './cli/runCli.js';

void runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(({ code, running }) => {
  process.exitCode = code;
  // With a running server, the process exits by itself once a signal has closed everything.
  void running;
});
