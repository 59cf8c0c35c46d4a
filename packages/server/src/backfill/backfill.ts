/**
 * `tenure backfill`: a project's customers read over API v2 into a store. Each page of customers
 * is read with every customer's subscriptions, transactions and one-time purchases, turned into
 * real-format webhook events (`deriveBackfillEvents`), checked by the core's `parseWebhook` like any
 * webhook and applied through the store in one transaction; then the cursor of the next page is
 * saved as a checkpoint in the same store. A backfill cut short (signal, `maxPages`, an API or
 * store failure) resumes from the last saved page; events have stable ids, so the page that was
 * being read when it stopped counts as duplicates the second time, never twice.
 */
import { parseWebhook, type HandledEvent, type SubscriberStore, type TenureConfig } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import { apiCustomerSchema } from './apiObjects.js';
import { ApiV2Error, type ApiV2Client, type ApiV2Stats } from './apiV2Client.js';
import { customerEvents } from './deriveBackfillEvents.js';
import { countCustomers, readCustomer, readPage } from './readCustomer.js';

/** The environments API v2 lists subscriptions and purchases of. */
export type BackfillEnvironment = 'production' | 'sandbox';

/** What a backfill did: `pages` and `customers` include the earlier runs it resumed from (kept in the checkpoint), the rest is this run's. */
export interface BackfillReport extends ApiV2Stats {
  project: string;
  environment: BackfillEnvironment;
  /** Customer pages and customers read; customers gone (404) between the list and their reads. */
  pages: number;
  customers: number;
  /** Customers read by the earlier runs this one resumed from. */
  resumed_customers: number;
  /** Customers in the list (counted first, or as told), earlier runs' included; null when unknown. */
  expected_customers: number | null;
  customers_gone: number;
  subscriptions: number;
  purchases: number;
  /** Events stored now, already stored, or of a type the core does not apply; events refused by `parseWebhook`. */
  new: number;
  duplicate: number;
  ignored: number;
  rejected: number;
  rejections: { customer_id: string; field: string; message: string }[];
  /** The cursor this run started from (a checkpoint), or null from the start. */
  resumed_from: string | null;
  /** Every page read (the checkpoint is removed); false when stopped early (the checkpoint is kept). */
  complete: boolean;
}

/** How to backfill. */
export interface BackfillOptions {
  project: string;
  environment?: BackfillEnvironment;
  clock: Clock;
  config: TenureConfig;
  /** Customers per page (API `limit`); default 100. */
  pageSize?: number;
  /** Stop (keeping the checkpoint) after this many pages in this run. */
  maxPages?: number;
  /** Called after each page is stored and checkpointed. */
  onPage?: (report: BackfillReport) => void;
  /** Stops between customers; what was stored stays, and the checkpoint says where to resume. */
  signal?: AbortSignal;
  /** Rejections kept in the report; default 1 000 (the count stays exact). */
  maxRejections?: number;
  /** Start from the first page, removing a checkpoint left by an earlier run. */
  restart?: boolean;
  /** How many customers the list holds, for progress; without it, `countFirst` counts them. */
  expectedCustomers?: number | null;
  /** Count the customers left before reading them (`countCustomers`), so progress can show an ETA. */
  countFirst?: boolean;
}

/** What the checkpoint holds: where to resume and the counts so far. */
interface Checkpoint {
  starting_after: string;
  pages: number;
  customers: number;
}

/**
 * Given the project and environment, returns the checkpoint's name in the store. Pure.
 *
 * @example
 * checkpointName('proj1', 'production'); // 'backfill:proj1:production'
 */
export const checkpointName = (project: string, environment: BackfillEnvironment): string => `backfill:${project}:${environment}`;

const readCheckpoint = (text: string | undefined): Checkpoint | null => {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text) as Partial<Checkpoint>;
    return typeof value.starting_after === 'string' ? { starting_after: value.starting_after, pages: Number(value.pages) || 0, customers: Number(value.customers) || 0 } : null;
  } catch {
    return null;
  }
};

