/**
 * The server bench's webhook handler alone, for before/after comparisons (issue #21): `handleWebhook`
 * in process (no HTTP) with the runtime `tenure serve` builds (auth, UTF-8 check, `JSON.parse`,
 * `parseWebhook`, the store, metrics), over distinct ~1 KB real-format bodies (the server bench's,
 * as bytes), on a fresh memory store or SQLite file. The memory store gets one webhook at a time;
 * SQLite gets 20 at once, so its group commit batches about as many as under the HTTP bench's 50
 * connections (~19 a commit, counted 2026-11-28). Prints the CPU time per webhook (user + system,
 * every thread: the SQLite checkpointer's too) after a warm-up; every answer must be 200. Steadier
 * than the HTTP bench on a shared machine: no load generator, no sockets. Run from packages/bench:
 *   STORE=sqlite taskset -c 1 node --import tsx src/ingestInProcess.ts
 * Env: STORE (`memory`, `sqlite`), N (measured webhooks, 60,000), WARMN (warm-up webhooks, 20,000),
 * PER (events per customer, 50), ORDER (`bursts`: each customer's events one after another, as the
 * HTTP bench posts them; `interleaved`: the first event of every customer, then every second one, ...,
 * so no commit holds two events of one customer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRetentionRequestListener, eventClock, handleWebhook, openStore, parseStoreSpec } from '@tenure/server';
import { WEBHOOK_AUTH } from './http/webhookLoad.js';
import { syntheticWebhookStrings } from './syntheticEvents.js';

const kind = process.env['STORE'] ?? 'memory';
const measured = Number(process.env['N'] ?? 60_000);
const warmup = Number(process.env['WARMN'] ?? 20_000);
const per = Number(process.env['PER'] ?? 50);
const strings = syntheticWebhookStrings(measured + warmup, per);
const positions = strings.map((_, i) => i);
if (process.env['ORDER'] === 'interleaved') positions.sort((a, b) => (a % per) - (b % per) || a - b);
const bodies = positions.map((i) => Buffer.from(strings[i]!));
const dir = mkdtempSync(join(tmpdir(), 'tenure-ingest-'));
const parsed = parseStoreSpec(kind === 'memory' ? 'memory' : `sqlite:${join(dir, 'ingest.db')}`);
if (!parsed.ok) throw new Error(parsed.error);
const store = await openStore(parsed.spec);
const listener = createRetentionRequestListener({ webhookAuthKey: WEBHOOK_AUTH, store, clock: eventClock() });
const headers = { authorization: WEBHOOK_AUTH };
const inFlight = kind === 'memory' ? 1 : 20;

async function post(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += inFlight) {
    const batch = [];
    for (let j = i; j < Math.min(to, i + inFlight); j++) batch.push(handleWebhook(bodies[j]!, headers, listener.runtime));
    for (const result of await Promise.all(batch)) if (result.status !== 200) throw new Error(`answered ${result.status}: ${JSON.stringify(result.body)}`);
  }
}

await post(0, warmup);
const before = process.cpuUsage();
await post(warmup, warmup + measured);
const cpu = process.cpuUsage(before);
console.log(`ingest in process, ${kind}: ${((cpu.user + cpu.system) / measured).toFixed(1)} µs of CPU per webhook (${measured} after ${warmup} warm-up)`);
await listener.close();
rmSync(dir, { recursive: true, force: true });
