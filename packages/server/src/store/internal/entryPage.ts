/** The memory store's at-risk page: a query read from the indexes, with its total. */
import { atRiskMinScore, bandFor, positionIn, type AtRiskEntry, type AtRiskPage, type AtRiskQuery, type PositionOf, type TenureConfig } from '@tenure/core';
import type { AtRiskIndex } from './atRiskIndex.js';
import { bandRange } from './bandRange.js';
import type { CustomerEntry } from './customerEntry.js';

/** Given the at-risk index, a query and the configuration, returns the page and its total (the caller refreshed due rows first). */
export function readEntryPage<Q extends AtRiskQuery>(index: AtRiskIndex<CustomerEntry>, query: Q, config: TenureConfig): AtRiskPage<AtRiskEntry, PositionOf<Q>> {
    const { minScore, maxScore } = bandRange(query.band, atRiskMinScore(query, config), config.bands);
    const { rows, more } =
      query.sort === 'revenue'
        ? index.revenuePage({ minScore, maxScore, state: query.state, after: query.after }, query.limit)
        : index.page({ minScore, maxScore, state: query.state, after: query.after }, query.limit);
    const items = rows.map(
      (entry): AtRiskEntry => ({
        customer_id: entry.id,
        state: entry.state,
        score: entry.score,
        band: bandFor(entry.score, config.bands),
        monthly_value_usd: entry.valueCents / 100,
        top: entry.top,
        assessed_at: entry.assessedAt,
        rescore_at: entry.rescoreAt,
        subscriber: entry.subscriber,
      }),
    );
    const last = items[items.length - 1];
    return {
      items,
      next: more && last !== undefined ? positionIn(query, last) : null,
      total: index.total({ minScore, maxScore, state: query.state }),
    };
  }
