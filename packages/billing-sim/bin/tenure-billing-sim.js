#!/usr/bin/env node
// The tenure-billing-sim CLI: loads the build. npm links this committed file at install, before the build
// creates dist/, so the bin exists in a fresh clone; until the build has run, it says so.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('tenure-billing-sim: the package is not built yet; run `npm run build` (npm install runs it)');
  process.exit(1);
}
await import(cli.href);
