/** One line of `tenure export`'s NDJSON, read the way `tenure import`, `tenure backtest` and `tenure tune` all read it. */
import { parseExportLine, type MovedSubscription, type StoredRecord } from '@tenure/core';

/** What a line holds: nothing (blank), a record, a moved subscription's route, a well-formed event tenure does not apply, or the first problem. */
export type ImportLine =
  | { kind: 'blank' }
  | { kind: 'record'; record: StoredRecord }
  | { kind: 'moved_subscription'; route: MovedSubscription }
  | { kind: 'ignored'; type: string }
  | { kind: 'rejected'; field: string; message: string };

/**
 * Given a line's text (without its line end) and its number from 1, returns what it holds: a BOM
 * on line 1 is dropped, invalid JSON is a `line` problem, a value the core's `parseExportLine`
 * refuses is its first field error. Never throws. Pure.
 *
 * @example
 * parseImportLine('{"activity":{"customer_id":"u1","at":1762000000000}}', 1); // { kind: 'record', record: { kind: 'activity', ... } }
 */
export function parseImportLine(raw: string, lineNo: number): ImportLine {
  const text = lineNo === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  if (text.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'rejected', field: 'line', message: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = parseExportLine(value);
  if (!parsed.ok) {
    const [error] = parsed.errors;
    return { kind: 'rejected', field: error?.field ?? 'line', message: error?.message ?? 'Invalid line' };
  }
  const line = parsed.value;
  if (line.record !== null) return { kind: 'record', record: line.record };
  return 'moved_subscription' in line ? { kind: 'moved_subscription', route: line.moved_subscription } : { kind: 'ignored', type: line.ignored_type };
}
