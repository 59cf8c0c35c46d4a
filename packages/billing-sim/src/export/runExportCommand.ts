/**
 * `tenure-billing-sim export <scenario.json>`: replays a scenario in process (no webhook is sent)
 * and writes the simulated world's history as RevenueCat's data export, version 5: CSV, gzip when
 * asked (`--gzip`, or an output name ending in `.gz`), to a file or stdout.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { runScenario } from '../scenario/runScenario.js';
import { exportRows } from './exportRows.js';
import { exportCsvLines } from './writeExportCsv.js';

/** What the export command was asked to do. */
export interface ExportCommandInput {
  /** The scenario, parsed JSON. */
  scenario: unknown;
  /** The file to write; undefined writes to `stdout`. */
  out: string | undefined;
  gzip: boolean;
  stdout: Writable;
}

/**
 * Given a scenario and where to write, replays it and writes the export; resolves with the number
 * of rows and whether every step of the scenario passed (a failed step is still exported: the
 * world is what it is). Throws on an invalid scenario or a failed write.
 *
 * @example
 * await runExportCommand({ scenario, out: 'transactions.csv.gz', gzip: true, stdout: process.stdout });
 */
export async function runExportCommand(input: ExportCommandInput): Promise<{ rows: number; ok: boolean }> {
  const run = runScenario(input.scenario, { webhook: { url: null } });
  try {
    const rows = exportRows(run.sim.events(), run.sim.world().products);
    const text = Readable.from(exportCsvLines(rows));
    const sink = input.out === undefined ? input.stdout : createWriteStream(input.out);
    const end = input.out !== undefined;
    if (input.gzip) await pipeline(text, createGzip(), sink, { end });
    else await pipeline(text, sink, { end });
    return { rows: rows.length, ok: run.ok };
  } finally {
    run.sim.close();
  }
}
