/** The memory store's row of one customer (a person, under the key the app uses now). */
import type { Recommendation, Subscriber } from '@tenure/core';
import type { IndexedRow } from './atRiskIndex.js';

/** One customer: the subscriber, its latest reported activity, its latest event and its materialized row. */
export interface CustomerEntry extends IndexedRow {
  subscriber: Subscriber;
  /** The priority-1 recommendation at `assessedAt` (kept, so reading a page allocates almost nothing). */
  top: Recommendation | null;
  assessedAt: number;
  reported: number | null;
  lastSeq: number;
}
