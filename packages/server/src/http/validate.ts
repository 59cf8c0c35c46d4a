/** Request validation at the edge: a zod schema in, typed data or a 400 naming the field out. */
import { fieldOf } from '@tenure/http-edge';
import type { z } from 'zod';
import { apiError, type ApiErrorBody, type HandlerResult } from './apiError.js';

export type Validated<T> = { ok: true; data: T } | { ok: false; error: HandlerResult<ApiErrorBody> };

/**
 * Given a schema and a value (query, params or body), returns the parsed data or the 400
 * `invalid_request` result for the first problem, with `field` naming it (dotted path; the unknown
 * key itself for an unexpected one; the shared edge's `fieldOf`). Pure.
 *
 * @example
 * const q = validate(atRiskQuerySchema, req.query);
 * if (!q.ok) return q.error;
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  if (issue === undefined) return { ok: false, error: apiError('invalid_request', 'Invalid request') };
  const field = fieldOf(issue) ?? 'body';
  if (issue.code === 'unrecognized_keys') {
    return { ok: false, error: apiError('invalid_request', `Unknown parameter "${issue.keys[0] ?? ''}"`, field) };
  }
  return { ok: false, error: apiError('invalid_request', `${field}: ${issue.message}`, field) };
}
