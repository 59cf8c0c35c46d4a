/**
 * An empty world: what `createBillingSimulator`, a reset and the population generator start from,
 * with an empty project and empty API parts for the parts nobody wrote to yet.
 */
import { hashSeed } from '../internal/random.js';
import { emptyPMap } from './persistentMap.js';
import { emptyPVec } from './persistentVector.js';
import type { ApiParts, EventSettings, Product, ProjectState, World } from './world.js';

/**
 * Given settings, a seed, a start instant and products, returns an empty world.
 *
 * @example
 * const world = createWorld(settings, 'demo', Date.UTC(2026, 0, 1), []);
 */
export function createWorld(settings: EventSettings, seed: string, now: number, products: readonly Product[]): World {
  return {
    settings,
    now,
    seq: 0,
    customer_seq: 0,
    rng: hashSeed(seed),
    products: new Map(products.map((p) => [p.id, p])),
    projects: emptyPMap(),
    customers: emptyPVec(),
    subscriptions: emptyPMap(),
    purchases: emptyPMap(),
    api: emptyApiParts(),
  };
}

/** An empty project (read-only views of projects nobody wrote to). */
export const emptyProject = (id: string): ProjectState => ({ id, currencies: new Map(), customer_seqs: emptyPMap(), idempotency: emptyPMap() });

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
