/**
 * The at-risk selection: which subscribers are at risk at an instant, in which order, and how a
 * page continues. Stores answer it from a materialized index; `selectAtRisk` is the full-scan
 * reference they are tested against, and what an embedding user with a plain list calls.
 */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
import { monthlyValueCents } from '../revenue/monthlyValueUsd.js';
import type { Recommendation } from '../recommend/recommendation.js';
import type { RiskBand } from '../risk/risk.js';
import type { Subscriber, SubscriberState } from '../subscriber/subscriber.js';
import { compareIds } from './compareIds.js';

/** Which subscribers a query wants. `min_score` defaults to the configured `bands.high`. */
export interface AtRiskFilters {
  min_score?: number | undefined;
  state?: SubscriberState | undefined;
  band?: RiskBand | undefined;
}

/** Where a page ended: the last item's score and customer id (keyset paging). */
export interface AtRiskPosition {
  score: number;
  customer_id: string;
}

/** Where a page sorted by revenue ended: the last item's monthly value (USD) and customer id. */
export interface RevenuePosition {
  monthly_value_usd: number;
  customer_id: string;
}

/** The orders of the at-risk list: by score (the default) or by monthly value, revenue at risk first. */
export const AT_RISK_SORTS = ['score', 'revenue'] as const;
export type AtRiskSort = (typeof AT_RISK_SORTS)[number];

/** Filters plus a page in score order: at most `limit` items strictly after `after`. */
export interface ScoreQuery extends AtRiskFilters {
  sort?: 'score' | undefined;
  limit: number;
  after?: AtRiskPosition | undefined;
}

/** Filters plus a page in revenue order: at most `limit` items strictly after `after`. */
export interface RevenueQuery extends AtRiskFilters {
  sort: 'revenue';
  limit: number;
  after?: RevenuePosition | undefined;
}

/** A query of the at-risk list, in either order. */
export type AtRiskQuery = ScoreQuery | RevenueQuery;

/** The position type a query's pages continue from. */
export type PositionOf<Q extends AtRiskQuery> = Q extends RevenueQuery ? RevenuePosition : AtRiskPosition;

/** How many subscribers match a query's filters and their summed monthly value, over every page. */
export interface AtRiskTotal {
  subscribers: number;
  /** The sum of the rows' `monthly_value_usd`, summed in whole cents. */
  monthly_value_usd: number;
}

/**
 * What a store keeps per subscriber so the query is an index lookup: the assessment at
 * `assessed_at`, valid until `rescore_at` (null: until the next event or activity).
 */
export interface AtRiskRow {
  customer_id: string;
  state: SubscriberState;
  score: number;
  band: RiskBand;
  /** `monthlyValueCents(subscriber) / 100`: the revenue at risk. */
  monthly_value_usd: number;
  /** The priority-1 recommendation. */
  top: Recommendation | null;
  assessed_at: number;
  rescore_at: number | null;
}

/**
 * A page: items in the query's order, the position to continue from (null at the end), and the
 * total over every row matching the filters.
 */
export interface AtRiskPage<T, P = AtRiskPosition | RevenuePosition> {
  items: T[];
  next: P | null;
  total: AtRiskTotal;
}

/**
 * Given the filters and the configuration, returns the lowest score included: `min_score` when
 * given, else the configured `bands.high` (the high and critical bands). Pure.
 *
 * @example
 * atRiskMinScore({}, DEFAULT_CONFIG); // 60
 */
export function atRiskMinScore(filters: AtRiskFilters, config: TenureConfig = DEFAULT_CONFIG): number {
  return filters.min_score ?? config.bands.high;
}

/**
 * Given two positions, returns a negative number when `a` comes first in at-risk order: score
 * descending, then customer id ascending in code point order. Pure.
 *
 * @example
 * [...rows].sort(compareAtRisk);
 */
export function compareAtRisk(a: AtRiskPosition, b: AtRiskPosition): number {
  return b.score - a.score || compareIds(a.customer_id, b.customer_id);
}

/**
 * Given two revenue positions, returns a negative number when `a` comes first in revenue order:
 * monthly value descending, then customer id ascending in code point order. Pure.
 *
 * @example
 * [...rows].sort(compareRevenue);
 */
export function compareRevenue(a: RevenuePosition, b: RevenuePosition): number {
  return b.monthly_value_usd - a.monthly_value_usd || compareIds(a.customer_id, b.customer_id);
}

