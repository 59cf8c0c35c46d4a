/**
 * A generated population written to an NDJSON history file as `tenure export` writes it, customer
 * by customer, without holding the population: the input of the backtest's bounded-memory row
 * (`tenure backtest FILE` in a child process, its peak RSS read from the kernel).
 */
import { createWriteStream } from 'node:fs';
import { generatePopulation } from '@tenure/billing-sim';
import { parseWebhook, toExportLine, type StoredRecord } from '@tenure/core';

/** What was written. */
export interface HistoryFileStats {
  customers: number;
  events: number;
  activity: number;
  bytes: number;
}

/**
 * Given a path and the population's options, writes its history (each webhook body as the event
 * `parseWebhook` reads, then activity reports, in time order per customer) and resolves with the
 * counts. `activityEvery` keeps one report in that many.
 *
 * @example
 * await writeHistoryFile('/tmp/h.ndjson', { customers: 200_000, months: 6, seed: 'bench' });
 */
export async function writeHistoryFile(path: string, options: { customers: number; months: number; seed: string; activityEvery?: number }): Promise<HistoryFileStats> {
  const out = createWriteStream(path);
  const stats: HistoryFileStats = { customers: 0, events: 0, activity: 0, bytes: 0 };
  const every = options.activityEvery ?? 1;
  let generated = 0;
  let chunk: string[] = [];
  const write = async (record: StoredRecord) => {
    const line = `${JSON.stringify(toExportLine(record))}\n`;
    stats.bytes += line.length;
    chunk.push(line);
    if (chunk.length >= 1000) {
      const text = chunk.join('');
      chunk = [];
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  };
  for (const c of generatePopulation(options)) {
    stats.customers += 1;
    let a = 0;
    const activityBefore = async (at: number) => {
      for (; a < c.activity.length && c.activity[a]! < at; a += 1) {
        generated += 1;
        if (generated % every !== 0) continue;
        await write({ kind: 'activity', customer_id: c.customer_id, at: c.activity[a]! });
        stats.activity += 1;
      }
    };
    for (const body of c.events) {
      const parsed = parseWebhook(body);
      if (!parsed.ok || !parsed.value.handled) throw new Error('population body not a handled event');
      await activityBefore(parsed.value.event.event_timestamp_ms);
      await write({ kind: 'event', event: parsed.value.event });
      stats.events += 1;
    }
    await activityBefore(Infinity);
  }
  out.write(chunk.join(''));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return stats;
}
