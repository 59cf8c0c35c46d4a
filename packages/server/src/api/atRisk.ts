/**
 * The at-risk selection shared by GET /api/at-risk and POST /api/dispatch: assess every subscriber
 * at `now`, keep those matching the filters, order by score (highest first) then customer_id, and
 * page with an opaque keyset cursor (the last item's score and id), so pages stay stable while
 * scores move.
 */
import { assessSubscriber, type Assessment, type RiskBand, type SubscriberState, type SubscriberStore, type TenureConfig } from '@tenure/core';

/** The default lowest score of "at risk" (the `high` band). */
export const DEFAULT_MIN_SCORE = 60;
export const DEFAULT_PAGE_SIZE = 50;

export interface AtRiskFilters {
  min_score?: number | undefined;
  state?: SubscriberState | undefined;
  band?: RiskBand | undefined;
}

interface Position {
  score: number;
  id: string;
}

/** Given a position, returns the opaque cursor for it. Pure. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.score, position.id]), 'utf8').toString('base64url');
}

/** Given a cursor, returns its position, or undefined when it is not one of ours. Pure. */
export function decodeCursor(cursor: string): Position | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { score: value[0], id: value[1] };
    }
  } catch {
    // fall through: not a cursor we issued
  }
  return undefined;
}

/** True when `a` comes after position `p` in at-risk order (score descending, then customer_id). */
const comesAfter = (a: Assessment, p: Position): boolean =>
  a.risk.score !== p.score ? a.risk.score < p.score : a.subscriber.customer_id > p.id;

/**
 * Given the store, the time, the configuration, the filters and a page request, resolves with the
 * page of matching assessments in at-risk order and the cursor of the next page (null at the end).
 *
 * @example
 * const { items, next } = await selectAtRisk(store, now, config, { min_score: 80 }, { limit: 50 });
 */
export async function selectAtRisk(
  store: SubscriberStore,
  now: number,
  config: TenureConfig,
  filters: AtRiskFilters,
  page: { limit: number; after?: Position | undefined },
): Promise<{ items: Assessment[]; next: string | null }> {
  const minScore = filters.min_score ?? DEFAULT_MIN_SCORE;
  const matches: Assessment[] = [];
  for await (const subscriber of store.list()) {
    if (filters.state !== undefined && subscriber.state !== filters.state) continue;
    const assessment = assessSubscriber(subscriber, now, config);
    if (assessment.risk.score < minScore) continue;
    if (filters.band !== undefined && assessment.risk.band !== filters.band) continue;
    if (page.after !== undefined && !comesAfter(assessment, page.after)) continue; // already served
    matches.push(assessment);
  }
  matches.sort((a, b) => b.risk.score - a.risk.score || (a.subscriber.customer_id < b.subscriber.customer_id ? -1 : 1));
  const items = matches.slice(0, page.limit);
  const last = items[items.length - 1];
  const next = matches.length > page.limit && last !== undefined ? encodeCursor({ score: last.risk.score, id: last.subscriber.customer_id }) : null;
  return { items, next };
}
