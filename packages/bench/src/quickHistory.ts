/**
 * `quick`'s memory of its last run on this machine: each row's figure and when, kept in a cache file
 * outside the repository's tracked files (`node_modules/.cache/tenure-bench/quick-last.json` at the
 * repository root, or `BENCH_QUICK_HISTORY`; `none` keeps nothing). `quick` prints each row beside
 * the last run's, so a regression shows the day it happens without comparing outputs by eye.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One row's figure as a run measured it. */
export interface QuickFigure {
  measure: string;
  value: number;
  shown: string;
}

/** A run: when, at which commit (when in a git checkout), and its figures. */
export interface QuickRun {
  at: string;
  commit: string | null;
  figures: QuickFigure[];
}

const DEFAULT_FILE = fileURLToPath(new URL('../../../node_modules/.cache/tenure-bench/quick-last.json', import.meta.url));

/** The history file, or null when `BENCH_QUICK_HISTORY=none`. */
export function quickHistoryFile(): string | null {
  const set = process.env['BENCH_QUICK_HISTORY'];
  if (set === 'none') return null;
  return set === undefined || set === '' ? DEFAULT_FILE : set;
}

/** The last run kept in `file`, or undefined when there is none or it cannot be read as one. */
export function readLastRun(file: string): QuickRun | undefined {
  try {
    const run = JSON.parse(readFileSync(file, 'utf8')) as QuickRun;
    return typeof run.at === 'string' && Array.isArray(run.figures) ? run : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `run` as the last run in `file`; a file that cannot be written is reported, never fatal. */
export function writeLastRun(file: string, run: QuickRun): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(run, null, 1)}\n`);
  } catch (error) {
    console.log(`quick: could not keep this run in ${file} (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The checkout's short commit, with `+` when it has uncommitted changes; null outside git. */
export function currentCommit(): string | null {
  try {
    const run = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${run(['rev-parse', '--short', 'HEAD'])}${run(['status', '--porcelain', '--untracked-files=no']) === '' ? '' : '+'}`;
  } catch {
    return null;
  }
}

/**
 * Given a row's figure now and the last run, returns what the last run read and the change, e.g.
 * `8.40 × (+3 %)`, or `—` when the last run had no such row. The sign is the figure's own (a
 * larger ratio, or a larger RSS): whether that is better depends on the row's goal.
 */
export function lastRunCell(figure: QuickFigure, last: QuickRun | undefined): string {
  const before = last?.figures.find((f) => f.measure === figure.measure);
  if (before === undefined) return '—';
  if (!Number.isFinite(figure.value) || !Number.isFinite(before.value) || before.value === 0) return before.shown;
  const change = Math.round(((figure.value - before.value) / Math.abs(before.value)) * 100);
  return `${before.shown} (${change > 0 ? '+' : ''}${change} %)`;
}
