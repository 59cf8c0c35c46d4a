/**
 * The simulator's event history: the logs of the transitions that emitted events, one after the
 * other, read by position across all of them. Bodies are built from a log when read, so the
 * history of a month advance is its log's columns, not 300 k bodies.
 */
import type { EventLog } from '../machine/eventLog.js';
import type { WebhookBody } from '../machine/webhookEvents.js';

/** Every event emitted so far, by position (0 = the first). Not pure: appended to by the facade. */
export interface EventHistory {
  readonly length: number;
  /** Adds a transition's events after the others. */
  append(log: EventLog): void;
  /** The body of the event at `index` (built from its log: a new object for a lifecycle or currency event). */
  body(index: number): WebhookBody;
  /** `JSON.stringify(body(index))`, written from its log without building the body. */
  text(index: number): string;
  /** The `id` of the event at `index`, without building its body. */
  id(index: number): string;
  /** The bodies from `from` on (a negative `from` counts from the end, as `Array#slice`). */
  since(from: number): WebhookBody[];
  /** Forgets every event. */
  clear(): void;
}

/**
 * Returns an empty history.
 *
 * @example
 * const history = createEventHistory(); history.append(out.log); history.body(0);
 */
export function createEventHistory(): EventHistory {
  const logs: EventLog[] = [];
  /** Where each log starts. */
  const starts: number[] = [];
  let length = 0;
  /** The log found last: reads go mostly in order (delivery, `since`). */
  let last = 0;
  /** The log holding `index` (0 ≤ index < length). */
  const logAt = (index: number): number => {
    const at = last;
    if (at < logs.length && starts[at]! <= index && index < starts[at]! + logs[at]!.length) return at;
    let lo = 0;
    let hi = logs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    last = lo;
    return lo;
  };
  const check = (index: number): void => {
    if (!Number.isInteger(index) || index < 0 || index >= length) throw new RangeError(`No event at ${index} (the history has ${length})`);
  };
  return {
    get length() {
      return length;
    },
    append(log) {
      if (log.length === 0) return;
      logs.push(log);
      starts.push(length);
      length += log.length;
    },
    body(index) {
      check(index);
      const at = logAt(index);
      return logs[at]!.body(index - starts[at]!);
    },
    text(index) {
      check(index);
      const at = logAt(index);
      return logs[at]!.text(index - starts[at]!);
    },
    id(index) {
      check(index);
      const at = logAt(index);
      return logs[at]!.id(index - starts[at]!);
    },
    since(from) {
      const out: WebhookBody[] = [];
      for (let index = from < 0 ? Math.max(0, length + from) : from; index < length; index += 1) {
        const at = logAt(index);
        out.push(logs[at]!.body(index - starts[at]!));
      }
      return out;
    },
    clear() {
      logs.length = 0;
      starts.length = 0;
      length = 0;
      last = 0;
    },
  };
}
