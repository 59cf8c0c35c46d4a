/**
 * The webhook outbox: sends each event to the configured URL one at a time in emission order, retries
 * anything but 200 on the retry schedule, keeps a delivery log of every attempt, redelivers by id,
 * and injects faults (duplicates, reordering, delays, drops) from a seeded PRNG.
 */
import { createDeque } from '../internal/deque.js';
import type { Random } from '../internal/random.js';
import type { WebhookBody } from '../sim/webhookEvents.js';
import type { WebhookConfig } from './deliveryConfig.js';
import type { Scheduler } from './scheduler.js';
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

export type DeliveryState = 'pending' | 'delayed' | 'retrying' | 'delivered' | 'failed' | 'dropped' | 'skipped';

export interface DeliveryRecord {
  event_id: string;
  event_type: string;
  event_timestamp_ms: number;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  next_attempt_at: number | null;
  faults: ('duplicate' | 'reorder' | 'delay' | 'drop')[];
  body: WebhookBody;
}

interface QueueItem {
  record: DeliveryRecord;
  kind: AttemptKind;
}

export interface Outbox {
  enqueue(body: WebhookBody): DeliveryRecord;
  redeliver(eventId: string): DeliveryRecord | undefined;
  log(): DeliveryRecord[];
  get(eventId: string): DeliveryRecord | undefined;
  /** Resolves once nothing is queued or in flight (timers for retries and delays may still wait). */
  idle(): Promise<void>;
  /** Cancels every waiting timer. */
  close(): void;
  /** Forgets every record and queued attempt and cancels every timer; faults draw from `random` from now on. */
  reset(random: Random): void;
}

/**
 * Returns an outbox that reads its settings through `config()` at each step, so the target and the
 * faults can change at runtime.
 *
 * @example
 * const outbox = createOutbox({ config: () => cfg, scheduler: realScheduler(), transport: fetchTransport(), random });
 */
export function createOutbox(deps: { config: () => WebhookConfig; scheduler: Scheduler; transport: Transport; random: Random }): Outbox {
  const { scheduler, transport } = deps;
  let random = deps.random;
  const records = new Map<string, DeliveryRecord>();
  const queue = createDeque<QueueItem>();
  const timers = new Set<unknown>();
  let running = false;
  let waiters: (() => void)[] = [];
  const chance = (rate: number) => rate > 0 && random() < rate;

  const later = (ms: number, fn: () => void) => {
    const handle = scheduler.setTimeout(() => {
      timers.delete(handle);
      fn();
    }, ms);
    timers.add(handle);
  };
  const push = (item: QueueItem) => {
    queue.push(item);
    if (!running) {
      running = true;
      queueMicrotask(() => void pump());
    }
  };
  const settle = () => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  async function attempt(item: QueueItem): Promise<void> {
    const cfg = deps.config();
    const { record } = item;
    if (cfg.url === null) {
      if (record.attempts.length === 0) record.state = 'skipped';
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'tenure-billing-sim' };
    if (cfg.authorization !== null) headers['authorization'] = cfg.authorization;
    const started = scheduler.now();
    const result = await send(transport, { url: cfg.url, headers, body: JSON.stringify(record.body), timeout_ms: cfg.timeout_ms });
    const status = 'status' in result ? result.status : null;
    record.attempts.push({
      n: record.attempts.length + 1,
      kind: item.kind,
      at: started,
      status,
      error: 'error' in result ? result.error : status === 200 ? null : `HTTP ${status}`,
      duration_ms: scheduler.now() - started,
    });
    if (item.kind === 'duplicate') return;
    if (status === 200) {
      record.state = 'delivered';
      record.next_attempt_at = null;
      if (item.kind !== 'redeliver' && chance(cfg.faults.duplicate_rate)) {
        record.faults.push('duplicate');
        queue.unshift({ record, kind: 'duplicate' });
      }
      return;
    }
    if (item.kind === 'redeliver') {
      if (record.state !== 'delivered') record.state = 'failed';
      return;
    }
    const retriesDone = record.attempts.filter((a) => a.kind === 'retry').length;
    const delay = cfg.retry_schedule_ms[retriesDone];
    if (delay === undefined) {
      record.state = 'failed';
      record.next_attempt_at = null;
      return;
    }
    record.state = 'retrying';
    record.next_attempt_at = scheduler.now() + delay;
    later(delay, () => push({ record, kind: 'retry' }));
  }

  async function pump(): Promise<void> {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const window = Math.min(deps.config().faults.reorder_window, queue.length);
      if (item.kind === 'initial' && window > 0 && chance(deps.config().faults.reorder_rate)) {
        const j = Math.floor(random() * window);
        const swapped = queue.at(j);
        if (swapped !== undefined) {
          queue.set(j, item);
          item.record.faults.push('reorder');
          item = swapped;
        }
      }
      await attempt(item);
    }
    running = false;
    settle();
  }

  return {
    enqueue(body) {
      const faults = deps.config().faults;
      const record: DeliveryRecord = {
        event_id: body.event.id,
        event_type: body.event.type,
        event_timestamp_ms: body.event.event_timestamp_ms,
        state: 'pending',
        attempts: [],
        next_attempt_at: null,
        faults: [],
        body,
      };
      records.set(record.event_id, record);
      if (deps.config().url === null) {
        record.state = 'skipped';
      } else if (chance(faults.drop_rate)) {
        record.state = 'dropped';
        record.faults.push('drop');
      } else if (chance(faults.delay_rate)) {
        record.state = 'delayed';
        record.faults.push('delay');
        record.next_attempt_at = scheduler.now() + faults.delay_ms;
        later(faults.delay_ms, () => {
          record.state = 'pending';
          push({ record, kind: 'initial' });
        });
      } else {
        push({ record, kind: 'initial' });
      }
      return record;
    },
    redeliver(eventId) {
      const record = records.get(eventId);
      if (record !== undefined) push({ record, kind: 'redeliver' });
      return record;
    },
    log: () => [...records.values()],
    get: (eventId) => records.get(eventId),
    idle: () => (running || queue.length > 0 ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    close() {
      for (const t of timers) scheduler.clearTimeout(t);
      timers.clear();
    },
    reset(next) {
      for (const t of timers) scheduler.clearTimeout(t);
      timers.clear();
      records.clear();
      while (queue.shift() !== undefined);
      random = next;
    },
  };
}
