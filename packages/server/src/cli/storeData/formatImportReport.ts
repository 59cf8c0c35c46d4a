/** The human form of an import report: one summary line, then the rejected lines. */
import type { ImportReport } from './importRecords.js';
import { formatHeldElsewhere } from '../../import/heldElsewhere.js';
import { formatCount, formatDuration, formatRate } from './progressReporter.js';

/**
 * Given an import report, its duration and how many rejected lines to list, returns the text for
 * stderr (ending with a newline only between lines; the progress reporter adds the last). Pure.
 *
 * @example
 * formatImportReport(report, 1_200, 100);
 * // import: 1,000 lines in 1.2s (833 lines/s): 990 new, 0 duplicate, 0 ignored, 0 activity, 10 rejected
 * //   line 3 (line): Invalid JSON: ...
 */
export function formatImportReport(report: ImportReport, ms: number, listed: number): string {
  // Routes (moved subscriptions) only when the file had some: most exports hold no transfer.
  const kinds = report.routes > 0 ? (['new', 'duplicate', 'ignored', 'activity', 'routes', 'rejected'] as const) : (['new', 'duplicate', 'ignored', 'activity', 'rejected'] as const);
  // Duplicates held by another customer only when there were some (the warning below names them).
  const held = report.held_elsewhere > 0 ? ` (${formatCount(report.held_elsewhere)} held by another customer)` : '';
  const counts = kinds.map((k) => `${formatCount(report[k])} ${k}${k === 'duplicate' ? held : ''}`).join(', ');
  const out = [`import: ${formatCount(report.lines)} lines in ${formatDuration(ms)} (${formatRate(report.lines, ms, 'lines')}): ${counts}`];
  for (const r of report.rejections.slice(0, listed)) out.push(`  line ${r.line} (${r.field}): ${r.message}`);
  const rest = report.rejected - Math.min(listed, report.rejections.length);
  if (rest > 0) out.push(`  ... and ${formatCount(rest)} more rejected lines${report.rejections.length > listed ? ' (--json lists them)' : ''}`);
  out.push(...formatHeldElsewhere(report));
  return out.join('\n');
}
