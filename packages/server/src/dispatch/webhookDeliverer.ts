/**
 * The webhook channel's deliveries, for the dispatcher: a planned delivery recorded `pending` with
 * its body and then attempted (retries, `Retry-After`, a refusal final with its answer), an
 * unfinished one taken up at start, a finished one resent by hand. Every attempt of a delivery
 * posts the same bytes under the same `webhook-id`.
 */
import { randomUUID } from 'node:crypto';
import type { Delivery, DeliveryChannel, DispatchRecord } from '@tenure/core';
import { cooldownOf } from '../config/serviceConfig.js';
import type { AlertWebhookNotifier } from '../notify/alertWebhookNotifier.js';
import { isRetryable, retryAfterOf } from '../notify/notifier.js';
import type { DispatcherDeps } from './dispatcher.js';
import type { DispatchOutcome, DispatchTrigger } from './dispatchLog.js';
import { backoffDelay } from './retryPolicy.js';
import { answerDetail, personIdOfBody, webhookBody, webhookIdOfBody } from './webhookDelivery.js';

/** The longest `Retry-After` honoured (a receiver asking for more waits this much). */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * The cooldown mark of one alert. The fixed-alphabet parts come first and the free-form customer id
 * last, so no id can make two alerts share a key; no NUL separator, which PostgreSQL text rejects.
 */
export const cooldownKey = (customerId: string, action: string, channel: string) => `${channel}|${action}|${customerId}`;

/** What `Dispatcher.resend` did: started (the new `pending` record), or why not. */
export type ResendResult =
  | { status: 'started'; record: DispatchRecord }
  | { status: 'not_found' | 'not_webhook' | 'in_flight' | 'no_endpoint' | 'no_body'; message: string };

/** What the dispatcher lends: its stop guard, the test of its stop signal, error text, in-flight tracking. */
export interface WebhookContext {
  /** Waits for `work` unless the dispatcher stops first (then throws its stop signal). */
  guard: <T>(work: Promise<T>) => Promise<T>;
  isStop: (error: unknown) => boolean;
  errorText: (error: unknown) => string;
  /** Counts `work` as in flight (`idle` and `drain` wait for it). */
  track: <T>(work: Promise<T>) => Promise<T>;
}

export interface WebhookDeliverer {
  /** How many endpoints are configured. */
  readonly endpoints: number;
  deliver(delivery: Delivery, trigger: DispatchTrigger): Promise<DispatchOutcome>;
  /** See `Dispatcher.resume`. */
  resume(): Promise<number>;
  resend(recordId: number, actor: string): Promise<ResendResult>;
}

/**
 * Given the dispatcher's ports and what it lends, returns the webhook deliverer (see the
 * dispatcher's `run`, `resume` and `resend`).
 *
 * @example
 * const webhook = createWebhookDeliverer(deps, { guard, isStop, errorText, track });
 * await webhook.deliver({ channel: 'webhook', target: 'crm', alert }, 'batch'); // 'sent'
 */
