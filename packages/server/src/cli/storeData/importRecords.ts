/**
 * Reading `tenure import`'s NDJSON into a store: each line parsed with the core's
 * `parseExportLine`, events applied in batches (one transaction each, duplicates counted, never
 * applied twice), activity applied per customer, moved subscriptions' routes restored in file order
 * (those lines apply to the event lines after them: `tenure export` writes them last), and every
 * rejected line kept with its number and reason. Idempotent: importing the same lines again changes
 * nothing.
 */
import type { HandledEvent, MovedSubscription, StoreContext, Subscriber, SubscriberStore, TenureConfig } from '@tenure/core';
import type { Clock } from '../../clock/clock.js';
import { parseImportLine } from './parseImportLine.js';
import { heldElsewhereListener, type HeldElsewhereTally } from '../../import/heldElsewhere.js';

/** Activity calls in flight at once (different customers). */
const ACTIVITY_CONCURRENCY = 16;

/** One line that was not imported, numbered from 1 like an editor. */
export interface Rejection {
  line: number;
  field: string;
  message: string;
}

/**
 * What an import did. `rejections` holds the first `maxRejections`; `rejected` counts them all.
 * `held_elsewhere` counts the duplicates dropped because another customer holds their transaction
 * (the first ones in `held_elsewhere_examples`).
 */
export interface ImportReport extends HeldElsewhereTally {
  /** Non-blank lines read. */
  lines: number;
  /** Events stored now. */
  new: number;
  /** Events whose id was already stored (or earlier in the file). */
  duplicate: number;
  /** Well-formed events of a type tenure does not apply (e.g. TRANSFER): accepted, nothing stored. */
  ignored: number;
  /** Activity lines applied to a stored customer. */
  activity: number;
  /** Moved-subscription lines restored (`restoreMovedSubscriptions`; a route already held counts too). */
  routes: number;
  rejected: number;
  rejections: Rejection[];
  /** Rejections counted but not listed (past `maxRejections`). */
  rejections_omitted: number;
}

/** How to import. */
export interface ImportOptions {
  /** `now` of each write (read per batch); `observe` sees every event time and activity time. */
  clock: Clock;
  config: TenureConfig;
  /** Events per `applyEvents` transaction; default 1 000. */
  batchSize?: number;
  /** Rejections kept for the report; default 10 000 (the count stays exact). */
  maxRejections?: number;
  /** Called after each batch with the report so far and the 1-based number of the last line read. */
  onBatch?: (report: ImportReport, line: number) => void;
  /** Stops between batches with the signal's reason; what was written before stays. */
  signal?: AbortSignal;
}

/**
 * An import stopped by a store error or a signal: the report of what was committed, and the number
 * of the last line read.
 *
 * @example
 * catch (error) { if (error instanceof ImportInterrupted) console.error(`stopped at line ${error.line}: ${error.report.new} new`); }
 */
export class ImportInterrupted extends Error {
  constructor(
    readonly report: ImportReport,
    readonly line: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ImportInterrupted';
  }
}

/** The latest activity of one customer in a batch, and every line that reported it. */
interface PendingActivity {
  lines: number[];
  customer_id: string;
  at: number;
}

/**
 * Given a store, the lines of an export (as text, without line ends) and the options, imports them
 * and resolves with the report. Activity for a customer the store does not have yet is retried
 * after every event line, so the order of the lines does not matter. A store error or an aborted
 * signal rejects with `ImportInterrupted` carrying the report so far.
 *
 * @example
 * const report = await importRecords(store, readLines(file), { clock: wallClock(), config: DEFAULT_CONFIG });
 * report.new; // 120
 */