/**
 * Given a row and a query, returns the row's position in the query's order. Pure.
 *
 * @example
 * positionIn({ sort: 'revenue', limit: 10 }, row); // { monthly_value_usd: row.monthly_value_usd, customer_id: row.customer_id }
 */
export function positionIn<Q extends AtRiskQuery>(
  query: Q,
  row: { score: number; monthly_value_usd: number; customer_id: string },
): PositionOf<Q> {
  const position =
    query.sort === 'revenue'
      ? { monthly_value_usd: row.monthly_value_usd, customer_id: row.customer_id }
      : { score: row.score, customer_id: row.customer_id };
  return position as PositionOf<Q>;
}

/**
 * Given a query, returns the comparison of rows in its order (score or revenue). Pure.
 *
 * @example
 * rows.sort(compareIn({ sort: 'revenue', limit: 10 }));
 */
export function compareIn(
  query: AtRiskQuery,
): (a: { score: number; monthly_value_usd: number; customer_id: string }, b: { score: number; monthly_value_usd: number; customer_id: string }) => number {
  return query.sort === 'revenue' ? compareRevenue : compareAtRisk;
}

/**
 * Given a row and a query, returns whether the row comes strictly after the query's `after` in the
 * query's order (true when there is no `after`). Pure.
 *
 * @example
 * isAfterPosition({ sort: 'revenue', limit: 10, after: { monthly_value_usd: 9.99, customer_id: 'a' } }, row);
 */
export function isAfterPosition(
  query: AtRiskQuery,
  row: { score: number; monthly_value_usd: number; customer_id: string },
): boolean {
  if (query.after === undefined) return true;
  return query.sort === 'revenue' ? compareRevenue(row, query.after) > 0 : compareAtRisk(row, query.after) > 0;
}

/**
 * Given a row (score, band, state), the filters and the configuration, returns whether the row is
 * selected. Pure.
 *
 * @example
 * matchesAtRisk({ score: 82, band: 'critical', state: 'billing_issue' }, { band: 'critical' }); // true
 */
export function matchesAtRisk(
  row: { score: number; band: RiskBand; state: SubscriberState },
  filters: AtRiskFilters,
  config: TenureConfig = DEFAULT_CONFIG,
): boolean {
  if (row.score < atRiskMinScore(filters, config)) return false;
  if (filters.state !== undefined && row.state !== filters.state) return false;
  if (filters.band !== undefined && row.band !== filters.band) return false;
  return true;
}

/**
 * Given subscribers (any order), the time, the configuration and a query, returns the page of
 * matching assessments in the query's order (score or revenue), the position after its last item
 * when more match, and the total (count and monthly value) of every match, on any page. A full
 * scan: the reference every store's index is tested against. Pure.
 *
 * @example
 * const { items, next, total } = selectAtRisk(subscribers, now, DEFAULT_CONFIG, { band: 'critical', limit: 50 });
 * selectAtRisk(subscribers, now, DEFAULT_CONFIG, { sort: 'revenue', limit: 50 }).items; // most money first
 */
export function selectAtRisk<Q extends AtRiskQuery>(
  subscribers: Iterable<Subscriber>,
  now: number,
  config: TenureConfig,
  query: Q,
): AtRiskPage<Assessment, PositionOf<Q>> {
  type Match = { row: { score: number; monthly_value_usd: number; customer_id: string }; assessment: Assessment };
  const matches: Match[] = [];
  let count = 0;
  let cents = 0;
  for (const subscriber of subscribers) {
    if (query.state !== undefined && subscriber.state !== query.state) continue;
    const assessment = assessSubscriber(subscriber, now, config);
    const valueCents = monthlyValueCents(subscriber);
    const row = { score: assessment.risk.score, monthly_value_usd: valueCents / 100, customer_id: subscriber.customer_id };
    if (!matchesAtRisk({ ...row, band: assessment.risk.band, state: subscriber.state }, query, config)) continue;
    count += 1;
    cents += valueCents;
    if (!isAfterPosition(query, row)) continue; // already served
    matches.push({ row, assessment });
  }
  const compare = compareIn(query);
  matches.sort((a, b) => compare(a.row, b.row));
  const page = matches.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((m) => m.assessment),
    next: matches.length > query.limit && last !== undefined ? positionIn(query, last.row) : null,
    total: { subscribers: count, monthly_value_usd: cents / 100 },
  };
}
