/**
 * The parts of the world beside customers and the catalog that the APIs read and write (webhook
 * integrations, customer attributes, entitlements, offerings, receipts, placements, when products were created), in one field of the world so a new part changes this file only.
 */
import type { CustomerAttributes } from './attributes.js';
import type { EntitlementRecord } from './entitlements.js';
import type { GrantedEntitlement } from './grantedEntitlements.js';
import type { WebhookIntegrationRecord } from './integrations.js';
import type { ProjectRecord } from './projects.js';
import type { OfferingRecord, PackageRecord } from './offerings.js';
import type { PortalToken } from './portal.js';
import type { PlacementMap } from './placements.js';
import type { ReceiptRecord } from './receipts.js';
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
  /** Each project's name and creation time, by project id (projects that a /sim write created implicitly have none). */
  readonly projects: PMap<ProjectRecord>;
  /** Offerings of every project, by id. */
  readonly offerings: PMap<OfferingRecord>;
  /** Packages of every offering, by id. */
  readonly packages: PMap<PackageRecord>;
  /** Each project's current offering id, by project id (absent: none is current). */
  readonly current_offering: PMap<string>;
  /** Offerings assigned to customers (`assign_offering`), by `attributeKey(project, customer)`. */
  readonly offering_overrides: PMap<string>;
  /** Customer portal tokens not yet used, by token. */
  readonly portal_tokens: PMap<PortalToken>;
  /** What each posted fetch token bought (API v1's receipts), by `project\u0000token`. */
  readonly receipts: PMap<ReceiptRecord>;
  /** Each project's placements (which offering each paywall placement shows), by project id. */
  readonly placements: PMap<PlacementMap>;
}

/**
 * The parts of an empty world.
 *
 * @example
 * createWorld(settings, 'seed', 0, []).api; // emptyApiParts()
 */
export const emptyApiParts = (): ApiParts => ({
  integrations: emptyPMap(),
  attributes: emptyPMap(),
  entitlements: emptyPMap(),
  granted: emptyPMap(),
  product_created_at: emptyPMap(),
  projects: emptyPMap(),
  offerings: emptyPMap(),
  packages: emptyPMap(),
  current_offering: emptyPMap(),
  offering_overrides: emptyPMap(),
  portal_tokens: emptyPMap(),
  receipts: emptyPMap(),
  placements: emptyPMap(),
});
