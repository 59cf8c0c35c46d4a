/**
 * The at-risk selection: which subscribers are at risk at an instant, in which order, and how a
 * page continues. Stores answer it from a materialized index; `selectAtRisk` is the full-scan
 * reference they are tested against, and what an embedding user with a plain list calls.
 */
import { DEFAULT_CONFIG, type TenureConfig } from '../config/defaultConfig.js';
import type { Assessment } from '../dispatch/delivery.js';
import { assessSubscriber } from '../recommend/assessSubscriber.js';
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

/** Filters plus a page: at most `limit` items strictly after `after`. */
export interface AtRiskQuery extends AtRiskFilters {
  limit: number;
  after?: AtRiskPosition | undefined;
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
  /** The priority-1 recommendation. */
  top: Recommendation | null;
  assessed_at: number;
  rescore_at: number | null;
}

/** A page: items in at-risk order and the position to continue from (null at the end). */
export interface AtRiskPage<T> {
  items: T[];
  next: AtRiskPosition | null;
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
 * matching assessments in at-risk order and the position after its last item when more match.
 * A full scan: the reference every store's index is tested against. Pure.
 *
 * @example
 * const { items, next } = selectAtRisk(subscribers, now, DEFAULT_CONFIG, { band: 'critical', limit: 50 });
 */
export function selectAtRisk(
  subscribers: Iterable<Subscriber>,
  now: number,
  config: TenureConfig,
  query: AtRiskQuery,
): AtRiskPage<Assessment> {
  const matches: { position: AtRiskPosition; assessment: Assessment }[] = [];
  for (const subscriber of subscribers) {
    if (query.state !== undefined && subscriber.state !== query.state) continue;
    const assessment = assessSubscriber(subscriber, now, config);
    const position = { score: assessment.risk.score, customer_id: subscriber.customer_id };
    if (!matchesAtRisk({ ...position, band: assessment.risk.band, state: subscriber.state }, query, config)) continue;
    if (query.after !== undefined && compareAtRisk(position, query.after) <= 0) continue; // already served
    matches.push({ position, assessment });
  }
  matches.sort((a, b) => compareAtRisk(a.position, b.position));
  const page = matches.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((m) => m.assessment),
    next: matches.length > query.limit && last !== undefined ? last.position : null,
  };
}
