/**
 * What an import tells of the events it drops because another customer holds their transaction
 * (`<type>:<store>:<transaction_id>`, docs/import.md): a count, the first few cases, and the warning
 * the CLI prints, as a webhook's `warn` line makes the same case visible.
 */
import type { HandledEvent, HeldElsewhereListener } from '@tenure/core';
import { formatCount } from '../cli/storeData/progressReporter.js';

/** One event dropped because another customer holds its transaction occurrence. */
export interface HeldElsewhere {
  event_id: string;
  /** The customer the file names (`app_user_id`). */
  customer_id: string;
  /** The occurrence key, `<type>:<store>:<transaction_id>`. */
  occurrence: string;
  /** The stored customer holding it. */
  held_by: string;
}

/** The part of an import report that counts them: every case counted, the first `HELD_ELSEWHERE_KEPT` kept. */
export interface HeldElsewhereTally {
  held_elsewhere: number;
  held_elsewhere_examples: HeldElsewhere[];
}

/** Cases kept in a report (and listed by the CLI): enough to find the pattern, never a flood. */
export const HELD_ELSEWHERE_KEPT = 10;

/**
 * Given the report to count into and a batch of events, returns the listener a store's batch write
 * tells (`applyEvents`, `ImportSession.append`): it counts each case and keeps the first ones.
 *
 * @example
 * await session.append(events, heldElsewhereListener(report, events));
 */
export function heldElsewhereListener(report: HeldElsewhereTally, events: readonly HandledEvent[]): HeldElsewhereListener {
  return (position, holder) => {
    report.held_elsewhere += 1;
    const event = events[position];
    if (event === undefined || report.held_elsewhere_examples.length >= HELD_ELSEWHERE_KEPT) return;
    report.held_elsewhere_examples.push({ event_id: event.id, customer_id: event.app_user_id, occurrence: holder.key, held_by: holder.customer });
  };
}

/**
 * Given a report, returns the warning lines of its dropped cases (none when there were none): one
 * line with the count, then one per kept case. Pure.
 *
 * @example
 * formatHeldElsewhere({ held_elsewhere: 1, held_elsewhere_examples: [{ event_id: 'e1', customer_id: 'jon', occurrence: 'INITIAL_PURCHASE:APP_STORE:t1', held_by: 'ivy' }] });
 * // ['warning: 1 event dropped as a duplicate: another customer holds its transaction (type:store:transaction_id)', '  e1 (customer jon): INITIAL_PURCHASE:APP_STORE:t1 held by ivy']
 */
export function formatHeldElsewhere(report: HeldElsewhereTally): string[] {
  if (report.held_elsewhere === 0) return [];
  const one = report.held_elsewhere === 1;
  const out = [
    `warning: ${formatCount(report.held_elsewhere)} ${one ? 'event' : 'events'} dropped as ${one ? 'a duplicate' : 'duplicates'}: another customer holds ${one ? 'its' : 'their'} transaction (type:store:transaction_id)` +
      (report.held_elsewhere > report.held_elsewhere_examples.length ? `; the first ${report.held_elsewhere_examples.length}:` : ''),
  ];
  for (const c of report.held_elsewhere_examples) out.push(`  ${c.event_id} (customer ${c.customer_id}): ${c.occurrence} held by ${c.held_by}`);
  return out;
}
