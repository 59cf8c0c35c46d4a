/**
 * The dispatcher: carries out the core's dispatch plan on real channels, with cooldowns, a
 * per-channel rate limit and retries, recording every attempt in the dispatch log. Deliveries run
 * concurrently, so a slow or failing channel never holds up the other one.
 */
import { buildChatMessage, buildEmail, type Alert, type Calibration, type Delivery, type DeliveryChannel } from '@tenure/core';
import type { Clock } from '../clock/clock.js';
import { cooldownOf, type CooldownOverrides } from '../config/serviceConfig.js';
import type { Logger } from '../log/logger.js';
import { isRetryable, retryAfterOf, type Notifier } from '../notify/notifier.js';
import { DISPATCH_OUTCOMES, type DispatchLog, type DispatchOutcome, type DispatchTrigger } from './dispatchLog.js';
import type { RateLimiter } from './rateLimiter.js';
import { backoffDelay, type RetryPolicy } from './retryPolicy.js';

export interface DispatcherDeps {
  notifiers: readonly Notifier[];
  log: DispatchLog;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  retry: RetryPolicy;
  /** Same subscriber, action and channel are not alerted twice within this window (ms). */
  cooldownMs: number;
  /** The window (ms) of some urgencies and channels instead of `cooldownMs`. */
  cooldownsMs?: CooldownOverrides | undefined;
  /** When given, alerts say the churn probability of the score (`buildEmail`, `buildChatMessage`). */
  calibration?: Calibration | undefined;
  sleep: (ms: number) => Promise<void>;
  serviceName: string;
  /** Optional link shown in alerts (e.g. your admin page for the customer). */
  alertLink?: (customerId: string) => string | undefined;
  /** Told each delivery's final outcome (the dispatch counter of /metrics). */
  onOutcome?: (channel: DeliveryChannel, outcome: DispatchOutcome) => void;
}

/** Counts of final outcomes (one per delivery), overall and per channel. */
export interface DispatchSummary {
  subscribers: number;
  deliveries: number;
  outcomes: Record<DispatchOutcome, number>;
  channels: Record<DeliveryChannel, Record<DispatchOutcome, number>>;
}

export interface Dispatcher {
  /** True when at least one email or chat notifier is configured (else auto-dispatch has nothing to send). */
  readonly canSend: boolean;
  /** Delivers every planned delivery; resolves with the summary once all have a final outcome. */
  run(deliveries: readonly Delivery[], trigger: DispatchTrigger): Promise<DispatchSummary>;
  /** Resolves when no dispatch is in flight. */
  idle(): Promise<void>;
  /**
   * Graceful shutdown: resolves when no dispatch is in flight. When `signal` aborts first, every
   * alert not yet sent stops waiting (rate limit, backoff, a slow send) and is recorded as `failed`
   * with the error `not sent before shutdown`, its cooldown released (so the next dispatch after a
   * restart sends it) and a `warn` line logged; later deliveries are dropped the same way.
   */
  drain(signal?: AbortSignal): Promise<void>;
}

/** The longest `Retry-After` honoured (a receiver asking for more waits this much). */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** The error recorded for an alert still unsent when a shutdown's bound is reached. */
export const SHUTDOWN_ERROR = 'not sent before shutdown';

/** Thrown inside a delivery once the dispatcher stops (never escapes `deliver`). */
const STOPPED: unique symbol = Symbol('dispatcher stopped');

const zeroCounts = (): Record<DispatchOutcome, number> =>
  Object.fromEntries(DISPATCH_OUTCOMES.map((o) => [o, 0])) as Record<DispatchOutcome, number>;

/**
 * The cooldown mark of one alert. The fixed-alphabet parts come first and the free-form customer id
 * last, so no id can make two alerts share a key; no NUL separator, which PostgreSQL text rejects.
 */
