/**
 * Granting one-click offers through RevenueCat's API v2 (`grant_entitlement`): by a person (the
 * dashboard's button, `POST /api/subscribers/{id}/offers/{action}`) or automatically when a dispatch
 * recommends an offer's action. Every grant is a line of the dispatch log (channel `offer`); the
 * per-person cooldown and the automatic mode's daily cap are cooldown marks of the same log, so they
 * hold across restarts and replicas.
 */
import { URGENCY_BY_ACTION, type Action, type Alert, type Assessment, type DispatchRecord, type Offer, type Urgency } from '@tenure/core';
import { answerOf, type GrantAnswer } from './grantAnswer.js';
import type { OfferOutcome } from './offerOutcome.js';
import { revokeGrant, type RevokeOutcome } from './revokeGrant.js';
import type { Clock } from '../clock/clock.js';
import type { DispatchLog } from '../dispatch/dispatchLog.js';
import type { Logger } from '../log/logger.js';

/** What grants go through: API v2's POST (an `ApiV2Client`). */
export interface GrantApi {
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
}

export interface OfferGrantsDeps {
  offers: readonly Offer[];
  api: GrantApi;
  /** The RevenueCat project id (`--revenuecat-project`). */
  project: string;
  log: DispatchLog;
  clock: Clock;
  logger: Logger;
  /** Told what became of each grant and revoke (the offers counter of /metrics). */
  onOutcome?: ((action: Action, outcome: OfferOutcome, trigger: 'manual' | 'auto') => void) | undefined;
}

/** What was asked of RevenueCat. */
export interface Grant {
  customer_id: string;
  action: Action;
  entitlement: string;
  duration: string;
  expires_at: number;
}

/** How one grant went. */
export type GrantOutcome =
  | { kind: 'granted'; grant: Grant; answer: GrantAnswer; record: DispatchRecord }
  | { kind: 'failed'; grant: Grant; answer: GrantAnswer; record: DispatchRecord }
  | { kind: 'no_offer' }
  | { kind: 'cooldown'; cooldown: string }
  | { kind: 'cap_reached'; daily_cap: number }
  /** An automatic grant whose bookkeeping (the dispatch log) failed; logged at error. */
  | { kind: 'error'; message: string };

/** Who asked for a grant, for whom and why. */
export interface GrantRequest {
  customer_id: string;
  /** The id the cooldown is kept under: the person's first app user id (`Alert.person_id`), else `customer_id`. */
  person_id: string;
  /** The score and the urgency of the recommendation the offer belongs to, as the log records them. */
  risk_score: number;
  urgency: Urgency;
  action: Action;
  trigger: 'manual' | 'auto';
  /** Who acted (`dashboard`, `api` or a name); null for an automatic grant. */
  actor: string | null;
}

