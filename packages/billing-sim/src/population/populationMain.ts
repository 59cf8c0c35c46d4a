/** `tenure-billing-sim population …`: flags checked (exit 2 with one line), then the run (exit 1 when it fails). */
import type { Writable } from 'node:stream';
import { parsePopulationArgs } from './populationArgs.js';
import { runPopulationCommand, summaryLine, unwritableOutput } from './runPopulationCommand.js';

/**
 * Given the arguments after `population`, where lines go and stdout (for `-` outputs), runs the
 * command; resolves with the exit code: 0, 1 (a write failed, or a webhook failed every retry), 2
 * (a bad flag or an output that cannot be written; nothing is written then).
 *
 * @example
 * process.exitCode = await populationMain(['--customers', '100', '--webhooks', 'w.ndjson'], io, process.stdout);
 */
export async function populationMain(argv: readonly string[], io: { out(line: string): void; err(line: string): void }, stdout: Writable): Promise<number> {
  const parsed = parsePopulationArgs(argv);
  if (!parsed.ok) {
    if (parsed.help === true) {
      io.out(parsed.message);
      return 0;
    }
    io.err(parsed.message);
    return 2;
  }
  const unwritable = unwritableOutput(parsed.value.outputs);
  if (unwritable !== null) {
    io.err(unwritable);
    return 2;
  }
  try {
    const summary = await runPopulationCommand(parsed.value, stdout);
    io.err(summaryLine(parsed.value, summary));
    return (summary.delivery?.failed ?? 0) > 0 ? 1 : 0;
  } catch (err) {
    io.err(`population failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
