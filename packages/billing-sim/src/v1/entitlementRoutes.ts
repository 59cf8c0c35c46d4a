/**
 * API v1's promotional entitlements (secret key): grant one for a named duration or until an instant
 * (201 with the customer info; sent as the promotional NON_RENEWING_PURCHASE webhook), and revoke
 * every grant of one (its CANCELLATION).
 */
import { PROMOTIONAL_DURATIONS } from '../machine/promotional.js';
import type { RouteInput } from '../http/httpTypes.js';
import { answerAfter, appUserIdOf, SUBSCRIBER } from './customerRoutes.js';
import { badField } from './v1Errors.js';
import type { V1Route } from './v1Route.js';

const ENTITLEMENT = `${SUBSCRIBER}/entitlements/:entitlement_identifier`;
const epochMs = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const durations = Object.keys(PROMOTIONAL_DURATIONS) as (keyof typeof PROMOTIONAL_DURATIONS)[];

const identifierOf = (input: RouteInput) => input.params['entitlement_identifier'] ?? '';

/** The promotional entitlement routes of API v1. */
export const entitlementRoutes: V1Route[] = [
  {
    method: 'POST', pattern: `${ENTITLEMENT}/promotional`, access: 'secret',
    summary: 'Grant an entitlement for a duration (from start_time_ms) or until end_time_ms: 201 with the customer info; a promotional NON_RENEWING_PURCHASE webhook',
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const body = (input.body ?? {}) as Record<string, unknown>;
      const { end_time_ms: end, duration, start_time_ms: start } = body;
      if (end !== undefined && !epochMs(end)) return badField('end_time_ms', 'epoch milliseconds');
      if (start !== undefined && !epochMs(start)) return badField('start_time_ms', 'epoch milliseconds');
      if (end === undefined && !durations.includes(duration as (typeof durations)[number])) return badField('duration', `one of ${durations.join(', ')} (or give end_time_ms)`);
      const grant = end !== undefined ? { end_at: end as number } : { duration: duration as (typeof durations)[number], start_at: (start as number | undefined) ?? null };
      const done = sim.dispatch({ type: 'grant_promotional', project_id: caller.project_id, customer_id: id.id, lookup_key: identifierOf(input), grant });
      return answerAfter(sim, caller, id.id, done, 201);
    },
  },
  {
    method: 'POST', pattern: `${ENTITLEMENT}/revoke_promotionals`, access: 'secret', summary: "Revoke every grant of an entitlement (a CANCELLATION webhook each): the customer info",
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const done = sim.dispatch({ type: 'revoke_promotional', project_id: caller.project_id, customer_id: id.id, lookup_key: identifierOf(input) });
      return answerAfter(sim, caller, id.id, done);
    },
  },
];