export interface OfferGrants {
  readonly offers: readonly Offer[];
  /** The offer of `action`, if one is configured. */
  offerOf(action: Action): Offer | undefined;
  /** Grants `request.action`'s offer now, unless the person is within its cooldown (or, automatic, the day's cap is reached). */
  grant(request: GrantRequest): Promise<GrantOutcome>;
  /** Grants the automatic offers of the alerts a dispatch planned (one per customer and action); resolves when all settled. */
  grantAuto(alerts: readonly Alert[]): Promise<GrantOutcome[]>;
  /** True when at least one offer is automatic. */
  readonly hasAuto: boolean;
  /** Revokes the grant recorded as dispatch record `recordId` (see `revokeGrant`). */
  revoke(recordId: number, actor: string): Promise<RevokeOutcome>;
  /** Resolves when no grant is in flight. */
  idle(): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * The cooldown mark of an offer to one person: the fixed-alphabet parts first, the free-form person
 * id last, so no id can make two offers share a key.
 *
 * @example
 * offerCooldownKey('winback', 'u1'); // 'offer|winback|u1'
 */
export const offerCooldownKey = (action: Action, person: string): string => `offer|${action}|${person}`;

/** The mark of the `slot`-th automatic grant of `action` on the UTC day starting at `dayStart`. */
const capKey = (action: Action, dayStart: number, slot: number) => `offer-cap|${action}|${new Date(dayStart).toISOString().slice(0, 10)}|${slot}`;

/** The RevenueCat path of a grant. */
const grantPath = (project: string, customerId: string) => `/projects/${encodeURIComponent(project)}/customers/${encodeURIComponent(customerId)}/actions/grant_entitlement`;


/**
 * Given the offers, RevenueCat's API, the project and the service's log, clock and logger, returns
 * the offer grants. Automatic grants take one of `daily_cap` numbered marks of the UTC day (of the
 * service clock): at most `daily_cap` per offer and day whatever the order or concurrency; a
 * failed grant gives its mark and the person's cooldown back.
 *
 * @example
 * const outcome = await offers.grant(manualRequest(assessSubscriber(subscriber, now, config), 'winback', 'api'));
 * if (outcome.kind === 'granted') outcome.answer.status; // 201
 */
export function createOfferGrants(deps: OfferGrantsDeps): OfferGrants {
  const byAction = new Map(deps.offers.map((o) => [o.action, o]));
  const inFlight = new Set<Promise<unknown>>();
  /** Per offer and day, the first slot that may be free in this process (slots below it were taken). */
  const nextSlot = new Map<string, number>();

  /** A taken slot of the day's cap: its mark, and how to give it back after a failed grant. */
  type Slot = { release(): Promise<void> };
  const claimCapSlot = async (offer: Offer, now: number): Promise<Slot | undefined> => {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const hint = `${offer.action}|${dayStart}`;
    if (nextSlot.size > 1000) nextSlot.clear(); // hints of past days; losing one only costs a few claims
    for (let slot = nextSlot.get(hint) ?? 0; slot < offer.daily_cap; slot++) {
      const key = capKey(offer.action, dayStart, slot);
      // The mark outlives its day by a day, so a clock slightly behind another replica's still sees it.
      if (await deps.log.claimCooldown(key, now, dayStart + 2 * DAY_MS - now)) {
        nextSlot.set(hint, Math.max(nextSlot.get(hint) ?? 0, slot + 1));
        return {
          async release() {
            await deps.log.releaseCooldown(key);
            nextSlot.set(hint, Math.min(nextSlot.get(hint) ?? 0, slot)); // free again: the next grant of the day may take it
          },
        };
      }
    }
    nextSlot.set(hint, offer.daily_cap);
    return undefined;
  };

  const grantNow = async ({ customer_id, person_id, risk_score, urgency, action, trigger, actor }: GrantRequest): Promise<GrantOutcome> => {
    const offer = byAction.get(action);
    if (offer === undefined) return { kind: 'no_offer' };
    const now = deps.clock.now();
    const personKey = offerCooldownKey(action, person_id);
    if (!(await deps.log.claimCooldown(personKey, now, offer.cooldown_ms))) {
      deps.onOutcome?.(action, 'skipped_cooldown', trigger);
      return { kind: 'cooldown', cooldown: offer.cooldown };
    }
    let slot: Slot | undefined;
    if (trigger === 'auto') {
      slot = await claimCapSlot(offer, now);
      if (slot === undefined) {
        await deps.log.releaseCooldown(personKey);
        deps.onOutcome?.(action, 'skipped_cap', trigger);
        return { kind: 'cap_reached', daily_cap: offer.daily_cap };
      }
    }
    const grant: Grant = { customer_id, action, entitlement: offer.entitlement, duration: offer.duration, expires_at: now + offer.duration_ms };
    let answer: GrantAnswer;
    let ok: boolean;
    try {
      const reply = await deps.api.post(grantPath(deps.project, customer_id), { entitlement_id: offer.entitlement, expires_at: grant.expires_at });
      answer = { status: reply.status, body: reply.body };
      ok = true;
    } catch (error) {
      answer = answerOf(error);
      ok = false;
      await deps.log.releaseCooldown(personKey);
      await slot?.release();
    }
    const record = await deps.log.append({
      at: deps.clock.now(),
      customer_id,
      action,
      urgency,
      risk_score,
      channel: 'offer',
      outcome: ok ? 'sent' : 'failed',
      attempt: 1,
      error: ok ? null : `RevenueCat ${answer.status === null ? 'unreachable' : `answered ${answer.status}`}`,
      trigger,
      target: offer.entitlement,
      detail: JSON.stringify({ entitlement: offer.entitlement, duration: offer.duration, expires_at: grant.expires_at, answer }),
      actor,
    });
    const fields = { customer_id, action, entitlement: offer.entitlement, expires_at: grant.expires_at, trigger, actor, status: answer.status };
    if (ok) deps.logger.info(fields, 'offer granted');
    else deps.logger.warn(fields, 'offer grant failed');
    deps.onOutcome?.(action, ok ? 'granted' : 'failed', trigger);
    return ok ? { kind: 'granted', grant, answer, record } : { kind: 'failed', grant, answer, record };
  };

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  return {
    offers: deps.offers,
    hasAuto: deps.offers.some((o) => o.auto),
    offerOf: (action) => byAction.get(action),
    grant: (request) => track(grantNow(request)),
    grantAuto(alerts) {
      const seen = new Set<string>();
      const work: Promise<GrantOutcome>[] = [];
      for (const alert of alerts) {
        const action = alert.recommendation.action;
        const key = `${action}|${alert.customer_id}`;
        if (byAction.get(action)?.auto !== true || seen.has(key)) continue;
        seen.add(key);
        const person_id = alert.person_id ?? alert.customer_id;
        work.push(
          grantNow({ customer_id: alert.customer_id, person_id, risk_score: alert.risk.score, urgency: alert.recommendation.urgency, action, trigger: 'auto', actor: null }).catch((error: unknown): GrantOutcome => {
            deps.logger.error({ err: String(error), customer_id: alert.customer_id, action }, 'automatic offer failed');
            deps.onOutcome?.(action, 'error', 'auto');
            return { kind: 'error', message: String(error) };
          }),
        );
      }
      return track(Promise.all(work));
    },
    revoke: (recordId, actor) =>
      track(
        revokeGrant(deps, recordId, actor).then((outcome) => {
          if (outcome.kind === 'revoked' || outcome.kind === 'failed') deps.onOutcome?.(outcome.grant.action, outcome.kind === 'revoked' ? 'revoked' : 'revoke_failed', 'manual');
          return outcome;
        }),
      ),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Given an assessment and an action, returns the grant request of a person's click or call: the
 * urgency of the recommendation of that action (its table urgency when not recommended now). Pure.
 *
 * @example
 * offers.grant(manualRequest(assessSubscriber(subscriber, now, config), 'winback', 'dashboard'));
 */
export function manualRequest({ subscriber, risk, recommendations }: Assessment, action: Action, actor: string): GrantRequest {
  const urgency = recommendations.find((r) => r.action === action)?.urgency ?? URGENCY_BY_ACTION[action];
  return { customer_id: subscriber.customer_id, person_id: subscriber.original_app_user_id ?? subscriber.customer_id, risk_score: risk.score, urgency, action, trigger: 'manual', actor };
}
