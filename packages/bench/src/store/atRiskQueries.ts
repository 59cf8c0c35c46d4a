/**
 * The at-risk queries the benches ask, as store queries and as `GET /api/at-risk` query strings: the
 * issue's three (default, `min_score=90&limit=10`, `state=billing_issue`), a band filter, and the
 * second page of the default query (keyset paging through `after`).
 */
import type { AtRiskPosition, ScoreQuery } from '@tenure/core';

export interface AtRiskQueryKind {
  name: string;
  /** The store query; `after` is the `next` of the latest default first page (second page only). */
  query(after: AtRiskPosition | null): ScoreQuery;
  /** Whether the issue measured it (the full scan is repeated more for those). */
  inIssue: boolean;
}

/** The server's default page size. */
export const PAGE = 50;

export const AT_RISK_QUERY_KINDS: readonly AtRiskQueryKind[] = [
  { name: 'default (min_score = bands.high)', query: () => ({ limit: PAGE }), inIssue: true },
  { name: 'min_score=90&limit=10', query: () => ({ min_score: 90, limit: 10 }), inIssue: true },
  { name: 'state=billing_issue', query: () => ({ state: 'billing_issue', limit: PAGE }), inIssue: true },
  { name: 'band=critical', query: () => ({ band: 'critical', limit: PAGE }), inIssue: false },
  { name: 'second page (after = next)', query: (after) => ({ limit: PAGE, ...(after === null ? {} : { after }) }), inIssue: false },
];

/** The query strings of `GET /api/at-risk` the HTTP reader cycles through (each followed by a few pages via `cursor`). */
export const AT_RISK_QUERY_STRINGS: readonly string[] = ['limit=50', 'min_score=90&limit=10', 'state=billing_issue&limit=50', 'band=critical&limit=50'];
