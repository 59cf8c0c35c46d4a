/** The framework-free request/response shapes of the simulator's HTTP surface, and their helpers. */
import { SINGULAR_PRODUCT_ID_MESSAGE } from '@tenure/core';
import { fieldOf, type EdgeProblem } from '@tenure/http-edge';
import type { z } from 'zod';
import { fail, ok, toErrorResponse, type ApiError, type Result } from '../machine/apiError.js';

export interface SimRequest {
  method: string;
  /** Path without the query string, e.g. `/v2/projects/p1/virtual_currencies`. */
  path: string;
  query: Record<string, string>;
  /** The raw query string without `?` (repeated parameters, as `?id=a&id=b`, are read from it). */
  search?: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The raw body text ('' when none). */
  rawBody: string;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** What a route handler receives. */
export interface RouteInput extends SimRequest {
  params: Record<string, string>;
  /** The parsed JSON body (undefined when empty). */
  body: unknown;
}

export const json = (status: number, body: unknown): SimResponse => ({ status, body });

/** Answers an API error with the billing service's envelope. */
export const errorResponse = (error: ApiError): SimResponse => toErrorResponse(error);

/**
 * Answers a problem found by the shared HTTP edge (bad request line or target, headers too large,
 * body too large or not UTF-8) with the billing service's envelope (`invalid_request`, `param`
 * naming the input) and the problem's status (400, 408, 413 or 431).
 *
 * @example
 * edgeErrorResponse(edgeProblem('invalid_utf8')).status; // 400
 */
export const edgeErrorResponse = (problem: EdgeProblem): SimResponse => ({
  ...toErrorResponse({ type: 'invalid_request', message: problem.message, param: problem.field }),
  status: problem.status,
});

/** Answers a Result: the value with `status`, or the error envelope. */
export const respond = <T>(result: Result<T>, status = 200, map: (v: T) => unknown = (v) => v): SimResponse =>
  result.ok ? json(status, map(result.value)) : errorResponse(result.error);

/**
 * Validates a body with a zod schema. The first problem becomes a 400 `parameter_error` naming the
 * `param`; a singular `product_id` in a grant is reported before anything else.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): Result<z.output<S>> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return ok(result.data);
  const issues = result.error.issues;
  const issue = issues.find((i) => i.message === SINGULAR_PRODUCT_ID_MESSAGE) ?? issues[0];
  if (issue === undefined) return fail('parameter_error', 'Invalid request body');
  // The shared edge's mapping: the dotted path, plus the unexpected key for unrecognized_keys.
  const param = fieldOf(issue);
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const hint = key === 'product_id' ? SINGULAR_PRODUCT_ID_MESSAGE : `Unknown field ${key}`;
    return fail('parameter_error', hint, param);
  }
  return fail('parameter_error', param === null ? issue.message : `${param}: ${issue.message}`, param);
}

/** Reads an optional boolean query parameter (`true`/`false`). */
export function queryBool(query: Record<string, string>, name: string): Result<boolean> {
  const v = query[name];
  if (v === undefined || v === 'false') return ok(false);
  if (v === 'true') return ok(true);
  return fail('parameter_error', `${name} must be true or false`, name);
}

const nextQuery = (query: Record<string, string>, keep: readonly string[], after: string, limit: number): string => {
  const pairs: [string, string][] = keep.flatMap((name) => (query[name] === undefined ? [] : [[name, query[name]] as [string, string]]));
  pairs.push(['starting_after', after], ['limit', String(limit)]);
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
};

/** A page of a list, as the billing service returns lists. */
export interface ListBody<T> {
  object: 'list';
  items: T[];
  next_page: string | null;
  url: string;
}

/**
 * Given all items in order, their ids and the `limit` / `starting_after` query, returns one page
 * with `next_page` as a path (or null at the end). The query parameters named in `keep` (filters
 * such as `include_empty_balances`) are carried into `next_page`, so following it lists the same set.
 */
export function paginate<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  query: Record<string, string>,
  url: string,
  keep: readonly string[] = [],
): Result<ListBody<T>> {
  const rawLimit = query['limit'];
  const limit = rawLimit === undefined ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fail('parameter_error', 'limit must be an integer from 1 to 100', 'limit');
  let start = 0;
  const after = query['starting_after'];
  if (after !== undefined) {
    const index = items.findIndex((i) => idOf(i) === after);
    if (index < 0) return fail('parameter_error', `No item with id ${after}`, 'starting_after');
    start = index + 1;
  }
  const page = items.slice(start, start + limit);
  const last = page.at(-1);
  const more = start + limit < items.length && last !== undefined;
  return ok({
    object: 'list',
    items: page,
    next_page: more ? `${url}?${nextQuery(query, keep, idOf(last), limit)}` : null,
    url,
  });
}
