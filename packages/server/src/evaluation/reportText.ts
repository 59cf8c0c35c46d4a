/**
 * How the evaluation commands write numbers and tables for a terminal: fixed decimals, a dash for a
 * figure that does not exist, columns aligned (text left, numbers right). Pure.
 */
import { formatCount } from '../cli/storeData/progressReporter.js';

/** What stands for a figure that does not exist (no churner, no subscriber). */
export const NONE = '–';

/** A ranking figure (ROC AUC, PR AUC): three decimals. */
export const auc = (x: number | null): string => (x === null ? NONE : x.toFixed(3));
/** A Brier score: four decimals. */
export const brier = (x: number | null): string => (x === null ? NONE : x.toFixed(4));
/** A rate or share as a percentage with one decimal. */
export const percent = (x: number | null): string => (x === null ? NONE : `${(x * 100).toFixed(1)}%`);
/** A lift: two decimals and a times sign. */
export const lift = (x: number | null): string => (x === null ? NONE : `${x.toFixed(2)}×`);
/** A count with thousands separators. */
export const count = (n: number): string => formatCount(n);

/**
 * Given a header row and rows of cells, returns the lines of a table indented by two spaces: the
 * first column left-aligned, the others right-aligned, and a last column `note` (if any) left as it
 * is after two spaces. Pure.
 *
 * @example
 * textTable(['band', 'lift'], [['high', '2.10×']]); // ['  band   lift', '  high  2.10×']
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], notes: readonly string[] = []): string[] {
  const widths = header.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: readonly string[], note: string | undefined) => {
    const body = cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
    return `  ${body}${note === undefined || note === '' ? '' : `  ${note}`}`.trimEnd();
  };
  return [line(header, undefined), ...rows.map((r, i) => line(r, notes[i]))];
}
