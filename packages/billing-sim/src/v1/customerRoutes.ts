/**
 * API v1's customers: get or create (`GET /v1/subscribers/{id}`, 201 when created), delete, the
 * SDKs' `identify` (logIn), attributes, attribution and virtual currency balances.
 */
import { balancesOf } from '@tenure/core';
import { toSubscriberInfo } from './subscriberInfo.js';
import type { BillingSimulator } from '../simulator/createSimulator.js';
import { currenciesOf } from '../machine/context.js';
import { customerIn, readView } from '../machine/queries.js';
import { json, type RouteInput, type SimResponse } from '../http/httpTypes.js';
import type { V1Caller } from './apiKeys.js';
import { checkAppUserId } from './appUserIds.js';
import { parseAttributes } from './attributeBody.js';
import { badField, fromMachineError, V1_CODES, v1Error } from './v1Errors.js';
import type { V1Route } from './v1Route.js';

export const SUBSCRIBER = '/v1/subscribers/:app_user_id';

/** The path's app user id, checked (the error answer, or the id). */
export function appUserIdOf(input: RouteInput): { ok: true; id: string } | { ok: false; answer: SimResponse } {
  const id = input.params['app_user_id'] ?? '';
  const bad = checkAppUserId(id, 'app_user_id');
  return bad === null ? { ok: true, id } : { ok: false, answer: bad };
}

/**
 * Given the simulator, the caller, a customer id and the status, answers the customer's info as the
 * world holds it now (404 7259 when it is not there).
 */
export function answerSubscriber(sim: BillingSimulator, caller: V1Caller, customerId: string, status = 200): SimResponse {
  const world = sim.world();
  const customer = customerIn(world, caller.project_id, customerId);
  if (customer === undefined) return v1Error(404, V1_CODES.subscriber_not_found, `app_user_id: customer ${customerId} not found`);
  return json(status, toSubscriberInfo(world, customer, { secret: caller.kind === 'secret' }));
}

/** Answers the customer's info once a command has run, or the command's error (nothing changed). */
export const answerAfter = (sim: BillingSimulator, caller: V1Caller, customerId: string, result: ReturnType<BillingSimulator['dispatch']>, status = 200): SimResponse =>
  result.ok ? answerSubscriber(sim, caller, customerId, status) : fromMachineError(result.error);

/** Gets or creates the customer (an app asking moves `last_seen`), then answers `then()` or the machine's error. */
export function withCustomer(sim: BillingSimulator, input: RouteInput, caller: V1Caller, then: (customerId: string, created: boolean) => SimResponse): SimResponse {
  const id = appUserIdOf(input);
  if (!id.ok) return id.answer;
  const seen = input.headers['x-platform'] !== undefined && caller.kind === 'public';
  // Getting a known customer without moving its `last_seen` changes nothing: read it without a
  // transition (a no-op transition cost more than building the answer).
  if (!seen && customerIn(sim.world(), caller.project_id, id.id) !== undefined) return then(id.id, false);
  const got = sim.dispatch({ type: 'get_or_create_customer', project_id: caller.project_id, customer_id: id.id, seen });
  return got.ok ? then(id.id, got.value.created) : fromMachineError(got.error);
}

const NETWORKS = new Set(['0', '1', '2', '3', '4', '5']);

/** The customer routes of API v1. */
export const customerRoutes: V1Route[] = [
  {
    method: 'GET', pattern: SUBSCRIBER, access: 'any', summary: 'Get or create a customer: its customer info (201 when created; subscriber_attributes for the secret key)',
    handler: (sim, input, caller) => withCustomer(sim, input, caller, (id, created) => answerSubscriber(sim, caller, id, created ? 201 : 200)),
  },
  {
    method: 'DELETE', pattern: SUBSCRIBER, access: 'secret', summary: 'Delete a customer with everything it has',
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const done = sim.dispatch({ type: 'delete_customer', project_id: caller.project_id, customer_id: id.id });
      return done.ok ? json(200, { app_user_id: id.id, deleted: true }) : fromMachineError(done.error);
    },
  },
  {
    method: 'POST', pattern: '/v1/subscribers/identify', access: 'any',
    summary: "Identify the app's user under a new id (the SDKs' logIn): 201 when the new id was created; an anonymous user's purchases move with it",
    handler(sim, input, caller) {
      const body = (input.body ?? {}) as Record<string, unknown>;
      const bad = checkAppUserId(body['app_user_id'], 'app_user_id') ?? checkAppUserId(body['new_app_user_id'], 'new_app_user_id');
      if (bad !== null) return bad;
      const [current, next] = [String(body['app_user_id']), String(body['new_app_user_id'])];
      const done = sim.dispatch({ type: 'identify', project_id: caller.project_id, customer_id: current, new_customer_id: next });
      return done.ok ? answerSubscriber(sim, caller, next, done.value.created ? 201 : 200) : fromMachineError(done.error);
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/attributes`, access: 'any',
    summary: "Update a customer's attributes (null or empty deletes; an older updated_at_ms loses); 400 7263 with attribute_errors and nothing saved",
    handler(sim, input, caller) {
      const parsed = parseAttributes(input.body);
      if (!parsed.ok) return parsed.answer;
      return withCustomer(sim, input, caller, (id) => {
        const set = sim.dispatch({ type: 'set_attributes', project_id: caller.project_id, customer_id: id, attributes: parsed.attributes });
        return answerAfter(sim, caller, id, set);
      });
    },
  },
  {
    method: 'POST', pattern: `${SUBSCRIBER}/attribution`, access: 'any', summary: 'Add attribution data (legacy): checked and acknowledged, nothing stored',
    handler(sim, input, caller) {
      const body = (input.body ?? {}) as Record<string, unknown>;
      if (!NETWORKS.has(String(body['network']))) return badField('network', 'one of "0" (Apple Search Ads) to "5" (Facebook)');
      const data = body['data'];
      if (data === null || typeof data !== 'object' || Array.isArray(data)) return badField('data', 'the attribution network\'s data, an object');
      return withCustomer(sim, input, caller, () => json(200, {}));
    },
  },
  {
    method: 'GET', pattern: `${SUBSCRIBER}/virtual_currencies`, access: 'any', summary: "A customer's balance of each of the project's virtual currencies (0 for a customer not seen yet)",
    handler(sim, input, caller) {
      const id = appUserIdOf(input);
      if (!id.ok) return id.answer;
      const world = sim.world();
      const customer = customerIn(world, caller.project_id, id.id);
      const balances = customer === undefined ? {} : balancesOf(customer.ledger, world.now);
      const out: Record<string, { balance: number; name: string; code: string; description: string | null }> = {};
      for (const c of currenciesOf(readView(world), caller.project_id)) out[c.code] = { balance: balances[c.code] ?? 0, name: c.name, code: c.code, description: c.description };
      return json(200, { virtual_currencies: out });
    },
  },
];