export async function importRecords(store: SubscriberStore, lines: AsyncIterable<string>, options: ImportOptions): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 1_000;
  const maxRejections = options.maxRejections ?? 10_000;
  const report: ImportReport = { lines: 0, new: 0, duplicate: 0, ignored: 0, activity: 0, routes: 0, rejected: 0, rejections: [], rejections_omitted: 0, held_elsewhere: 0, held_elsewhere_examples: [] };
  const context = (): StoreContext => ({ now: options.clock.now(), config: options.config });
  const reject = (line: number, field: string, message: string) => {
    report.rejected += 1;
    if (report.rejections.length < maxRejections) report.rejections.push({ line, field, message });
    else report.rejections_omitted += 1;
  };

  let events: HandledEvent[] = [];
  let routes: MovedSubscription[] = [];
  // Latest time per customer: one call per customer per batch, so no two calls race for one row.
  let activity = new Map<string, PendingActivity>();
  const unknown: PendingActivity[] = [];
  let lineNo = 0;

  const flushEvents = async () => {
    if (events.length === 0) return;
    const statuses = await store.applyEvents(events, context(), heldElsewhereListener(report, events));
    for (const status of statuses) {
      if (status === 'applied') report.new += 1;
      else report.duplicate += 1;
    }
    events = [];
  };
  const flushRoutes = async () => {
    if (routes.length === 0) return;
    await store.restoreMovedSubscriptions(routes);
    report.routes += routes.length;
    routes = [];
  };
  const applyActivity = async (items: Iterable<PendingActivity>, last: boolean) => {
    const ctx = context();
    const all = [...items];
    const results: (Subscriber | undefined)[] = [];
    // A few calls in flight hide a database round trip; each is its own short transaction.
    for (let i = 0; i < all.length; i += ACTIVITY_CONCURRENCY) {
      const slice = all.slice(i, i + ACTIVITY_CONCURRENCY);
      results.push(...(await Promise.all(slice.map((a) => store.recordActivity(a.customer_id, a.at, ctx)))));
    }
    results.forEach((subscriber, i) => {
      const a = all[i] as PendingActivity;
      if (subscriber !== undefined) report.activity += a.lines.length;
      else if (!last) unknown.push(a);
      else {
        const message = `No events of customer "${a.customer_id}" in the store or the file: activity is kept only for known customers`;
        for (const line of a.lines) reject(line, 'activity.customer_id', message);
      }
    });
  };
  const flush = async () => {
    options.signal?.throwIfAborted();
    await flushEvents();
    await flushRoutes();
    if (activity.size > 0) {
      const pending = activity.values();
      activity = new Map();
      await applyActivity(pending, false);
    }
    options.onBatch?.(report, lineNo);
  };

  try {
    for await (const raw of lines) {
      lineNo += 1;
      const line = parseImportLine(raw, lineNo);
      if (line.kind === 'blank') continue;
      report.lines += 1;
      if (line.kind === 'rejected') {
        reject(lineNo, line.field, line.message);
        continue;
      }
      if (line.kind === 'ignored') {
        report.ignored += 1;
        continue;
      }
      if (line.kind === 'moved_subscription') {
        // A route applies to the events after it, never to those before it: they are stored first.
        await flushEvents();
        routes.push(line.route);
        if (routes.length >= batchSize) await flush();
        continue;
      }
      const record = line.record;
      if (record.kind === 'event') {
        await flushRoutes(); // and the events after a route are routed by it
        options.clock.observe?.(record.event.event_timestamp_ms);
        events.push(record.event);
      } else {
        options.clock.observe?.(record.at);
        const seen = activity.get(record.customer_id);
        // Only the latest time of a customer matters: recordActivity keeps the maximum.
        if (seen === undefined) activity.set(record.customer_id, { lines: [lineNo], customer_id: record.customer_id, at: record.at });
        else {
          seen.lines.push(lineNo);
          seen.at = Math.max(seen.at, record.at);
        }
      }
      if (events.length >= batchSize || activity.size >= batchSize) await flush();
    }
    await flush();
    if (unknown.length > 0) {
      // Customers whose events came after their activity line exist now; the rest never will.
      const retry = new Map<string, PendingActivity>();
      for (const a of unknown.splice(0)) {
        const seen = retry.get(a.customer_id);
        if (seen === undefined) retry.set(a.customer_id, a);
        else retry.set(a.customer_id, { customer_id: a.customer_id, at: Math.max(seen.at, a.at), lines: [...seen.lines, ...a.lines] });
      }
      await applyActivity(retry.values(), true);
      options.onBatch?.(report, lineNo);
    }
    report.rejections.sort((a, b) => a.line - b.line);
    return report;
  } catch (error) {
    throw new ImportInterrupted(report, lineNo, error);
  }
}
