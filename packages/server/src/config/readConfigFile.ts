/**
 * Reading a configuration file (`tenure serve --config FILE`, `TENURE_CONFIG`): the file's text
 * through the core's `parseConfigFile`, so an unreadable file is one more listed problem.
 */
import { readFile } from 'node:fs/promises';
import { DEFAULT_CONFIG, parseConfigFile, resolveConfigFile, rulesOf, type ConfigFile, type EffectiveConfig, type FieldError, type Result, type TenureConfig } from '@tenure/core';

/** A configuration file larger than this is refused unread: a calibration and every rule fit in a few KB. */
export const MAX_CONFIG_BYTES = 1_000_000;

/**
 * Given a path, resolves with the file as written and the effective configuration it gives (every
 * unset value the default), or every problem: `file` when it cannot be read, is over 1 MB or is not JSON, else one
 * per offending key (`bands.high`, `calibration.probabilities.42`, …). Never rejects.
 *
 * @example
 * const loaded = await readConfigFile('./tenure.config.json');
 * if (!loaded.ok) console.error(formatConfigProblems('./tenure.config.json', loaded.errors));
 */
export async function readConfigFile(path: string): Promise<Result<{ file: ConfigFile; effective: EffectiveConfig }, FieldError>> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_CONFIG_BYTES) return { ok: false, errors: [{ field: 'file', message: `larger than ${MAX_CONFIG_BYTES} bytes` }] };
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const message = error instanceof TypeError ? 'not UTF-8 text' : `cannot read it: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, errors: [{ field: 'file', message }] };
  }
  const parsed = parseConfigFile(text.replace(/^\uFEFF/, '')); // a byte-order mark from an editor is not content
  return parsed.ok ? { ok: true, value: { file: parsed.value, effective: resolveConfigFile(parsed.value) } } : parsed;
}

/**
 * Given the path and the problems of a configuration file, returns the text to print: a header
 * line, then one line per problem (path: message). Pure.
 *
 * @example
 * formatConfigProblems('c.json', [{ field: 'bands.high', message: 'unknown key' }]);
 * // 'the configuration file c.json has 1 problem:\n  bands.high: unknown key\n'
 */
export function formatConfigProblems(path: string, errors: readonly FieldError[]): string {
  const header = `the configuration file ${path} has ${errors.length} problem${errors.length === 1 ? '' : 's'}:`;
  return `${[header, ...errors.map((e) => `  ${e.field}: ${e.message}`)].join('\n')}\n`;
}

/**
 * Given the path and the problems of a configuration file, returns what a command prints before it
 * exits with code 2: the problems (`formatConfigProblems`), that nothing was started, and where the
 * format is described. Pure.
 *
 * @example
 * io.stderr(`tenure serve: ${configProblemsMessage(path, errors)}`);
 */
export function configProblemsMessage(path: string, errors: readonly FieldError[]): string {
  return `${formatConfigProblems(path, errors)}Nothing was started. The format: docs/backtesting.md, "The configuration file".\n`;
}

/**
 * Given the path of a configuration file (or undefined: none), resolves with its rules (`risk`,
 * `bands`, `recommend`; `DEFAULT_CONFIG` without a file), or the text listing every problem. For
 * the commands that score but do not alert (`replay`, `import`, `backfill`): they must score with
 * the rules the service runs, or they would leave the rows scored under other ones.
 *
 * @example
 * const rules = await readRules(args.configFile);
 * if (!rules.ok) return fail(2, rules.message);
 */
export async function readRules(path: string | undefined): Promise<{ ok: true; config: TenureConfig } | { ok: false; message: string }> {
  if (path === undefined) return { ok: true, config: DEFAULT_CONFIG };
  const loaded = await readConfigFile(path);
  return loaded.ok ? { ok: true, config: rulesOf(loaded.value.effective) } : { ok: false, message: configProblemsMessage(path, loaded.errors) };
}