/**
 * Given a store, an API client and the options, backfills the project and resolves with the report.
 * An API failure (`ApiV2Error`), a store failure or an aborted signal rejects; the pages before it
 * are stored and the checkpoint names the next one.
 *
 * @example
 * const report = await backfill(store, createApiV2Client({ baseUrl, apiKey }), { project: 'proj1', clock: wallClock(), config: DEFAULT_CONFIG });
 */
export async function backfill(store: SubscriberStore, api: ApiV2Client, options: BackfillOptions): Promise<BackfillReport> {
  const environment = options.environment ?? 'production';
  const name = checkpointName(options.project, environment);
  if (options.restart === true) await store.checkpoints.delete(name);
  const saved = readCheckpoint(await store.checkpoints.get(name));
  const maxRejections = options.maxRejections ?? 1_000;
  const report: BackfillReport = {
    project: options.project,
    environment,
    pages: saved?.pages ?? 0,
    customers: saved?.customers ?? 0,
    resumed_customers: saved?.customers ?? 0,
    expected_customers: options.expectedCustomers ?? null,
    customers_gone: 0,
    subscriptions: 0,
    purchases: 0,
    new: 0,
    duplicate: 0,
    ignored: 0,
    rejected: 0,
    rejections: [],
    resumed_from: saved?.starting_after ?? null,
    complete: false,
    ...api.stats(),
  };
  const listPath = `/projects/${encodeURIComponent(options.project)}/customers?limit=${options.pageSize ?? 100}`;
  let cursor = saved?.starting_after ?? null;
  let pagesThisRun = 0;
  /** The checkpoint's customer was deleted since: the list cannot resume after it. */
  const explain = (error: unknown): never => {
    if (cursor !== null && error instanceof ApiV2Error && error.kind === 'request' && error.param === 'starting_after') {
      throw new ApiV2Error('request', error.status, `the checkpoint's cursor (customer ${cursor}) is not in the list any more (${error.message}): run with --restart to start over`, error.param);
    }
    throw error;
  };
  if (report.expected_customers === null && options.countFirst === true) report.expected_customers = report.customers + (await countCustomers(api, options.project, cursor).catch(explain));
  for (;;) {
    if (options.maxPages !== undefined && pagesThisRun >= options.maxPages) break;
    options.signal?.throwIfAborted();
    const page = await readPage(api, listPath, cursor, apiCustomerSchema).catch(explain);
    if (page.next !== null && (page.next === cursor || page.items.length === 0)) throw new ApiV2Error('response', 200, `the customers list does not move past ${cursor ?? 'its first page'}`);
    const events: HandledEvent[] = [];
    for (const customer of page.items) {
      options.signal?.throwIfAborted();
      const history = await readCustomer(api, options.project, environment, customer);
      if (history === null) {
        report.customers_gone += 1;
        continue;
      }
      report.subscriptions += history.subscriptions.length;
      report.purchases += history.purchases.length;
      for (const event of customerEvents(history)) {
        const parsed = parseWebhook({ api_version: '1.0', event });
        if (!parsed.ok) {
          const [e] = parsed.errors;
          report.rejected += 1;
          if (report.rejections.length < maxRejections) report.rejections.push({ customer_id: customer.id, field: e?.field.replace(/^event\./, '') ?? 'event', message: e?.message ?? 'Invalid event' });
        } else if (!parsed.value.handled) report.ignored += 1;
        else events.push(parsed.value.event);
      }
    }
    if (events.length > 0) {
      for (const event of events) options.clock.observe?.(event.event_timestamp_ms);
      for (const status of await store.applyEvents(events, { now: options.clock.now(), config: options.config })) {
        if (status === 'applied') report.new += 1;
        else report.duplicate += 1;
      }
    }
    report.pages += 1;
    report.customers += page.items.length;
    pagesThisRun += 1;
    cursor = page.next;
    if (cursor === null) {
      await store.checkpoints.delete(name);
      report.complete = true;
    } else {
      const checkpoint: Checkpoint = { starting_after: cursor, pages: report.pages, customers: report.customers };
      await store.checkpoints.set(name, JSON.stringify(checkpoint));
    }
    Object.assign(report, api.stats());
    options.onPage?.(report);
    if (cursor === null) break;
  }
  Object.assign(report, api.stats());
  return report;
}
