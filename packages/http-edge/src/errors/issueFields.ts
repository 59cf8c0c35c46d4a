/**
 * The one mapping from schema-validation issues (zod's shape, declared structurally so this package
 * needs no zod) to the dotted field an error envelope names.
 */

/** The parts of a validation issue the mapping reads (a zod 4 issue fits). */
export interface IssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** Present on `unrecognized_keys` issues: the unexpected keys. */
  readonly keys?: readonly string[];
}

/** One problem per field. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Given an issue (and an optional prefix path), returns the dotted field it names: the path, plus
 * the first unexpected key for `unrecognized_keys`; null when the issue is about the whole value.
 * Pure.
 *
 * @example
 * fieldOf({ code: 'invalid_type', path: ['grants', 0, 'amount'], message: '…' }); // 'grants.0.amount'
 * fieldOf({ code: 'unrecognized_keys', path: [], keys: ['x'], message: '…' }); // 'x'
 */
export function fieldOf(issue: IssueLike, prefix: readonly string[] = []): string | null {
  const path = [...prefix, ...issue.path.map(String)];
  if (issue.code === 'unrecognized_keys' && issue.keys !== undefined && issue.keys.length > 0) path.push(String(issue.keys[0]));
  return path.length === 0 ? null : path.join('.');
}

/**
 * Given issues, returns one problem per field (the first issue reported for it), in order; issues
 * about the whole value are named `whole` (default `body`). Pure.
 *
 * @example
 * issuesToFields(result.error.issues); // [{ field: 'event.app_user_id', message: '…' }]
 */
export function issuesToFields(issues: readonly IssueLike[], options: { prefix?: readonly string[]; whole?: string } = {}): FieldProblem[] {
  const byField = new Map<string, FieldProblem>();
  for (const issue of issues) {
    const field = fieldOf(issue, options.prefix) ?? options.whole ?? 'body';
    if (!byField.has(field)) byField.set(field, { field, message: issue.message });
  }
  return [...byField.values()];
}
