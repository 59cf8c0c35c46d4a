/**
 * Offerings of a project, as API v2 defines them: what the app shows a customer to buy. A project has
 * at most one current offering (its first offering becomes current; `is_current: true` moves it), and
 * a customer can be assigned another one (`assign_offering`), which the SDK would show it instead.
 * Offerings are configuration: no webhook. Packages live in `packages.ts`.
 */
import { hexFrom } from '../internal/random.js';
import { fail, ok, type Result } from './apiError.js';
import { attributeKey } from './attributes.js';
import { peekCustomer, type SimContext } from './context.js';
import { pmapForEach, pmapGet, pmapRemove, pmapSet, pmapValues } from './persistentMap.js';
import type { World, OfferingRecord } from './world.js';

/**
 * Given a world and a project, returns its offerings in creation order.
 *
 * @example
 * offeringsOf(world, 'proj1').map((o) => o.lookup_key); // ['default']
 */
export const offeringsOf = (world: World, projectId: string): OfferingRecord[] =>
  pmapValues(world.api.offerings).filter((o) => o.project_id === projectId).sort((a, b) => a.seq - b.seq);

/**
 * Given a world and a project, returns the id of its current offering, or null.
 *
 * @example
 * currentOfferingId(world, 'proj1'); // 'ofrng1a2b3c4d5e'
 */
export const currentOfferingId = (world: World, projectId: string): string | null => pmapGet(world.api.current_offering, projectId) ?? null;

/**
 * Given a world, a project and a customer, returns the offering the SDK would show it: the one assigned
 * to it, else the project's current one (null when neither).
 *
 * @example
 * offeringFor(world, 'proj1', 'u1')?.lookup_key; // 'default'
 */
export function offeringFor(world: World, projectId: string, customerId: string): OfferingRecord | null {
  const id = pmapGet(world.api.offering_overrides, attributeKey(projectId, customerId)) ?? currentOfferingId(world, projectId);
  return id === null ? null : (pmapGet(world.api.offerings, id) ?? null);
}

/** The offering of a project, or 404 naming `param` (the path's `offering_id` unless given). */
export function findOffering(ctx: SimContext, projectId: string, id: string, param = 'offering_id'): Result<OfferingRecord> {
  const found = pmapGet(ctx.api.offerings, id);
  return found === undefined || found.project_id !== projectId ? fail('resource_missing', `Offering ${id} not found`, param) : ok(found);
}

const store = (ctx: SimContext, o: OfferingRecord) => {
  ctx.api = { ...ctx.api, offerings: pmapSet(ctx.api.offerings, o.id, o) };
};

/** What `create_offering` takes. */
export interface OfferingInput {
  lookup_key: string;
  display_name: string;
  metadata?: Record<string, unknown> | null | undefined;
}

/** Creates an offering (id `ofrng` + 10 hex digits); the project's first is current; 409 when its lookup key is taken. */
export function createOffering(ctx: SimContext, projectId: string, input: OfferingInput): Result<OfferingRecord> {
  const all = pmapValues(ctx.api.offerings);
  if (all.some((o) => o.project_id === projectId && o.lookup_key === input.lookup_key)) {
    return fail('resource_already_exists', `An offering with lookup_key ${input.lookup_key} already exists`, 'lookup_key');
  }
  const record: OfferingRecord = {
    id: `ofrng${hexFrom(ctx.random, 10)}`,
    project_id: projectId,
    lookup_key: input.lookup_key,
    display_name: input.display_name,
    metadata: input.metadata ?? null,
    created_at: ctx.now,
    seq: all.reduce((m, o) => Math.max(m, o.seq), 0) + 1,
  };
  store(ctx, record);
  if (pmapGet(ctx.api.current_offering, projectId) === undefined) ctx.api = { ...ctx.api, current_offering: pmapSet(ctx.api.current_offering, projectId, record.id) };
  return ok(record);
}

/** What `update_offering` takes: each given field changes; `is_current` true makes it current, false leaves none current. */
export interface OfferingUpdate {
  display_name?: string | undefined;
  is_current?: boolean | undefined;
  metadata?: Record<string, unknown> | null | undefined;
}

/** Updates an offering (404 naming `offering_id`). */
export function updateOffering(ctx: SimContext, projectId: string, id: string, update: OfferingUpdate): Result<OfferingRecord> {
  const found = findOffering(ctx, projectId, id);
  if (!found.ok) return found;
  const next = { ...found.value };
  if (update.display_name !== undefined) next.display_name = update.display_name;
  if (update.metadata !== undefined) next.metadata = update.metadata;
  store(ctx, next);
  const current = pmapGet(ctx.api.current_offering, projectId);
  if (update.is_current === true) ctx.api = { ...ctx.api, current_offering: pmapSet(ctx.api.current_offering, projectId, id) };
  if (update.is_current === false && current === id) ctx.api = { ...ctx.api, current_offering: pmapRemove(ctx.api.current_offering, projectId) };
  return ok(next);
}

/** Deletes an offering and its packages; it stops being current or assigned to anyone. */
export function deleteOffering(ctx: SimContext, projectId: string, id: string): Result<{ object: 'offering'; id: string; deleted_at: number }> {
  const found = findOffering(ctx, projectId, id);
  if (!found.ok) return found;
  let { packages, current_offering, offering_overrides } = ctx.api;
  for (const p of pmapValues(packages)) if (p.offering_id === id) packages = pmapRemove(packages, p.id);
  if (pmapGet(current_offering, projectId) === id) current_offering = pmapRemove(current_offering, projectId);
  const assigned: string[] = [];
  pmapForEach(offering_overrides, (offering, key) => {
    if (offering === id) assigned.push(key);
  });
  for (const key of assigned) offering_overrides = pmapRemove(offering_overrides, key);
  ctx.api = { ...ctx.api, offerings: pmapRemove(ctx.api.offerings, id), packages, current_offering, offering_overrides };
  return ok({ object: 'offering', id, deleted_at: ctx.now });
}

/**
 * Assigns an offering to a customer (null clears the assignment): 404 naming `customer_id` or
 * `offering_id`.
 */
export function assignOffering(ctx: SimContext, projectId: string, customerId: string, offeringId: string | null): Result<{ customer_id: string; offering_id: string | null }> {
  if (peekCustomer(ctx, projectId, customerId) === undefined) return fail('resource_missing', `Customer ${customerId} not found`, 'customer_id');
  const key = attributeKey(projectId, customerId);
  if (offeringId === null) {
    ctx.api = { ...ctx.api, offering_overrides: pmapRemove(ctx.api.offering_overrides, key) };
    return ok({ customer_id: customerId, offering_id: null });
  }
  const found = findOffering(ctx, projectId, offeringId);
  if (!found.ok) return found;
  ctx.api = { ...ctx.api, offering_overrides: pmapSet(ctx.api.offering_overrides, key, offeringId) };
  return ok({ customer_id: customerId, offering_id: offeringId });
}
