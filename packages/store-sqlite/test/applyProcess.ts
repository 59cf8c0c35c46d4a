// A child process of sqliteProcesses.test.ts (run with tsx): opens the store, says "ready", waits
// for "go" on stdin, applies every event of the file and claims every cooldown key, then prints
// what it applied and claimed as one JSON line.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DEFAULT_CONFIG, type HandledEvent } from '@tenure/core';
import { openSqliteStore } from '../src/index.js';

const [path, eventsFile, keyCount] = process.argv.slice(2) as [string, string, string];
const events = JSON.parse(readFileSync(eventsFile, 'utf8')) as HandledEvent[];
const store = await openSqliteStore({ path, busyTimeoutMs: 30_000 });
const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
process.stdout.write('ready\n');
await go;
lines.close();

const now = events.reduce((max, e) => Math.max(max, e.event_timestamp_ms), 0);
let applied = 0;
for (const event of events) {
  if ((await store.applyEvent(event, { now, config: DEFAULT_CONFIG })).status === 'applied') applied++;
}
let claimed = 0;
for (let i = 0; i < Number(keyCount); i++) if (await store.dispatchLog.claimCooldown(`key${i}`, now, 60_000)) claimed++;
await store.close();
process.stdout.write(`${JSON.stringify({ applied, claimed })}\n`);
