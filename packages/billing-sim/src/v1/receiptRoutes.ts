/**
 * API v1's `POST /receipts`: an app posts a store's receipt (for the Test Store, the SDK's "Test valid
 * purchase"). The simulator cannot read a store's receipt, so the product comes from `product_id`;
 * the store from the key (a Test Store key buys in `TEST_STORE`, sandbox, on the Test Store's renewal
 * schedule), or for the secret key from `X-Platform`. The answer is the customer info with the purchase.
 */
import { customerIn } from '../machine/queries.js';
import type { EventSettings, World } from '../machine/world.js';
import type { RouteInput, SimResponse } from '../http/httpTypes.js';
import type { V1Caller } from './apiKeys.js';
import { checkAppUserId } from './appUserIds.js';
import { parseAttributes } from './attributeBody.js';
import { answerSubscriber } from './customerRoutes.js';
import { badField, fromMachineError, V1_CODES, v1Error } from './v1Errors.js';
import type { V1Route } from './v1Route.js';

/** The store of each `X-Platform` a server may post a receipt for. */
const STORE_BY_PLATFORM: Record<string, string> = {
  ios: 'APP_STORE',
  macos: 'MAC_APP_STORE',
  uikitformac: 'MAC_APP_STORE',
  android: 'PLAY_STORE',
  amazon: 'AMAZON',
  stripe: 'STRIPE',
  roku: 'ROKU',
  paddle: 'PADDLE',
};

type Where = { ok: true; store: string; environment: EventSettings['environment'] } | { ok: false; answer: SimResponse };

/** Where a receipt's purchase is made: the caller's app (Test Store: sandbox), or the secret key's `X-Platform`. */
function storeOf(caller: V1Caller, input: RouteInput, settings: EventSettings): Where {
  const sandbox = input.headers['x-is-sandbox'] === 'true' ? 'SANDBOX' : settings.environment;
  if (caller.kind === 'public') return { ok: true, store: caller.app.store, environment: caller.app.store === 'TEST_STORE' ? 'SANDBOX' : sandbox };
  const platform = (input.headers['x-platform'] ?? '').toLowerCase();
  const store = STORE_BY_PLATFORM[platform];
  if (store === undefined) return { ok: false, answer: v1Error(400, V1_CODES.invalid_platform, `X-Platform: Invalid Platform "${platform}" (one of ${Object.keys(STORE_BY_PLATFORM).join(', ')})`) };
  return { ok: true, store, environment: sandbox };
}

/**
 * A purchase starts the product's free trial when it has one and the customer never subscribed to
 * the product before (the stores' introductory eligibility).
 */
function trialEligible(world: World, projectId: string, customerId: string, productId: string): boolean {
  const trial = world.products.get(productId)?.trial_period ?? null;
  if (trial === null) return false;
  return customerIn(world, projectId, customerId)?.subscriptions.some((s) => s.product_id === productId) !== true;
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The receipt route of API v1. */
export const receiptRoutes: V1Route[] = [
  {
    method: 'POST', pattern: '/v1/receipts', access: 'any',
    summary: "Post a purchase (the SDKs' receipt; the Test Store's valid purchase): buys product_id once per fetch_token, answers the customer info",
    handler(sim, input, caller) {
      const body = (input.body ?? {}) as Record<string, unknown>;
      const badId = checkAppUserId(body['app_user_id'], 'app_user_id');
      if (badId !== null) return badId;
      if (!text(body['fetch_token']) || body['fetch_token'].length > 8192) return badField('fetch_token', 'the store\'s receipt token, 1–8192 characters');
      if (!text(body['product_id'])) return badField('product_id', 'the product bought, a product of the catalog');
      const offering = body['presented_offering_identifier'];
      if (offering !== undefined && offering !== null && typeof offering !== 'string') return badField('presented_offering_identifier', 'an offering identifier or null');
      const attributes = body['attributes'] === undefined ? null : parseAttributes({ attributes: body['attributes'] });
      if (attributes !== null && !attributes.ok) return attributes.answer;
      const where = storeOf(caller, input, sim.settings);
      if (!where.ok) return where.answer;
      const customerId = body['app_user_id'] as string;
      const bought = sim.dispatch({
        type: 'post_receipt',
        project_id: caller.project_id,
        customer_id: customerId,
        fetch_token: body['fetch_token'],
        product_id: body['product_id'],
        trial: trialEligible(sim.world(), caller.project_id, customerId, body['product_id']),
        presented_offering_id: typeof offering === 'string' ? offering : null,
        country_code: null,
        store: where.store,
        environment: where.environment,
        schedule: where.store === 'TEST_STORE' && caller.kind === 'public' ? 'test_store' : 'store',
      });
      if (!bought.ok) return fromMachineError(bought.error);
      if (attributes !== null && attributes.attributes.length > 0) {
        const set = sim.dispatch({ type: 'set_attributes', project_id: caller.project_id, customer_id: customerId, attributes: attributes.attributes });
        if (!set.ok) return fromMachineError(set.error);
      }
      return answerSubscriber(sim, caller, customerId);
    },
  },
];
