/**
 * Placements: where an app shows a paywall (`onboarding`, `settings`…) and which offering each shows.
 * The SDKs read them with the offerings (`getCurrentOfferingForPlacement`): a placement mapped to an
 * offering shows it, one mapped to null shows nothing, and any other falls back to the customer's
 * current offering. Configuration (no webhook), set through the control API.
 */
import { ok, type Result } from './apiError.js';
import type { SimContext } from './context.js';
import { findOffering } from './offerings.js';
import { pmapGet, pmapSet } from './persistentMap.js';
import type { World, PlacementMap } from './world.js';

/**
 * Given a world and a project, returns its placements (none set: empty).
 *
 * @example
 * placementsOf(world, 'proj1'); // { onboarding: 'ofrng1a2b3c4d5e', settings: null }
 */
export const placementsOf = (world: World, projectId: string): PlacementMap => pmapGet(world.api.placements, projectId) ?? {};

/** Replaces a project's placements; 404 naming `placements.<name>` for an offering the project lacks (nothing changes). */
export function setPlacements(ctx: SimContext, projectId: string, placements: PlacementMap): Result<PlacementMap> {
  for (const [name, offeringId] of Object.entries(placements)) {
    if (offeringId === null) continue;
    const found = findOffering(ctx, projectId, offeringId, `placements.${name}`);
    if (!found.ok) return found;
  }
  const next: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
  Object.assign(next, placements);
  ctx.api = { ...ctx.api, placements: pmapSet(ctx.api.placements, projectId, next) };
  return ok(next);
}
