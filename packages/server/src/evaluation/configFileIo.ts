/**
 * The tenure config file on disk: read and checked with the core's `parseConfigFile` (every
 * problem listed on one line), written as `tenure tune` makes it. See docs/backtesting.md, "The
 * config file".
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseConfigFile, toConfigFile, type Calibration, type ConfigFile, type TenureConfig } from '@tenure/core';
import { errorLine } from '../store/openStore.js';

/** Larger than any config file: a wrong file name (a history?) is refused before it is parsed. */
const MAX_CONFIG_BYTES = 1_048_576;

/**
 * Given a path, resolves with the configuration and calibration in the file, or one line naming
 * every problem (`bands.high: ...; risk.renewal_points: ...`), or why the file cannot be read.
 *
 * @example
 * const file = await readConfigFile('tenure.config.json');
 * if (!file.ok) console.error(file.error);
 */
export async function readConfigFile(path: string): Promise<{ ok: true; value: ConfigFile } | { ok: false; error: string }> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_CONFIG_BYTES) return { ok: false, error: `${path} is not a tenure config file: larger than 1 MB` };
    text = bytes.toString('utf8');
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${errorLine(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, error: `${path} is not JSON: ${errorLine(error)}` };
  }
  const parsed = parseConfigFile(value);
  if (!parsed.ok) return { ok: false, error: `${path}: ${parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}` };
  return parsed;
}

/**
 * Given a path, a configuration, its calibration and a note of how it was made, writes the config
 * file (pretty JSON, through a temporary file renamed over the target, so a reader never sees half
 * of it). Rejects with the write error.
 *
 * @example
 * await writeConfigFile('tenure.config.json', tuned.config, calibration, { seed: 1 });
 */
export async function writeConfigFile(path: string, config: TenureConfig, calibration: Calibration | null, tuned: Record<string, unknown>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  // The 101 probabilities on one line: the rest stays one value a line, easy to read and diff.
  const text = JSON.stringify(toConfigFile(config, calibration, tuned), null, 2).replace(/("probabilities": \[)([^\]]*)\]/, (_all, head: string, list: string) => `${head}${list.trim().split(/,\s*/).join(', ')}]`);
  await writeFile(temporary, `${text}\n`);
  await rename(temporary, path);
}
