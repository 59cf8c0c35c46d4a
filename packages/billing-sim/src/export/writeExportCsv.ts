/** CSV text of export rows: comma-delimited, a header line, cells quoted only where needed (RFC 4180). */
import { EXPORT_V5_COLUMNS, type ExportColumn } from './exportColumns.js';

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/**
 * The header line of the export (the version 5 columns in order, ending in `\n`). Pure.
 *
 * @example
 * exportCsvHeader().startsWith('rc_original_app_user_id,'); // true
 */
export const exportCsvHeader = (): string => `${EXPORT_V5_COLUMNS.join(',')}\n`;

/**
 * Given one export row, returns its CSV line (ending in `\n`). Pure.
 *
 * @example
 * out.write(exportCsvHeader()); for (const row of exportRows(events)) out.write(exportCsvLine(row));
 */
export const exportCsvLine = (row: Record<ExportColumn, string>): string => `${EXPORT_V5_COLUMNS.map((c) => quote(row[c])).join(',')}\n`;

/**
 * Given export rows, yields the CSV lines of the file (the header first, each line ending in
 * `\n`), so a large export is written without holding its text. Pure.
 *
 * @example
 * for (const line of exportCsvLines(exportRows(sim.events()))) out.write(line);
 */
export function* exportCsvLines(rows: Iterable<Record<ExportColumn, string>>): Generator<string> {
  yield exportCsvHeader();
  for (const row of rows) yield exportCsvLine(row);
}
