/**
 * The parts of the world that only API v2 reads and writes (webhook integrations, customer
 * attributes; entitlements next), in one field of the world so a new part changes this file only.
 */
import type { CustomerAttributes } from './attributes.js';
import type { WebhookIntegrationRecord } from './integrations.js';
import { emptyPMap, type PMap } from './persistentMap.js';

/** API v2's parts of the world: immutable data, replaced by a transition that changes them. */
export interface ApiParts {
  /** Webhook integrations of every project, by id. */
  readonly integrations: PMap<WebhookIntegrationRecord>;
  /** Customer attributes, by `attributeKey(project, customer)`. */
  readonly attributes: PMap<CustomerAttributes>;
}

/**
 * The parts of an empty world.
 *
 * @example
 * createWorld(settings, 'seed', 0, []).api; // emptyApiParts()
 */
export const emptyApiParts = (): ApiParts => ({ integrations: emptyPMap(), attributes: emptyPMap() });