export function createWebhookDeliverer(deps: DispatcherDeps, ctx: WebhookContext): WebhookDeliverer {
  const endpoints = new Map((deps.webhooks ?? []).map((hook) => [hook.name, hook]));
  const newId = deps.newId ?? randomUUID;
  /** Webhook deliveries with attempts running in this process (by delivery id). */
  const active = new Set<number>();

  type WebhookBase = Pick<DispatchRecord, 'customer_id' | 'action' | 'urgency' | 'risk_score'> & { delivery_id: number; target: string };
  /**
   * The attempts of one webhook delivery from `first` on, each recorded; a final failure releases
   * `key` (when given) and records the receiver's answer. At shutdown the delivery is left as it
   * stands (pending or retrying), so the next start resends it.
   */
  async function attemptWebhook(base: WebhookBase, body: string, hook: AlertWebhookNotifier, first: number, trigger: DispatchTrigger, actor: string | null, key?: string): Promise<DispatchOutcome> {
    const webhookId = webhookIdOfBody(body)!;
    const record = (outcome: DispatchOutcome, attempt: number, error: string | null, detail: string | null) =>
      deps.log.append({ at: deps.clock.now(), ...base, channel: 'webhook', outcome, attempt, error, trigger, detail, actor });
    active.add(base.delivery_id);
    let attempt = first;
    try {
      for (attempt = first; ; attempt++) {
        await ctx.guard(deps.limiter.acquire('webhook'));
        try {
          await ctx.guard(hook.post(webhookId, body));
          await record('sent', attempt, null, null);
          deps.logger.info({ customer_id: base.customer_id, action: base.action, channel: 'webhook', target: base.target, attempt, trigger, webhook_id: webhookId }, 'alert sent');
          return 'sent';
        } catch (error) {
          if (ctx.isStop(error)) throw error;
          const final = attempt - first + 1 >= deps.retry.attempts || !isRetryable(error);
          await record(final ? 'failed' : 'retrying', attempt, ctx.errorText(error), final ? answerDetail(error) : null);
          deps.logger.warn({ customer_id: base.customer_id, action: base.action, channel: 'webhook', target: base.target, attempt, err: ctx.errorText(error), final }, 'alert delivery failed');
          if (final) {
            if (key !== undefined) await deps.log.releaseCooldown(key);
            return 'failed';
          }
          await ctx.guard(deps.sleep(Math.max(backoffDelay(deps.retry, attempt - first + 1), Math.min(retryAfterOf(error) ?? 0, MAX_RETRY_AFTER_MS))));
        }
      }
    } catch (error) {
      if (!ctx.isStop(error)) throw error;
      deps.logger.warn({ customer_id: base.customer_id, action: base.action, channel: 'webhook', target: base.target, attempt, trigger }, 'webhook delivery left unfinished at shutdown: the next start sends it');
      return 'pending';
    } finally {
      active.delete(base.delivery_id);
    }
  }

  async function deliver({ alert, target = 'default' }: Delivery, trigger: DispatchTrigger): Promise<DispatchOutcome> {
    const { recommendation: rec } = alert;
    const base = { customer_id: alert.customer_id, action: rec.action, urgency: rec.urgency, risk_score: alert.risk.score };
    const record = (outcome: DispatchOutcome, error: string | null) =>
      deps.log.append({ at: deps.clock.now(), ...base, channel: 'webhook', outcome, attempt: 0, error, trigger, target });
    const hook = endpoints.get(target);
    if (hook === undefined) {
      await record('skipped_no_notifier', `no webhook endpoint "${target}" configured`);
      return 'skipped_no_notifier';
    }
    // Each endpoint cools down on its own: the name is of a fixed alphabet, so keys stay distinct.
    const key = cooldownKey(alert.person_id ?? alert.customer_id, rec.action, `webhook:${target}`);
    if (!(await deps.log.claimCooldown(key, deps.clock.now(), cooldownOf(deps.cooldownMs, deps.cooldownsMs, rec.urgency, 'webhook')))) {
      if (trigger === 'batch') await record('skipped_cooldown', null);
      return 'skipped_cooldown';
    }
    const body = webhookBody(alert, deps.clock.now(), deps.calibration, newId());
    const pending = await deps.log.append({ at: deps.clock.now(), ...base, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, trigger, target, detail: body });
    return attemptWebhook({ ...base, delivery_id: pending.id, target }, body, hook, 1, trigger, null, key);
  }

  /** Picks up one unfinished delivery at start (see `resume`). */
  async function resumeOne(open: DispatchRecord): Promise<DispatchOutcome> {
    const deliveryId = open.delivery_id!;
    const close = async (error: string) => {
      const { id: _id, ...entry } = open;
      await deps.log.append({ ...entry, at: deps.clock.now(), outcome: 'failed', error, detail: null, delivery_id: deliveryId });
      deps.logger.warn({ customer_id: open.customer_id, channel: open.channel, delivery_id: deliveryId, err: error }, 'unfinished delivery closed at start');
      return 'failed' as const;
    };
    if (open.channel !== 'webhook') return close('interrupted by a restart; the next dispatch sends it');
    const first = (await deps.log.delivery(deliveryId))[0];
    const body = first?.detail ?? null;
    const hook = endpoints.get(open.target ?? '');
    if (body === null || webhookIdOfBody(body) === undefined) return close('its body is not in the dispatch log');
    if (hook === undefined) return close(`no webhook endpoint "${open.target}" configured any more`);
    // Started in this process since (a resume called while the service already serves): not ours to send.
    if (active.has(deliveryId)) return 'pending';
    deps.logger.info({ customer_id: open.customer_id, target: open.target, delivery_id: deliveryId }, 'resending an unfinished webhook delivery');
    const base = { customer_id: open.customer_id, action: open.action, urgency: open.urgency, risk_score: open.risk_score, delivery_id: deliveryId, target: hook.name };
    // A dispatch (trigger batch or webhook) claimed the cooldown `deliver` claims, under the person
    // its body names; a final failure gives it back, as a first delivery's does. A resend (manual)
    // claimed none: the mark there is the earlier delivery's, or a later dispatch's.
    const key = open.trigger === 'manual' ? undefined : cooldownKey(personIdOfBody(body) ?? open.customer_id, open.action, `webhook:${hook.name}`);
    return attemptWebhook(base, body, hook, Math.max(1, open.attempt + 1), open.trigger, open.actor, key);
  }

  async function resend(recordId: number, actor: string): Promise<ResendResult> {
    const found = (await deps.log.list({ limit: 1, before: recordId + 1 })).items[0];
    if (found === undefined || found.id !== recordId) return { status: 'not_found', message: `No dispatch record ${recordId}` };
    if (found.channel !== 'webhook') return { status: 'not_webhook', message: `Dispatch record ${recordId} is a ${found.channel} delivery: only webhook deliveries are resent` };
    if (found.delivery_id === null) return { status: 'no_body', message: `Dispatch record ${recordId} was written before deliveries were kept (schema version 8): its body is unknown` };
    const records = await deps.log.delivery(found.delivery_id);
    const newest = records[records.length - 1]!;
    if (active.has(found.delivery_id) || newest.outcome === 'pending' || newest.outcome === 'retrying') {
      return { status: 'in_flight', message: `Delivery ${found.delivery_id} is still being sent (${newest.outcome})` };
    }
    const body = records[0]?.detail ?? null;
    if (body === null || webhookIdOfBody(body) === undefined) return { status: 'no_body', message: `The body of delivery ${found.delivery_id} is not in the dispatch log` };
    const hook = endpoints.get(newest.target ?? '');
    if (hook === undefined) return { status: 'no_endpoint', message: `No webhook endpoint "${newest.target}" is configured any more` };
    const base = { customer_id: newest.customer_id, action: newest.action, urgency: newest.urgency, risk_score: newest.risk_score, delivery_id: found.delivery_id, target: hook.name };
    active.add(found.delivery_id); // before any await: a second click meanwhile answers in_flight
    const pending = await deps.log
      .append({ at: deps.clock.now(), ...base, channel: 'webhook', outcome: 'pending', attempt: 0, error: null, trigger: 'manual', detail: body, actor })
      .catch((error: unknown) => (active.delete(found.delivery_id!), Promise.reject(error)));
    const next = Math.max(...records.map((r) => r.attempt)) + 1;
    void ctx.track(attemptWebhook(base, body, hook, next, 'manual', actor).then((outcome) => deps.onOutcome?.('webhook', outcome)).catch((error: unknown) => deps.logger.error({ err: ctx.errorText(error) }, 'dispatch bookkeeping failed')));
    return { status: 'started', record: pending };
  }

  async function resume(): Promise<number> {
    const seen = new Set<number>();
    for (;;) {
      // Deliveries this process is sending (the service already serves) are not unfinished: skip them.
      const open = (await deps.log.unfinished(100)).filter((r) => !seen.has(r.delivery_id!) && !active.has(r.delivery_id!));
      if (open.length === 0) return seen.size;
      for (const r of open) seen.add(r.delivery_id!);
      const failed = (error: unknown) => (deps.logger.error({ err: ctx.errorText(error) }, 'dispatch bookkeeping failed'), 'failed' as const);
      const outcomes = await ctx.track(Promise.all(open.map((r) => resumeOne(r).catch(failed))));
      outcomes.forEach((outcome, i) => deps.onOutcome?.(open[i]!.channel as DeliveryChannel, outcome));
    }
  }

  return { endpoints: endpoints.size, deliver, resume, resend };
}