const cooldownKey = (customerId: string, action: string, channel: DeliveryChannel) => `${channel}|${action}|${customerId}`;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Given its ports and policies, returns a dispatcher. A delivery on a channel without a notifier is
 * recorded as `skipped_no_notifier`; a `log` delivery is recorded as `logged`; a failed send releases
 * its cooldown so a later pass can try again.
 *
 * @example
 * const summary = await dispatcher.run(planDispatch(assessments), 'batch');
 * summary.channels.email.sent;
 */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;
  let stop!: () => void;
  const stopped = new Promise<typeof STOPPED>((resolve) => (stop = () => ((stopping = true), resolve(STOPPED))));
  /** Waits for `work` unless the dispatcher stops first (then throws STOPPED; `work` is abandoned). */
  const unlessStopped = async <T>(work: Promise<T>): Promise<T> => {
    if (stopping) throw STOPPED;
    const result = await Promise.race([work, stopped]);
    if (result === STOPPED) throw STOPPED;
    return result as T;
  };
  const byChannel = new Map<DeliveryChannel, Notifier>();
  for (const notifier of deps.notifiers) byChannel.set(notifier.channel, notifier);

  const send = (notifier: Notifier, alert: Alert): Promise<void> => {
    const options = { service_name: deps.serviceName, calibration: deps.calibration, ...linkFor(alert.customer_id) };
    return notifier.channel === 'email'
      ? notifier.send(alert, buildEmail(alert, options))
      : notifier.send(alert, buildChatMessage(alert, options));
  };
  const linkFor = (customerId: string): { link?: string } => {
    const link = deps.alertLink?.(customerId);
    return link === undefined ? {} : { link };
  };

  async function deliver({ channel, alert }: Delivery, trigger: DispatchTrigger): Promise<DispatchOutcome> {
    const { recommendation: rec } = alert;
    const record = (outcome: DispatchOutcome, attempt: number, error: string | null) =>
      deps.log.append({
        at: deps.clock.now(),
        customer_id: alert.customer_id,
        action: rec.action,
        urgency: rec.urgency,
        risk_score: alert.risk.score,
        channel,
        outcome,
        attempt,
        error,
        trigger,
      });
    // Under the person's first id: a person renamed since (identified, aliased) keeps its cooldowns.
    const key = cooldownKey(alert.person_id ?? alert.customer_id, rec.action, channel);
    const notifier = channel === 'log' ? undefined : byChannel.get(channel);
    if (channel !== 'log' && notifier === undefined) {
      await record('skipped_no_notifier', 0, `no ${channel} notifier configured`);
      return 'skipped_no_notifier';
    }
    if (!(await deps.log.claimCooldown(key, deps.clock.now(), cooldownOf(deps.cooldownMs, deps.cooldownsMs, rec.urgency, channel)))) {
      // Not an attempt: a batch pass records it (to explain its summary); a webhook's repeat stays quiet.
      if (trigger === 'batch') await record('skipped_cooldown', 0, null);
      return 'skipped_cooldown';
    }
    if (notifier === undefined) {
      deps.logger.info({ customer_id: alert.customer_id, action: rec.action, urgency: rec.urgency, risk_score: alert.risk.score }, 'recommendation logged (monitor)');
      await record('logged', 0, null);
      return 'logged';
    }
    let attempt = 0;
    try {
      for (attempt = 1; ; attempt++) {
        await unlessStopped(deps.limiter.acquire(channel));
        try {
          await unlessStopped(send(notifier, alert));
          await record('sent', attempt, null);
          deps.logger.info({ customer_id: alert.customer_id, action: rec.action, channel, attempt, trigger }, 'alert sent');
          return 'sent';
        } catch (error) {
          if (error === STOPPED) throw error;
          const final = attempt >= deps.retry.attempts || !isRetryable(error);
          await record(final ? 'failed' : 'retrying', attempt, errorText(error));
          deps.logger.warn({ customer_id: alert.customer_id, action: rec.action, channel, attempt, err: errorText(error), final }, 'alert delivery failed');
          if (final) {
            await deps.log.releaseCooldown(key);
            return 'failed';
          }
          await unlessStopped(deps.sleep(Math.max(backoffDelay(deps.retry, attempt), Math.min(retryAfterOf(error) ?? 0, MAX_RETRY_AFTER_MS))));
        }
      }
    } catch (error) {
      if (error !== STOPPED) throw error;
      // The shutdown bound: leave the alert for the next dispatch (the subscriber is in the store).
      await record('failed', attempt, SHUTDOWN_ERROR);
      await deps.log.releaseCooldown(key);
      deps.logger.warn({ customer_id: alert.customer_id, action: rec.action, channel, attempt, trigger }, 'alert dropped at shutdown: not sent before the bound; the next dispatch sends it');
      return 'failed';
    }
  }

  const settle = async (delivery: Delivery, trigger: DispatchTrigger): Promise<DispatchOutcome> => {
    try {
      return await deliver(delivery, trigger);
    } catch (error) {
      // Only the dispatch log itself can get here; never let it escape into a request.
      deps.logger.error({ err: errorText(error) }, 'dispatch bookkeeping failed');
      return 'failed';
    }
  };

  return {
    canSend: byChannel.size > 0,
    async run(deliveries, trigger) {
      const summary: DispatchSummary = {
        subscribers: new Set(deliveries.map((d) => d.alert.customer_id)).size,
        deliveries: deliveries.length,
        outcomes: zeroCounts(),
        channels: { email: zeroCounts(), chat: zeroCounts(), log: zeroCounts(), webhook: zeroCounts() },
      };
      const work = Promise.all(deliveries.map((d) => settle(d, trigger)));
      inFlight.add(work);
      try {
        const outcomes = await work;
        outcomes.forEach((outcome, i) => {
          summary.outcomes[outcome]++;
          summary.channels[deliveries[i]!.channel][outcome]++;
          deps.onOutcome?.(deliveries[i]!.channel, outcome);
        });
      } finally {
        inFlight.delete(work);
      }
      return summary;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async drain(signal) {
      if (signal?.aborted === true) stop();
      else signal?.addEventListener('abort', () => stop(), { once: true });
      await this.idle();
    },
  };
}
