/**
 * The data commands of the `tenure` CLI: `replay`, `export` and `import`. This file parses, opens
 * the store the way `tenure serve` does, and maps failures to one line and an exit code; the work is
 * in `cli/storeData/`.
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SubscriberStore } from '@tenure/core';
import { readRules } from '../config/readConfigFile.js';
import { errorLine, openStore, parseStoreSpec, redactStoreText, sandboxStoreSpec, type StoreSpec } from '../store/openStore.js';
import { interruptOnSignals } from './interruptSignal.js';
import { parseDataArgs, type DataArgs, type DataCommand } from './storeData/dataArgs.js';
import { EXPORT_HELP, IMPORT_HELP, REPLAY_HELP } from './storeData/dataHelp.js';
import type { DataIo } from './storeData/dataIo.js';
import { runExport } from './storeData/runExport.js';
import { runImport, type ImportInput } from './storeData/runImport.js';
import { runExportImport } from './storeData/runExportImport.js';
import { openExportReader, type ExportReader } from '../import/readExport.js';
import { runReplay } from './storeData/runReplay.js';
import type { CliResult } from './runCli.js';

const HELP: Record<DataCommand, string> = { replay: REPLAY_HELP, export: EXPORT_HELP, import: IMPORT_HELP };

/** A store that lives inside one process has nothing to replay or export, and would lose an import. */
const inProcess = (spec: StoreSpec) => spec.kind === 'memory' || (spec.kind === 'sqlite' && spec.path === ':memory:');

/** Opens the input before the store, so a wrong file name fails before any connection is made. */
async function openInput(path: string, io: DataIo): Promise<ImportInput> {
  if (path === '-') return { stream: io.stdinStream ?? process.stdin, bytes: null };
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  return { stream: handle.createReadStream(), bytes: size };
}

/**
 * Given a data command, its arguments, the environment and the io, runs it and resolves with the
 * exit code: 0 done, 1 failed (one line on stderr: a store spec that cannot be used or opened, an
 * unreadable file, a failed write; import: also when lines were rejected), 2 flags that do not parse
 * (with a pointer to `--help`) or a configuration file with problems (each listed), 130 interrupted by SIGINT/SIGTERM (export and import stop
 * cleanly between batches; replay is left to the default signal action, its batches are atomic).
 *
 * @example
 * const { code } = await runDataCommand('export', ['--out', 'backup.ndjson'], process.env, io);
 */
export async function runDataCommand(
  command: DataCommand,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: DataIo,
): Promise<CliResult> {
  const fail = (code: number, message: string): CliResult => (io.stderr(`tenure ${command}: ${message}\n`), { code });
  const parsed = parseDataArgs(command, argv, env);
  if (!parsed.ok) return fail(2, `${parsed.error}\nSee: tenure ${command} --help`);
  if (parsed.help) return io.stdout(HELP[command]), { code: 0 };
  const rules = await readRules(parsed.args.configFile); // before anything opens: every problem listed
  if (!rules.ok) return io.stderr(`tenure ${command}: ${rules.message}`), { code: 2 };
  const args = { ...parsed.args, config: rules.config };
  const spec = parseStoreSpec(args.store);
  // Worded and numbered like `tenure serve`: a store that cannot be used is not a usage error.
  if (!spec.ok) return fail(1, `cannot open store ${redactStoreText(args.store)}: ${spec.error}`);
  if (inProcess(spec.spec)) return fail(1, `the ${args.store} store lives inside one process, so there is nothing to ${command}; use --store sqlite:PATH or postgres://…`);
  // Export and replay read an existing database; opening a missing SQLite file would create it.
  if (command !== 'import' && spec.spec.kind === 'sqlite' && !existsSync(spec.spec.path)) {
    return fail(1, `no database at ${spec.spec.path} (set --store or DATABASE_URL)`);
  }

  let input: ImportInput | undefined;
  if (command === 'import') {
    try {
      input = await openInput(args.input, io);
    } catch (error) {
      return fail(1, `cannot read ${args.input}: ${errorLine(error)}`);
    }
  }
  // A file that is not a version 5 export is refused before the store is opened (nothing written).
  let reader: ExportReader | undefined;
  if (input !== undefined && args.format === 'revenuecat-export') {
    try {
      const opened = await openExportReader(input.stream);
      if (!opened.ok) return fail(1, `${args.input}: ${opened.error.message}`);
      reader = opened.value;
    } catch (error) {
      input.stream.destroy();
      return fail(1, `cannot read ${args.input}: ${errorLine(error)}`);
    }
  }
  let store: SubscriberStore;
  try {
    store = await openStore(spec.spec, { applicationName: `tenure ${command}` });
  } catch (error) {
    input?.stream.destroy();
    return fail(1, errorLine(error));
  }

  // The second signal takes the default action (exit) once the handlers are removed.
  const interrupt = interruptOnSignals(command !== 'replay' && io.handleSignals !== false);
  try {
    if (reader !== undefined && input !== undefined) {
      const stream = input.stream;
      // Sandbox rows go to the sandbox namespace, as sandbox webhooks do (never into production).
      const sandbox = args.includeSandbox ? sandboxStoreSpec(spec.spec) : undefined;
      if (sandbox !== undefined && !sandbox.ok) return fail(1, `cannot open the sandbox store: ${sandbox.error}`);
      const sandboxStore = sandbox === undefined ? undefined : await openStore(sandbox.spec, { applicationName: `tenure ${command}` });
      try {
        return { code: await runExportImport(store, reader, { bytes: input.bytes, bytesRead: () => stream.bytesRead }, args, io, interrupt.signal, sandboxStore) };
      } finally {
        stream.destroy();
        await sandboxStore?.close().catch(() => undefined);
      }
    }
    return { code: await run(command, store, args, io, input, interrupt.signal) };
  } catch (error) {
    return interrupt.signal.aborted ? fail(130, 'interrupted') : fail(1, errorLine(error));
  } finally {
    interrupt.dispose();
    await store.close().catch(() => undefined);
  }
}

function run(command: DataCommand, store: SubscriberStore, args: DataArgs, io: DataIo, input: ImportInput | undefined, signal: AbortSignal): Promise<number> {
  switch (command) {
    case 'replay':
      return runReplay(store, args, io);
    case 'export':
      return runExport(store, args, io, signal);
    case 'import':
      if (input === undefined) throw new Error('no input');
      return runImport(store, input, args, io, signal);
  }
}
