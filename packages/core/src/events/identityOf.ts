/**
 * Who an event is about: the key that groups one person's ids, and who gains and loses a
 * subscription on a TRANSFER. Grouping and moving records is the store's work; these say what to do.
 */
import { compareIds } from '../atRisk/compareIds.js';
import type { HandledEvent, TransferEvent } from './webhookSchema.js';

/** The ids an event names for one person. */
export interface Identity {
  /** The key to group a person's records by: `original_app_user_id`, else `app_user_id`. */
  customer_key: string;
  /** The id the app uses now (RevenueCat's last seen `app_user_id`): what an at-risk row should name. */
  app_user_id: string;
}

/**
 * Given a handled event, returns its identity: the canonical customer key (`original_app_user_id`
 * when present, else `app_user_id`) and the id the app uses (`app_user_id`). Pure.
 *
 * @example
 * identityOf({ ...renewal, app_user_id: 'user_42', original_app_user_id: '$RCAnonymousID:ab' });
 * // { customer_key: '$RCAnonymousID:ab', app_user_id: 'user_42' }
 */
export function identityOf(event: HandledEvent): Identity {
  return { customer_key: event.original_app_user_id ?? event.app_user_id, app_user_id: event.app_user_id };
}

/** Who loses and who gains the subscription on a TRANSFER. */
export interface Transfer {
  /** Ids that lose it, deduplicated, in code-point order. */
  from: string[];
  /** Ids that gain it, deduplicated, in code-point order; `to[0]` receives the history (docs/rules.md §2). */
  to: string[];
}

const sortedSet = (ids: readonly string[]): string[] => [...new Set(ids)].sort(compareIds);

/**
 * Given a TRANSFER event, returns the ids that lose the subscription (`transferred_from`) and those
 * that gain it (`transferred_to`), each deduplicated and sorted in code-point order; an id on both
 * sides keeps what it has and is in neither list. Pure.
 *
 * @example
 * transferOf({ ...transfer, transferred_from: ['old'], transferred_to: ['new'] }); // { from: ['old'], to: ['new'] }
 */
export function transferOf(event: Pick<TransferEvent, 'transferred_from' | 'transferred_to'>): Transfer {
  const to = new Set(event.transferred_to);
  const from = new Set(event.transferred_from);
  return {
    from: sortedSet(event.transferred_from.filter((id) => !to.has(id))),
    to: sortedSet(event.transferred_to.filter((id) => !from.has(id))),
  };
}
