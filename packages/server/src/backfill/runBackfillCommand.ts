/**
 * `tenure backfill`: parse, open the store the way `tenure import` does, run the backfill with
 * progress on stderr, and map failures to one line and an exit code (import's codes).
 */
import type { SubscriberStore } from '@tenure/core';
import { readRules } from '../config/readConfigFile.js';
import { clockFromSpec } from '../clock/clock.js';
import { progressDisplay, type DataIo } from '../cli/storeData/dataIo.js';
import { createProgressReporter, formatCount, formatDuration, formatRate } from '../cli/storeData/progressReporter.js';
import { errorLine, openStore, parseStoreSpec, redactStoreText, sandboxStoreSpec } from '../store/openStore.js';
import { interruptOnSignals } from '../cli/interruptSignal.js';
import { ApiV2Error, createApiV2Client } from './apiV2Client.js';
import { backfill, type BackfillReport } from './backfill.js';
import { BACKFILL_HELP, parseBackfillArgs, type BackfillArgs } from './backfillArgs.js';
import { otherEnvironmentLine, probeEnvironment, type EnvironmentProbe } from './probeEnvironment.js';

/**
 * Given a report and its duration, returns the summary for stderr. Pure.
 *
 * @example
 * formatBackfillReport(report, 65_000);
 * // backfill: 240 customers (3 pages) in 1m05s (4 customers/s): 250 subscriptions, 12 purchases; events 900 new, 0 duplicate, 0 ignored, 0 rejected; 760 requests, 3 rate-limited, 0 retried, waited 4.2s
 */
export function formatBackfillReport(r: BackfillReport, ms: number): string {
  const lines = [
    `backfill: ${formatCount(r.customers)} customers (${formatCount(r.pages)} pages) in ${formatDuration(ms)} (${formatRate(r.customers, ms, 'customers')}): ` +
      `${formatCount(r.subscriptions)} subscriptions, ${formatCount(r.purchases)} purchases; ` +
      `events ${formatCount(r.new)} new, ${formatCount(r.duplicate)} duplicate, ${formatCount(r.ignored)} ignored, ${formatCount(r.rejected)} rejected; ` +
      `${formatCount(r.requests)} requests, ${formatCount(r.rate_limited)} rate-limited, ${formatCount(r.retries)} retried, waited ${formatDuration(r.waited_ms)}` +
      (r.customers_gone > 0 ? `; ${formatCount(r.customers_gone)} customers gone before they were read` : '') +
      (r.resumed_from === null ? '' : `; resumed after customer ${r.resumed_from}`),
  ];
  for (const x of r.rejections.slice(0, 100)) lines.push(`  customer ${x.customer_id} (${x.field}): ${x.message}`);
  return lines.join('\n');
}

/** One line for an API failure: what went wrong and what to do. */
function failureLine(error: ApiV2Error, args: BackfillArgs): string {
  switch (error.kind) {
    case 'authentication':
      return `the API key was refused (${error.message}): check REVENUECAT_API_KEY`;
    case 'authorization':
      return `the API key may not read customers of project ${args.project} (${error.message}): give it read access to customer information`;
    case 'not_found':
      return `project ${args.project} not found at ${args.baseUrl} (${error.message})`;
    default:
      return `API v2 failed: ${error.message}`;
  }
}

/**
 * Given the arguments after `backfill`, the environment and the io, runs it and resolves with the
 * exit code: 0 done or stopped by `--max-pages`, 1 failed (one line) or some events were rejected
 * (listed; the others are stored), 2 bad flags, 130 interrupted.
 *
 * @example
 * const code = await runBackfillCommand(['--project', 'proj1'], process.env, io);
 */
