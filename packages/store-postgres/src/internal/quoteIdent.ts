/**
 * Given a name (schema, table), returns it as a quoted SQL identifier, so any name (mixed case,
 * spaces, quotes) is taken literally and cannot inject SQL. Pure.
 *
 * @example
 * quoteIdent('my "app"'); // '"my ""app"""'
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Given a text, returns it as a SQL string literal (for the few places a name must be a literal,
 * such as a sequence passed to `nextval`). Pure.
 *
 * @example
 * sqlLiteral("it's"); // "'it''s'"
 */
export function sqlLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
