/**
 * The configuration file for the evaluation commands: read with the service's reader
 * (`config/readConfigFile.ts`, the core's schema: the same files accepted and refused as by
 * `tenure serve --config`), every problem on one line; written as `tenure tune` makes it. See
 * docs/backtesting.md, "The configuration file".
 */
import { rename, writeFile } from 'node:fs/promises';
import { rulesOf, toConfigFile, type ConfigCalibration, type TenureConfig } from '@tenure/core';
import { readConfigFile as readServiceConfigFile } from '../config/readConfigFile.js';

/**
 * Given a path, resolves with the rules and calibration in the file, or one line naming every
 * problem (`file.json: bands.high: ...; risk.renewal_points: ...`), or why the file cannot be read.
 *
 * @example
 * const file = await readConfigFile('tenure.config.json');
 * if (!file.ok) console.error(file.error);
 */
export async function readConfigFile(path: string): Promise<{ ok: true; value: { config: TenureConfig; calibration: ConfigCalibration | null } } | { ok: false; error: string }> {
  const loaded = await readServiceConfigFile(path);
  if (!loaded.ok) return { ok: false, error: `${path}: ${loaded.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}` };
  const { effective } = loaded.value;
  return { ok: true, value: { config: rulesOf(effective), calibration: effective.calibration } };
}

/**
 * Given a path, rules, their calibration (with the window it was fitted on) and a note of how they
 * were made, writes the configuration file (pretty JSON, through a temporary file renamed over the
 * target, so a reader never sees half of it). Rejects with the write error.
 *
 * @example
 * await writeConfigFile('tenure.config.json', tuned.config, { ...calibration, window }, { seed: 1 });
 */
export async function writeConfigFile(path: string, config: TenureConfig, calibration: ConfigCalibration | null, tuned: Record<string, unknown>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  // The 101 probabilities on one line: the rest stays one value a line, easy to read and diff.
  const text = JSON.stringify(toConfigFile(config, calibration, tuned), null, 2).replace(/("probabilities": \[)([^\]]*)\]/, (_all, head: string, list: string) => `${head}${list.trim().split(/,\s*/).join(', ')}]`);
  await writeFile(temporary, `${text}\n`);
  await rename(temporary, path);
}