export async function runBackfillCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: DataIo): Promise<number> {
  const fail = (code: number, message: string) => (io.stderr(`tenure backfill: ${message}\n`), code);
  const parsed = parseBackfillArgs(argv, env);
  if (!parsed.ok) return fail(2, `${parsed.error}\nSee: tenure backfill --help`);
  if (parsed.help) return io.stdout(BACKFILL_HELP), 0;
  const args = parsed.args;
  const rules = await readRules(args.configFile); // before anything opens: every problem listed
  if (!rules.ok) return io.stderr(`tenure backfill: ${rules.message}`), 2;
  const spec = parseStoreSpec(args.store);
  if (!spec.ok) return fail(1, `cannot open store ${redactStoreText(args.store)}: ${spec.error}`);
  if (spec.spec.kind === 'memory' || (spec.spec.kind === 'sqlite' && spec.spec.path === ':memory:')) {
    return fail(1, `the ${args.store} store lives inside one process, so a backfill into it would be lost; use --store sqlite:PATH or postgres://…`);
  }
  // Sandbox subscriptions go to the sandbox namespace, as sandbox webhooks do.
  const target = args.environment === 'sandbox' ? sandboxStoreSpec(spec.spec) : spec;
  if (!target.ok) return fail(1, `cannot open the sandbox store: ${target.error}`);
  // A wrong key or an unknown project is refused before the store is opened: nothing is written
  // (not even an empty SQLite file), and a checkpoint of an earlier run stays as it was.
  try {
    await createApiV2Client({ baseUrl: args.baseUrl, apiKey: args.apiKey, timeoutMs: args.timeoutMs }).get(`/projects/${encodeURIComponent(args.project)}/customers?limit=1`);
  } catch (error) {
    const why = error instanceof ApiV2Error ? failureLine(error, args) : `failed: ${errorLine(error)}`;
    return fail(1, `${why}. Nothing was written; a checkpoint of an earlier run is kept.`);
  }
  let store: SubscriberStore;
  try {
    store = await openStore(target.spec, { applicationName: 'tenure backfill' });
  } catch (error) {
    return fail(1, errorLine(error));
  }

  const interrupt = interruptOnSignals(io.handleSignals !== false);
  const progress = createProgressReporter({ label: 'backfill', unit: 'customers', write: io.stderr, ...progressDisplay(io) });
  let last: BackfillReport | undefined;
  const api = createApiV2Client({ baseUrl: args.baseUrl, apiKey: args.apiKey, timeoutMs: args.timeoutMs, signal: interrupt.signal });
  try {
    const report = await backfill(store, api, {
      project: args.project,
      environment: args.environment,
      clock: clockFromSpec(args.clock),
      config: rules.config,
      pageSize: args.pageSize,
      restart: args.restart,
      expectedCustomers: args.expectedCustomers,
      countFirst: true,
      ...(args.maxPages === null ? {} : { maxPages: args.maxPages }),
      signal: interrupt.signal,
      onPage: (r) => {
        last = r;
        // Rate and ETA from this run's customers; the detail shows the whole list.
        const total = r.expected_customers === null ? null : Math.max(0, r.expected_customers - r.resumed_customers);
        const of = r.expected_customers === null ? '' : ` of ${formatCount(r.expected_customers)}`;
        progress.update(r.customers - r.resumed_customers, total, `${formatCount(r.customers)}${of} customers, ${formatCount(r.new)} new events, ${formatCount(r.rate_limited)} rate-limited`);
      },
    });
    progress.finish(formatBackfillReport(report, progress.elapsedMs()));
    if (!report.complete) io.stderr(`tenure backfill: stopped after ${formatCount(args.maxPages ?? 0)} pages (--max-pages); run it again to resume from the checkpoint.\n`);
    // Customers but nothing to read in this environment: say what the other one holds, not a silent zero.
    let other: EnvironmentProbe | null = null;
    if (report.complete && report.customers > 0 && report.subscriptions + report.purchases === 0) {
      other = await probeEnvironment(api, args.project, args.environment === 'sandbox' ? 'production' : 'sandbox');
      const line = otherEnvironmentLine(args.environment, report.customers, other);
      if (line !== null) io.stderr(`tenure backfill: ${line}.\n`);
    }
    if (args.json) io.stdout(`${JSON.stringify(other === null ? report : { ...report, other_environment: other })}\n`);
    // As for an import with rejected rows: the rest is stored, but something was left out.
    return report.rejected === 0 ? 0 : 1;
  } catch (error) {
    if (last !== undefined) progress.finish(formatBackfillReport(last, progress.elapsedMs()));
    const kept = 'The pages counted above are stored and the checkpoint is kept: run it again to resume.';
    if (interrupt.signal.aborted) return fail(130, `interrupted. ${kept}`);
    if (error instanceof ApiV2Error) return fail(1, `${failureLine(error, args)}. ${kept}`);
    return fail(1, `failed: ${errorLine(error)}. ${kept}`);
  } finally {
    interrupt.dispose();
    await store.close().catch(() => undefined);
  }
}
