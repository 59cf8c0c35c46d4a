/**
 * The webhook outbox: sends each event to every target whose filters accept it, with up to
 * `concurrency` deliveries in flight at once (the billing service gives no ordering guarantee; 1
 * sends one at a time in emission order), retries anything but 200 on the retry schedule, keeps a
 * delivery log of every attempt, redelivers by id, and injects faults (duplicates, reordering,
 * delays, drops) from a seeded PRNG.
 */
import type { Random } from '../internal/random.js';
import type { WebhookBody } from '../machine/webhookEvents.js';
import type { WebhookConfig } from './deliveryConfig.js';
import { createItemQueue } from './itemQueue.js';
import type { Scheduler } from './scheduler.js';
import { acceptsEvent, configuredTargets, type DeliveryTarget } from './targets.js';
import type { Transport, TransportRequest, TransportResult } from './transport.js';

/**
 * Calls the transport and turns anything it throws or rejects with into a failed attempt: a user's
 * transport is an adapter we do not control, and one bad send must not end the process or the queue.
 */
async function send(transport: Transport, request: TransportRequest): Promise<TransportResult> {
  try {
    const result = await transport(request);
    if (typeof result === 'object' && result !== null && ('status' in result || 'error' in result)) return result;
    return { error: `The transport returned ${JSON.stringify(result) ?? String(result)} instead of { status } or { error }` };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export type AttemptKind = 'initial' | 'retry' | 'duplicate' | 'redeliver';

export interface DeliveryAttempt {
  n: number;
  kind: AttemptKind;
  at: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * What one delivery step came to, for metrics: an attempt answered 200 (`delivered`), an attempt
 * that failed and will be retried (`retried`), a last failed attempt (`failed`), an event the drop
 * fault discarded (`dropped`), or a duplicate the duplicate fault sent (`duplicate`).
 */
export const DELIVERY_OUTCOMES = ['delivered', 'retried', 'failed', 'dropped', 'duplicate'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Told each delivery step's outcome and, for an attempt, its duration in ms (null for a drop). */
export type DeliveryObserver = (outcome: DeliveryOutcome, durationMs: number | null) => void;

/** `filtered`: the target's environment or event-type filter left the event out. */
export type DeliveryState = 'pending' | 'delayed' | 'retrying' | 'delivered' | 'failed' | 'dropped' | 'skipped' | 'filtered';

export interface DeliveryRecord {
  event_id: string;
  event_type: string;
  event_timestamp_ms: number;
  /** The webhook integration's id; null for the configured webhook (or none). */
  target_id: string | null;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  next_attempt_at: number | null;
  faults: ('duplicate' | 'reorder' | 'delay' | 'drop')[];
  body: WebhookBody;
}

const NO_ATTEMPTS = Object.freeze([]) as unknown as DeliveryAttempt[];
const NO_FAULTS = Object.freeze([]) as unknown as DeliveryRecord['faults'];

/** The record's attempts, writable (its own list from the first attempt on). */
const attemptsOf = (record: DeliveryRecord): DeliveryAttempt[] => (record.attempts === NO_ATTEMPTS ? (record.attempts = []) : record.attempts);
/** The record's faults, writable. */
const faultsOf = (record: DeliveryRecord): DeliveryRecord['faults'] => (record.faults === NO_FAULTS ? (record.faults = []) : record.faults);

interface QueueItem {
  record: DeliveryRecord;
  target: DeliveryTarget;
  kind: AttemptKind;
}

/** A queued delivery as the queue holds it: the record, or its place in the log while it is not made yet. */
interface QueuedItem {
  record: DeliveryRecord | number;
  target: DeliveryTarget;
  kind: AttemptKind;
}

export interface Outbox {
  /**
   * Logs the event once per target of its project (or once as skipped without one) and queues its
   * deliveries; returns the first record.
   */
  enqueue(body: WebhookBody, projectId?: string | null): DeliveryRecord;
  /**
   * Logs and queues the event as `enqueue` does, without returning a record: a record waiting for
   * its first attempt is made when something happens to it (its attempt, a fault, `log`, `get`), so
   * the 300 k events of a month advance are not 300 k more objects kept alive inside the advance.
   */
  queue(body: WebhookBody, projectId?: string | null): void;
  /** One more attempt now to every target that took the event; returns its first record. */
  redeliver(eventId: string): DeliveryRecord | undefined;
  log(): DeliveryRecord[];
  get(eventId: string): DeliveryRecord | undefined;
  /** Calls `observer` after each delivery step (metrics); returns the unsubscribe function. */
  observe(observer: DeliveryObserver): () => void;
  /** Resolves once nothing is queued or in flight (timers for retries and delays may still wait). */
  idle(): Promise<void>;
  /** Cancels every waiting timer. */
  close(): void;
  /** Forgets every record and queued attempt and cancels every timer; faults draw from `random` from now on. */
  reset(random: Random): void;
}

/** Where the outbox reads events it was given by position (the simulator's history). */
export interface EventSource {
  body(index: number): WebhookBody;
  /** `JSON.stringify(body(index))`: what is sent, written without building the body. */
  text(index: number): string;
  id(index: number): string;
}

/** The outbox as the simulator uses it: besides bodies, it takes events by their position in `deps.events`. */
export interface HistoryOutbox extends Outbox {
  /**
   * Logs and queues the event at `index` of `deps.events` as `queue` does a body: its body is built
   * when it is sent (or when a filter, a fault, `log` or `get` needs it), not now.
   */
  queueEvent(index: number, projectId: string | null): void;
}

export interface OutboxDeps {
  config: () => WebhookConfig;
  scheduler: Scheduler;
  transport: Transport;
  random: Random;
  /** Where the events of a project go (default: the configured webhook, `configuredTargets(config())`). */
  targets?: (projectId: string | null) => DeliveryTarget[];
  /** The events `queueEvent` takes by position. */
  events?: EventSource;
}

/** In `targetIds`, a record not made yet that has no target (logged as skipped). */
const SKIPPED = Symbol('skipped');

/**
 * Returns an outbox that reads its settings through `config()` (and its targets through `targets()`)
 * at each step, so targets, filters, concurrency and faults can change at runtime.
 *
 * @example
 * const outbox = createOutbox({ config: () => cfg, scheduler: realScheduler(), transport: fetchTransport(), random });
 */
export function createOutbox(deps: OutboxDeps): HistoryOutbox {
  const { scheduler, transport } = deps;
  // The configured target, derived again only when the configuration object changes (once per event otherwise).
  let cachedConfig: WebhookConfig | null = null;
  let cachedTargets: DeliveryTarget[] = [];
  const targetsNow =
    deps.targets ??
    (() => {
      const config = deps.config();
      if (config !== cachedConfig) {
        cachedConfig = config;
        cachedTargets = configuredTargets(config);
      }
      return cachedTargets;
    });
  let random = deps.random;
  // The log, in order: a record, or a record not made yet, kept as its event's body or its position in
  // `deps.events` (a queued first attempt to the target in `targetIds` at the same place, state
  // pending, no attempts and no faults; or, with SKIPPED there, an event no target took; `recordAt`
  // makes it). The first place of each event and the places of further targets of the same event, if
  // any, in `more`. Indexed lazily (`indexAll`), when a lookup needs it: a month advance logs 300 k
  // records at once, and a map of 300 k event ids built inside the advance cost more than the log itself.
  const all: (DeliveryRecord | WebhookBody | number)[] = [];
  const targetIds: (string | null | typeof SKIPPED)[] = [];
  // A record not made yet whose first attempt was answered 200 (no duplicate fault possible): the
  // attempt's start and duration, NaN otherwise. `recordAt` makes the delivered record from them, so
  // a delivered month keeps two numbers an event instead of a record, its attempt and its body.
  const doneAt: number[] = [];
  const doneMs: number[] = [];
  /** Bumped by `reset`: an attempt in flight across a reset finishes on a record of its own. */
  let generation = 0;
  const byEvent = new Map<string, number>();
  const more = new Map<string, number[]>();
  let indexed = 0;
  const isRecord = (slot: DeliveryRecord | WebhookBody | number): slot is DeliveryRecord => typeof slot === 'object' && (slot as Partial<DeliveryRecord>).body !== undefined;
  const events = (): EventSource => {
    if (deps.events === undefined) throw new Error('queueEvent needs deps.events');
    return deps.events;
  };
  const bodyOf = (slot: WebhookBody | number): WebhookBody => (typeof slot === 'number' ? events().body(slot) : slot);
  function recordAt(index: number): DeliveryRecord {
    const slot = all[index]!;
    if (isRecord(slot)) return slot;
    const target = targetIds[index]!;
    const record = target === SKIPPED ? makeRecord(bodyOf(slot), null, 'skipped') : makeRecord(bodyOf(slot), target);
    const at = doneAt[index]!;
    if (at === at) {
      record.state = 'delivered';
      record.attempts = [{ n: 1, kind: 'initial', at, status: 200, error: null, duration_ms: doneMs[index]! }];
    }
    all[index] = record;
    return record;
  }
  function indexAll(): void {
    for (; indexed < all.length; indexed += 1) {
      const slot = all[indexed]!;
      const eventId = isRecord(slot) ? slot.event_id : typeof slot === 'number' ? events().id(slot) : slot.event.id;
      if (!byEvent.has(eventId)) byEvent.set(eventId, indexed);
      else {
        const list = more.get(eventId);
        if (list === undefined) more.set(eventId, [indexed]);
        else list.push(indexed);
      }
    }
  }
  const queue = createItemQueue<DeliveryRecord | number, DeliveryTarget, AttemptKind>();
  /** The queued item with its record made. */
  const resolved = (item: QueuedItem): QueueItem =>
    typeof item.record === 'number' ? { record: recordAt(item.record), target: item.target, kind: item.kind } : (item as QueueItem);
  const timers = new Set<unknown>();
  let inFlight = 0;
  let fillScheduled = false;
  let waiters: (() => void)[] = [];
  const chance = (rate: number) => rate > 0 && random() < rate;
  const observers = new Set<DeliveryObserver>();
  const tell = (outcome: DeliveryOutcome, durationMs: number | null) => {
    for (const observer of observers) observer(outcome, durationMs);
  };

  const later = (ms: number, fn: () => void) => {
    const handle = scheduler.setTimeout(() => {
      timers.delete(handle);
      fn();
    }, ms);
    timers.add(handle);
  };
  // Deliveries start on a microtask, so the events one command emits wait in the queue together
  // (the reorder fault swaps among them).
  const kick = () => {
    if (fillScheduled) return;
    fillScheduled = true;
    queueMicrotask(fill);
  };
  const push = (item: QueuedItem) => {
    queue.push(item);
    kick();
  };
  const settle = () => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };
  const busy = () => fillScheduled || inFlight > 0 || queue.length > 0;

  /**
   * One attempt of the queued item. An item whose record is not made yet (a first attempt queued by
   * its place in the log) is sent without making it: its text is written from the log (no body built),
   * and a 200 is kept as two numbers (`doneAt`, `doneMs`); anything else makes the record first.
   */
  async function attempt(item: QueuedItem): Promise<void> {
    const cfg = deps.config();
    const { target } = item;
    const index = typeof item.record === 'number' ? item.record : -1;
    const gen = generation;
    const slot = index >= 0 ? all[index]! : (item.record as DeliveryRecord);
    // An event still only a place in the log is sent as the log writes its text (no body built).
    const text = isRecord(slot) ? JSON.stringify(slot.body) : typeof slot === 'number' ? events().text(slot) : JSON.stringify(slot);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'tenure-billing-sim' };
    if (target.authorization !== null) headers['authorization'] = target.authorization;
    const started = scheduler.now();
    const result = await send(transport, { url: target.url, headers, body: text, timeout_ms: cfg.timeout_ms });
    const status = 'status' in result ? result.status : null;
    const durationMs = scheduler.now() - started;
    const lazy = index >= 0 && gen === generation;
    if (lazy && status === 200 && item.kind === 'initial' && !(cfg.faults.duplicate_rate > 0) && !isRecord(all[index]!)) {
      doneAt[index] = started;
      doneMs[index] = durationMs;
      return tell('delivered', durationMs);
    }
    const record = index < 0 ? (item.record as DeliveryRecord) : lazy ? recordAt(index) : makeRecord(isRecord(slot) ? slot.body : bodyOf(slot), target.id);
    attemptsOf(record).push({
      n: record.attempts.length + 1,
      kind: item.kind,
      at: started,
      status,
      error: 'error' in result ? result.error : status === 200 ? null : `HTTP ${status}`,
      duration_ms: durationMs,
    });
    if (item.kind === 'duplicate') return tell('duplicate', durationMs);
    if (status === 200) {
      tell('delivered', durationMs);
      record.state = 'delivered';
      record.next_attempt_at = null;
      if (item.kind !== 'redeliver' && chance(cfg.faults.duplicate_rate)) {
        faultsOf(record).push('duplicate');
        queue.unshift({ record, target, kind: 'duplicate' });
      }
      return;
    }
    if (item.kind === 'redeliver') {
      if (record.state !== 'delivered') record.state = 'failed';
      return tell('failed', durationMs);
    }
    const retriesDone = record.attempts.filter((a) => a.kind === 'retry').length;
    const delay = cfg.retry_schedule_ms[retriesDone];
    if (delay === undefined) {
      record.state = 'failed';
      record.next_attempt_at = null;
      return tell('failed', durationMs);
    }
    tell('retried', durationMs);
    record.state = 'retrying';
    record.next_attempt_at = scheduler.now() + delay;
    later(delay, () => push({ record, target, kind: 'retry' }));
  }

  /** Starts queued deliveries until `concurrency` are in flight; settles the waiters when all is done. */
  function fill(): void {
    fillScheduled = false;
    const cfg = deps.config();
    while (inFlight < cfg.concurrency) {
      const queued = queue.shift();
      if (queued === undefined) break;
      let item: QueuedItem = queued;
      const window = Math.min(cfg.faults.reorder_window, queue.length);
      if (item.kind === 'initial' && window > 0 && chance(cfg.faults.reorder_rate)) {
        const j = Math.floor(random() * window);
        const swapped = queue.at(j);
        if (swapped !== undefined) {
          const moved = resolved(queued);
          queue.set(j, moved);
          faultsOf(moved.record).push('reorder');
          item = resolved(swapped);
        }
      }
      inFlight += 1;
      void attempt(item).then(done, done);
    }
    if (!busy()) settle();
  }
  function done(): void {
    inFlight -= 1;
    fill();
  }

  function newRecord(body: WebhookBody, targetId: string | null): DeliveryRecord {
    const record = makeRecord(body, targetId);
    all.push(record);
    targetIds.push(targetId);
    doneAt.push(NaN);
    doneMs.push(NaN);
    return record;
  }

  /** Queues the first attempt of a record not made yet (no fault drawn, or none hit). */
  function queueLazily(body: WebhookBody | number, target: DeliveryTarget): void {
    all.push(body);
    targetIds.push(target.id);
    doneAt.push(NaN);
    doneMs.push(NaN);
    push({ record: all.length - 1, target, kind: 'initial' });
  }

  function makeRecord(body: WebhookBody, targetId: string | null, state: DeliveryState = 'pending'): DeliveryRecord {
    return {
      event_id: body.event.id,
      event_type: body.event.type,
      event_timestamp_ms: body.event.event_timestamp_ms,
      target_id: targetId,
      state,
      // Shared empty lists until the first attempt or fault: a month advance logs 300 k records at once.
      attempts: NO_ATTEMPTS,
      next_attempt_at: null,
      faults: NO_FAULTS,
      body,
    };
  }

  function queueFirst(record: DeliveryRecord, target: DeliveryTarget): void {
    const faults = deps.config().faults;
    if (chance(faults.drop_rate)) {
      record.state = 'dropped';
      faultsOf(record).push('drop');
      tell('dropped', null);
    } else if (chance(faults.delay_rate)) {
      record.state = 'delayed';
      faultsOf(record).push('delay');
      record.next_attempt_at = scheduler.now() + faults.delay_ms;
      later(faults.delay_ms, () => {
        record.state = 'pending';
        push({ record, target, kind: 'initial' });
      });
    } else {
      push({ record, target, kind: 'initial' });
    }
  }

  return {
    enqueue(body, projectId = null) {
      const targets = targetsNow(projectId);
      if (targets.length === 0) {
        const record = newRecord(body, null);
        record.state = 'skipped';
        return record;
      }
      let first: DeliveryRecord | undefined;
      for (const target of targets) {
        const record = newRecord(body, target.id);
        first ??= record;
        if (acceptsEvent(target, body)) queueFirst(record, target);
        else record.state = 'filtered';
      }
      return first!;
    },
    queue(body, projectId = null) {
      const targets = targetsNow(projectId);
      if (targets.length === 0) {
        newRecord(body, null).state = 'skipped';
        return;
      }
      const faults = deps.config().faults;
      // Without drop or delay faults the first attempt is queued as it is: its record is made later.
      const plain = faults.drop_rate <= 0 && faults.delay_rate <= 0;
      for (const target of targets) {
        if (!acceptsEvent(target, body)) newRecord(body, target.id).state = 'filtered';
        else if (plain) queueLazily(body, target);
        else queueFirst(newRecord(body, target.id), target);
      }
    },
    queueEvent(index, projectId) {
      const targets = targetsNow(projectId);
      if (targets.length === 0) {
        all.push(index);
        targetIds.push(SKIPPED);
        doneAt.push(NaN);
        doneMs.push(NaN);
        return;
      }
      const faults = deps.config().faults;
      const plain = faults.drop_rate <= 0 && faults.delay_rate <= 0;
      // The body is built here only when a filter or a fault needs it.
      let body: WebhookBody | null = null;
      for (const target of targets) {
        const filters = target.environment !== null || target.event_types !== null;
        if (filters && !acceptsEvent(target, (body ??= events().body(index)))) newRecord(body, target.id).state = 'filtered';
        else if (plain) queueLazily(index, target);
        else queueFirst(newRecord((body ??= events().body(index)), target.id), target);
      }
    },
    redeliver(eventId) {
      indexAll();
      const firstAt = byEvent.get(eventId);
      if (firstAt === undefined) return undefined;
      const first = recordAt(firstAt);
      // Each record goes to its target as configured now; an event logged as skipped (no target
      // then) goes to the configured webhook, if there is one now.
      const targets = targetsNow(null);
      const configured = configuredTargets(deps.config())[0];
      for (const record of [first, ...(more.get(eventId) ?? []).map(recordAt)]) {
        if (record.state === 'filtered') continue;
        const target = targets.find((t) => t.id === record.target_id) ?? (record.target_id === null ? configured : undefined);
        if (target !== undefined) push({ record, target, kind: 'redeliver' });
      }
      return first;
    },
    log: () => all.map((_, index) => recordAt(index)),
    get(eventId) {
      indexAll();
      const at = byEvent.get(eventId);
      return at === undefined ? undefined : recordAt(at);
    },
    observe(observer) {
      observers.add(observer);
      return () => void observers.delete(observer);
    },
    idle: () => (busy() ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    close() {
      for (const t of timers) scheduler.clearTimeout(t);
      timers.clear();
    },
    reset(next) {
      for (const t of timers) scheduler.clearTimeout(t);
      timers.clear();
      byEvent.clear();
      more.clear();
      all.length = 0;
      targetIds.length = 0;
      doneAt.length = 0;
      doneMs.length = 0;
      generation += 1;
      indexed = 0;
      while (queue.shift() !== undefined);
      random = next;
    },
  };
}
