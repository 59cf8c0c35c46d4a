/** CSV text of export rows: comma-delimited, a header line, cells quoted only where needed (RFC 4180). */
import { EXPORT_V5_COLUMNS, type ExportColumn } from './exportColumns.js';

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/**
 * Given export rows, yields the CSV lines of the file (the header first, each line ending in
 * `\n`), so a large export is written without holding its text. Pure.
 *
 * @example
 * for (const line of exportCsvLines(exportRows(sim.events()))) out.write(line);
 */
export function* exportCsvLines(rows: Iterable<Record<ExportColumn, string>>): Generator<string> {
  yield `${EXPORT_V5_COLUMNS.join(',')}\n`;
  for (const row of rows) yield `${EXPORT_V5_COLUMNS.map((c) => quote(row[c])).join(',')}\n`;
}
