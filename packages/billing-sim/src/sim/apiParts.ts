/**
 * The parts of the world that only API v2 reads and writes (webhook integrations, customer
 * attributes, entitlements, when products were created), in one field of the world so a new part changes this file only.
 */
import type { CustomerAttributes } from './attributes.js';
import type { EntitlementRecord } from './entitlements.js';
import type { GrantedEntitlement } from './grantedEntitlements.js';
import type { WebhookIntegrationRecord } from './integrations.js';
import { emptyPMap, type PMap } from './persistentMap.js';

/** API v2's parts of the world: immutable data, replaced by a transition that changes them. */
export interface ApiParts {
  /** Webhook integrations of every project, by id. */
  readonly integrations: PMap<WebhookIntegrationRecord>;
  /** Customer attributes, by `attributeKey(project, customer)`. */
  readonly attributes: PMap<CustomerAttributes>;
  /** Entitlements of every project, by id. */
  readonly entitlements: PMap<EntitlementRecord>;
  /** Entitlements granted to customers through API v2, by `attributeKey(project, customer)`. */
  readonly granted: PMap<readonly GrantedEntitlement[]>;
  /** When API v2 created a catalog product, by product id (products from /sim or options have none). */
  readonly product_created_at: PMap<number>;
}

/**
 * The parts of an empty world.
 *
 * @example
 * createWorld(settings, 'seed', 0, []).api; // emptyApiParts()
 */
export const emptyApiParts = (): ApiParts => ({ integrations: emptyPMap(), attributes: emptyPMap(), entitlements: emptyPMap(), granted: emptyPMap(), product_created_at: emptyPMap() });
